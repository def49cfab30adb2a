package org.longhaul.flink.testing;

import org.apache.flink.core.io.SimpleVersionedSerializer;

/**
 * The checkpoint of a test source's enumerator that has one split to give: whether it has given it,
 * in one byte. The savepoint fixtures hold this format (ScriptedSource): keep it.
 */
public final class AssignedFlagSerializer implements SimpleVersionedSerializer<Boolean> {
    @Override
    public int getVersion() {
        return 1;
    }

    @Override
    public byte[] serialize(Boolean assigned) {
        return new byte[] {(byte) (assigned ? 1 : 0)};
    }

    @Override
    public Boolean deserialize(int version, byte[] bytes) {
        return bytes.length == 1 && bytes[0] == 1;
    }
}
