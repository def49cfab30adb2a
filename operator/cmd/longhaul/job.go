package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"time"

	"longhaul/internal/checkout"
	"longhaul/internal/settings"
	"longhaul/operator/flink"
	"longhaul/operator/render"
)

func init() {
	register("job", "the Flink job's lifecycle: submit, list, savepoint, stop (with a savepoint), cancel", runJob)
}

const jobUsage = `usage: longhaul job <submit|list|savepoint|stop|cancel> [flags] [-- job arguments]

  submit     start the job unless one of that name runs; waits until every task runs and
             prints its id. Job arguments after -- (flink-jobs/README.md); --kafka is passed
             from LONGHAUL_KAFKA unless given there.
  list       every job of the cluster: id, state, name
  savepoint  take a savepoint of the running job; prints its location
  stop       stop the job after a savepoint; prints its location
  cancel     cancel the job (no savepoint)
`

func runJob(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" {
		w, code := stderr, 2
		if len(args) > 0 {
			w, code = stdout, 0
		}
		fmt.Fprint(w, jobUsage)
		return code
	}
	action, args := args[0], args[1:]
	fs := flag.NewFlagSet("job "+action, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, jobUsage); fs.PrintDefaults() }
	url := settings.Flink.String(fs)
	name := fs.String("name", flink.DefaultName, "job name (its consumer group and transactional-id prefix too)")
	wait := fs.Duration("wait", 2*time.Minute, "how long to wait for the job to run, stop or save")
	var jar, restore, dir, kafka *string
	var replace *bool
	switch action {
	case "submit":
		jar = fs.String("jar", checkout.Path("bin", "longhaul-flink.jar"), "the job jar")
		restore = fs.String("from-savepoint", "", "restore the job's state from this savepoint or retained checkpoint")
		replace = fs.Bool("replace", false, "cancel a running job of the same name first")
		kafka = settings.Kafka.String(fs)
	case "savepoint", "stop":
		dir = fs.String("dir", "", "savepoint folder (default: the cluster's state.savepoints.dir)")
	case "list", "cancel":
	default:
		fmt.Fprintf(stderr, "longhaul job: unknown action %q\nrun 'longhaul job --help' for usage\n", action)
		return 2
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if action != "submit" && fs.NArg() > 0 {
		fmt.Fprintf(stderr, "longhaul job %s: unexpected argument %q\nrun 'longhaul job --help' for usage\n", action, fs.Arg(0))
		return 2
	}
	ctx, cancel := context.WithTimeout(context.Background(), *wait+time.Minute)
	defer cancel()
	c := &flink.Client{URL: *url}
	err := func() error {
		switch action {
		case "submit":
			return submitJob(ctx, c, stdout, stderr, flink.Submission{Name: *name, Jar: *jar, Savepoint: *restore,
				Replace: *replace, Wait: *wait, Args: withKafka(fs.Args(), *kafka)})
		case "list":
			return listJobs(ctx, c, stdout)
		}
		jobs, err := c.Running(ctx, *name)
		if err != nil {
			return err
		}
		if len(jobs) == 0 {
			return fmt.Errorf("no job named %s is running", *name)
		}
		id := jobs[0].ID
		switch action {
		case "cancel":
			if err := c.CancelAndWait(ctx, id, *wait); err != nil {
				return err
			}
			fmt.Fprintf(stdout, "job %s (%s) canceled\n", *name, id)
			return nil
		case "stop":
			loc, err := c.StopWithSavepoint(ctx, id, *dir, *wait)
			if err == nil {
				fmt.Fprintln(stdout, loc)
			}
			return err
		default:
			loc, err := c.TakeSavepoint(ctx, id, *dir, *wait)
			if err == nil {
				fmt.Fprintln(stdout, loc)
			}
			return err
		}
	}()
	if err != nil {
		fmt.Fprintf(stderr, "longhaul job %s: %v\n", action, err)
		return 1
	}
	return 0
}

// withKafka passes the Kafka setting to the job unless the job arguments name it already.
func withKafka(args []string, kafka string) []string {
	for _, a := range args {
		if a == "--"+settings.Kafka.Flag {
			return args
		}
	}
	return append([]string{"--" + settings.Kafka.Flag, kafka}, args...)
}

// submitJob prints the job's id on stdout (for scripts) and what happened on stderr.
func submitJob(ctx context.Context, c *flink.Client, stdout, stderr io.Writer, s flink.Submission) error {
	id, started, err := c.Submit(ctx, s)
	if err != nil {
		return err
	}
	if started {
		fmt.Fprintf(stderr, "job %s running (%s)\n", s.Name, id)
	} else {
		fmt.Fprintf(stderr, "job %s already running (%s): kept\n", s.Name, id)
	}
	fmt.Fprintln(stdout, id)
	return nil
}

func listJobs(ctx context.Context, c *flink.Client, stdout io.Writer) error {
	jobs, err := c.Jobs(ctx)
	if err != nil {
		return err
	}
	t := &render.TextTable{Header: []string{"id", "state", "started (UTC)", "name"}}
	for _, j := range jobs {
		t.Add(j.ID, j.State, render.FormatTime(j.Start), j.Name)
	}
	return t.Write(stdout)
}
