package org.longhaul.flink.jobs;

import org.longhaul.flink.functions.detect.StallParams;

/** Detector parameters from the command line ("--stall.min-seconds 10"); defaults from each record. */
public final class DetectorArgs {
    private DetectorArgs() {}

    public static DetectorConfig parse(Args a) {
        StallParams s = StallParams.defaults();
        StallParams stall = new StallParams(
                a.number("stall.min-seconds", s.minSeconds()),
                a.number("stall.zero-bps", s.zeroBps()),
                a.number("stall.zero-fraction", s.zeroFraction()),
                a.duration("stall.run-idle", s.runIdle()));
        return new DetectorConfig(stall);
    }
}
