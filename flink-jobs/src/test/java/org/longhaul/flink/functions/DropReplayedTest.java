package org.longhaul.flink.functions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.operators.ProcessOperator;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;
import org.longhaul.flink.records.RawMessage;

class DropReplayedTest {
    private static RawMessage msg(long offset, String payload) {
        return RawMessage.of("longhaul.raw.throughput", 0, offset, payload);
    }

    private static OneInputStreamOperatorTestHarness<RawMessage, RawMessage> harness(int capacity)
            throws Exception {
        var h =
                new OneInputStreamOperatorTestHarness<>(
                        new ProcessOperator<>(new DropReplayed(capacity)));
        h.setup();
        return h;
    }

    @Test
    void shouldDropWhatAnAgentSendsAgainAfterARestartAndKeepDistinctSamples() throws Exception {
        try (var h = harness(100)) {
            h.open();
            h.processElement(msg(1, "{\"ts\":1,\"run_id\":\"a\"}"), 1);
            h.processElement(msg(2, "{\"ts\":2,\"run_id\":\"b\"}"), 2);
            h.processElement(
                    msg(3, "{\"ts\":1,\"run_id\":\"a\"}"), 1); // the spool's unsaved suffix, again
            h.processElement(msg(4, "{\"ts\":2,\"run_id\":\"b\"}"), 2);
            h.processElement(msg(5, "{\"ts\":3,\"run_id\":\"c\"}"), 3);
            assertEquals(
                    List.of(1L, 2L, 5L),
                    h.extractOutputValues().stream().map(RawMessage::offset).toList());
        }
    }

    @Test
    void shouldKeepTheSameBytesOnAnotherAgentsTopicForOneAgentCannotSilenceAnother()
            throws Exception {
        String next = "{\"src\":\"b.example\",\"ts\":7,\"run_id\":\"b-7\"}";
        try (var h = harness(100)) {
            h.open();
            // A writes B's next payload on A's own topic first (the src check dead-letters it)
            h.processElement(RawMessage.of("longhaul.raw.rtt.agent-lab-a", 0, 1L, next), 7);
            // B's real message, on B's own topic, is not a replay
            h.processElement(RawMessage.of("longhaul.raw.rtt.agent-lab-b", 0, 1L, next), 7);
            // B's agent sending it again after a restart is
            h.processElement(RawMessage.of("longhaul.raw.rtt.agent-lab-b", 0, 2L, next), 7);
            assertEquals(
                    List.of("longhaul.raw.rtt.agent-lab-a", "longhaul.raw.rtt.agent-lab-b"),
                    h.extractOutputValues().stream().map(RawMessage::sourceTopic).toList());
        }
    }

    @Test
    void shouldRememberWhatItPassedAcrossARestoreFromACheckpoint() throws Exception {
        OperatorSubtaskState snapshot;
        try (var h = harness(100)) {
            h.open();
            h.processElement(msg(1, "{\"ts\":1}"), 1);
            snapshot = h.snapshot(1, 10);
        }
        try (var h = harness(100)) {
            h.initializeState(snapshot);
            h.open();
            h.processElement(msg(2, "{\"ts\":1}"), 1);
            h.processElement(msg(3, "{\"ts\":2}"), 2);
            assertEquals(
                    List.of(3L), h.extractOutputValues().stream().map(RawMessage::offset).toList());
        }
    }

    @Test
    void shouldStayBoundedEvictingTheOldestFingerprint() {
        RecentFingerprints r = new RecentFingerprints(2);
        assertTrue(r.add(1));
        assertTrue(r.add(2));
        assertTrue(r.add(3)); // evicts 1
        assertEquals(2, r.size());
        assertFalse(r.add(3));
        assertTrue(r.add(1));
        assertEquals(List.of(3L, 1L), r.inOrder());
    }

    @Test
    void fingerprintsOfOnePayloadOnTwoTopicsDiffer() {
        byte[] p = "{\"ts\":1}".getBytes();
        assertFalse(
                RecentFingerprints.of(RecentFingerprints.seed("longhaul.raw.rtt.a"), p)
                        == RecentFingerprints.of(RecentFingerprints.seed("longhaul.raw.rtt.b"), p));
        // the separator: a topic's last character is not the payload's first
        assertFalse(
                RecentFingerprints.of(RecentFingerprints.seed("t{"), "\"ts\":1}".getBytes())
                        == RecentFingerprints.of(RecentFingerprints.seed("t"), p));
    }

    @Test
    void fingerprintsOfNearlyEqualPayloadsDiffer() {
        assertFalse(
                RecentFingerprints.of("{\"ts\":1}".getBytes())
                        == RecentFingerprints.of("{\"ts\":2}".getBytes()));
    }
}
