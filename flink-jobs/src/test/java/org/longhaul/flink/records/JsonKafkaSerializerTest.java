package org.longhaul.flink.records;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import org.apache.flink.util.InstantiationUtil;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

class JsonKafkaSerializerTest {
    private static final DeadLetter LETTER =
            new DeadLetter(DeadLetter.envelope("a", "b", "p", 1L), "t", 0, 0L, "v", "bad", "{}");
    private static final Event EVENT =
            Event.builder(EventKind.THROUGHPUT_COLLAPSE, "c", "d", "test", 2L)
                    .severity("warning")
                    .message("collapsed")
                    .build();

    /** Flink ships each sink by Java serialization: each must come back writing its own type. */
    @Test
    void shouldWriteEachSinksOwnTypeAfterFlinkShipsTheSinks() throws Exception {
        JsonKafkaSerializer<DeadLetter> letters =
                InstantiationUtil.clone(new JsonKafkaSerializer<DeadLetter>("dead"));
        JsonKafkaSerializer<Event> events =
                InstantiationUtil.clone(new JsonKafkaSerializer<Event>("events"));

        ProducerRecord<byte[], byte[]> l = letters.serialize(LETTER, null, null);
        ProducerRecord<byte[], byte[]> e = events.serialize(EVENT, null, null);

        assertEquals("dead", l.topic());
        assertEquals("a|b", new String(l.key(), StandardCharsets.UTF_8));
        assertEquals("events", e.topic());
        assertEquals("c|d", new String(e.key(), StandardCharsets.UTF_8));
    }

    @Test
    void shouldKeyEveryOnLinkTypeByItsLinkAfterShipping() throws Exception {
        OnLinkKey<DeadLetter> letters = InstantiationUtil.clone(new OnLinkKey<DeadLetter>());
        OnLinkKey<Event> events = InstantiationUtil.clone(new OnLinkKey<Event>());

        assertEquals("a|b", letters.getKey(LETTER));
        assertEquals("c|d", events.getKey(EVENT));
    }
}
