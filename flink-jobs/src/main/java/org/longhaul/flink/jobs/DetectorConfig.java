package org.longhaul.flink.jobs;

import java.io.Serializable;
import org.longhaul.flink.functions.confirm.ConfirmParams;
import org.longhaul.flink.functions.detect.CollapseParams;
import org.longhaul.flink.functions.detect.DiagnosisParams;
import org.longhaul.flink.functions.detect.NoDataParams;
import org.longhaul.flink.functions.detect.QualityParams;
import org.longhaul.flink.functions.detect.ReachParams;
import org.longhaul.flink.functions.detect.RouteParams;
import org.longhaul.flink.functions.detect.StallParams;
import org.longhaul.flink.functions.incident.IncidentParams;

/** The parameters of every detector; defaults live in each parameter record. */
public record DetectorConfig(
        CollapseParams collapse,
        StallParams stall,
        ReachParams reach,
        QualityParams quality,
        RouteParams route,
        DiagnosisParams diagnosis,
        NoDataParams noData,
        ConfirmParams confirm,
        IncidentParams incident)
        implements Serializable {

    /** These parameters with confirmation probes switched on or off. */
    public DetectorConfig withConfirmations(boolean on) {
        ConfirmParams c = confirm;
        return new DetectorConfig(
                collapse,
                stall,
                reach,
                quality,
                route,
                diagnosis,
                noData,
                new ConfirmParams(
                        on,
                        c.linkMax(),
                        c.linkWindow(),
                        c.hostPerHour(),
                        c.meshPerHour(),
                        c.requestTtl(),
                        c.rttRatio(),
                        c.rttMinMs(),
                        c.rttConsecutive(),
                        c.rttHistory()),
                incident);
    }

    public static DetectorConfig defaults() {
        return new DetectorConfig(
                CollapseParams.defaults(),
                StallParams.defaults(),
                ReachParams.defaults(),
                QualityParams.defaults(),
                RouteParams.defaults(),
                DiagnosisParams.defaults(),
                NoDataParams.defaults(),
                ConfirmParams.defaults(),
                IncidentParams.defaults());
    }
}
