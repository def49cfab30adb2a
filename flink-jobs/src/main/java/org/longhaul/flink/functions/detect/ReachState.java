package org.longhaul.flink.functions.detect;

/**
 * Per link state of {@link ReachabilityDetector}: the failure streak and the open episode. A Flink
 * POJO.
 */
public final class ReachState {
    public int failures;
    public long firstFailureTs;
    public String errorClass;
    public String errorMessage;
    public boolean down;
    public String episodeId;
}
