package org.longhaul.flink.state;

import org.apache.flink.api.common.typeinfo.TypeInformation;

/**
 * A type the job gives its own serializer: neither a basic nor a tuple type to Flink, equal only to
 * its own kind. {@link WholeType} and {@link OneWriteType} say the rest.
 */
public abstract class OpaqueType<T> extends TypeInformation<T> {
    private static final long serialVersionUID = 1L;

    @Override
    public final boolean isBasicType() {
        return false;
    }

    @Override
    public final boolean isTupleType() {
        return false;
    }

    @Override
    public final boolean canEqual(Object o) {
        return o != null && o.getClass() == getClass();
    }
}
