package org.longhaul.flink.testing;

import java.io.IOException;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

/** Serializer snapshots as a savepoint keeps them. */
public final class Snapshots {
    private Snapshots() {}

    /** The snapshot written with its version, as a savepoint holds it, and read back. */
    public static <T> TypeSerializerSnapshot<T> reread(TypeSerializerSnapshot<T> snapshot)
            throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(64);
        TypeSerializerSnapshot.writeVersionedSnapshot(out, snapshot);
        return TypeSerializerSnapshot.readVersionedSnapshot(
                new DataInputDeserializer(out.getCopyOfBuffer()), Snapshots.class.getClassLoader());
    }
}
