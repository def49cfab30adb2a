package org.longhaul.flink.testing;

import java.util.List;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.SourceSplit;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.longhaul.flink.records.RawMessage;

/**
 * A test source of raw messages that has one split to give (parallelism 1). Its enumerator gives
 * the split to subtask 0 once, and again when a failed subtask gives it back; a restored enumerator
 * knows whether it was given ({@link AssignedFlagSerializer}). It always gives the same split: a
 * reader that has read on keeps its position in its own state. A bounded source's readers hear that
 * no more splits come.
 */
public abstract class OneSplitSource<S extends SourceSplit>
        implements Source<RawMessage, S, Boolean> {
    private static final long serialVersionUID = 1L;

    /** The split the enumerator gives. */
    protected abstract S split();

    @Override
    public final SplitEnumerator<S, Boolean> createEnumerator(SplitEnumeratorContext<S> context) {
        return restoreEnumerator(context, false);
    }

    @Override
    public final SplitEnumerator<S, Boolean> restoreEnumerator(
            SplitEnumeratorContext<S> context, Boolean assigned) {
        return new Enumerator<>(
                context, split(), assigned, getBoundedness() == Boundedness.BOUNDED);
    }

    @Override
    public final SimpleVersionedSerializer<Boolean> getEnumeratorCheckpointSerializer() {
        return new AssignedFlagSerializer();
    }

    private static final class Enumerator<S extends SourceSplit>
            implements SplitEnumerator<S, Boolean> {
        private final SplitEnumeratorContext<S> context;
        private final S split;
        private final boolean bounded;
        private boolean assigned;

        Enumerator(SplitEnumeratorContext<S> context, S split, boolean assigned, boolean bounded) {
            this.context = context;
            this.split = split;
            this.assigned = assigned;
            this.bounded = bounded;
        }

        @Override
        public void start() {}

        @Override
        public void handleSplitRequest(int subtaskId, String requesterHostname) {}

        /** Given again when subtask 0 registers anew. */
        @Override
        public void addSplitsBack(List<S> splits, int subtaskId) {
            assigned = false;
        }

        @Override
        public void addReader(int subtaskId) {
            if (subtaskId == 0 && !assigned) {
                context.assignSplit(split, 0);
                assigned = true;
            }
            if (bounded) {
                context.signalNoMoreSplits(subtaskId);
            }
        }

        @Override
        public Boolean snapshotState(long checkpointId) {
            return assigned;
        }

        @Override
        public void close() {}
    }
}
