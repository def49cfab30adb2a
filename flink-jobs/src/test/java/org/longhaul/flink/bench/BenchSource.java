package org.longhaul.flink.bench;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SourceSplit;
import org.apache.flink.core.io.InputStatus;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.longhaul.flink.records.RawMessage;
import org.longhaul.flink.testing.OneSplitSource;

/**
 * One stream of {@link WeekOfProbes} as a source (parallelism 1), paced by a {@link BenchClock}.
 * Its one split carries the index of the next record, so a restored job goes on where the
 * checkpoint was taken, like a Kafka source from its offsets.
 */
public final class BenchSource extends OneSplitSource<BenchSource.Split> {
    private static final long serialVersionUID = 1L;
    private final WeekOfProbes week;
    private final WeekOfProbes.Kind kind;
    private final String clock;

    public BenchSource(WeekOfProbes week, WeekOfProbes.Kind kind, String clock) {
        this.week = week;
        this.kind = kind;
        this.clock = clock;
    }

    /** The one split and the index of its next record. */
    public record Split(long next) implements SourceSplit {
        @Override
        public String splitId() {
            return "week";
        }
    }

    @Override
    public Boundedness getBoundedness() {
        return Boundedness.CONTINUOUS_UNBOUNDED;
    }

    @Override
    public SourceReader<RawMessage, Split> createReader(SourceReaderContext context) {
        return new Reader(week, kind, BenchClock.get(clock));
    }

    @Override
    protected Split split() {
        return new Split(0);
    }

    @Override
    public SimpleVersionedSerializer<Split> getSplitSerializer() {
        return new SimpleVersionedSerializer<>() {
            @Override
            public int getVersion() {
                return 1;
            }

            @Override
            public byte[] serialize(Split split) {
                var bytes = new ByteArrayOutputStream();
                try (var out = new DataOutputStream(bytes)) {
                    out.writeLong(split.next());
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                return bytes.toByteArray();
            }

            @Override
            public Split deserialize(int version, byte[] bytes) throws IOException {
                try (var in = new DataInputStream(new ByteArrayInputStream(bytes))) {
                    return new Split(in.readLong());
                }
            }
        };
    }

    private static final class Reader implements SourceReader<RawMessage, Split> {
        private final WeekOfProbes week;
        private final WeekOfProbes.Kind kind;
        private final BenchClock clock;
        private final CompletableFuture<Void> assigned = new CompletableFuture<>();
        private long next = -1;

        Reader(WeekOfProbes week, WeekOfProbes.Kind kind, BenchClock clock) {
            this.week = week;
            this.kind = kind;
            this.clock = clock;
        }

        @Override
        public void start() {}

        @Override
        public InputStatus pollNext(ReaderOutput<RawMessage> output) {
            if (next < 0) {
                return InputStatus.NOTHING_AVAILABLE;
            }
            long ts = week.ts(kind, next);
            if (!clock.mayEmit(kind, ts)) {
                return InputStatus.NOTHING_AVAILABLE;
            }
            output.collect(RawMessage.of(kind.topic, 0, next, week.payload(kind, next)));
            next++;
            clock.publish(kind, week.ts(kind, next), next);
            return InputStatus.MORE_AVAILABLE;
        }

        @Override
        public CompletableFuture<Void> isAvailable() {
            return next < 0
                    ? assigned
                    : clock.mayEmit(kind, week.ts(kind, next))
                            ? CompletableFuture.completedFuture(null)
                            : BenchClock.tick();
        }

        @Override
        public List<Split> snapshotState(long checkpointId) {
            return next < 0 ? List.of() : List.of(new Split(next));
        }

        @Override
        public void addSplits(List<Split> splits) {
            next = splits.get(0).next();
            clock.publish(kind, week.ts(kind, next), next);
            assigned.complete(null);
        }

        @Override
        public void notifyNoMoreSplits() {}

        @Override
        public void close() {}
    }
}
