package main

import (
	"context"
	"os/signal"
	"syscall"
	"time"

	"longhaul/internal/kafkaadmin"

	"longhaul/internal/cli"
	"longhaul/internal/settings"
	"longhaul/operator/alerting"
	"longhaul/operator/results"
)

const alertBridgeDoc = `Keeps Alertmanager in step with the events topic (committed records only): an alert event
posts an alert (labels: alertname = kind, src, dst, src_site, dst_site, site, severity, probe;
annotations: message, baseline vs now, since, diagnosis, Link detail dashboard, longhaul report),
its recovery resolves it, an info event (route change, stall, diagnosis) posts a notice that
ends after --notice-for. Open alerts are posted again every --repost with an end --hold ahead,
so Alertmanager never resolves an alert because the bridge stopped. On start it reads back
--restore-since of events, rebuilds the open set and reconciles Alertmanager with it (alerts
resolved meanwhile are resolved, open ones posted; Alertmanager's notification log keeps a
re-post from notifying twice).

An incident (event.v4) is one alert named by its location (labels location, location_type, and
team: the team owning it in --contacts), plus one incident_member alert per link it explains,
which alertmanager.yml uses to inhibit those links' own alerts and sends nowhere.

Its Kafka identity: LONGHAUL_KAFKA_USER and LONGHAUL_KAFKA_PASSWORD_FILE; on a native stack host
by default the alerter user. Alertmanager: LONGHAUL_ALERTMANAGER_USER (bridge on the stack),
LONGHAUL_ALERTMANAGER_PASSWORD_FILE, LONGHAUL_ALERTMANAGER_CA.`

// GrafanaURL is where people open the Link detail dashboard linked from each alert.
var grafanaURL = settings.Setting{Flag: "grafana-url", Env: "LONGHAUL_GRAFANA_URL", Default: "http://localhost:3000",
	Usage: "Grafana's base URL, for the dashboard link of each alert (empty: no link)"}

func runAlertBridge(env *cli.Env, args []string) int {
	fs := env.FlagSet("[--sites FILE] [--sites-psconfig LOC] [--contacts FILE] [--repost 1m] [--hold 24h] [--status-file FILE]", alertBridgeDoc)
	kafka := settings.Kafka.String(fs.FlagSet)
	amURL := settings.Alertmanager.String(fs.FlagSet)
	grafana := grafanaURL.String(fs.FlagSet)
	sitesFile := fs.String("sites", "", "YAML file naming each host's site (sites: {host or .domain: SITE}); default: each host is its own site")
	sitesPSConfig := fs.String("sites-psconfig", "", "pSConfig template (path or URL) whose addresses' _meta name their sites (longhaul-site, else display-name); the --sites file wins")
	contactsFile := settings.AlertContacts.String(fs.FlagSet)
	runbook := fs.String("runbook-url", "", "base URL of the alert kinds' documentation (#kind is added)")
	repost := fs.Duration("repost", time.Minute, "how often every open alert is posted again (also how soon a restarted Alertmanager has them back)")
	hold := fs.Duration("hold", 24*time.Hour, "how long Alertmanager keeps an open alert firing without hearing from the bridge")
	noticeFor := fs.Duration("notice-for", time.Hour, "how long an info event stays a firing notice")
	restoreSince := fs.Duration("restore-since", 90*24*time.Hour, "on start, read back events from this long ago (the events topic's retention)")
	statusFile := fs.String("status-file", "", "write the bridge's status here every cycle (JSON)")
	if code, done := fs.Parse(args); done {
		return code
	}
	if *repost <= 0 || *hold < 3**repost || *noticeFor <= 0 || *restoreSince <= 0 {
		return env.UsageError("--repost, --notice-for and --restore-since must be positive and --hold at least 3 × --repost")
	}
	sites, err := alerting.LoadSites(*sitesFile)
	if err != nil {
		return env.UsageError("%v", err)
	}
	if *sitesPSConfig != "" {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		named, n, problems, err := alerting.LoadPSConfigSites(ctx, sites, *sitesPSConfig)
		cancel()
		if err != nil {
			return env.UsageError("%v", err)
		}
		for _, p := range problems {
			logf(env, "%s: %s (left out)", *sitesPSConfig, p)
		}
		logf(env, "%d hosts named by the sites of %s", n, *sitesPSConfig)
		sites = named
	}
	teams, err := alerting.LoadContacts(*contactsFile, *contactsFile == settings.AlertContacts.Default)
	if err != nil {
		return env.UsageError("%v", err)
	}
	conn, err := serviceConn(*kafka, kafkaadmin.Alerter)
	if err != nil {
		return env.UsageError("%v", err)
	}
	am, err := alerting.FromSettings(*amURL)
	if err != nil {
		return env.UsageError("%v", err)
	}
	d := alerting.Describer{GrafanaURL: *grafana, LinkDashboard: results.LinkDashboard,
		MeshDashboard: results.MeshDashboard, RunbookURL: *runbook}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	logf(env, "bridging %s to %s as %s; %d teams in %s", conn, am.URL, am.User, len(teams.Teams), *contactsFile)
	state := alerting.NewState(sites, d, *noticeFor, *hold)
	state.Teams = teams
	err = alerting.Serve(ctx, alerting.Options{Kafka: conn, AM: am, State: state,
		RestoreSince: *restoreSince, Repost: *repost, StatusFile: *statusFile, Log: logWriter{env}})
	if err != nil && ctx.Err() == nil {
		return env.Fail("%v", err)
	}
	logf(env, "stopped")
	return cli.ExitOK
}
