package org.longhaul.flink.state;

import java.io.IOException;
import java.util.Objects;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Another serializer's format, byte for byte, handed to the target in one call per value.
 *
 * <p>The heap state backend writes each state value into its snapshot through a {@code
 * DataOutputStream} into Snappy's stream. Flink's POJO serializer writes a value field by field, a
 * null flag before each, and an {@code int[]} an int at a time: dozens of small calls per value,
 * each a synchronized {@code write(int)} or a {@code ByteBuffer} put down the stream. This
 * serializer lets the wrapped one write into a buffer of its own and passes the bytes on at once.
 *
 * <p>The bytes are the wrapped serializer's, and so is the snapshot of its configuration ({@link
 * #snapshotConfiguration()}): state written with or without this wrapper restores with or without
 * it, and a savepoint does not record that it was used. It keeps a buffer, so it is duplicated per
 * thread (the backend duplicates serializers for its asynchronous snapshots).
 *
 * <p>For a value that is never changed in place once it is in state ({@code unchanged}: whoever
 * changes one puts a new one), a copy is the value itself. The heap backend copies a key's value
 * the first time it is read after a checkpoint began, so that the snapshot keeps the old one: for a
 * map state that is every entry of the key's map, deeply, by reflection for a POJO or a record.
 */
public final class OneWriteSerializer<T> extends TypeSerializer<T> {
    private static final long serialVersionUID = 1L;

    /** Large enough for most values; a larger one grows it. */
    private static final int INITIAL_BUFFER = 512;

    /** A buffer grown beyond this by one large value is let go once it has been written. */
    static final int KEPT_BUFFER = 1 << 20;

    private final TypeSerializer<T> inner;
    private final boolean unchanged;
    private transient DataOutputSerializer buffer;

    public OneWriteSerializer(TypeSerializer<T> inner) {
        this(inner, false);
    }

    /** With {@code unchanged}, for values never changed in place: a copy is the value itself. */
    public OneWriteSerializer(TypeSerializer<T> inner, boolean unchanged) {
        this.inner = Objects.requireNonNull(inner, "inner");
        this.unchanged = unchanged;
    }

    /** The serializer whose format this one writes. */
    public TypeSerializer<T> inner() {
        return inner;
    }

    @Override
    public void serialize(T value, DataOutputView target) throws IOException {
        if (buffer == null) {
            buffer = new DataOutputSerializer(INITIAL_BUFFER);
        }
        buffer.clear();
        inner.serialize(value, buffer);
        target.write(buffer.getSharedBuffer(), 0, buffer.length());
        if (buffer.getSharedBuffer().length > KEPT_BUFFER) {
            buffer = null;
        }
    }

    @Override
    public T deserialize(DataInputView source) throws IOException {
        return inner.deserialize(source);
    }

    @Override
    public T deserialize(T reuse, DataInputView source) throws IOException {
        return inner.deserialize(reuse, source);
    }

    @Override
    public void copy(DataInputView source, DataOutputView target) throws IOException {
        inner.copy(source, target);
    }

    @Override
    public boolean isImmutableType() {
        return inner.isImmutableType();
    }

    @Override
    public TypeSerializer<T> duplicate() {
        return new OneWriteSerializer<>(inner.duplicate(), unchanged);
    }

    @Override
    public T createInstance() {
        return inner.createInstance();
    }

    @Override
    public T copy(T from) {
        return unchanged ? from : inner.copy(from);
    }

    @Override
    public T copy(T from, T reuse) {
        return unchanged ? from : inner.copy(from, reuse);
    }

    @Override
    public int getLength() {
        return inner.getLength();
    }

    @Override
    public TypeSerializerSnapshot<T> snapshotConfiguration() {
        return inner.snapshotConfiguration();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof OneWriteSerializer<?> other
                && inner.equals(other.inner)
                && unchanged == other.unchanged;
    }

    @Override
    public int hashCode() {
        return 31 * (31 * OneWriteSerializer.class.hashCode() + inner.hashCode())
                + Boolean.hashCode(unchanged);
    }

    @Override
    public String toString() {
        return (unchanged ? "OneWriteUnchanged(" : "OneWrite(") + inner + ")";
    }
}
