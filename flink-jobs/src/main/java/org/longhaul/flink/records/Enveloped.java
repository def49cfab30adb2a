package org.longhaul.flink.records;

/** A message that opens with the {@link Envelope}: its fields read through to it. */
public interface Enveloped extends OnLink {
    Envelope envelope();

    @Override
    default String src() {
        return envelope().src();
    }

    @Override
    default String dst() {
        return envelope().dst();
    }

    /** The probe that measured it (a pScheduler result's: pscheduler-TYPE). */
    default String probeId() {
        return envelope().probeId();
    }

    /** Its time, Unix milliseconds. */
    default long ts() {
        return envelope().ts();
    }
}
