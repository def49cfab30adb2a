package org.longhaul.flink.records;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The job writes the traces it validated to the paths topic, for Telegraf: each as the agent wrote
 * it, byte for byte, keyed by its link.
 */
class PathsTopicTest {
    @Test
    void aValidatedTraceGoesOutAsItCameKeyedByItsLink() {
        byte[] payload =
                "{\"schema\":\"path_sample\",\"src\":\"a\",\"dst\":\"b\"}"
                        .getBytes(StandardCharsets.UTF_8);
        var out =
                new ValidatedKafkaSerializer(Contract.TOPIC_PATHS)
                        .serialize(new Validated("a|b", payload), null, null);
        assertEquals(Contract.TOPIC_PATHS, out.topic());
        assertEquals("a|b", new String(out.key(), StandardCharsets.UTF_8));
        assertArrayEquals(payload, out.value());
        assertNull(out.partition(), "the producer partitions by key, like every Longhaul topic");
    }
}
