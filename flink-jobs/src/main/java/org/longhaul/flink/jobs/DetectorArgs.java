package org.longhaul.flink.jobs;

import org.longhaul.flink.functions.confirm.ConfirmParams;
import org.longhaul.flink.functions.detect.CollapseParams;
import org.longhaul.flink.functions.detect.DiagnosisParams;
import org.longhaul.flink.functions.detect.NoDataParams;
import org.longhaul.flink.functions.detect.QualityParams;
import org.longhaul.flink.functions.detect.ReachParams;
import org.longhaul.flink.functions.detect.RouteParams;
import org.longhaul.flink.functions.detect.StallParams;
import org.longhaul.flink.functions.incident.IncidentParams;

/** Detector parameters from the command line ("--collapse.drop 0.4"); defaults from each record. */
public final class DetectorArgs {
    private DetectorArgs() {}

    public static DetectorConfig parse(Args a) {
        return new DetectorConfig(
                collapse(a),
                stall(a),
                reach(a),
                quality(a),
                route(a),
                diagnosis(a),
                noData(a),
                confirm(a),
                incident(a));
    }

    static IncidentParams incident(Args a) {
        IncidentParams d = IncidentParams.defaults();
        IncidentParams i =
                new IncidentParams(
                        bool(a, "incident.enabled", d.enabled()),
                        (int) a.integer("incident.min-links", d.minLinks()),
                        a.number("incident.min-share", d.minShare()),
                        a.number("incident.healthy-weight", d.healthyWeight()),
                        a.duration("incident.healthy-window", d.healthyWindow()),
                        a.duration("incident.settle", d.settle()));
        require(i.minLinks() >= 2, "--incident.min-links: at least 2 (one link is its own alert)");
        require(i.minShare() > 0 && i.minShare() <= 1, "--incident.min-share: in (0, 1]");
        require(i.healthyWeight() >= 0, "--incident.healthy-weight: not negative");
        return i;
    }

    static CollapseParams collapse(Args a) {
        CollapseParams d = CollapseParams.defaults();
        CollapseParams c =
                new CollapseParams(
                        (int) a.integer("collapse.history", d.history()),
                        (int) a.integer("collapse.min-history", d.minHistory()),
                        a.number("collapse.k", d.k()),
                        a.number("collapse.drop", d.drop()),
                        (int) a.integer("collapse.confirm-runs", d.confirmRuns()),
                        a.number("collapse.catastrophic-drop", d.catastrophicDrop()),
                        (int) a.integer("collapse.recovery-runs", d.recoveryRuns()),
                        a.duration("collapse.catastrophic-wait", d.catastrophicWait()));
        require(
                c.minHistory() >= 3 && c.minHistory() <= c.history(),
                "--collapse.min-history: between 3 and --collapse.history");
        require(
                c.drop() > 0
                        && c.drop() < 1
                        && c.catastrophicDrop() > 0
                        && c.catastrophicDrop() <= 1,
                "--collapse.drop / --collapse.catastrophic-drop: fractions between 0 and 1");
        return c;
    }

    static StallParams stall(Args a) {
        StallParams d = StallParams.defaults();
        return new StallParams(
                a.number("stall.min-seconds", d.minSeconds()),
                a.number("stall.zero-bps", d.zeroBps()),
                a.number("stall.zero-fraction", d.zeroFraction()),
                a.duration("stall.run-idle", d.runIdle()));
    }

    static ReachParams reach(Args a) {
        ReachParams d = ReachParams.defaults();
        return new ReachParams(
                (int) a.integer("reach.confirm-runs", d.confirmRuns()),
                a.duration("reach.site-recent", d.siteRecent()),
                (int) a.integer("reach.site-min-sources", d.siteMinSources()),
                a.number("reach.site-quorum", d.siteQuorum()));
    }

    static QualityParams quality(Args a) {
        QualityParams d = QualityParams.defaults();
        return new QualityParams(
                a.number("quality.loss-percent", d.lossPercent()),
                a.number("quality.jitter-ms", d.jitterMs()),
                a.overrides("quality.loss-overrides"),
                a.overrides("quality.jitter-overrides"),
                (int) a.integer("quality.confirm-runs", d.confirmRuns()),
                a.number("quality.recovery-ratio", d.recoveryRatio()));
    }

