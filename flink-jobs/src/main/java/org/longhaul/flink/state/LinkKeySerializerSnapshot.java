package org.longhaul.flink.state;

import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializerSchemaCompatibility;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.base.StringSerializer;

/**
 * The snapshot of {@link LinkKeySerializer}. State that Flink's {@link StringSerializer} wrote
 * (every savepoint before this serializer, keyed by {@code Types.STRING}) is read as is: the bytes
 * are the same.
 */
public final class LinkKeySerializerSnapshot extends SimpleTypeSerializerSnapshot<String> {
    public LinkKeySerializerSnapshot() {
        super(LinkKeySerializer::new);
    }

    @Override
    public TypeSerializerSchemaCompatibility<String> resolveSchemaCompatibility(
            TypeSerializerSnapshot<String> old) {
        if (old instanceof StringSerializer.StringSerializerSnapshot) {
            return TypeSerializerSchemaCompatibility.compatibleAsIs();
        }
        return super.resolveSchemaCompatibility(old);
    }
}
