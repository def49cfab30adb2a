package org.longhaul.flink.records;

import java.util.regex.Pattern;

/**
 * Who wrote a raw topic (ingest/contract.yaml, own_topics): an agent's Kafka user {@code agent-X}
 * writes its own raw topics, {@code <raw topic>.agent-X}, and no other; so the topic, not the
 * payload, proves the writer, and a sample there may carry src X only. A shared raw topic (the
 * pScheduler bridge's, a plaintext lab's) proves no writer. Mirrors ingest/contract/own.go.
 */
public final class Writers {
    private Writers() {}

    private static final String OWN =
            ContractNames.OWN_TOPIC_SEPARATOR + ContractNames.OWN_TOPIC_PRINCIPAL_PREFIX;

    /**
     * The principal whose own topic {@code topic} is: what follows the first {@code .agent-}, or
     * null for a topic without one (a shared raw topic). No contract topic's name holds that infix,
     * and a source reads only its raw topic and the own topics of it ({@link #rawTopics}).
     */
    public static String writerOf(String topic) {
        int i = topic == null ? -1 : topic.indexOf(OWN);
        if (i <= 0 || topic.length() == i + OWN.length()) {
            return null;
        }
        return topic.substring(i + ContractNames.OWN_TOPIC_SEPARATOR.length());
    }

    /** The one src {@code principal}'s own topics may carry: its name without the prefix. */
    public static String ownSrc(String principal) {
        return principal.substring(ContractNames.OWN_TOPIC_PRINCIPAL_PREFIX.length());
    }

    /**
     * Why a sample of {@code src} read from {@code topic} is refused, as a dead letter's reason
     * naming both identities; null when src is the writer's own, or the topic proves no writer.
     */
    public static String foreignSrc(String topic, String src) {
        String w = writerOf(topic);
        if (w == null || ownSrc(w).equals(src)) {
            return null;
        }
        return "foreign_src: src \""
                + src
                + "\" on "
                + topic
                + ", where "
                + w
                + " may write only src \""
                + ownSrc(w)
                + "\"";
    }

    /**
     * The topics a raw source reads: {@code topic}, every agent's own topic of it, and {@code
     * extra} (the history topic of the kind; null for none).
     */
    public static Pattern rawTopics(String topic, String extra) {
        String own = "(" + Pattern.quote(OWN) + "[a-z0-9._-]+)?";
        String one = Pattern.quote(topic) + own;
        return Pattern.compile(extra == null ? one : one + "|" + Pattern.quote(extra));
    }
}
