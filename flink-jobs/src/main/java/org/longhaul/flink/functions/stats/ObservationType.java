package org.longhaul.flink.functions.stats;

import org.longhaul.flink.state.WholeType;

/**
 * The type of the observations' stream, serialized by {@link ObservationSerializer} instead of
 * Flink's POJO serializer.
 */
public final class ObservationType extends WholeType<Observation> {
    private static final long serialVersionUID = 1L;

    public static final ObservationType INSTANCE = new ObservationType();

    private ObservationType() {
        super(Observation.class, false, "Observation", () -> ObservationSerializer.INSTANCE);
    }

    private Object readResolve() {
        return INSTANCE;
    }
}
