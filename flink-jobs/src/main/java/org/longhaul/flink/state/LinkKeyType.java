package org.longhaul.flink.state;

import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.typeutils.TypeSerializer;

/**
 * The type of the job's state keys: strings (a link, a destination, a source host...) whose
 * serializer writes each key in one call ({@link LinkKeySerializer}). Every {@code keyBy} of the
 * job uses it instead of {@code Types.STRING}.
 */
public final class LinkKeyType extends OpaqueType<String> {
    private static final long serialVersionUID = 1L;

    public static final LinkKeyType INSTANCE = new LinkKeyType();

    private LinkKeyType() {}

    @Override
    public int getArity() {
        return 1;
    }

    @Override
    public int getTotalFields() {
        return 1;
    }

    @Override
    public Class<String> getTypeClass() {
        return String.class;
    }

    @Override
    public boolean isKeyType() {
        return true;
    }

    @Override
    public TypeSerializer<String> createSerializer(SerializerConfig config) {
        return new LinkKeySerializer();
    }

    @Override
    public String toString() {
        return "LinkKey(String)";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof LinkKeyType;
    }

    @Override
    public int hashCode() {
        return LinkKeyType.class.hashCode();
    }

    private Object readResolve() {
        return INSTANCE;
    }
}
