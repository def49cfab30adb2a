package org.longhaul.flink.state;

import java.io.IOException;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.base.StringSerializer;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.core.memory.DataOutputView;
import org.apache.flink.types.StringValue;

/**
 * Flink's {@link StringSerializer} format, byte for byte, written in one call per key.
 *
 * <p>The heap state backend writes every state entry's key and every timer's key into its
 * snapshot stream through a {@code DataOutputStream}, whose {@code write(int)} is synchronized,
 * into Snappy's stream: {@code StringValue.writeString} makes that call once per character, so a
 * 40-character link key cost 41 locked calls. This serializer encodes the key into its own buffer
 * with the same {@code StringValue.writeString} and hands the bytes over at once. Being the same
 * bytes, state written by either serializer is read by the other
 * ({@link LinkKeySerializerSnapshot}). It keeps a buffer, so it is duplicated per thread.
 */
public final class LinkKeySerializer extends TypeSerializer<String> {
    private static final long serialVersionUID = 1L;

    /** Long enough for any link key; a longer string grows it once. */
    private static final int INITIAL_BUFFER = 128;

    private transient DataOutputSerializer buffer;

    @Override
    public void serialize(String key, DataOutputView target) throws IOException {
        if (buffer == null) {
            buffer = new DataOutputSerializer(INITIAL_BUFFER);
        }
        buffer.clear();
        StringValue.writeString(key, buffer);
        target.write(buffer.getSharedBuffer(), 0, buffer.length());
    }

    @Override
    public String deserialize(DataInputView source) throws IOException {
        return StringSerializer.INSTANCE.deserialize(source);
    }

    @Override
    public String deserialize(String reuse, DataInputView source) throws IOException {
        return deserialize(source);
    }

    @Override
    public void copy(DataInputView source, DataOutputView target) throws IOException {
        StringSerializer.INSTANCE.copy(source, target);
    }

    @Override
    public boolean isImmutableType() {
        return true;
    }

    @Override
    public TypeSerializer<String> duplicate() {
        return new LinkKeySerializer();
    }

    @Override
    public String createInstance() {
        return StringSerializer.INSTANCE.createInstance();
    }

    @Override
    public String copy(String from) {
        return from;
    }

    @Override
    public String copy(String from, String reuse) {
        return from;
    }

    @Override
    public int getLength() {
        return -1;
    }

    @Override
    public TypeSerializerSnapshot<String> snapshotConfiguration() {
        return new LinkKeySerializerSnapshot();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof LinkKeySerializer;
    }

    @Override
    public int hashCode() {
        return LinkKeySerializer.class.hashCode();
    }
}
