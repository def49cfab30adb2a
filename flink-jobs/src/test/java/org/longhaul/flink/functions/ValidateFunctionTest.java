package org.longhaul.flink.functions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.longhaul.flink.functions.ClockSkewTest.ping;
import static org.longhaul.flink.testing.ContractAssert.assertAllValid;
import static org.longhaul.flink.testing.Samples.HOUR;
import static org.longhaul.flink.testing.Samples.SRC;
import static org.longhaul.flink.testing.Samples.T0;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.streaming.api.operators.ProcessOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;
import org.longhaul.flink.functions.stats.Observation;
import org.longhaul.flink.functions.stats.Observer;
import org.longhaul.flink.records.Contract;
import org.longhaul.flink.records.DeadLetter;
import org.longhaul.flink.records.RawMessage;
import org.longhaul.flink.records.RttSample;
import org.longhaul.flink.testing.Samples;
import org.longhaul.flink.testing.Validation;

/**
 * Validation under Flink's operator harness: valid samples go on, the rest become dead letters with
 * their reason.
 */
class ValidateFunctionTest {
    private static final long BROKER = T0 + 10 * HOUR;

    private static Validation<RttSample> validate(RawMessage... messages) throws Exception {
        return validate(LinkCap.defaults(), messages);
    }

    private static Validation<RttSample> validate(LinkCap cap, RawMessage... messages)
            throws Exception {
        return validate(cap, BridgeLists.none(), messages);
    }

    private static Validation<RttSample> validate(
            LinkCap cap, BridgeLists bridges, RawMessage... messages) throws Exception {
        var out =
                Validation.run(
                        new ValidateFunction<>(
                                Contract.RTT,
                                RttSample.class,
                                null,
                                new ClockSkew(ClockSkew.contractTolerance()),
                                cap,
                                true,
                                bridges,
                                null),
                        messages);
        assertAllValid(Contract.DEAD_LETTER, out.deadLetters());
        return out;
    }

    @Test
    void samplesOfClocksAheadAndBehindBecomeClockSkewDeadLettersNamingTheHost() throws Exception {
        Validation<RttSample> out =
                validate(
                        ping(BROKER + HOUR, BROKER + HOUR, BROKER),
                        ping(BROKER - HOUR, BROKER - HOUR, BROKER),
                        ping(BROKER - 2_000, BROKER, BROKER + 300));
        assertEquals(1, out.samples().size(), "the sample of a correct clock goes on");
        assertEquals(2, out.deadLetters().size());
        DeadLetter ahead = out.deadLetters().get(0);
        assertEquals(
                "clock_skew: the agent's clock is 3600.0 s ahead of the broker's (tolerance 30 s)",
                ahead.reason());
        assertEquals(SRC, ahead.src());
        assertEquals(ValidateFunction.REJECTED_BY, ahead.rejectedBy());
        assertTrue(ahead.payload().contains("\"src\""), ahead.payload());
        assertEquals(
                "clock_skew: the agent's clock is 3600.0 s behind the broker's (tolerance 30 s)",
                out.deadLetters().get(1).reason());
    }

    /** One src's samples for a third dst, beyond a cap of 2, are dead letters that say why. */
    @Test
    void aSampleForOneLinkMoreThanItsSrcMayOpenIsADeadLetter() throws Exception {
        RawMessage[] toThree = new RawMessage[4];
        String[] dsts = {"a.example", "b.example", "c.example", "a.example"};
        for (int i = 0; i < dsts.length; i++) {
            toThree[i] =
                    RawMessage.of(
                                    "longhaul.raw.rtt",
                                    0,
                                    (long) i,
                                    Samples.ping(SRC, dsts[i], BROKER, 10, 10, 280.0, 0.5)
                                            .toString())
                            .withClocks(BROKER, BROKER);
        }
        var out = validate(new LinkCap(2, Duration.ofDays(7)), toThree);
        assertEquals(
                List.of("a.example", "b.example", "a.example"),
                out.samples().stream().map(RttSample::dst).toList());
        assertEquals(1, out.deadLetters().size());
        assertEquals("c.example", out.deadLetters().get(0).dst());
        assertTrue(
                out.deadLetters()
                        .get(0)
                        .reason()
                        .startsWith(
                                "too_many_links: src \""
                                        + SRC
                                        + "\" already reports on 2 dsts in this stream"),
                out.deadLetters().get(0).reason());
    }

