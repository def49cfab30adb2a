// Command longhaul-fleet simulates a perfSONAR fleet's pScheduler hosts archiving their results to
// Longhaul's pScheduler bridge, as their HTTP archiver does: hosts, meshes, tests and cadences
// from pSConfig templates (real ones, or meshes generated at any size after a pattern), results
// shaped as pScheduler's, posted with each host's archive file and retried by its retry policy,
// faults at known times, in real or compressed time. bench/README.md says how to run it.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"longhaul/perfsonar/psconfig"
)

type multi []string

func (m *multi) String() string     { return strings.Join(*m, ",") }
func (m *multi) Set(s string) error { *m = append(*m, s); return nil }

type options struct {
	templates, faults     multi
	hosts, mesh, parallel int
	pattern, prefix       string
	archives, archive, ca string
	duration, drain       time.Duration
	speed                 float64
	out                   string
	plan                  bool
}

func main() {
	var o options
	register(flag.CommandLine, &o)
	flag.Parse()
	if err := run(o); err != nil {
		fmt.Fprintln(os.Stderr, "longhaul-fleet:", err)
		os.Exit(1)
	}
}

// register defines the command's flags on fs into o.
func register(fs *flag.FlagSet, o *options) {
	fs.Var(&o.templates, "psconfig", "a pSConfig template file (repeatable): its addresses are the hosts")
	fs.IntVar(&o.hosts, "hosts", 0, "generate a fleet of this many hosts instead")
	fs.IntVar(&o.mesh, "mesh", 30, "hosts per generated mesh")
	fs.StringVar(&o.pattern, "pattern", "", "a pSConfig template whose tests, schedules and tasks each generated mesh gets (default: WLCG's cadence)")
	fs.StringVar(&o.prefix, "prefix", "fleet", "generated hosts are PREFIX-h0000 on")
	fs.StringVar(&o.archives, "archives", "", "folder of the hosts' files from add-pscheduler-host: DIR/pscheduler-HOST/longhaul-http.json")
	fs.StringVar(&o.archive, "archive", "", "one HTTP archive file every host uses (instead of -archives)")
	fs.StringVar(&o.ca, "ca", "", "the CA the hosts trust for the bridge's certificate (default: each host's ca.crt)")
	fs.IntVar(&o.parallel, "parallel", 25, "posts one host makes at once (pScheduler's archiver pool size)")
	fs.DurationVar(&o.duration, "duration", 10*time.Minute, "simulated time to run")
	fs.DurationVar(&o.drain, "drain", 2*time.Minute, "wall time to wait for retries after the end")
	fs.Float64Var(&o.speed, "speed", 1, "simulated time per wall time: 1 is real time; above 1 the run covers the past up to now")
	fs.StringVar(&o.out, "out", "", "write one JSON line per result archived here")
	fs.BoolVar(&o.plan, "plan", false, "print the fleet's shape (hosts, streams, results/s by test) and exit")
	fs.Var(&o.faults, "fault", "a fault at a known time (repeatable): site:HOST@+10m, host:HOST@+10m, carrier:HOP@+10m/+40m:SRC>DST:+40ms,5% (bench/README.md)")
}

func run(o options) error {
	streams, skipped, err := fleetStreams(o)
	if err != nil {
		return err
	}
	shape := Shape(streams)
	shape["skipped"] = skipped
	if o.plan {
		return json.NewEncoder(os.Stdout).Encode(map[string]any{"figure": "fleet_shape", "shape": shape})
	}
	hosts, err := archivers(o, streams)
	if err != nil {
		return err
	}
	start := time.Now()
	if o.speed > 1 {
		start = start.Add(-time.Duration(float64(o.duration) * (1 - 1/o.speed)))
	}
	clock := Clock{Start: start, Wall0: time.Now(), Speed: o.speed}
	var faults []Fault
	for _, spec := range o.faults {
		f, err := ParseFault(spec, hostList(streams), start)
		if err != nil {
			return err
		}
		faults = append(faults, f)
	}
	var out io.Writer // nil: no line per result
	if o.out != "" {
		f, err := os.Create(o.out)
		if err != nil {
			return err
		}
		defer f.Close()
		out = f
	}
	rec := NewRecorder(out)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	fmt.Fprintf(os.Stderr, "longhaul-fleet: %d hosts, %d streams, %.1f results/s, %s simulated from %s at %gx\n",
		shape["hosts"], len(streams), shape["results_per_s"], o.duration, start.UTC().Format(time.RFC3339), o.speed)
	Simulate(ctx, clock, streams, hosts, Network{Faults: faults}, o.duration, rec)
	drain, cancel := context.WithTimeout(context.Background(), o.drain)
	defer cancel()
	<-drain.Done()
	sum := rec.Summary()
	sum["figure"], sum["shape"], sum["speed"], sum["simulated_s"] = "fleet", shape, o.speed, o.duration.Seconds()
	sum["start_ms"] = start.UnixMilli()
	return json.NewEncoder(os.Stdout).Encode(sum)
}

