package org.longhaul.flink.records;

import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Who wrote a raw topic (ingest/contract.yaml, own_topics): an agent's Kafka user {@code agent-X}
 * writes its own raw topics, {@code <raw topic>.agent-X}, and no other; so the topic, not the
 * payload, proves the writer, and a sample there may carry src X only. A pScheduler bridge of its
 * own, {@code psbridge-Y}, writes {@code <raw topic>.psbridge-Y}, whose samples may carry the srcs
 * of its central host list only (functions/BridgeLists). A shared raw topic (the shared bridge
 * user's, a plaintext lab's) proves no writer. Mirrors ingest/contract/own.go.
 */
public final class Writers {
    private Writers() {}

    private static final String SEP = ContractNames.OWN_TOPIC_SEPARATOR;
    private static final String AGENT = ContractNames.OWN_TOPIC_PRINCIPAL_PREFIX;
    private static final String BRIDGE = ContractNames.OWN_TOPIC_BRIDGE_PREFIX;

    /**
     * The principal whose own topic {@code topic} is: what follows the first {@code .agent-} or
     * {@code .psbridge-}, or null for a topic without one (a shared raw topic). No contract topic's
     * name holds those infixes, and a source reads only its raw topic and the own topics of it
     * ({@link #rawTopics}).
     */
    public static String writerOf(String topic) {
        if (topic == null) {
            return null;
        }
        int a = topic.indexOf(SEP + AGENT);
        int b = topic.indexOf(SEP + BRIDGE);
        int i = a < 0 ? b : b < 0 ? a : Math.min(a, b);
        String prefix = i == a ? AGENT : BRIDGE;
        if (i <= 0 || topic.length() == i + SEP.length() + prefix.length()) {
            return null;
        }
        return topic.substring(i + SEP.length());
    }

    /**
     * Where a dead letter of a record read from {@code sourceTopic} goes: the own dead-letter topic
     * ({@code deadLetter.<writer>}) of the identity whose own topic {@code sourceTopic} is, so that
     * one identity's bad input evicts its own dead letters only; {@code deadLetter} for any other
     * topic. Mirrors contract.DeadLetterTopicOf.
     */
    public static String deadLetterTopicOf(String deadLetter, String sourceTopic) {
        String w = writerOf(sourceTopic);
        return w == null ? deadLetter : deadLetter + SEP + w;
    }

    /** Whether {@code principal} is a pScheduler bridge's own user, {@code psbridge-NAME}. */
    public static boolean isBridge(String principal) {
        return principal.startsWith(BRIDGE) && principal.length() > BRIDGE.length();
    }

    /** The one src {@code principal}'s own topics may carry: its name without the prefix. */
    public static String ownSrc(String principal) {
        return principal.substring(AGENT.length());
    }

    /**
     * Why a sample of {@code src} read from {@code topic} is refused, as a dead letter's reason
     * naming both identities; null when src is the writer's own, or the topic proves no writer. A
     * bridge's own are the hosts of its list ({@code hostsOf}, null for a bridge without one): its
     * sample's src, or its dst for a test the destination may run ({@code probeId} among {@link
     * ContractNames#OWN_TOPIC_BRIDGE_DEST_PROBES}: the destination's pScheduler reported it).
     */
    public static String foreignSrc(
            String topic,
            String src,
            String dst,
            String probeId,
            Function<String, Set<String>> hostsOf) {
        String w = writerOf(topic);
        if (w == null) {
            return null;
        }
        if (!isBridge(w)) {
            return ownSrc(w).equals(src)
                    ? null
                    : refusal(src, topic, w, "may write only src \"" + ownSrc(w) + "\"");
        }
        Set<String> hosts = hostsOf.apply(w);
        if (hosts == null) {
            return refusal(src, topic, w, "has no host list (longhaul admin add-bridge)");
        }
        boolean destRuns = ContractNames.OWN_TOPIC_BRIDGE_DEST_PROBES.contains(probeId);
        if (hosts.contains(src) || (destRuns && hosts.contains(dst))) {
            return null;
        }
        return refusal(
                src,
                topic,
                w,
                "may write only the "
                        + hosts.size()
                        + " hosts of its list"
                        + (destRuns ? ", as the src or the dst of " + probeId : ""));
    }

    /** A foreign_src dead letter's reason: src on topic, where writer w's rule says otherwise. */
    private static String refusal(String src, String topic, String w, String rule) {
        return "foreign_src: src \"" + src + "\" on " + topic + ", where " + w + " " + rule;
    }

    /**
     * The topics a raw source reads: {@code topic}, every agent's and bridge's own topic of it, and
     * {@code extra} (the history topic of the kind; null for none).
     */
    public static Pattern rawTopics(String topic, String extra) {
        String own =
                "("
                        + Pattern.quote(SEP)
                        + "(?:"
                        + Pattern.quote(AGENT)
                        + "|"
                        + Pattern.quote(BRIDGE)
                        + ")[a-z0-9._-]+)?";
        String one = Pattern.quote(topic) + own;
        return Pattern.compile(extra == null ? one : one + "|" + Pattern.quote(extra));
    }
}
