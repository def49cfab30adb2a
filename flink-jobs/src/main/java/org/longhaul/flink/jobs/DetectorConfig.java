package org.longhaul.flink.jobs;

import java.io.Serializable;
import org.longhaul.flink.functions.detect.StallParams;

/** The parameters of every detector; defaults live in each parameter record. */
public record DetectorConfig(StallParams stall) implements Serializable {

    public static DetectorConfig defaults() {
        return new DetectorConfig(StallParams.defaults());
    }
}