    @Test
    void aSampleSpooledThroughAnOutageAndSentWithACorrectClockGoesOn() throws Exception {
        Validation<RttSample> out =
                validate(
                        ping(BROKER - 3 * HOUR, BROKER - 500, BROKER),
                        ping(BROKER - 3 * HOUR, null, BROKER));
        assertEquals(2, out.samples().size());
        assertEquals(List.of(), out.deadLetters());
    }

    @Test
    void withoutTheHeaderATsAheadOfTheBrokerIsADeadLetter() throws Exception {
        Validation<RttSample> out = validate(ping(BROKER + HOUR, null, BROKER));
        assertEquals(List.of(), out.samples());
        assertTrue(
                out.deadLetters()
                        .get(0)
                        .reason()
                        .startsWith("clock_skew: the sample's ts is 3600.0 s ahead"),
                out.deadLetters().get(0).reason());
    }

    /** An invalid message keeps the reason of what is wrong with it, whatever its clock. */
    @Test
    void anInvalidSampleKeepsItsSchemaReason() throws Exception {
        RawMessage bad =
                RawMessage.of("longhaul.raw.rtt", 0, 1L, "{\"schema\":\"rtt_sample\"}")
                        .withClocks(BROKER, BROKER + HOUR);
        Validation<RttSample> out = validate(bad);
        assertTrue(
                out.deadLetters().get(0).reason().startsWith("not a valid " + Contract.RTT),
                out.deadLetters().get(0).reason());
    }

    /**
     * A valid backfilled sample goes on in order with the live ones, without a timestamp, and
     * LiveOnly drops it; an invalid one is a dead letter all the same.
     */
    @Test
    void aBackfilledSampleGoesOnInOrderAndOnlyLiveOnlyDropsIt() throws Exception {
        var fn =
                new ValidateFunction<>(
                        Contract.RTT,
                        RttSample.class,
                        null,
                        new ClockSkew(ClockSkew.contractTolerance()));
        List<StreamRecord<RttSample>> validated = new ArrayList<>();
        try (var h = new OneInputStreamOperatorTestHarness<>(new ProcessOperator<>(fn))) {
            h.open();
            h.processElement(
                    ping(BROKER - 40 * 24 * HOUR, BROKER, BROKER).withHistory(true),
                    History.TIMESTAMP);
            h.processElement(
                    RawMessage.of("longhaul.raw.rtt", 0, 2L, "{}").withHistory(true),
                    History.TIMESTAMP);
            h.processElement(ping(BROKER - 1_000, BROKER, BROKER), BROKER - 1_000);
            for (Object o : h.getOutput()) {
                if (o instanceof StreamRecord<?> r) {
                    @SuppressWarnings("unchecked")
                    StreamRecord<RttSample> rec = (StreamRecord<RttSample>) r;
                    validated.add(rec);
                }
            }
            assertEquals(1, h.getSideOutput(ValidateFunction.DEAD_LETTERS).size());
        }
        assertEquals(2, validated.size());
        assertEquals(
                BROKER - 40 * 24 * HOUR,
                validated.get(0).getValue().ts(),
                "history first, as it came");
        assertEquals(History.TIMESTAMP, validated.get(0).getTimestamp());
        try (var live =
                new OneInputStreamOperatorTestHarness<>(
                        new ProcessOperator<>(new LiveOnly<>(RttSample.class)))) {
            live.open();
            for (StreamRecord<RttSample> r : validated) {
                live.processElement(r.getValue(), r.getTimestamp());
            }
            assertEquals(
                    List.of(validated.get(1).getValue()),
                    live.extractOutputValues(),
                    "only the live sample");
        }
    }

