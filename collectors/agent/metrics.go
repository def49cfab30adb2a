package agent

import (
	"fmt"
	"io"
	"sort"
	"strings"
)

// writeMetrics renders h in the Prometheus text exposition format.
func writeMetrics(w io.Writer, h Health) {
	b := func(v bool) int {
		if v {
			return 1
		}
		return 0
	}
	gauge := func(name, help string, v any) {
		fmt.Fprintf(w, "# HELP %s %s\n# TYPE %s gauge\n%s %v\n", name, help, name, name, v)
	}
	counter := func(name, help string, v any) {
		fmt.Fprintf(w, "# HELP %s %s\n# TYPE %s counter\n%s %v\n", name, help, name, name, v)
	}
	gauge("longhaul_probe_kafka_connected", "1 if Kafka answered the last ping or produce.", b(h.Kafka.Connected))
	gauge("longhaul_probe_kafka_refused", "1 while Kafka refuses the agent's credential or rights (see /health kafka.reason).", b(h.Kafka.State == KafkaRefused))
	counter("longhaul_probe_kafka_acked_total", "Samples acknowledged by Kafka.", h.Kafka.Acked)
	counter("longhaul_probe_kafka_failed_total", "Failed sends (each is resent).", h.Kafka.Failed)
	counter("longhaul_probe_kafka_undeliverable_total", "Samples Kafka refused for good.", h.Kafka.Undeliverable)
	gauge("longhaul_probe_spool_samples", "Samples in the spool not yet acknowledged by Kafka.", h.Spool.DepthSamples)
	gauge("longhaul_probe_spool_sample_bytes", "Size of the samples not yet acknowledged.", h.Spool.DepthBytes)
	gauge("longhaul_probe_spool_disk_bytes", "Bytes of the spool's files on disk.", h.Spool.DiskBytes)
	fmt.Fprintf(w, "# HELP longhaul_probe_spool_dropped_total Samples dropped because the spool was full.\n"+
		"# TYPE longhaul_probe_spool_dropped_total counter\n"+
		"longhaul_probe_spool_dropped_total{class=\"interval\"} %d\nlonghaul_probe_spool_dropped_total{class=\"other\"} %d\n",
		h.Spool.DroppedInterval, h.Spool.DroppedOther)
	counter("longhaul_probe_spool_corrupt_total", "Damaged spool records skipped at load.", h.Spool.CorruptSkipped)
	counter("longhaul_probe_samples_spooled_total", "Samples written to the spool.", h.Samples.Spooled)
	counter("longhaul_probe_samples_dead_lettered_total", "Samples that failed validation.", h.Samples.DeadLettered)
	counter("longhaul_probe_samples_lost_total", "Samples that could not be written to the spool.", h.Samples.Lost)
	if p := h.PSConfig; p != nil {
		gauge("longhaul_probe_psconfig_ok", "1 if the last fetch of the pSConfig template gave a good document (or 304).", b(p.State == "ok"))
		gauge("longhaul_probe_psconfig_planned_pairs", "Pairs of the pSConfig template this host schedules.", p.Planned)
		gauge("longhaul_probe_psconfig_unsupported_pairs", "Of them, pairs it cannot run (see /health psconfig.unsupported_pairs).", p.Unsupported)
		gauge("longhaul_probe_psconfig_pscheduler_pairs", "Of them, pairs pScheduler measures (latency, latencybg): their results come through the pScheduler bridge.", p.ByPScheduler)
		counter("longhaul_probe_psconfig_fetch_failures_total", "Fetches of the template that failed or gave an invalid document.", p.Failures)
	}

	ids := make([]string, 0, len(h.Probes))
	for id := range h.Probes {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	fmt.Fprint(w, "# HELP longhaul_probe_runs_total Runs ended, per probe.\n# TYPE longhaul_probe_runs_total counter\n")
	for _, id := range ids {
		fmt.Fprintf(w, "longhaul_probe_runs_total{probe_id=%q,kind=%q} %d\n", id, h.Probes[id].Kind, h.Probes[id].Runs)
	}
	fmt.Fprint(w, "# HELP longhaul_probe_run_errors_total Failed runs, per probe and error class.\n# TYPE longhaul_probe_run_errors_total counter\n")
	for _, id := range ids {
		classes := make([]string, 0, len(h.Probes[id].Errors))
		for c := range h.Probes[id].Errors {
			classes = append(classes, c)
		}
		sort.Strings(classes)
		for _, c := range classes {
			fmt.Fprintf(w, "longhaul_probe_run_errors_total{probe_id=%q,class=%q} %d\n", id, c, h.Probes[id].Errors[c])
		}
	}
	fmt.Fprint(w, "# HELP longhaul_probe_last_success_timestamp_seconds End of the last successful run, per probe.\n# TYPE longhaul_probe_last_success_timestamp_seconds gauge\n")
	for _, id := range ids {
		if ls := h.Probes[id].LastSuccess; ls != nil {
			fmt.Fprintf(w, "longhaul_probe_last_success_timestamp_seconds{probe_id=%q} %s\n", id,
				strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.3f", float64(ls.UnixMilli())/1000), "0"), "."))
		}
	}
	if r := h.ProbeRequests; r != nil {
		fmt.Fprint(w, "# HELP longhaul_probe_requests_total Probe requests of the job read, by what became of them.\n# TYPE longhaul_probe_requests_total counter\n")
		for _, o := range []string{RequestQueued, RequestOtherHost, RequestExpired, RequestOverBudget, RequestNoProbe, RequestDuplicate, RequestInvalid} {
			fmt.Fprintf(w, "longhaul_probe_requests_total{outcome=%q} %d\n", o, r.Outcomes[o])
		}
	}
}
