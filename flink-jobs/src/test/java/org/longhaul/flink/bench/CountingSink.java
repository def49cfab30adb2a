package org.longhaul.flink.bench;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.longhaul.flink.records.Json;

/**
 * Serialises each element to JSON as the Kafka sinks do, and counts it under a name of this JVM.
 */
public final class CountingSink<T> implements Sink<T> {
    private static final long serialVersionUID = 1L;
    private static final Map<String, AtomicLong> COUNTS = new ConcurrentHashMap<>();
    private final String name;

    public CountingSink(String name) {
        this.name = name;
    }

    public static long count(String name) {
        return COUNTS.computeIfAbsent(name, n -> new AtomicLong()).get();
    }

    @Override
    public SinkWriter<T> createWriter(WriterInitContext context) {
        AtomicLong count = COUNTS.computeIfAbsent(name, n -> new AtomicLong());
        return new SinkWriter<>() {
            private long bytes;

            @Override
            public void write(T element, Context ctx) {
                bytes += Json.write(element).length();
                count.incrementAndGet();
            }

            @Override
            public void flush(boolean endOfInput) {}

            @Override
            public void close() {}
        };
    }
}
