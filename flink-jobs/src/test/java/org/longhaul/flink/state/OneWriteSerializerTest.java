package org.longhaul.flink.state;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
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
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.core.memory.DataOutputViewStreamWrapper;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.util.Collector;
import org.junit.jupiter.api.Test;
import org.longhaul.flink.functions.stats.LinkAccumulator;
import org.longhaul.flink.testing.Snapshots;

class OneWriteSerializerTest {
    private static final SerializerConfigImpl CONFIG = new SerializerConfigImpl();
    private static final TypeInformation<LinkAccumulator> ACC =
            TypeInformation.of(LinkAccumulator.class);

    private static LinkAccumulator accumulator(int values) {
        LinkAccumulator a = new LinkAccumulator();
        for (int i = 0; i < values; i++) {
            a.samples++;
            a.throughputCount++;
            a.throughputSum += 1e6 * (i + 1);
            a.throughput.add(1e6 * (1 + i % 400));
        }
        a.rttMin = 151.2;
        return a;
    }

    private static <T> byte[] bytes(TypeSerializer<T> s, List<T> values) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(64);
        for (T v : values) {
            s.serialize(v, out);
        }
        return out.getCopyOfBuffer();
    }

    /** An output stream that counts the calls made on it. */
    private static final class CountingStream extends OutputStream {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int calls;

        @Override
        public void write(int b) {
            calls++;
            bytes.write(b);
        }

        @Override
        public void write(byte[] b, int off, int len) {
            calls++;
            bytes.write(b, off, len);
        }
    }

    @Test
    void shouldWriteTheWrappedSerializersBytes() throws IOException {
        List<LinkAccumulator> accs =
                Arrays.asList(
                        accumulator(0), accumulator(1), accumulator(5000), null, accumulator(3));
        TypeSerializer<LinkAccumulator> pojo = ACC.createSerializer(CONFIG);
        assertArrayEquals(
                bytes(pojo, accs), bytes(OneWriteType.of(ACC).createSerializer(CONFIG), accs));

        List<long[]> arrays =
                Arrays.asList(
                        new long[0],
                        new long[] {1, -2, Long.MAX_VALUE},
                        new long[200_000],
                        new long[] {7});
        TypeSerializer<long[]> plain = TypeInformation.of(long[].class).createSerializer(CONFIG);
        // the 1.6 MB array grows the buffer past what is kept; the values after it are still whole
        assertTrue(200_000 * 8 > OneWriteSerializer.KEPT_BUFFER);
        assertArrayEquals(
                bytes(plain, arrays),
                bytes(OneWriteType.of(long[].class).createSerializer(CONFIG), arrays));
    }

    @Test
    void shouldHandTheTargetOneWritePerValue() throws IOException {
        LinkAccumulator acc = accumulator(500);
        CountingStream plain = new CountingStream();
        ACC.createSerializer(CONFIG).serialize(acc, new DataOutputViewStreamWrapper(plain));
        CountingStream once = new CountingStream();
        OneWriteType.of(ACC)
                .createSerializer(CONFIG)
                .serialize(acc, new DataOutputViewStreamWrapper(once));

        assertEquals(1, once.calls);
        assertTrue(
                plain.calls > 100, () -> "the POJO serializer made only " + plain.calls + " calls");
        assertArrayEquals(plain.bytes.toByteArray(), once.bytes.toByteArray());
    }

    @Test
    void shouldReadBackWhatEitherSerializerWrote() throws IOException {
        List<LinkAccumulator> accs = List.of(accumulator(2), accumulator(900));
        TypeSerializer<LinkAccumulator> ours = OneWriteType.of(ACC).createSerializer(CONFIG);
        for (TypeSerializer<LinkAccumulator> writer : List.of(ACC.createSerializer(CONFIG), ours)) {
            DataInputDeserializer in = new DataInputDeserializer(bytes(writer, accs));
            for (LinkAccumulator expected : accs) {
                LinkAccumulator back = ours.deserialize(in);
                assertEquals(expected.throughputSum, back.throughputSum);
                assertEquals(expected.throughput.count(), back.throughput.count());
                assertEquals(expected.throughput.quantile(0.5), back.throughput.quantile(0.5));
            }
            assertEquals(0, in.available());
        }
    }

    @Test
    void shouldRecordTheWrappedSerializersSnapshotSoSavepointsDoNotDependOnIt() throws IOException {
        TypeSerializer<LinkAccumulator> pojo = ACC.createSerializer(CONFIG);
        TypeSerializerSnapshot<LinkAccumulator> ours =
                OneWriteType.of(ACC).createSerializer(CONFIG).snapshotConfiguration();
        assertEquals(pojo.snapshotConfiguration().getClass(), ours.getClass());
        assertTrue(
                ours.resolveSchemaCompatibility(pojo.snapshotConfiguration()).isCompatibleAsIs());
        assertTrue(
                pojo.snapshotConfiguration().resolveSchemaCompatibility(ours).isCompatibleAsIs());

        TypeSerializerSnapshot<LinkAccumulator> read = Snapshots.reread(ours);
        assertEquals(pojo, read.restoreSerializer());
    }

    @Test
    void shouldGiveEachThreadItsOwnBuffer() {
        TypeSerializer<LinkAccumulator> s = OneWriteType.of(ACC).createSerializer(CONFIG);
        assertInstanceOf(OneWriteSerializer.class, s);
        assertNotSame(s, s.duplicate());
        assertEquals(s, s.duplicate());
        assertEquals(OneWriteType.of(ACC), OneWriteType.of(LinkAccumulator.class));
        assertEquals(LinkAccumulator.class, OneWriteType.of(ACC).getTypeClass());
    }

    @Test
    void shouldShareAnUnchangedValueAndCopyTheOthers() throws IOException {
        TypeInformation<List<String>> lists = Types.LIST(Types.STRING);
        TypeSerializer<List<String>> copies = OneWriteType.of(lists).createSerializer(CONFIG);
        TypeSerializer<List<String>> shares =
                OneWriteType.unchanged(lists).createSerializer(CONFIG);
        List<String> hops = new ArrayList<>(List.of("10.0.0.1", "192.0.2.7"));

        assertNotSame(hops, copies.copy(hops));
        assertEquals(hops, copies.copy(hops));
        assertSame(hops, shares.copy(hops));
        assertSame(hops, shares.copy(hops, new ArrayList<>()));
        assertSame(hops, shares.duplicate().copy(hops));
        // the same bytes and the same snapshot: state written with either restores with the other
        List<List<String>> values = List.of(hops, List.of(), List.of("x"));
        assertArrayEquals(bytes(copies, values), bytes(shares, values));
        assertEquals(
                copies.snapshotConfiguration().getClass(),
                shares.snapshotConfiguration().getClass());
        assertTrue(
                shares.snapshotConfiguration()
                        .resolveSchemaCompatibility(copies.snapshotConfiguration())
                        .isCompatibleAsIs());
        assertNotEquals(copies, shares);
        assertNotEquals(OneWriteType.of(lists), OneWriteType.unchanged(lists));
        assertEquals(shares, shares.duplicate());
    }

    /** Keeps an accumulator per key, stored with the given value type. */
    private static final class Keep extends KeyedProcessFunction<String, String, String> {
        private static final long serialVersionUID = 1L;
        private final TypeInformation<LinkAccumulator> type;
        private transient ValueState<LinkAccumulator> acc;

        Keep(TypeInformation<LinkAccumulator> type) {
            this.type = type;
        }

        @Override
        public void open(org.apache.flink.api.common.functions.OpenContext ctx) {
            acc = getRuntimeContext().getState(new ValueStateDescriptor<>("acc", type));
        }

        @Override
        public void processElement(String key, Context ctx, Collector<String> out)
                throws IOException {
            LinkAccumulator a = acc.value() == null ? new LinkAccumulator() : acc.value();
            a.samples++;
            a.throughput.add(1e6 * a.samples);
            acc.update(a);
            out.collect(key + "=" + a.samples + "/" + a.throughput.count());
        }
    }

    private static KeyedOneInputStreamOperatorTestHarness<String, String, String> harness(
            TypeInformation<LinkAccumulator> type) throws Exception {
        KeySelector<String, String> self = k -> k;
        return new KeyedOneInputStreamOperatorTestHarness<>(
                new KeyedProcessOperator<>(new Keep(type)), self, Types.STRING);
    }

    @Test
    void shouldRestoreStateWrittenWithoutItAndBeRestoredWithoutIt() throws Exception {
        List<TypeInformation<LinkAccumulator>> order = List.of(ACC, OneWriteType.of(ACC), ACC);
        OperatorSubtaskState state = null;
        List<String> seen = new ArrayList<>();
        for (int i = 0; i < order.size(); i++) {
            try (var h = harness(order.get(i))) {
                if (state != null) {
                    h.initializeState(state);
                }
                h.open();
                h.processElement("a|b|tcp", i);
                h.processElement("c|d|tcp", i);
                seen.addAll(h.extractOutputValues());
                state = h.snapshot(i, i);
            }
        }
        assertEquals(
                List.of(
                        "a|b|tcp=1/1",
                        "c|d|tcp=1/1",
                        "a|b|tcp=2/2",
                        "c|d|tcp=2/2",
                        "a|b|tcp=3/3",
                        "c|d|tcp=3/3"),
                seen);
    }
}
