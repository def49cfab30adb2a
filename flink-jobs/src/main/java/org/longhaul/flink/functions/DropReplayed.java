package org.longhaul.flink.functions;

import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;
import org.longhaul.flink.records.RawMessage;

/**
 * Drops a raw message that an agent delivered twice. An agent acknowledges what Kafka took in its
 * spool's cursor, which it saves every few seconds: killed in between, it sends the unsaved suffix
 * again on restart, byte for byte, and every windowed statistic and detector would count those
 * samples twice. Chained to its source (a link's messages stay in one partition, so in one
 * subtask), it remembers the fingerprints of the last {@code capacity} payloads it passed ({@link
 * RecentFingerprints}) in operator state (union-redistributed, so a rescale keeps them). Two
 * distinct samples never share a payload: they differ in ts or run_id.
 *
 * <p>A fingerprint is of the payload on its topic: the same bytes on two topics are two messages.
 * One source reads every agent's own topic of a kind, and a filter before the {@code src} check
 * that shared fingerprints across them would let agent A, writing B's next payload on A's own topic
 * (dead-lettered there as not A's), have B's real one dropped as a replay. An agent replays only on
 * its own topic, so nothing a replay needs is lost. (An upgrade from fingerprints of payloads alone
 * recognises no replay of a message sent before it: at most the few seconds of an agent's unsaved
 * cursor, at the moment of the upgrade.)
 */
public final class DropReplayed extends ProcessFunction<RawMessage, RawMessage>
        implements CheckpointedFunction {
    private static final long serialVersionUID = 1L;

    /** Fingerprints kept per subtask: more than an agent sends between two saves of its cursor. */
    public static final int DEFAULT_CAPACITY = 20_000;

    private final int capacity;
    private transient RecentFingerprints recent;
    private transient ListState<Long> saved;
    private transient long dropped;

    public DropReplayed(int capacity) {
        this.capacity = capacity;
    }

    public DropReplayed() {
        this(DEFAULT_CAPACITY);
    }

    @Override
    public void processElement(RawMessage m, Context ctx, Collector<RawMessage> out) {
        if (m.blank() || recent.add(m.sourceTopic(), m.payload())) {
            out.collect(m);
        } else {
            dropped++;
        }
    }

    /** How many replayed messages this instance has dropped (for tests and metrics). */
    public long dropped() {
        return dropped;
    }

    @Override
    public void snapshotState(FunctionSnapshotContext context) throws Exception {
        saved.update(recent.inOrder());
    }

    @Override
    public void initializeState(FunctionInitializationContext context) throws Exception {
        saved =
                context.getOperatorStateStore()
                        .getUnionListState(
                                new ListStateDescriptor<>("replay-fingerprints", Types.LONG));
        recent = new RecentFingerprints(capacity);
        if (context.isRestored()) {
            List<Long> all = new ArrayList<>();
            saved.get().forEach(all::add);
            all.forEach(recent::add); // after a rescale: every subtask's, the newest kept
        }
    }
}
