package org.longhaul.flink.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.flink.util.InstantiationUtil;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.longhaul.flink.records.DeadLetter;

/**
 * A dead letter goes to the own dead-letter topic of the identity whose own topic it came from,
 * once that topic exists, and to the shared one otherwise.
 */
class DeadLetterSerializerTest {
    private static final String DEAD = "longhaul.deadletter";
    private static final String AGENT_A = "longhaul.raw.path.agent-a";

    private static DeadLetter letterFrom(String sourceTopic) {
        return new DeadLetter(
                DeadLetter.envelope("a", "b", "p", 1L), sourceTopic, 0, 0L, "v", "bad", "{}");
    }

    /** A listing that answers the given sets in turn (the last one again), counting its calls. */
    private static final class Listing {
        final List<Set<String>> answers;
        int calls;

        Listing(List<Set<String>> answers) {
            this.answers = new ArrayList<>(answers);
        }

        Set<String> list() {
            calls++;
            return answers.size() > 1 ? answers.remove(0) : answers.get(0);
        }
    }

    @Test
    void shouldWriteASharedTopicsDeadLetterToTheSharedTopicWithoutAskingTheBrokers()
            throws Exception {
        DeadLetterSerializer s =
                InstantiationUtil.clone(
                        new DeadLetterSerializer(DEAD, new Properties(), Duration.ofMinutes(1)));
        s.open(null, null); // Flink ships the sink, then opens it where it runs
        ProducerRecord<byte[], byte[]> r = s.serialize(letterFrom("longhaul.raw.path"), null, null);
        assertEquals(DEAD, r.topic());
        assertEquals("a|b", new String(r.key(), StandardCharsets.UTF_8));
        assertEquals(DEAD, s.serialize(letterFrom(DeadLetter.UNKNOWN), null, null).topic());
    }

    @Test
    void shouldWriteAnAgentsDeadLetterToItsOwnTopicOnceThatExists() {
        AtomicLong now = new AtomicLong(1_000_000);
        Listing listing = new Listing(List.of(Set.of(DEAD), Set.of(DEAD, DEAD + ".agent-a")));
        TopicsPresent present = new TopicsPresent(listing::list, now::get, 60_000);
        DeadLetterSerializer s =
                new DeadLetterSerializer(DEAD, new Properties(), Duration.ofMinutes(1));

        // made before this release: its own dead letters do not exist yet, the shared topic
        // takes them, and the brokers are asked once a minute at most
        assertEquals(DEAD, s.topicOf(AGENT_A, present));
        now.addAndGet(59_000);
        assertEquals(DEAD, s.topicOf(AGENT_A, present));
        assertEquals(1, listing.calls);
        // `add-agent a` again made it: found at the next listing, and kept without asking again
        now.addAndGet(1_000);
        assertEquals(DEAD + ".agent-a", s.topicOf(AGENT_A, present));
        now.addAndGet(3_600_000);
        assertEquals(DEAD + ".agent-a", s.topicOf(AGENT_A, present));
        assertEquals(2, listing.calls);
    }

    /**
     * An agent added while the job runs: its own dead-letter topic is made with its raw topics, so
     * the first of its dead letters lists the topics again, however recent the last listing (make
     * test: the session's other job had listed a minute before and wrote it to the shared topic).
     */
    @Test
    void shouldListAgainForTheFirstDeadLetterOfAnIdentityAddedSinceTheLastListing() {
        AtomicLong now = new AtomicLong(0);
        Listing listing =
                new Listing(
                        List.of(
                                Set.of(DEAD + ".agent-a"),
                                Set.of(DEAD + ".agent-a", DEAD + ".agent-b")));
        TopicsPresent present = new TopicsPresent(listing::list, now::get, 60_000);
        DeadLetterSerializer s =
                new DeadLetterSerializer(DEAD, new Properties(), Duration.ofMinutes(1));
        assertEquals(DEAD + ".agent-a", s.topicOf(AGENT_A, present));
        now.addAndGet(1_000);
        assertEquals(DEAD + ".agent-b", s.topicOf("longhaul.raw.rtt.agent-b", present));
        assertEquals(2, listing.calls);
    }

    @Test
    void shouldKeepTheLastListingWhenTheBrokersCannotBeAsked() {
        AtomicLong now = new AtomicLong(0);
        int[] calls = {0};
        TopicsPresent present =
                new TopicsPresent(
                        () -> {
                            if (++calls[0] > 1) {
                                throw new IllegalStateException("broker down");
                            }
                            return Set.of(DEAD + ".agent-a");
                        },
                        now::get,
                        60_000);
        assertTrue(present.has(DEAD + ".agent-a"));
        assertFalse(present.has(DEAD + ".agent-b")); // asked first: listed, failed, the last kept
        now.addAndGet(30_000);
        assertFalse(present.has(DEAD + ".agent-b")); // within a minute: not asked again
        assertEquals(2, calls[0]);
        now.addAndGet(30_000);
        assertFalse(present.has(DEAD + ".agent-b")); // asked again, failed again
        assertTrue(present.has(DEAD + ".agent-a"));
        assertEquals(3, calls[0]);
    }
}