    /**
     * Each valid live sample's observation for the statistics names the raw topic it came from
     * (where its dead letter goes, should it come too late for its minute); a backfilled one and a
     * dead-lettered one give none.
     */
    @Test
    void aLiveValidSampleIsObservedWithItsRawTopic() throws Exception {
        String own = "longhaul.raw.rtt.agent-" + SRC;
        var fn =
                new ValidateFunction<>(
                        Contract.RTT,
                        RttSample.class,
                        null,
                        new ClockSkew(ClockSkew.contractTolerance()),
                        LinkCap.defaults(),
                        false,
                        BridgeLists.none(),
                        Observer.rtt());
        try (var h = new OneInputStreamOperatorTestHarness<>(new ProcessOperator<>(fn))) {
            h.open();
            h.processElement(
                    withTopic(ping(BROKER - 40 * 24 * HOUR, BROKER, BROKER), own).withHistory(true),
                    History.TIMESTAMP);
            h.processElement(withTopic(ping(BROKER - 1_000, BROKER, BROKER), own), BROKER - 1_000);
            h.processElement(RawMessage.of(own, 0, 3L, "{}"), BROKER);
            var observed = h.getSideOutput(ValidateFunction.OBSERVATIONS);
            assertEquals(1, observed.size(), "the live valid sample alone");
            Observation o = observed.peek().getValue();
            assertEquals(own, o.sourceTopic());
            assertEquals(BROKER - 1_000, o.ts());
            assertEquals("icmp", o.protocol());
        }
    }

    @Test
    void anAgentsSampleForAnotherSiteIsADeadLetterNamingBoth() throws Exception {
        String own = "longhaul.raw.rtt.agent-" + SRC;
        RawMessage mine = withTopic(ping(BROKER, BROKER, BROKER), own);
        RawMessage forged =
                withTopic(ping(BROKER, BROKER, BROKER), "longhaul.raw.rtt.agent-cern.ch");
        RawMessage shared = ping(BROKER, BROKER, BROKER);
        Validation<RttSample> out = validate(mine, forged, shared);
        assertEquals(2, out.samples().size(), "its own src, and the shared topic, go on");
        assertEquals(1, out.deadLetters().size());
        assertEquals(
                "foreign_src: src \""
                        + SRC
                        + "\" on longhaul.raw.rtt.agent-cern.ch, where agent-cern.ch may write only"
                        + " src \"cern.ch\"",
                out.deadLetters().get(0).reason());
        assertEquals(SRC, out.deadLetters().get(0).src());
        // what goes on is forwarded as it came; the forged one is not
        assertEquals(2, out.valid().size());
        assertEquals(SRC + "|" + out.samples().get(0).dst(), out.valid().get(0).link());
        assertEquals(mine.text(), new String(out.valid().get(0).payload(), StandardCharsets.UTF_8));
    }

    /**
     * A bridge of its own reports for the hosts of its central list alone: another src, or any src
     * of a bridge without a list (removed, or never added), is a dead letter naming the bridge.
     */
    @Test
    void aBridgesSampleForAHostOutsideItsCentralListIsADeadLetterNamingIt() throws Exception {
        String topic = "longhaul.raw.rtt.psbridge-ihep";
        BridgeLists lists = BridgeLists.fixed(Map.of("psbridge-ihep", Set.of(SRC, "ps2.ihep")));
        RawMessage listed = withTopic(ping(BROKER, BROKER, BROKER), topic);
        RawMessage unlisted =
                withTopic(ping(BROKER, BROKER, BROKER), "longhaul.raw.rtt.psbridge-x");
        Validation<RttSample> out = validate(LinkCap.defaults(), lists, listed, unlisted);
        assertEquals(1, out.samples().size(), "a host of its list goes on");
        assertEquals(
                "foreign_src: src \""
                        + SRC
                        + "\" on longhaul.raw.rtt.psbridge-x, where psbridge-x has no host list"
                        + " (longhaul admin add-bridge)",
                out.deadLetters().get(0).reason());

        BridgeLists other = BridgeLists.fixed(Map.of("psbridge-ihep", Set.of("ps2.ihep")));
        out = validate(LinkCap.defaults(), other, listed);
        assertEquals(0, out.samples().size());
        assertEquals(
                "foreign_src: src \""
                        + SRC
                        + "\" on "
                        + topic
                        + ", where psbridge-ihep may write only the 1 hosts of its list",
                out.deadLetters().get(0).reason());
        assertEquals(0, out.valid().size(), "nothing of it is forwarded");
    }

    private static RawMessage withTopic(RawMessage m, String topic) {
        return new RawMessage(
                topic,
                m.partition(),
                m.offset(),
                m.eventTs(),
                m.brokerMs(),
                m.sentMs(),
                m.history(),
                m.payload());
    }
}
