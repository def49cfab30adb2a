package org.longhaul.flink.functions.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.longhaul.flink.testing.ContractAssert.assertValid;

import java.time.Duration;
import org.apache.flink.api.common.ExecutionConfig;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.windowing.windows.TimeWindow;
import org.apache.flink.streaming.runtime.operators.windowing.WindowOperatorBuilder;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.util.OutputTag;
import org.junit.jupiter.api.Test;
import org.longhaul.flink.records.Contract;
import org.longhaul.flink.records.ContractNames;
import org.longhaul.flink.records.DeadLetter;
import org.longhaul.flink.records.Json;
import org.longhaul.flink.records.Writers;

/**
 * A result behind the watermark of its minute is a dead letter with the reason, not a silent drop
 * (issue 45: a pScheduler result retried twice by its archiver, a minute each).
 */
class LateToDeadLetterTest {
    private static final long T = 1_796_000_040_000L;
    private static final OutputTag<Observation> LATE =
            new OutputTag<>("late", TypeInformation.of(Observation.class));

    /** The own raw topic of cern's agent, where the sample was read. */
    private static final String OWN =
            ContractNames.TOPIC_RAW_LATENCY
                    + "."
                    + ContractNames.OWN_TOPIC_PRINCIPAL_PREFIX
                    + "cern";

    private static Observation sample(long ts) {
        return new Observation(
                "cern", "fnal", "owd", ts, 1, 1, 0, null, null, null, 0L, 600L, 0.0, 0.1, 140.0,
                141.0, 142.0, null, OWN);
    }

    @Test
    void anObservationBehindTheWatermarkLeavesTheWindowsByTheSideOutput() throws Exception {
        WindowOperatorBuilder<Observation, String, TimeWindow> b =
                new WindowOperatorBuilder<>(
                        new StaggeredTumblingWindows<>(
                                Duration.ofMinutes(1), Stagger.aligned(), Observation::key),
                        new LinkCloseTrigger<>(Observation::closes),
                        new ExecutionConfig(),
                        TypeInformation.of(Observation.class),
                        Observation::key,
                        Types.STRING);
        b.sideOutputLateData(LATE);
        var op =
                b.aggregate(
                        new LinkStatsAggregate(),
                        new AddWindowBounds("1m"),
                        TypeInformation.of(LinkAccumulator.class));
        try (var h =
                new KeyedOneInputStreamOperatorTestHarness<>(op, Observation::key, Types.STRING)) {
            h.open();
            h.processWatermark(T + 60_000);
            h.processElement(sample(T + 30_000), T + 30_000); // its minute ended at T + 60 s
            h.processElement(sample(T + 70_000), T + 70_000); // the next minute: on time
            h.processWatermark(T + 120_000);
            assertEquals(1, h.extractOutputValues().size(), "the on-time minute alone");
            var late = h.getSideOutput(LATE);
            assertEquals(1, late.size());
            assertEquals(T + 30_000, late.peek().getValue().ts());
        }
    }

    @Test
    void itsDeadLetterNamesTheLinkAndWhyAndValidates() {
        DeadLetter d = LateToDeadLetter.of(sample(T + 30_000), T + 60_000, T + 200_000);
        assertValid(Contract.DEAD_LETTER, d);
        assertEquals("cern", d.src());
        assertEquals("fnal", d.dst());
        assertEquals(T + 200_000, d.ts());
        assertTrue(
                d.reason().startsWith("late for the link statistics: its owd observation of 2026-"),
                d.reason());
        assertTrue(d.reason().contains("watermark 2026-"), d.reason());
        assertEquals(T + 30_000, Json.read(d.payload(), Observation.class).ts());
    }

    /**
     * Issue 46: a late sample's dead letter names the raw topic it came from, so it goes to its
     * writer's own dead-letter topic, not the shared one that every identity's would evict.
     */
    @Test
    void itsDeadLetterGoesWhereItsWritersOtherDeadLettersGo() {
        DeadLetter d = LateToDeadLetter.of(sample(T + 30_000), T + 60_000, T + 200_000);
        assertEquals(OWN, d.sourceTopic());
        assertEquals(
                ContractNames.TOPIC_DEAD_LETTER + ".agent-cern",
                Writers.deadLetterTopicOf(ContractNames.TOPIC_DEAD_LETTER, d.sourceTopic()));
        Observation marker = Observation.closing("cern|fnal|owd", T);
        assertEquals(DeadLetter.UNKNOWN, LateToDeadLetter.of(marker, T + 60_000, T).sourceTopic());
    }
}
