package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"longhaul/internal/kafkaadmin"

	"longhaul/internal/cli"
	"longhaul/internal/kafkaconn"
	"longhaul/internal/settings"
	"longhaul/operator/influx"
	"longhaul/operator/setup"
)

const setupDoc = `Creates missing Kafka topics (a topic whose partition count differs is reported, never changed)
and the InfluxDB database with its retention policies; with --users-from, the services' Kafka
users and InfluxDB's writer and reader. Runs as an InfluxDB admin (--influx-user). Safe to run again.`

func runSetup(env *cli.Env, args []string) int {
	fs := env.FlagSet("[--no-kafka] [--no-influx] [--topics FILE] [--retention FILE]", setupDoc)
	f := addAdminFlags(fs.FlagSet)
	influxURL := settings.Influx.String(fs.FlagSet)
	influxUser := settings.InfluxUser.String(fs.FlagSet)
	influxPasswordFile := settings.InfluxPasswordFile.String(fs.FlagSet)
	influxCA := settings.InfluxCA.String(fs.FlagSet)
	db := fs.String(settings.InfluxDB.Flag, os.Getenv(settings.InfluxDB.Env), "InfluxDB database (default: the one named in --retention; env "+settings.InfluxDB.Env+")")
	topics := fs.String("topics", "", "topics file (default: the contract's, which this binary carries)")
	replication := settings.KafkaReplication.String(fs.FlagSet)
	retention := fs.String("retention", "", "retention policies file (default: the contract's, which this binary carries)")
	skipKafka := fs.Bool("no-kafka", false, "leave Kafka alone")
	skipInflux := fs.Bool("no-influx", false, "leave InfluxDB alone")
	usersFrom := fs.String("users-from", "", "folder of kafka-<service>.password and influx-<user>.password files: create or update the SCRAM users of the services (admin, flink, telegraf, operator; watchdog, alerter and psbridge when their files are there) with their ACLs, and the ACLs of the certificate principal pscheduler (pScheduler's Kafka archiver), and InfluxDB's writer (WRITE) and reader (READ)")
	timeout := fs.Duration("timeout", 30*time.Second, "give up after this long")
	if code, done := fs.Parse(args); done {
		return code
	}
	ctx, cancel := context.WithTimeout(context.Background(), *timeout)
	defer cancel()
	if !*skipKafka {
		conn, err := f.conn()
		if err != nil {
			return env.Fail("%v", err)
		}
		f, err := kafkaadmin.LoadTopics(*topics)
		if err == nil {
			err = f.SetReplication(*replication)
		}
		if err == nil {
			_, err = kafkaadmin.EnsureTopics(ctx, conn, f, env.Stdout)
		}
		if err != nil {
			return env.Fail("%v", err)
		}
		if *usersFrom != "" && conn.Security == kafkaconn.Plaintext {
			fmt.Fprintln(env.Stdout, "kafka users: none on a plaintext broker (no authentication)")
		} else if *usersFrom != "" {
			for _, principal := range append(kafkaadmin.Services, kafkaadmin.OptionalServices...) {
				file := filepath.Join(*usersFrom, "kafka-"+principal+".password")
				if _, err := os.Stat(file); err != nil && slices.Contains(kafkaadmin.OptionalServices, principal) {
					fmt.Fprintf(env.Stdout, "kafka user %s: no %s, not made (optional)\n", principal, file)
					continue
				}
				pw, err := settings.Secret(file)
				if err == nil {
					err = kafkaadmin.SetUser(ctx, conn, principal, pw, env.Stdout)
				}
				if err != nil {
					return env.Fail("%v", err)
				}
			}
			for _, principal := range kafkaadmin.CertPrincipals {
				if err := kafkaadmin.GrantACLs(ctx, conn, principal, env.Stdout); err != nil {
					return env.Fail("%v", err)
				}
			}
		}
	}
	if !*skipInflux {
		f, err := setup.LoadRetention(*retention)
		var c *influx.Client
		if err == nil {
			if *db != "" {
				f.Database = *db
			}
			a := influx.AuthFromEnv()
			a.User, a.PasswordFile, a.CAFile = *influxUser, *influxPasswordFile, *influxCA
			c, err = influx.New(*influxURL, f.Database, a)
		}
		if err == nil {
			err = setup.ApplyRetention(ctx, c, f, env.Stdout)
		}
		if err == nil && *usersFrom != "" {
			err = setup.EnsureInfluxUsers(ctx, c, f.Database, *usersFrom, env.Stdout)
		}
		if err != nil {
			return env.Fail("%v", err)
		}
	}
	return cli.ExitOK
}
