package org.longhaul.flink.functions.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;
import org.longhaul.flink.testing.Snapshots;

class ObservationSerializerTest {
    /** Every field set, each to a value no other field has. */
    private static final Observation FULL =
            new Observation(
                    "perfsonar.ihep.ac.cn",
                    "ccperfsonar.in2p3.fr",
                    "tcp",
                    1_796_614_291_996L,
                    7,
                    1,
                    2,
                    9.4e8,
                    1_234_567_890_123L,
                    42L,
                    3L,
                    600L,
                    0.5,
                    0.25,
                    148.1,
                    151.7,
                    163.9,
                    14.0,
                    "longhaul.raw.throughput.v2");

    private static final List<Observation> CASES =
            List.of(
                    FULL,
                    Observation.closing("a|b|icmp", 59_999L),
                    new Observation(
                            "Zürich→北京",
                            "\uD83D\uDE80",
                            "udp",
                            -1L,
                            0,
                            1,
                            0,
                            null,
                            null,
                            null,
                            0L,
                            10L,
                            0.0,
                            null,
                            null,
                            null,
                            null,
                            null,
                            "t"),
                    new Observation(
                            "s",
                            "d",
                            "owamp",
                            Long.MAX_VALUE,
                            Integer.MAX_VALUE,
                            0,
                            Integer.MIN_VALUE,
                            Double.NaN,
                            Long.MIN_VALUE,
                            null,
                            null,
                            null,
                            null,
                            Double.NEGATIVE_INFINITY,
                            -0.0,
                            null,
                            Double.MIN_VALUE,
                            null,
                            "x".repeat(70_000)),
                    new Observation(
                            null, null, null, 0, 0, 0, 0, null, null, null, null, null, null, null,
                            null, null, null, null, null));

    private static byte[] write(List<Observation> all) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(64);
        for (Observation o : all) {
            ObservationSerializer.INSTANCE.serialize(o, out);
        }
        return out.getCopyOfBuffer();
    }

    private static List<Observation> read(byte[] bytes, int n) throws IOException {
        DataInputDeserializer in = new DataInputDeserializer(bytes);
        List<Observation> back = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            back.add(ObservationSerializer.INSTANCE.deserialize(in));
        }
        assertEquals(0, in.available(), "bytes left after the last observation");
        return back;
    }

    @Test
    void shouldReadBackEveryFieldPresentOrAbsent() throws IOException {
        // one stream of all, so a field read in the wrong order or width shifts the next one
        assertEquals(CASES, read(write(CASES), CASES.size()));
        for (Observation o : CASES) {
            assertEquals(o, read(write(List.of(o)), 1).get(0));
        }
    }

    @Test
    void shouldMarkEachNullableFieldWithItsOwnBit() {
        assertEquals((1 << 15) - 1, ObservationSerializer.mask(FULL));
        assertEquals(0b111, ObservationSerializer.mask(Observation.closing("a|b|icmp", 1L)));
        // the record's numbers: 15 nullable fields and 4 primitives; a new field needs its bit
        assertEquals(19, Observation.class.getRecordComponents().length);
    }

    @Test
    void shouldCopyBytesAsTheyWereWritten() throws IOException {
        byte[] bytes = write(CASES);
        DataInputDeserializer in = new DataInputDeserializer(bytes);
        DataOutputSerializer out = new DataOutputSerializer(64);
        for (int i = 0; i < CASES.size(); i++) {
            ObservationSerializer.INSTANCE.copy(in, out);
        }
        assertEquals(CASES, read(out.getCopyOfBuffer(), CASES.size()));
    }

    @Test
    void shouldBeTheObservationsTypeAndRestoreItsSnapshot() throws IOException {
        assertInstanceOf(
                ObservationSerializer.class,
                ObservationType.INSTANCE.createSerializer(new SerializerConfigImpl()));
        TypeSerializerSnapshot<Observation> snap =
                Snapshots.reread(ObservationSerializer.INSTANCE.snapshotConfiguration());
        assertTrue(
                snap.resolveSchemaCompatibility(
                                ObservationSerializer.INSTANCE.snapshotConfiguration())
                        .isCompatibleAsIs());
        assertEquals(ObservationSerializer.INSTANCE, snap.restoreSerializer());
    }
}
