package org.longhaul.flink.state;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
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
 * A source of a fixed list of raw messages (parallelism 1) that survives a savepoint: its one split
 * carries no position, so a job restored from a savepoint taken with this source emits its own list
 * from the start. With {@code stayOpen} it idles after the list instead of finishing, so a
 * savepoint can be taken of a job whose state has seen every message and nothing else.
 *
 * <p>Its split and enumerator formats are written into the savepoint fixtures ({@code
 * src/test/resources/savepoints}): change them and every fixture must be regenerated.
 */
public final class ScriptedSource extends OneSplitSource<ScriptedSource.Split> {
    private static final long serialVersionUID = 1L;
    private final ArrayList<RawMessage> messages;
    private final boolean stayOpen;

    public ScriptedSource(List<RawMessage> messages, boolean stayOpen) {
        this.messages = new ArrayList<>(messages);
        this.stayOpen = stayOpen;
    }

    /** The one split: "emit the script". */
    public record Split(String id) implements SourceSplit {
        @Override
        public String splitId() {
            return id;
        }
    }

    @Override
    public Boundedness getBoundedness() {
        return stayOpen ? Boundedness.CONTINUOUS_UNBOUNDED : Boundedness.BOUNDED;
    }

    @Override
    public SourceReader<RawMessage, Split> createReader(SourceReaderContext context) {
        return new Reader(messages, stayOpen);
    }

    @Override
    protected Split split() {
        return new Split("script");
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
                return split.id().getBytes(StandardCharsets.UTF_8);
            }

            @Override
            public Split deserialize(int version, byte[] bytes) {
                return new Split(new String(bytes, StandardCharsets.UTF_8));
            }
        };
    }

    private static final class Reader implements SourceReader<RawMessage, Split> {
        private static final CompletableFuture<Void> NEVER = new CompletableFuture<>();
        private final List<RawMessage> messages;
        private final boolean stayOpen;
        private Split split;
        private boolean noMoreSplits;
        private int next;
        private CompletableFuture<Void> waiting = new CompletableFuture<>();

        Reader(List<RawMessage> messages, boolean stayOpen) {
            this.messages = messages;
            this.stayOpen = stayOpen;
        }

        @Override
        public void start() {}

        @Override
        public InputStatus pollNext(ReaderOutput<RawMessage> output) {
            if (split == null) {
                return noMoreSplits ? InputStatus.END_OF_INPUT : InputStatus.NOTHING_AVAILABLE;
            }
            if (next < messages.size()) {
                output.collect(messages.get(next++));
                return InputStatus.MORE_AVAILABLE;
            }
            return stayOpen ? InputStatus.NOTHING_AVAILABLE : InputStatus.END_OF_INPUT;
        }

        @Override
        public CompletableFuture<Void> isAvailable() {
            if (split == null && !noMoreSplits) {
                return waiting;
            }
            return next < messages.size() || !stayOpen
                    ? CompletableFuture.completedFuture(null)
                    : NEVER;
        }

        @Override
        public List<Split> snapshotState(long checkpointId) {
            return split == null ? List.of() : List.of(split);
        }

        @Override
        public void addSplits(List<Split> splits) {
            split = splits.get(0);
            next = 0;
            waiting.complete(null);
        }

        @Override
        public void notifyNoMoreSplits() {
            noMoreSplits = true;
            waiting.complete(null);
        }

        @Override
        public void close() throws IOException {}
    }
}
