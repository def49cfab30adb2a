package main

import (
	"context"
	"flag"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"longhaul/internal/cli"
	"longhaul/internal/kafkaadmin"
	"longhaul/internal/kafkaconn"
	"longhaul/internal/settings"
	"longhaul/operator/flink"
	"longhaul/operator/render"
)

var jobApp = &cli.App{
	Name: "longhaul job",
	Doc: "The Flink job's lifecycle through Flink's REST API. A job's consumer group and transactional-id\n" +
		"prefix are its name, so jobs of different names run side by side.",
	Commands: []cli.Command{
		{Name: "submit", Summary: "start the job unless one of that name runs; wait until every task runs; print its id", Run: runJobSubmit},
		{Name: "list", Summary: "every job of the cluster: id, state, start, name", Run: runJobList},
		{Name: "savepoint", Summary: "take a savepoint of the running job; print its location", Run: runJobSavepoint(false)},
		{Name: "stop", Summary: "stop the job after a savepoint; print its location", Run: runJobSavepoint(true)},
		{Name: "cancel", Summary: "cancel the job (no savepoint), wait until it has ended, and abort its open Kafka transactions", Run: runJobCancel},
		{Name: "abort-transactions", Summary: "abort the Kafka transactions a job of that name left open (its TaskManager killed, the job gone)", Run: runJobAbortTransactions},
		{Name: "keep", Summary: "keep the job running: resubmit it from its newest savepoint or checkpoint when none runs (a daemon)", Run: runJobKeep},
	},
}

// jobFlags are every job action's flags: the cluster, the job's name and how long to wait.
type jobFlags struct {
	url, cert, name, state *string
	wait                   *time.Duration
}

func addJobFlags(fs *flag.FlagSet) jobFlags {
	return jobFlags{
		url:   settings.Flink.String(fs),
		cert:  settings.FlinkCert.String(fs),
		name:  fs.String("name", flink.DefaultName, "job name"),
		state: settings.FlinkState.String(fs),
		wait:  fs.Duration("wait", 2*time.Minute, "how long the job may take to run, stop or save"),
	}
}

func (f jobFlags) client() (*flink.Client, error) { return flink.New(*f.url, *f.cert) }

