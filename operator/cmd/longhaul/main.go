// Command longhaul is the operator's entry point: one binary whose subcommands set up the
// services, run the Flink job's lifecycle, validate messages, replay history through the job
// graph and read results. One file per subcommand, flags and printing only; the logic lives in
// operator/results, dashboards, influx, render, setup and flink.
package main

import (
	"io"
	"os"

	"longhaul/internal/cli"
)

var app = &cli.App{
	Name: "longhaul",
	Doc:  "The operator's command: set up the services, run the Flink job, follow events and read results.",
	Commands: []cli.Command{
		{Name: "setup", Summary: "create the Kafka topics (ingest/topics.yaml) and the InfluxDB database and retention policies", Run: runSetup},
		{Name: "admin", Summary: "Kafka credentials: add, remove and rotate agents' and services' users", Run: adminApp.Command},
		{Name: "job", Summary: "the Flink job's lifecycle: submit, list, savepoint, stop (after a savepoint), cancel", Run: jobApp.Command},
		{Name: "watchdog", Summary: "watch the pipeline itself and raise pipeline_degraded / _recovered; 'watchdog status' prints its view", Run: runWatchdog},
		{Name: "alert-bridge", Summary: "keep Alertmanager in step with the events: post alerts, resolve them on recovery, rebuild after restarts", Run: runAlertBridge},
		{Name: "alert-routes", Summary: "add a route and a receiver per team of the contacts file to Alertmanager's config: incidents page their location's team", Run: runAlertRoutes},
		{Name: "silence", Summary: "maintenance windows in Alertmanager: silence a site or a link for a while; list and expire silences", Run: runSilence},
		{Name: "alertmanager-web-config", Summary: "write Alertmanager's web config: TLS and bcrypt-hashed users from the secrets folder", Run: runAlertmanagerWebConfig},
		{Name: "tail", Summary: "follow events (and optionally link statistics) live from Kafka, one line each", Run: runTail},
		{Name: "trends", Summary: "print a link's throughput, loss and RTT history from InfluxDB as a table", Run: runTrends},
		{Name: "incidents", Summary: "print open and recent incidents: place, links and their kinds, since, evidence, the silence command (--json)", Run: runIncidents},
		{Name: "alerts", Summary: "print open alerts and recent events from InfluxDB (the Alerts dashboard's event list)", Run: runAlerts},
		{Name: "report", Summary: "write a self-contained HTML report: the mesh overview and link dashboards' panels as inline SVG", Run: runReport},
		{Name: "dashboards", Summary: "expand a dashboard query's Grafana macros and variables the way Grafana does", Run: dashboardsApp.Command},
		{Name: "validate", Summary: "check JSON Lines messages against the contract's schemas; prints each invalid line with the reason", Run: runValidate},
		{Name: "import", Summary: "backfill history (a perfSONAR archive, saved tool outputs) so links have baselines on day one", Run: runImport},
		{Name: "replay", Summary: "run the Flink job graph offline on a local MiniCluster over a file of raw samples; events to stdout", Run: runReplay},
		cli.VersionCommand(),
	},
}

func main() {
	os.Exit(dispatch(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func dispatch(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return app.Run(args, stdin, stdout, stderr)
}
