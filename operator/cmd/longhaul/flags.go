package main

import (
	"context"
	"flag"
	"time"

	"longhaul/internal/cli"
	"longhaul/internal/settings"
	"longhaul/operator/influx"
)

// influxFlags are the flags every results command shares: where InfluxDB and the dashboards
// are, and who the CLI is to InfluxDB (the password only from a file or the environment).
type influxFlags struct {
	url, db, dashboards, user, passwordFile, ca *string
}

func addInfluxFlags(fs *flag.FlagSet) influxFlags {
	return influxFlags{
		url:          settings.Influx.String(fs),
		db:           settings.InfluxDB.String(fs),
		dashboards:   settings.Dashboards.String(fs),
		user:         settings.InfluxUser.String(fs),
		passwordFile: settings.InfluxPasswordFile.String(fs),
		ca:           settings.InfluxCA.String(fs),
	}
}

// dashboardsDir is --dashboards ("": the dashboards the binary carries).
func (f influxFlags) dashboardsDir() string { return *f.dashboards }

// client is the one InfluxDB client, authenticated as --influx-user (LONGHAUL_INFLUX_USER).
func (f influxFlags) client() (*influx.Client, error) {
	a := influx.AuthFromEnv()
	a.User, a.PasswordFile, a.CAFile = *f.user, *f.passwordFile, *f.ca
	return influx.New(*f.url, *f.db, a)
}

// query runs a reading command's queries: act with the client, within a minute.
func (f influxFlags) query(env *cli.Env, act func(context.Context, *influx.Client) int) int {
	c, err := f.client()
	if err != nil {
		return env.UsageError("%v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	return act(ctx, c)
}