// run parses a job action's arguments, then acts with the cluster's client within the action's
// deadline: the wait, and a minute more.
func (f jobFlags) run(env *cli.Env, fs *cli.FlagSet, args []string, act func(context.Context, *flink.Client) int) int {
	if code, done := fs.Parse(args); done {
		return code
	}
	c, err := f.client()
	if err != nil {
		return env.UsageError("%v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), *f.wait+time.Minute)
	defer cancel()
	return act(ctx, c)
}

const jobSubmitDoc = `Job arguments after -- (flink-jobs/README.md). Unless given there, the job gets --kafka from
LONGHAUL_KAFKA and its Kafka security from the stack's environment: --kafka-security
(LONGHAUL_KAFKA_SECURITY), --kafka-ca (LONGHAUL_KAFKA_CA) and its own identity, --kafka-user flink
--kafka-password-file $LONGHAUL_SECRETS_DIR/kafka-flink.password (a path: the job's Kafka clients
read the file on the cluster's hosts). Prints the job's id on stdout, what happened on stderr.`

func runJobSubmit(env *cli.Env, args []string) int {
	fs := env.FlagSet("[--name N] [--replace] [--from-savepoint PATH] [-- JOB ARGUMENTS]", jobSubmitDoc)
	fs.ArgsUsage = "JOB ARGUMENTS"
	f := addJobFlags(fs.FlagSet)
	jar := settings.FlinkJar.String(fs.FlagSet)
	restore := fs.String("from-savepoint", "", "restore the job's state from this savepoint or retained checkpoint")
	replace := fs.Bool("replace", false, "cancel a running job of the same name first")
	kafka := settings.Kafka.String(fs.FlagSet)
	return f.run(env, fs, args, func(ctx context.Context, c *flink.Client) int {
		jobArgs, err := withKafka(fs.Args(), *kafka, *f.name)
		if err != nil {
			return env.Fail("%v", err)
		}
		build, err := flink.JarBuild(*jar)
		if err != nil {
			return env.Fail("%v", err)
		}
		fmt.Fprintf(env.Stderr, "job %s: %s from %s\n", *f.name, build, *jar)
		id, started, err := c.Submit(ctx, flink.Submission{Name: *f.name, Jar: *jar, Savepoint: *restore,
			Replace: *replace, Wait: *f.wait, Args: jobArgs, StateDir: *f.state})
		if err != nil {
			return env.Fail("%v", err)
		}
		if started {
			fmt.Fprintf(env.Stderr, "job %s running (%s)\n", *f.name, id)
		} else {
			fmt.Fprintf(env.Stderr, "job %s already running (%s): kept\n", *f.name, id)
		}
		fmt.Fprintln(env.Stdout, id)
		return cli.ExitOK
	})
}

// withKafka puts before the job arguments where Kafka is and how the job authenticates to it,
// from the settings the stack exports, each unless the job arguments give it already: --kafka,
// --kafka-security, --kafka-ca and, for sasl_ssl, the job's own identity (the flink user and
// its password file among the stack's secrets; both or neither, never one user's password file
// for another). The security the job arguments name, else the setting's, decides which apply,
// so the job never gets a combination it refuses. As the flink user, the job's name (its group
// and transactional-id prefix) must start with longhaul-, the only ones that user may use.
func withKafka(args []string, bootstrap, name string) ([]string, error) {
	security, given := jobArg(args, settings.KafkaSecurity.Flag)
	if !given {
		security = settings.KafkaSecurity.Value()
	}
	add := [][2]string{{settings.Kafka.Flag, bootstrap}, {settings.KafkaSecurity.Flag, security}}
	switch security {
	case kafkaconn.Plaintext:
	case kafkaconn.SSL, kafkaconn.SASLSSL:
		if ca := settings.KafkaCA.Value(); ca != "" {
			add = append(add, [2]string{settings.KafkaCA.Flag, absolute(ca)})
		}
		_, user := jobArg(args, settings.KafkaUser.Flag)
		_, pwFile := jobArg(args, settings.KafkaPasswordFile.Flag)
		if security == kafkaconn.SSL || user || pwFile {
			break
		}
		dir := settings.SecretsDir.Value()
		if dir == "" {
			return nil, fmt.Errorf("the job's Kafka password file: %s is not set; give --%s and --%s after --",
				settings.SecretsDir.Env, settings.KafkaUser.Flag, settings.KafkaPasswordFile.Flag)
		}
		if !strings.HasPrefix(name, kafkaadmin.JobPrefix) {
			return nil, fmt.Errorf("job name %q: as the Kafka user %s the job may use only groups and transactional ids "+
				"starting with %s (its name): name it %s…", name, kafkaadmin.Flink, kafkaadmin.JobPrefix, kafkaadmin.JobPrefix)
		}
		add = append(add, [2]string{settings.KafkaUser.Flag, kafkaadmin.Flink},
			[2]string{settings.KafkaPasswordFile.Flag, absolute(filepath.Join(dir, "kafka-"+kafkaadmin.Flink+".password"))})
	default:
		return nil, fmt.Errorf("kafka security %q (%s or --%s): want %s, %s or %s", security, settings.KafkaSecurity.Env,
			settings.KafkaSecurity.Flag, kafkaconn.SASLSSL, kafkaconn.SSL, kafkaconn.Plaintext)
	}
	var out []string
	for _, kv := range add {
		if _, given := jobArg(args, kv[0]); !given {
			out = append(out, "--"+kv[0], kv[1])
		}
	}
	return append(out, args...), nil
}

// jobArg finds a job argument by name (--name value, or -name value as Flink's ParameterTool
// also reads it).
func jobArg(args []string, name string) (value string, given bool) {
	for i, a := range args {
		if a == "--"+name || a == "-"+name {
			if i+1 < len(args) {
				return args[i+1], true
			}
			return "", true
		}
	}
	return "", false
}

// absolute makes a path absolute, as the job requires (it reads files on the cluster's hosts,
// not in this command's working directory); the native stack's cluster shares this host.
func absolute(path string) string {
	if p, err := filepath.Abs(path); err == nil {
		return p
	}
	return path
}

func runJobList(env *cli.Env, args []string) int {
	fs := env.FlagSet("", "")
	f := addJobFlags(fs.FlagSet)
	return f.run(env, fs, args, func(ctx context.Context, c *flink.Client) int {
		jobs, err := c.Jobs(ctx)
		if err != nil {
			return env.Fail("%v", err)
		}
		t := &render.TextTable{Header: []string{"id", "state", "started (UTC)", "name"}}
		for _, j := range jobs {
			t.Add(j.ID, j.State, render.FormatTime(j.Start), j.Name)
		}
		_ = t.Write(env.Stdout)
		return cli.ExitOK
	})
}

// running finds the running job of the flags' name.
func (f jobFlags) running(ctx context.Context, c *flink.Client) (string, error) {
	jobs, err := c.Running(ctx, *f.name)
	if err != nil {
		return "", err
	}
	if len(jobs) == 0 {
		return "", fmt.Errorf("no job named %s is running", *f.name)
	}
	return jobs[0].ID, nil
}

func runJobSavepoint(stop bool) func(*cli.Env, []string) int {
	return func(env *cli.Env, args []string) int {
		fs := env.FlagSet("[--name N] [--dir DIR]", "")
		f := addJobFlags(fs.FlagSet)
		dir := fs.String("dir", "", "savepoint folder (default: savepoints/<name> of --state-dir, else the cluster's)")
		return f.run(env, fs, args, func(ctx context.Context, c *flink.Client) int {
			if *dir == "" && *f.state != "" {
				*dir = "file://" + flink.SavepointDir(*f.state, *f.name)
			}
			id, err := f.running(ctx, c)
			if err != nil {
				return env.Fail("%v", err)
			}
			var loc string
			if stop {
				loc, err = c.StopWithSavepoint(ctx, id, *dir, *f.wait)
			} else {
				loc, err = c.TakeSavepoint(ctx, id, *dir, *f.wait)
			}
			if err != nil {
				return env.Fail("%v", err)
			}
			fmt.Fprintln(env.Stdout, loc)
			return cli.ExitOK
		})
	}
}

func runJobCancel(env *cli.Env, args []string) int {
	fs := env.FlagSet("[--name N]", "Then, as abort-transactions, aborts any Kafka transaction of the job still open.")
	f := addJobFlags(fs.FlagSet)
	admin := addAdminFlags(fs.FlagSet)
	return f.run(env, fs, args, func(ctx context.Context, c *flink.Client) int {
		id, err := f.running(ctx, c)
		if err == nil {
			err = c.CancelAndWait(ctx, id, *f.wait)
		}
		if err != nil {
			return env.Fail("%v", err)
		}
		fmt.Fprintf(env.Stdout, "job %s (%s) canceled\n", *f.name, id)
		return abortTransactions(env, admin, *f.name)
	})
}

const jobAbortTransactionsDoc = `A job whose TaskManager died (killed, out of memory, its host gone) and that is not
restarted under its name leaves the Kafka transaction of its last checkpoint open until
its timeout (the job's --transaction-timeout, 10 min): every read_committed reader of
those partitions (the alert bridge, Telegraf, the agents' probe requests) waits behind it,
even for what others wrote after it, such as the watchdog's alert that the job is gone.
This aborts them, on the admin listener; what the job had not committed is lost either way.`

func runJobAbortTransactions(env *cli.Env, args []string) int {
	fs := env.FlagSet("[--name N]", jobAbortTransactionsDoc)
	name := fs.String("name", flink.DefaultName, "job name")
	admin := addAdminFlags(fs.FlagSet)
	if code, done := fs.Parse(args); done {
		return code
	}
	return abortTransactions(env, admin, *name)
}

// abortTransactions aborts job name's open Kafka transactions and says which.
func abortTransactions(env *cli.Env, admin adminFlags, name string) int {
	var aborted []string
	if err := admin.do(func(ctx context.Context, conn kafkaconn.Conn) (err error) {
		aborted, err = kafkaadmin.AbortOpenTransactions(ctx, conn, kafkaadmin.JobTransactions(name))
		return err
	}); err != nil {
		return env.Fail("the open Kafka transactions of job %s were not aborted (read_committed readers of its "+
			"topics wait until they time out): %v", name, err)
	}
	fmt.Fprintf(env.Stdout, "aborted %d open Kafka transactions of job %s%s\n", len(aborted), name, listed(aborted))
	return cli.ExitOK
}

func listed(ids []string) string {
	if len(ids) == 0 {
		return ""
	}
	return ": " + strings.Join(ids, ", ")
}
