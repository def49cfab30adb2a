package main

import (
	"context"
	"fmt"
	"os"
	"os/user"
	"strings"
	"text/tabwriter"
	"time"

	"longhaul/internal/cli"
	"longhaul/internal/settings"
	"longhaul/operator/alerting"
)

const silenceDoc = `Maintenance windows: silences Longhaul's alerts of a site (every link to or from it: two
silences, one per end), of one link, or of one incident (--incident, its episode id: the incident
label of its alert; its links' own alerts stay inhibited under it) in Alertmanager, from now for
--for. An incident at a hop has no site: silence it by its id. 'silence list' prints
the silences (--all: expired ones too); 'silence expire ID...' ends them now.
Alertmanager identity: LONGHAUL_ALERTMANAGER_USER and LONGHAUL_ALERTMANAGER_PASSWORD_FILE (on a
native stack host the operator user), LONGHAUL_ALERTMANAGER_CA.`

func runSilence(env *cli.Env, args []string) int {
	if len(args) > 0 && (args[0] == "list" || args[0] == "expire") {
		return runSilenceAdmin(env, args[0], args[1:])
	}
	fs := env.FlagSet("--site S | --link SRC:DST | --incident ID --for 2h --comment TEXT | list [--all] | expire ID...", silenceDoc)
	amURL := settings.Alertmanager.String(fs.FlagSet)
	site := fs.String("site", "", "silence every alert to or from this site")
	link := fs.String("link", "", "silence every alert of this link, SRC:DST ([IPv6]:DST)")
	incident := fs.String("incident", "", "silence this incident (its episode id, the alert's incident label)")
	dur := fs.Duration("for", 0, "how long, from now (e.g. 2h)")
	comment := fs.String("comment", "", "why (a ticket, a maintenance notice): required")
	author := fs.String("author", defaultAuthor(), "who")
	if code, done := fs.Parse(args); done {
		return code
	}
	if given := btoi(*site != "") + btoi(*link != "") + btoi(*incident != ""); given != 1 {
		return env.UsageError("give one of --site, --link or --incident")
	}
	if *dur <= 0 || strings.TrimSpace(*comment) == "" {
		return env.UsageError("--for must be positive and --comment is required")
	}
	var sets [][]alerting.Matcher
	switch {
	case *site != "":
		sets = alerting.SiteSilences(*site)
	case *incident != "":
		sets = [][]alerting.Matcher{alerting.IncidentSilence(*incident)}
	default:
		src, dst, err := alerting.ParseLink(*link)
		if err != nil {
			return env.UsageError("%v", err)
		}
		sets = [][]alerting.Matcher{alerting.LinkSilence(src, dst)}
	}
	am, err := alerting.FromSettings(*amURL)
	if err != nil {
		return env.UsageError("%v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for _, m := range sets {
		id, err := am.CreateSilence(ctx, m, *dur, *author, *comment)
		if err != nil {
			return env.Fail("%v", err)
		}
		fmt.Fprintf(env.Stdout, "silenced %s until %s: %s\n", alerting.MatchersString(m),
			time.Now().Add(*dur).UTC().Format(time.RFC3339), id)
	}
	return cli.ExitOK
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

func defaultAuthor() string {
	if u, err := user.Current(); err == nil && u.Username != "" {
		return u.Username
	}
	if h, err := os.Hostname(); err == nil {
		return h
	}
	return "longhaul"
}

func runSilenceAdmin(env *cli.Env, sub string, args []string) int {
	env = &cli.Env{Name: env.Name + " " + sub, Stdin: env.Stdin, Stdout: env.Stdout, Stderr: env.Stderr}
	usage, doc := "[--all]", "Prints Alertmanager's silences: id, state, matchers, end, author, comment."
	if sub == "expire" {
		usage, doc = "ID...", "Ends the silences now."
	}
	fs := env.FlagSet(usage, doc)
	if sub == "expire" {
		fs.ArgsUsage = "ID..."
	}
	amURL := settings.Alertmanager.String(fs.FlagSet)
	all := fs.Bool("all", false, "list expired silences too")
	if code, done := fs.Parse(args); done {
		return code
	}
	am, err := alerting.FromSettings(*amURL)
	if err != nil {
		return env.UsageError("%v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if sub == "expire" {
		if fs.NArg() == 0 {
			return env.UsageError("give the id of each silence to end")
		}
		for _, id := range fs.Args() {
			if err := am.ExpireSilence(ctx, id); err != nil {
				return env.Fail("%s: %v", id, err)
			}
			fmt.Fprintf(env.Stdout, "expired %s\n", id)
		}
		return cli.ExitOK
	}
	list, err := am.Silences(ctx)
	if err != nil {
		return env.Fail("%v", err)
	}
	w := tabwriter.NewWriter(env.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "ID\tSTATE\tMATCHERS\tENDS\tBY\tCOMMENT")
	for _, s := range list {
		state := ""
		if s.Status != nil {
			state = s.Status.State
		}
		if state == "expired" && !*all {
			continue
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%s\n", s.ID, state, alerting.MatchersString(s.Matchers),
			s.EndsAt.UTC().Format(time.RFC3339), s.CreatedBy, s.Comment)
	}
	if err := w.Flush(); err != nil {
		return env.Fail("%v", err)
	}
	return cli.ExitOK
}
