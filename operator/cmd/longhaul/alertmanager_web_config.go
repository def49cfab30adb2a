package main

import (
	"longhaul/internal/cli"
	"longhaul/internal/settings"
	"longhaul/operator/alerting"
)

const alertmanagerWebConfigDoc = `Writes Alertmanager's --web.config.file: TLS with --cert and --key, and basic auth for each user
(bridge, operator, grafana) whose alertmanager-<user>.password is in the secrets folder, hashed
with bcrypt (the passwords never appear in it). The file is written 0600.`

func runAlertmanagerWebConfig(env *cli.Env, args []string) int {
	fs := env.FlagSet("--cert FILE --key FILE -o web.yml", alertmanagerWebConfigDoc)
	secrets := settings.SecretsDir.String(fs.FlagSet)
	cert := fs.String("cert", "", "PEM certificate Alertmanager serves (empty with --key empty: no TLS)")
	key := fs.String("key", "", "its private key")
	out := fs.String("o", "", "output file")
	if code, done := fs.Parse(args); done {
		return code
	}
	if *out == "" || *secrets == "" || (*cert == "") != (*key == "") {
		return env.UsageError("-o and --secrets-dir are required; --cert and --key go together")
	}
	b, err := alerting.WebConfig(*secrets, *cert, *key)
	if err != nil {
		return env.Fail("%v", err)
	}
	if err := writeWhole(*out, b, 0o600); err != nil {
		return env.Fail("%v", err)
	}
	return cli.ExitOK
}
