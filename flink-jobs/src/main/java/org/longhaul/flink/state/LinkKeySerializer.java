package org.longhaul.flink.state;

import java.io.IOException;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.base.StringSerializer;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Flink's {@link StringSerializer} format, byte for byte, written in one call per key.
 *
 * <p>The heap state backend writes every state entry's key and every timer's key into its snapshot
 * stream through a {@code DataOutputStream}, whose {@code write(int)} is synchronized, into
 * Snappy's stream: {@code StringValue.writeString} makes that call once per character, so a
 * 40-character link key cost 41 locked calls. This serializer encodes the key with Flink's {@link
 * StringSerializer} into a buffer and hands the bytes over at once ({@link OneWriteSerializer}).
 * Being the same bytes, state written by either serializer is read by the other ({@link
 * LinkKeySerializerSnapshot}). It keeps a buffer, so it is duplicated per thread.
 */
public final class LinkKeySerializer extends TypeSerializer<String> {
    private static final long serialVersionUID = 1L;

    /**
     * Flink's string format, buffered and written in one call; its own buffer, so one per instance.
     */
    private final OneWriteSerializer<String> writer =
            new OneWriteSerializer<>(StringSerializer.INSTANCE);

    @Override
    public void serialize(String key, DataOutputView target) throws IOException {
        writer.serialize(key, target);
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
