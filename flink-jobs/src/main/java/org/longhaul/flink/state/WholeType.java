package org.longhaul.flink.state;

import java.util.function.Supplier;
import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.typeutils.TypeSerializer;

/**
 * A type the job serializes whole with a serializer of its own (one field to Flink): a state key
 * ({@link LinkKeyType}) or a record on the wire. Equal to every instance of its own class.
 */
public abstract class WholeType<T> extends OpaqueType<T> {
    private static final long serialVersionUID = 1L;

    private final Class<T> type;
    private final boolean key;
    private final String name;
    private final SerializableSupplier<T> serializer;

    /**
     * @param key whether Flink may key a stream by it
     * @param serializer a new serializer, or the one if it is stateless (a lambda: serializable)
     */
    protected WholeType(
            Class<T> type, boolean key, String name, SerializableSupplier<T> serializer) {
        this.type = type;
        this.key = key;
        this.name = name;
        this.serializer = serializer;
    }

    /** A supplier of serializers that travels with the type to the TaskManagers. */
    @FunctionalInterface
    public interface SerializableSupplier<T>
            extends Supplier<TypeSerializer<T>>, java.io.Serializable {}

    @Override
    public final int getArity() {
        return 1;
    }

    @Override
    public final int getTotalFields() {
        return 1;
    }

    @Override
    public final Class<T> getTypeClass() {
        return type;
    }

    @Override
    public final boolean isKeyType() {
        return key;
    }

    @Override
    public final TypeSerializer<T> createSerializer(SerializerConfig config) {
        return serializer.get();
    }

    @Override
    public final String toString() {
        return name;
    }

    @Override
    public final boolean equals(Object o) {
        return o != null && o.getClass() == getClass();
    }

    @Override
    public final int hashCode() {
        return getClass().hashCode();
    }
}
