package org.longhaul.flink.state;

import java.util.Objects;
import org.apache.flink.api.common.functions.RuntimeContext;
import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;

/**
 * The type of a state value whose serializer hands each value to the snapshot in one write ({@link
 * OneWriteSerializer}) in the format of the wrapped type. Used for the job's composite state values
 * (POJOs, sketches, pending runs, window accumulators); a single number is one write already.
 */
public final class OneWriteType<T> extends OpaqueType<T> {
    private static final long serialVersionUID = 1L;

    private final TypeInformation<T> inner;
    private final boolean unchanged;

    private OneWriteType(TypeInformation<T> inner, boolean unchanged) {
        this.inner = Objects.requireNonNull(inner, "inner");
        this.unchanged = unchanged;
    }

    public static <T> OneWriteType<T> of(TypeInformation<T> inner) {
        return new OneWriteType<>(inner, false);
    }

    /**
     * For a value never changed in place once it is in state (whoever changes one puts a new one):
     * its copy, which the heap backend makes of a key's value at its first read after a checkpoint
     * began, is the value itself ({@link OneWriteSerializer}). Same bytes, same savepoints.
     */
    public static <T> OneWriteType<T> unchanged(TypeInformation<T> inner) {
        return new OneWriteType<>(inner, true);
    }

    public static <T> OneWriteType<T> of(Class<T> type) {
        return of(TypeInformation.of(type));
    }

    /**
     * The keyed value state {@code name} of a function, each value of {@code type} in one write.
     */
    public static <T> ValueState<T> valueState(RuntimeContext rc, String name, Class<T> type) {
        return rc.getState(new ValueStateDescriptor<>(name, of(type)));
    }

    /** The keyed map state {@code name} of a function, each value in one write. */
    public static <K, V> MapState<K, V> mapState(
            RuntimeContext rc, String name, TypeInformation<K> keys, TypeInformation<V> values) {
        return rc.getMapState(new MapStateDescriptor<>(name, keys, of(values)));
    }

    /** The keyed map state {@code name} of a function, each value of {@code type} in one write. */
    public static <K, V> MapState<K, V> mapState(
            RuntimeContext rc, String name, TypeInformation<K> keys, Class<V> type) {
        return mapState(rc, name, keys, TypeInformation.of(type));
    }

    @Override
    public int getArity() {
        return inner.getArity();
    }

    @Override
    public int getTotalFields() {
        return inner.getTotalFields();
    }

    @Override
    public Class<T> getTypeClass() {
        return inner.getTypeClass();
    }

    @Override
    public boolean isKeyType() {
        return false;
    }

    @Override
    public TypeSerializer<T> createSerializer(SerializerConfig config) {
        return new OneWriteSerializer<>(inner.createSerializer(config), unchanged);
    }

    @Override
    public String toString() {
        return (unchanged ? "OneWriteUnchanged(" : "OneWrite(") + inner + ")";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof OneWriteType<?> other
                && inner.equals(other.inner)
                && unchanged == other.unchanged;
    }

    @Override
    public int hashCode() {
        return 31 * (31 * OneWriteType.class.hashCode() + inner.hashCode())
                + Boolean.hashCode(unchanged);
    }
}
