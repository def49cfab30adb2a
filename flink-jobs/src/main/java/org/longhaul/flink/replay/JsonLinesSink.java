package org.longhaul.flink.replay;

import java.io.PrintStream;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.longhaul.flink.records.Json;

/**
 * Writes each element as one JSON line to a {@link Channels channel} of this JVM (stdout, stderr, a
 * test buffer).
 */
public final class JsonLinesSink<T> implements Sink<T> {
    private static final long serialVersionUID = 1L;
    private final String channel;

    public JsonLinesSink(String channel) {
        this.channel = channel;
    }

    @Override
    public SinkWriter<T> createWriter(WriterInitContext context) {
        PrintStream out = Channels.get(channel);
        return new SinkWriter<>() {
            @Override
            public void write(T element, Context ctx) {
                String line = Json.write(element);
                synchronized (out) {
                    out.println(line);
                }
            }

            @Override
            public void flush(boolean endOfInput) {
                out.flush();
            }

            @Override
            public void close() {
                out.flush();
            }
        };
    }
}
