package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"longhaul/internal/cli"
	"longhaul/internal/version"
	"longhaul/perfsonar/psconfig"
)

const planDoc = `Prints the plan a host would run from a pSConfig template (a file or an https:// URL, as
the agent's psconfig.url): every pair of every enabled task that this host schedules, one JSON
object a line, in task order:

  {"task":"bw","test":"throughput","src":"ps1.example.org","dst":"ps2.example.org",
   "tool":"iperf3","interval_s":21600,"slip_s":10800,"sliprand":true}

src and dst are the test's source and dest as written in the template. A pair the host
schedules and cannot run has "unsupported" with the reason and runs nothing; "reverse" says
the run goes from this host with the far end sending (its source has no agent);
"spec_ignored" lists the spec fields Longhaul's probe does not apply; "labels" the display
names (_meta, reference). What the template asks for and no plan applies (includes, a
schedule's until) is warned about on stderr. --host is the host as the template names it: an address's name or
its address; repeat it (or separate with commas) for a host with several. Runs nothing.
With --list-hosts it prints instead the names of the template's addresses (its includes
merged), one a line, for a script to plan each. Exits 1 when the template cannot be read or
is invalid, or when no address of it is --host.`

// planCmd is `longhaul-probe plan`.
func planCmd(env *cli.Env, args []string) int {
	fs := env.FlagSet("--psconfig FILE_OR_URL (--host ADDRESS | --list-hosts) [--ca-file FILE]", planDoc)
	src := fs.String("psconfig", "", "the pSConfig template: a `FILE_OR_URL` (https://, file:// or a path)")
	var hosts listFlag
	fs.Var(&hosts, "host", "this host in the template: an address's name or its `ADDRESS` (repeatable)")
	ca := fs.String("ca-file", "", "the CA (PEM `FILE`) of the https server; default the system's roots")
	list := fs.Bool("list-hosts", false, "print the names of the template's addresses instead of a plan")
	if code, done := fs.Parse(args); done {
		return code
	}
	if *src == "" {
		return env.UsageError("--psconfig is required")
	}
	if len(hosts) == 0 && !*list {
		return env.UsageError("--host is required")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	t, _, err := psconfig.NewSource(*src, psconfig.Options{CAFile: *ca, UserAgent: "longhaul-probe/" + version.Get().Version}).Refresh(ctx)
	if err != nil {
		return env.Fail("%v", err)
	}
	if *list {
		for _, name := range t.AddressNames() {
			fmt.Fprintln(env.Stdout, name)
		}
		return cli.ExitOK
	}
	if !t.Knows(hosts) {
		return env.Fail("no address of %s is %s (give an address's name or its address as written)", *src, strings.Join(hosts, ", "))
	}
	for _, w := range t.Warnings() {
		env.Warn("%s", w)
	}
	for _, e := range t.Plan(hosts) {
		fmt.Fprintln(env.Stdout, e.JSON())
	}
	return cli.ExitOK
}

// listFlag is a flag given more than once, or with commas.
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }

func (l *listFlag) Set(s string) error {
	for _, v := range strings.Split(s, ",") {
		if v = strings.TrimSpace(v); v != "" {
			*l = append(*l, v)
		}
	}
	return nil
}
