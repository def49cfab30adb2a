package main

import (
	"flag"
	"os"

	"longhaul/internal/checkout"
	"longhaul/internal/settings"
	"longhaul/operator/influx"
)

// influxFlags are the flags every results command shares: where InfluxDB and the dashboards are.
type influxFlags struct {
	url, db, dashboards *string
}

func addInfluxFlags(fs *flag.FlagSet) influxFlags {
	return influxFlags{
		url:        settings.Influx.String(fs),
		db:         settings.InfluxDB.String(fs),
		dashboards: settings.Dashboards.String(fs),
	}
}

// dashboardsDir is --dashboards, else dashboards/json of the Longhaul root.
func (f influxFlags) dashboardsDir() string {
	if *f.dashboards != "" {
		return *f.dashboards
	}
	return checkout.Path("dashboards", "json")
}

// client is the one InfluxDB client; INFLUX_TOKEN, when set, is sent as a token.
func (f influxFlags) client() *influx.Client {
	return &influx.Client{URL: *f.url, DB: *f.db, Token: os.Getenv("INFLUX_TOKEN")}
}
