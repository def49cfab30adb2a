package org.longhaul.flink.functions.stats;

import java.io.IOException;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;
import org.apache.flink.types.StringValue;

/**
 * An {@link Observation} on the wire between the validation and the link statistics, in one pass: a
 * mask of the fields present, then each present field in the record's order (strings in Flink's
 * {@code StringValue} format, numbers as their primitives).
 *
 * <p>Flink's POJO serializer, which carried it before, writes a null flag and calls a field
 * serializer per field, and reads a record back through reflection into an {@code Object[]} and the
 * canonical constructor: in a JFR profile of the throughput benchmark its {@code deserialize} was
 * 19 % of the statistics' thread (issue 45, docs/benchmarks.md, <i>Flink throughput</i>). The job's
 * rate did not move beyond its run-to-run spread with it: that thread is a fifth of the
 * TaskManager's time.
 *
 * <p>Observations are never kept in state (the windows keep {@link LinkAccumulator}s), so this
 * format is not in any savepoint; its snapshot exists because Flink asks every serializer for one.
 */
public final class ObservationSerializer extends TypeSerializer<Observation> {
    private static final long serialVersionUID = 1L;

    public static final ObservationSerializer INSTANCE = new ObservationSerializer();

    // one bit per nullable field, in the record's order
    private static final int SRC = 1;
    private static final int DST = 1 << 1;
    private static final int PROTOCOL = 1 << 2;
    private static final int THROUGHPUT = 1 << 3;
    private static final int BYTES = 1 << 4;
    private static final int RETRANSMITS = 1 << 5;
    private static final int LOST = 1 << 6;
    private static final int SENT = 1 << 7;
    private static final int LOSS = 1 << 8;
    private static final int JITTER = 1 << 9;
    private static final int RTT_MIN = 1 << 10;
    private static final int RTT_MEAN = 1 << 11;
    private static final int RTT_MAX = 1 << 12;
    private static final int HOPS = 1 << 13;
    private static final int TOPIC = 1 << 14;

    @Override
    public void serialize(Observation o, DataOutputView out) throws IOException {
        out.writeShort(mask(o));
        string(o.src(), out);
        string(o.dst(), out);
        string(o.protocol(), out);
        out.writeLong(o.ts());
        out.writeInt(o.samples());
        out.writeInt(o.runs());
        out.writeInt(o.errors());
        number(o.throughputBps(), out);
        number(o.bytes(), out);
        number(o.retransmits(), out);
        number(o.lostPackets(), out);
        number(o.sentPackets(), out);
        number(o.lossPercent(), out);
        number(o.jitterMs(), out);
        number(o.rttMinMs(), out);
        number(o.rttMeanMs(), out);
        number(o.rttMaxMs(), out);
        number(o.hopCount(), out);
        string(o.sourceTopic(), out);
    }

    @Override
    public Observation deserialize(DataInputView in) throws IOException {
        int m = in.readUnsignedShort();
        return new Observation(
                (m & SRC) != 0 ? StringValue.readString(in) : null,
                (m & DST) != 0 ? StringValue.readString(in) : null,
                (m & PROTOCOL) != 0 ? StringValue.readString(in) : null,
                in.readLong(),
                in.readInt(),
                in.readInt(),
                in.readInt(),
                (m & THROUGHPUT) != 0 ? in.readDouble() : null,
                (m & BYTES) != 0 ? in.readLong() : null,
                (m & RETRANSMITS) != 0 ? in.readLong() : null,
                (m & LOST) != 0 ? in.readLong() : null,
                (m & SENT) != 0 ? in.readLong() : null,
                (m & LOSS) != 0 ? in.readDouble() : null,
                (m & JITTER) != 0 ? in.readDouble() : null,
                (m & RTT_MIN) != 0 ? in.readDouble() : null,
                (m & RTT_MEAN) != 0 ? in.readDouble() : null,
                (m & RTT_MAX) != 0 ? in.readDouble() : null,
                (m & HOPS) != 0 ? in.readDouble() : null,
                (m & TOPIC) != 0 ? StringValue.readString(in) : null);
    }

    /** Which fields are present. */
    static int mask(Observation o) {
        return bit(o.src(), SRC)
                | bit(o.dst(), DST)
                | bit(o.protocol(), PROTOCOL)
                | bit(o.throughputBps(), THROUGHPUT)
                | bit(o.bytes(), BYTES)
                | bit(o.retransmits(), RETRANSMITS)
                | bit(o.lostPackets(), LOST)
                | bit(o.sentPackets(), SENT)
                | bit(o.lossPercent(), LOSS)
                | bit(o.jitterMs(), JITTER)
                | bit(o.rttMinMs(), RTT_MIN)
                | bit(o.rttMeanMs(), RTT_MEAN)
                | bit(o.rttMaxMs(), RTT_MAX)
                | bit(o.hopCount(), HOPS)
                | bit(o.sourceTopic(), TOPIC);
    }

    private static int bit(Object field, int bit) {
        return field == null ? 0 : bit;
    }

    private static void string(String s, DataOutputView out) throws IOException {
        if (s != null) {
            StringValue.writeString(s, out);
        }
    }

    private static void number(Double d, DataOutputView out) throws IOException {
        if (d != null) {
            out.writeDouble(d);
        }
    }

    private static void number(Long l, DataOutputView out) throws IOException {
        if (l != null) {
            out.writeLong(l);
        }
    }

    @Override
    public Observation deserialize(Observation reuse, DataInputView in) throws IOException {
        return deserialize(in);
    }

    @Override
    public void copy(DataInputView in, DataOutputView out) throws IOException {
        serialize(deserialize(in), out);
    }

    @Override
    public boolean isImmutableType() {
        return true;
    }

    @Override
    public TypeSerializer<Observation> duplicate() {
        return this; // stateless
    }

    @Override
    public Observation createInstance() {
        return new Observation(
                null, null, null, 0, 0, 0, 0, null, null, null, null, null, null, null, null, null,
                null, null, null);
    }

    @Override
    public Observation copy(Observation from) {
        return from;
    }

    @Override
    public Observation copy(Observation from, Observation reuse) {
        return from;
    }

    @Override
    public int getLength() {
        return -1;
    }

    @Override
    public TypeSerializerSnapshot<Observation> snapshotConfiguration() {
        return new Snapshot();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ObservationSerializer;
    }

    @Override
    public int hashCode() {
        return ObservationSerializer.class.hashCode();
    }

    /** The serializer has no configuration: its snapshot names it. */
    public static final class Snapshot extends SimpleTypeSerializerSnapshot<Observation> {
        public Snapshot() {
            super(() -> INSTANCE);
        }
    }
}