// Simulate archives every result the streams make in the simulated span, each as it is ready.
func Simulate(ctx context.Context, clock Clock, streams []Stream, hosts map[string]*Host, net Network, span time.Duration, rec *Recorder) {
	var wg sync.WaitGroup
	var seq uint64
	end := clock.Start.Add(span)
	for t := clock.Start; t.Before(end) && ctx.Err() == nil; t = t.Add(time.Minute) {
		to := t.Add(time.Minute)
		if to.After(end) {
			to = end
		}
		for _, d := range DueBetween(streams, t, to, &seq) {
			if !clock.Until(ctx, d.Ready()) {
				break
			}
			rec.Ready(d.Stream.Test)
			if silenced(net.Faults, d.Stream.Host, d.Ready()) {
				rec.Silence()
				continue
			}
			body, err := Encode(d, net)
			if err != nil {
				continue
			}
			wg.Add(1)
			go hosts[d.Stream.Host].Send(ctx, clock, d, body, rec, &wg)
		}
	}
	wg.Wait()
}

func silenced(faults []Fault, host string, t time.Time) bool {
	return slices.ContainsFunc(faults, func(f Fault) bool { return f.Silences(host, t) })
}

// fleetStreams reads or generates the templates and expands them.
func fleetStreams(o options) ([]Stream, map[string]int, error) {
	var docs [][]byte
	var names []string
	switch {
	case o.hosts > 0 && len(o.templates) > 0:
		return nil, nil, fmt.Errorf("-hosts generates a fleet, -psconfig reads one: not both")
	case o.hosts > 0:
		pattern := wlcg
		if o.pattern != "" {
			p, err := ReadPattern(o.pattern)
			if err != nil {
				return nil, nil, err
			}
			pattern = p
		}
		ms, err := Meshes(pattern, HostNames(o.prefix, o.hosts), o.mesh)
		if err != nil {
			return nil, nil, err
		}
		for i, m := range ms {
			docs, names = append(docs, m), append(names, fmt.Sprintf("mesh %d", i))
		}
	case len(o.templates) > 0:
		for _, p := range o.templates {
			raw, err := os.ReadFile(p)
			if err != nil {
				return nil, nil, err
			}
			docs, names = append(docs, raw), append(names, p)
		}
	default:
		return nil, nil, fmt.Errorf("give -psconfig FILE or -hosts N")
	}
	var all []Stream
	skipped := map[string]int{}
	for i, raw := range docs {
		t, err := psconfig.Parse(names[i], raw)
		if err != nil {
			return nil, nil, err
		}
		s, sk := Streams(t)
		all = append(all, s...)
		for k, v := range sk {
			skipped[k] += v
		}
	}
	if len(all) == 0 {
		return nil, nil, fmt.Errorf("the templates make no test with a cadence (%v)", skipped)
	}
	return all, skipped, nil
}

// archivers is each host's archiving, from its archive file.
func archivers(o options, streams []Stream) (map[string]*Host, error) {
	var ca []byte
	if o.ca != "" {
		b, err := os.ReadFile(o.ca)
		if err != nil {
			return nil, err
		}
		ca = b
	}
	out := map[string]*Host{}
	for _, name := range hostList(streams) {
		path := o.archive
		hostCA := ca
		if path == "" {
			if o.archives == "" {
				return nil, fmt.Errorf("give -archives DIR (add-pscheduler-host's files per host) or -archive FILE")
			}
			dir := filepath.Join(o.archives, "pscheduler-"+name)
			path = filepath.Join(dir, "longhaul-http.json")
			if hostCA == nil {
				b, err := os.ReadFile(filepath.Join(dir, "ca.crt"))
				if err != nil {
					return nil, err
				}
				hostCA = b
			}
		}
		a, err := ReadArchive(path)
		if err != nil {
			return nil, err
		}
		if out[name], err = NewHost(name, a, o.parallel, hostCA); err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
	}
	return out, nil
}

func hostList(streams []Stream) []string {
	var out []string
	for _, s := range streams {
		out = append(out, s.Host)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// Shape is the fleet's size: hosts, streams and results a second by test type.
func Shape(streams []Stream) map[string]any {
	byTest, rate := map[string]int{}, map[string]float64{}
	total := 0.0
	for _, s := range streams {
		byTest[s.Test]++
		r := 1 / s.Every.Seconds()
		rate[s.Test] += r
		total += r
	}
	for k, v := range rate {
		rate[k] = float64(int(v*1000)) / 1000
	}
	links := map[string]bool{}
	for _, s := range streams {
		links[s.Src+"|"+s.Dst] = true
	}
	return map[string]any{"hosts": len(hostList(streams)), "streams": len(streams), "links": len(links),
		"streams_by_test": byTest, "results_per_s_by_test": rate, "results_per_s": float64(int(total*1000)) / 1000}
}
