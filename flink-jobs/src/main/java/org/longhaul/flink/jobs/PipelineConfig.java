package org.longhaul.flink.jobs;

import java.io.Serializable;
import java.time.Duration;
import org.longhaul.flink.functions.ClockSkew;
import org.longhaul.flink.functions.LinkCap;
import org.longhaul.flink.functions.stats.LinkClock;
import org.longhaul.flink.functions.stats.Stagger;

/**
 * Settings of the pipeline itself (not of Kafka): event-time handling, state retention and where
 * the schemas come from. Parsed from the command line by {@link JobArgs}.
 *
 * @param outOfOrderness how late a sample may arrive behind the newest one of its partition; must
 *     cover a whole probe run, because a summary's ts is its run start
 * @param idleness a partition silent this long stops holding the watermark back
 * @param stateTtl detector state of a key is dropped after this much event time without data
 * @param schemasDir directory of *.schema.json, or null for the copy bundled in the jar
 * @param clockSkewTolerance how far a message's clock may be from the broker's append time before
 *     it is a dead letter that never moves the watermark ({@link ClockSkew})
 * @param statsStagger how far each key's statistics windows are shifted, by a whole number of
 *     seconds fixed by the key (0: every link's windows end at the same instant)
 * @param statsSettle how long a link's minute waits, once the link's own data have passed its end,
 *     for the rest of that run's records before it closes ({@link LinkClock}); a silent link's
 *     minute closes after the out-of-orderness. Null: only the watermark closes windows (replays,
 *     where the wall clock means nothing)
 * @param linkCap how many links (dsts) one src may report on in each raw stream ({@link LinkCap})
 */
public record PipelineConfig(
        Duration outOfOrderness,
        Duration idleness,
        Duration stateTtl,
        String schemasDir,
        Duration clockSkewTolerance,
        Stagger statsStagger,
        Duration statsSettle,
        LinkCap linkCap,
        DetectorConfig detectors)
        implements Serializable {

    /** This configuration with confirmation probes switched on or off. */
    public PipelineConfig withConfirmations(boolean on) {
        return new PipelineConfig(
                outOfOrderness,
                idleness,
                stateTtl,
                schemasDir,
                clockSkewTolerance,
                statsStagger,
                statsSettle,
                linkCap,
                detectors.withConfirmations(on));
    }

    /**
     * This configuration with the statistics windows staggered by the given spread (0: aligned).
     */
    public PipelineConfig withStatsStagger(Stagger stagger) {
        return new PipelineConfig(
                outOfOrderness,
                idleness,
                stateTtl,
                schemasDir,
                clockSkewTolerance,
                stagger,
                statsSettle,
                linkCap,
                detectors);
    }

    /**
     * This configuration with minutes closed by their link's clock after a settle, or not (null).
     */
    public PipelineConfig withStatsSettle(Duration grace) {
        return new PipelineConfig(
                outOfOrderness,
                idleness,
                stateTtl,
                schemasDir,
                clockSkewTolerance,
                statsStagger,
                grace,
                linkCap,
                detectors);
    }

    public static PipelineConfig defaults() {
        return new PipelineConfig(
                Duration.ofMinutes(2),
                Duration.ofMinutes(1),
                Duration.ofDays(7),
                null,
                ClockSkew.contractTolerance(),
                new Stagger(Duration.ofMinutes(1)),
                Duration.ofSeconds(5), // each link's clock; --stats-settle off: the watermark alone
                LinkCap.defaults(),
                DetectorConfig.defaults());
    }

    /** The rule judging each raw message's clock by {@link #clockSkewTolerance}. */
    public ClockSkew clockSkew() {
        return new ClockSkew(clockSkewTolerance);
    }
}
