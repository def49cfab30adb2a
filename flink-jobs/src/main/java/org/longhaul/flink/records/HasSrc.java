package org.longhaul.flink.records;

/** A raw sample: it names the host that measured it, which its writer must be ({@link Writers}). */
public interface HasSrc extends Enveloped {}
