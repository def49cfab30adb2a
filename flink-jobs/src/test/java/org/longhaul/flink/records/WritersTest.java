package org.longhaul.flink.records;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The topic proves the writer: an agent's own raw topics carry its own src only, a bridge's those
 * of its central list.
 */
class WritersTest {
    private static final Function<String, Set<String>> NO_LISTS = b -> null;

    /** One identity's bad input, and the job's verdicts on it, land on its own dead letters. */
    @Test
    void aDeadLetterOfAnIdentitysOwnTopicGoesToItsOwnDeadLetterTopic() {
        String dead = ContractNames.TOPIC_DEAD_LETTER;
        assertEquals(
                dead + ".agent-ihep.ac.cn",
                Writers.deadLetterTopicOf(
                        dead, ContractNames.TOPIC_RAW_PATH + ".agent-ihep.ac.cn"));
        assertEquals(
                dead + ".psbridge-cern",
                Writers.deadLetterTopicOf(dead, ContractNames.TOPIC_RAW_RTT + ".psbridge-cern"));
        for (String shared :
                new String[] {
                    ContractNames.TOPIC_RAW_PATH,
                    ContractNames.TOPIC_HISTORY_THROUGHPUT,
                    DeadLetter.UNKNOWN,
                    ContractNames.TOPIC_RAW_PATH + ".agent-"
                }) {
            assertEquals(dead, Writers.deadLetterTopicOf(dead, shared), shared);
        }
        assertEquals("it.dead.agent-a", Writers.deadLetterTopicOf("it.dead", "it.raw.rtt.agent-a"));
    }

    @Test
    void aBridgesOwnTopicNamesItAndItsListTheSrcsItMayCarry() {
        String topic = ContractNames.TOPIC_RAW_LATENCY + ".psbridge-cern";
        assertEquals("psbridge-cern", Writers.writerOf(topic));
        assertTrue(Writers.isBridge("psbridge-cern"));
        assertFalse(Writers.isBridge("psbridge") || Writers.isBridge("agent-cern"));
        Function<String, Set<String>> lists = b -> b.equals("psbridge-cern") ? Set.of("ps1") : null;
        assertNull(Writers.foreignSrc(topic, "ps1", "far", "pscheduler-trace", lists));
        assertEquals(
                "foreign_src: src \"ps9\" on longhaul.raw.latency.psbridge-cern, where psbridge-cern"
                        + " may write only the 1 hosts of its list",
                Writers.foreignSrc(topic, "ps9", "far", "pscheduler-trace", lists));
        // a test its destination runs (throughput; latency flipped) is the destination's to report
        assertNull(Writers.foreignSrc(topic, "far", "ps1", "pscheduler-throughput", lists));
        assertNull(Writers.foreignSrc(topic, "far", "ps1", "pscheduler-latencybg", lists));
        assertEquals(
                "foreign_src: src \"far\" on longhaul.raw.latency.psbridge-cern, where psbridge-cern"
                        + " may write only the 1 hosts of its list",
                Writers.foreignSrc(topic, "far", "ps1", "pscheduler-trace", lists));
        assertEquals(
                "foreign_src: src \"far\" on longhaul.raw.latency.psbridge-cern, where psbridge-cern"
                        + " may write only the 1 hosts of its list, as the src or the dst of"
                        + " pscheduler-throughput",
                Writers.foreignSrc(topic, "far", "ps9", "pscheduler-throughput", lists));
        assertNull(Writers.writerOf(ContractNames.TOPIC_RAW_LATENCY + ".psbridge-"));
        assertTrue(
                Writers.rawTopics(ContractNames.TOPIC_RAW_LATENCY, null).matcher(topic).matches());
    }

    @Test
    void anAgentsOwnTopicNamesItAndTheSrcItMayCarry() {
        String topic = ContractNames.TOPIC_RAW_PATH + ".agent-ihep.ac.cn";
        assertEquals("agent-ihep.ac.cn", Writers.writerOf(topic));
        assertEquals("ihep.ac.cn", Writers.ownSrc(Writers.writerOf(topic)));
        assertNull(Writers.foreignSrc(topic, "ihep.ac.cn", "far", "rtt", NO_LISTS));
        assertEquals(
                "foreign_src: src \"cern.ch\" on longhaul.raw.path.agent-ihep.ac.cn, where"
                        + " agent-ihep.ac.cn may write only src \"ihep.ac.cn\"",
                Writers.foreignSrc(topic, "cern.ch", "far", "rtt", NO_LISTS));
    }

    @Test
    void aSharedOrForeignTopicProvesNoWriter() {
        for (String topic :
                new String[] {
                    ContractNames.TOPIC_RAW_PATH,
                    ContractNames.TOPIC_RAW_PATH + ".psbridge",
                    ContractNames.TOPIC_RAW_PATH + ".agent-",
                    ContractNames.TOPIC_HISTORY_THROUGHPUT,
                    ".agent-a",
                    null
                }) {
            assertNull(Writers.writerOf(topic), String.valueOf(topic));
            assertNull(
                    Writers.foreignSrc(topic, "anyone", "far", "rtt", NO_LISTS),
                    String.valueOf(topic));
        }
    }

    @Test
    void aSourceReadsTheRawTopicItsAgentsOwnAndItsHistory() {
        Pattern p =
                Writers.rawTopics(
                        ContractNames.TOPIC_RAW_THROUGHPUT, ContractNames.TOPIC_HISTORY_THROUGHPUT);
        for (String t :
                new String[] {
                    "longhaul.raw.throughput",
                    "longhaul.raw.throughput.agent-a",
                    "longhaul.history.throughput"
                }) {
            assertTrue(p.matcher(t).matches(), t);
        }
        for (String t :
                new String[] {
                    "longhaul.raw.throughputs",
                    "longhaul.raw.throughput.psbridge",
                    "longhaul.raw.path.agent-a",
                    "longhaul.history.throughput.agent-a"
                }) {
            assertFalse(p.matcher(t).matches(), t);
        }
        assertFalse(
                Writers.rawTopics(ContractNames.TOPIC_RAW_PATH, null)
                        .matcher("longhaul.history.path")
                        .matches());
    }
}
