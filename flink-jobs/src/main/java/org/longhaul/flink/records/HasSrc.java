package org.longhaul.flink.records;

/** A raw sample: it names the host that measured it, which its writer must be ({@link Writers}). */
public interface HasSrc extends OnLink {
    /** The probe that measured it (a pScheduler result's: pscheduler-TYPE). */
    String probeId();
}
