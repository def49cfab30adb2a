package org.longhaul.flink.functions.detect;

/**
 * Whether a destination site is down for every source, since when, under which episode. A Flink
 * POJO.
 */
public final class SiteState {
    public boolean down;
    public long since;
    public String episodeId;
}
