package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"longhaul/collectors/admin"
)

func init() {
	register("setup", "create the Kafka topics (ingest/topics.yaml) and the InfluxDB database and retention policies", runSetup)
}

func runSetup(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("setup", flag.ContinueOnError)
	fs.SetOutput(stderr)
	kafka := fs.String("kafka", "127.0.0.1:9092", "Kafka bootstrap servers, comma-separated (empty: skip Kafka)")
	influx := fs.String("influx", "http://127.0.0.1:8086", "InfluxDB base URL (empty: skip InfluxDB)")
	db := fs.String("db", "", "InfluxDB database (default: the one named in --retention)")
	topics := fs.String("topics", "ingest/topics.yaml", "topics file")
	retention := fs.String("retention", "ingest/influxdb/retention.yaml", "retention policies file")
	timeout := fs.Duration("timeout", 30*time.Second, "give up after this long")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	ctx, cancel := context.WithTimeout(context.Background(), *timeout)
	defer cancel()
	if *kafka != "" {
		f, err := admin.LoadTopics(*topics)
		if err == nil {
			_, err = admin.EnsureTopics(ctx, strings.Split(*kafka, ","), f, stdout)
		}
		if err != nil {
			fmt.Fprintln(stderr, "longhaul setup:", err)
			return 1
		}
	}
	if *influx != "" {
		f, err := admin.LoadRetention(*retention)
		if err == nil {
			if *db != "" {
				f.Database = *db
			}
			err = admin.ApplyRetention(ctx, *influx, os.Getenv("INFLUX_TOKEN"), f, stdout)
		}
		if err != nil {
			fmt.Fprintln(stderr, "longhaul setup:", err)
			return 1
		}
	}
	return 0
}
