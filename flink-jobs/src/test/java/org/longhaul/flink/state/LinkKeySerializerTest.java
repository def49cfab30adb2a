package org.longhaul.flink.state;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.base.LongSerializer;
import org.apache.flink.api.common.typeutils.base.StringSerializer;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.util.Collector;
import org.junit.jupiter.api.Test;
import org.longhaul.flink.testing.Snapshots;

class LinkKeySerializerTest {
    private static final List<String> KEYS =
            Arrays.asList(
                    "",
                    "a",
                    "kcl333082-s1|dst-a|tcp",
                    "perfsonar.ihep.ac.cn|ccperfsonar.in2p3.fr|tcp",
                    "Zürich→北京|数据",
                    "x".repeat(127),
                    "y".repeat(128),
                    "z".repeat(5000),
                    "\uD83D\uDE80 rocket",
                    null);

    private static byte[] bytes(TypeSerializer<String> s, List<String> keys) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(64);
        for (String k : keys) {
            s.serialize(k, out);
        }
        return out.getCopyOfBuffer();
    }

    @Test
    void shouldWriteTheSameBytesAsFlinksStringSerializer() throws IOException {
        for (String k : KEYS) {
            assertArrayEquals(
                    bytes(StringSerializer.INSTANCE, Arrays.asList(k)),
                    bytes(new LinkKeySerializer(), Arrays.asList(k)),
                    () -> "key " + k);
        }
        // one serializer, its buffer reused across keys of every length
        assertArrayEquals(
                bytes(StringSerializer.INSTANCE, KEYS), bytes(new LinkKeySerializer(), KEYS));
    }

    @Test
    void shouldReadBackWhatEitherSerializerWrote() throws IOException {
        for (TypeSerializer<String> writer :
                List.<TypeSerializer<String>>of(
                        StringSerializer.INSTANCE, new LinkKeySerializer())) {
            DataInputDeserializer in = new DataInputDeserializer(bytes(writer, KEYS));
            List<String> back = new ArrayList<>();
            for (int i = 0; i < KEYS.size(); i++) {
                back.add(new LinkKeySerializer().deserialize(in));
            }
            assertEquals(KEYS, back);
            assertEquals(0, in.available());
        }
    }

    @Test
    void shouldReadStateThatTypesStringWroteAsIsAndRefuseOtherTypes() throws IOException {
        TypeSerializerSnapshot<String> ours = new LinkKeySerializer().snapshotConfiguration();
        assertTrue(
                ours.resolveSchemaCompatibility(StringSerializer.INSTANCE.snapshotConfiguration())
                        .isCompatibleAsIs());
        assertTrue(
                ours.resolveSchemaCompatibility(new LinkKeySerializerSnapshot())
                        .isCompatibleAsIs());
        @SuppressWarnings({"unchecked", "rawtypes"})
        TypeSerializerSnapshot<String> longs =
                (TypeSerializerSnapshot) LongSerializer.INSTANCE.snapshotConfiguration();
        assertTrue(ours.resolveSchemaCompatibility(longs).isIncompatible());

        TypeSerializerSnapshot<String> read = Snapshots.reread(ours);
        assertInstanceOf(LinkKeySerializer.class, read.restoreSerializer());
    }

    @Test
    void shouldGiveEachThreadItsOwnBuffer() {
        LinkKeySerializer s = new LinkKeySerializer();
        assertNotSame(s, s.duplicate());
        assertEquals(s, s.duplicate());
        assertInstanceOf(
                LinkKeySerializer.class,
                LinkKeyType.INSTANCE.createSerializer(new SerializerConfigImpl()));
    }

    /**
     * Counts per key and sets a timer per element: keyed state and timers, both keyed by the key
     * serializer.
     */
    private static final class Count extends KeyedProcessFunction<String, String, String> {
        private static final long serialVersionUID = 1L;
        private transient ValueState<Long> count;

        @Override
        public void open(org.apache.flink.api.common.functions.OpenContext ctx) {
            count = getRuntimeContext().getState(new ValueStateDescriptor<>("count", Types.LONG));
        }

        @Override
        public void processElement(String key, Context ctx, Collector<String> out)
                throws IOException {
            long n = count.value() == null ? 1 : count.value() + 1;
            count.update(n);
            ctx.timerService().registerEventTimeTimer(ctx.timestamp() + 100);
            out.collect(key + "=" + n);
        }

        @Override
        public void onTimer(long ts, OnTimerContext ctx, Collector<String> out) {
            out.collect(ctx.getCurrentKey() + " timer " + ts);
        }
    }

    private static KeyedOneInputStreamOperatorTestHarness<String, String, String> harness(
            TypeInformation<String> keyType) throws Exception {
        KeySelector<String, String> self = k -> k;
        return new KeyedOneInputStreamOperatorTestHarness<>(
                new KeyedProcessOperator<>(new Count()), self, keyType);
    }

    @Test
    void shouldRestoreStateAndTimersOfAJobKeyedByTypesStringAndBackAgain() throws Exception {
        OperatorSubtaskState before;
        try (var h = harness(Types.STRING)) {
            h.open();
            h.processElement("a|b|tcp", 1);
            h.processElement("Zürich|北京|tcp", 2);
            before = h.snapshot(1, 10);
        }
        OperatorSubtaskState after;
        try (var h = harness(LinkKeyType.INSTANCE)) {
            h.initializeState(before);
            h.open();
            h.processElement("a|b|tcp", 3);
            h.processWatermark(101);
            assertEquals(List.of("a|b|tcp=2", "a|b|tcp timer 101"), h.extractOutputValues());
            after = h.snapshot(2, 20);
        }
        try (var h = harness(LinkKeyType.INSTANCE)) {
            h.initializeState(after);
            h.open();
            h.processElement("Zürich|北京|tcp", 4);
            h.processWatermark(200);
            assertEquals(
                    List.of(
                            "Zürich|北京|tcp=2",
                            "Zürich|北京|tcp timer 102",
                            "a|b|tcp timer 103",
                            "Zürich|北京|tcp timer 104"),
                    h.extractOutputValues());
        }
    }
}