    static RouteParams route(Args a) {
        RouteParams d = RouteParams.defaults();
        RouteParams r =
                new RouteParams(
                        (int) a.integer("route.persist-runs", d.persistRuns()),
                        a.number("route.dominant-share", d.dominantShare()),
                        (int) a.integer("route.recent-runs", d.recentRuns()),
                        (int) a.integer("route.min-runs", d.minRuns()),
                        (int) a.integer("route.max-addrs-per-hop", d.maxAddrsPerHop()),
                        a.number("route.balanced-rtt-ms", d.balancedRttMs()),
                        a.number("route.balanced-rtt-share", d.balancedRttShare()),
                        (int) a.integer("route.settle-runs", d.settleRuns()));
        require(
                r.recentRuns() > r.settleRuns() && r.recentRuns() <= 63,
                "--route.recent-runs: above --route.settle-runs, at most 63");
        require(
                r.settleRuns() >= r.persistRuns(),
                "--route.settle-runs: at least --route.persist-runs");
        return r;
    }

    static DiagnosisParams diagnosis(Args a) {
        DiagnosisParams d = DiagnosisParams.defaults();
        return new DiagnosisParams(
                a.number("diagnosis.window-tolerance", d.windowTolerance()),
                a.number("diagnosis.capacity-ratio", d.capacityRatio()),
                (int) a.integer("diagnosis.min-runs", d.minRuns()),
                (int) a.integer("diagnosis.history", d.history()),
                (int) a.integer("diagnosis.mss", d.mssBytes()),
                a.number("diagnosis.mathis-c", d.mathisC()),
                a.number("diagnosis.loss-tolerance", d.lossTolerance()),
                a.number("diagnosis.capacity-bps", d.capacityBps()),
                a.overrides("diagnosis.capacity-overrides"),
                (int) a.integer("diagnosis.confirm-runs", d.confirmRuns()));
    }

    static NoDataParams noData(Args a) {
        NoDataParams d = NoDataParams.defaults();
        return new NoDataParams(
                a.number("no-data.factor", d.factor()),
                (int) a.integer("no-data.min-gaps", d.minGaps()),
                (int) a.integer("no-data.gap-history", d.gapHistory()),
                a.duration("no-data.default-interval", d.defaultInterval()),
                a.duration("no-data.min-silence", d.minSilence()));
    }

    static ConfirmParams confirm(Args a) {
        ConfirmParams d = ConfirmParams.defaults();
        ConfirmParams c =
                new ConfirmParams(
                        bool(a, "confirm.enabled", d.enabled()),
                        (int) a.integer("confirm.link-max", d.linkMax()),
                        a.duration("confirm.link-window", d.linkWindow()),
                        (int) a.integer("confirm.host-per-hour", d.hostPerHour()),
                        (int) a.integer("confirm.mesh-per-hour", d.meshPerHour()),
                        a.duration("confirm.request-ttl", d.requestTtl()),
                        a.number("confirm.rtt-ratio", d.rttRatio()),
                        a.number("confirm.rtt-min-ms", d.rttMinMs()),
                        (int) a.integer("confirm.rtt-consecutive", d.rttConsecutive()),
                        (int) a.integer("confirm.rtt-history", d.rttHistory()));
        require(
                c.linkMax() >= 1 && c.hostPerHour() >= 1 && c.meshPerHour() >= 1,
                "--confirm.link-max, --confirm.host-per-hour, --confirm.mesh-per-hour: at least 1 (--confirm.enabled false asks for none)");
        require(
                c.rttHistory() >= 9 && c.rttConsecutive() >= 1,
                "--confirm.rtt-history: at least 9; --confirm.rtt-consecutive: at least 1");
        return c;
    }

    /** A true/false option; anything else is refused, naming the option. */
    private static boolean bool(Args a, String name, boolean fallback) {
        String v = a.string(name, String.valueOf(fallback));
        require(v.equals("true") || v.equals("false"), "--" + name + ": true or false, not " + v);
        return Boolean.parseBoolean(v);
    }

    private static void require(boolean ok, String message) {
        if (!ok) {
            throw new IllegalArgumentException(message);
        }
    }
}
