package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"longhaul/internal/checkout"
	"longhaul/internal/settings"
	"longhaul/operator/influx"
	"longhaul/operator/setup"
)

func init() {
	register("setup", "create the Kafka topics (ingest/topics.yaml) and the InfluxDB database and retention policies", runSetup)
}

func runSetup(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("setup", flag.ContinueOnError)
	fs.SetOutput(stderr)
	kafka := settings.Kafka.String(fs)
	influxURL := settings.Influx.String(fs)
	db := fs.String(settings.InfluxDB.Flag, os.Getenv(settings.InfluxDB.Env), "InfluxDB database (default: the one named in --retention; env "+settings.InfluxDB.Env+")")
	topics := fs.String("topics", checkout.Path("ingest", "topics.yaml"), "topics file")
	retention := fs.String("retention", checkout.Path("ingest", "influxdb", "retention.yaml"), "retention policies file")
	skipKafka := fs.Bool("no-kafka", false, "leave Kafka alone")
	skipInflux := fs.Bool("no-influx", false, "leave InfluxDB alone")
	timeout := fs.Duration("timeout", 30*time.Second, "give up after this long")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	ctx, cancel := context.WithTimeout(context.Background(), *timeout)
	defer cancel()
	if !*skipKafka {
		f, err := setup.LoadTopics(*topics)
		if err == nil {
			_, err = setup.EnsureTopics(ctx, settings.List(*kafka), f, stdout)
		}
		if err != nil {
			fmt.Fprintln(stderr, "longhaul setup:", err)
			return 1
		}
	}
	if !*skipInflux {
		f, err := setup.LoadRetention(*retention)
		if err == nil {
			if *db != "" {
				f.Database = *db
			}
			err = setup.ApplyRetention(ctx, &influx.Client{URL: *influxURL, Token: os.Getenv("INFLUX_TOKEN")}, f, stdout)
		}
		if err != nil {
			fmt.Fprintln(stderr, "longhaul setup:", err)
			return 1
		}
	}
	return 0
}
