package org.longhaul.flink.functions.stats;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.java.typeutils.PojoTypeInfo;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;

/**
 * The window state of one link: one {@link LinkAccumulator} per open window. Measured with Flink's
 * own serializer (a POJO serializer, never Kryo) after a whole day of 1-second intervals.
 */
class StateSizeTest {

    static int serializedBytes(LinkAccumulator acc) throws Exception {
        TypeInformation<LinkAccumulator> type = TypeInformation.of(LinkAccumulator.class);
        assertInstanceOf(PojoTypeInfo.class, type, "accumulator must be a Flink POJO");
        TypeSerializer<LinkAccumulator> serializer =
                type.createSerializer(new SerializerConfigImpl());
        DataOutputSerializer out = new DataOutputSerializer(256);
        serializer.serialize(acc, out);
        return out.length();
    }

    @Test
    void aDayOfNoisyOneSecondIntervalsFitsInAFewHundredBytes() throws Exception {
        Random rnd = new Random(1);
        LinkAccumulator day = new LinkAccumulator();
        for (int i = 0; i < 86_400; i++) {
            day.add(
                    new Observation(
                            "a",
                            "b",
                            "tcp",
                            i,
                            1,
                            0,
                            0,
                            557e6 * (0.7 + 0.6 * rnd.nextDouble()),
                            70_000_000L,
                            3L,
                            null,
                            null,
                            null,
                            null,
                            283.0,
                            283.0,
                            283.0,
                            null,
                            null));
        }
        int bytes = serializedBytes(day);
        System.out.println("LinkAccumulator after 86400 noisy samples: " + bytes + " bytes");
        assertTrue(bytes < 600, "bytes=" + bytes);
    }

    @Test
    void theWorstCaseIsBoundedByTheSketch() throws Exception {
        LinkAccumulator acc = new LinkAccumulator();
        for (double v = 2; v < 1e11; v *= 1.01) {
            acc.add(
                    new Observation(
                            "a", "b", "tcp", 0, 1, 0, 0, v, null, null, null, null, null, null,
                            null, null, null, null, null));
        }
        int bytes = serializedBytes(acc);
        System.out.println("LinkAccumulator worst case: " + bytes + " bytes");
        assertTrue(bytes < 1700, "bytes=" + bytes);
    }
}
