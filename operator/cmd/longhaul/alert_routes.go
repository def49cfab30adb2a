package main

import (
	"os"
	"path/filepath"

	"longhaul/internal/cli"
	"longhaul/internal/settings"
	"longhaul/operator/alerting"
)

const alertRoutesDoc = `Writes Alertmanager's config with a route and a receiver per team of the contacts file, so
each team is paged for the incidents at what it owns (the alert bridge labels an incident with
its team). Each team route matches alertname="incident_opened" and team="<name>", sits before
the incident route and continues to it (the operators are paged too); its receiver mails the
team's email and posts to its webhook_url_file, like the operators receiver. Team routes and
receivers of an earlier run are replaced. Reads --config (alerting/alertmanager.yml in a
checkout; filled in or not), writes -o (default: stdout).`

func runAlertRoutes(env *cli.Env, args []string) int {
	fs := env.FlagSet("[--contacts FILE] [--config alertmanager.yml] [-o FILE]", alertRoutesDoc)
	contactsFile := settings.AlertContacts.String(fs.FlagSet)
	config := fs.String("config", filepath.Join(settings.EtcDir, "alertmanager", "alertmanager.yml"), "the Alertmanager config to add the team routes to")
	out := fs.String("o", "", "output file (default: stdout)")
	if code, done := fs.Parse(args); done {
		return code
	}
	teams, err := alerting.LoadContacts(*contactsFile, false)
	if err != nil {
		return env.UsageError("%v", err)
	}
	in, err := os.ReadFile(*config)
	if err != nil {
		return env.UsageError("%v", err)
	}
	b, err := alerting.TeamRoutes(in, teams)
	if err != nil {
		return env.Fail("%s: %v", *config, err)
	}
	if *out == "" {
		_, err = env.Stdout.Write(b)
	} else {
		err = writeWhole(*out, b, 0o644)
	}
	if err != nil {
		return env.Fail("%v", err)
	}
	return cli.ExitOK
}
