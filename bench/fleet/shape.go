package main

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"
)

// wlcg is the cadence of WLCG's perfSONAR meshes (the LHCOPN template's tasks, IPv4 alone): a
// latencybg result per directed pair a minute, traceroute every 10 minutes started within 5 at
// random, throughput every 6 hours within 3. A pattern read with -pattern replaces it.
var wlcg = map[string]any{
	"tests": map[string]any{
		"latency": map[string]any{"type": "latencybg", "spec": map[string]any{"schema": 1,
			"source": "{% address[0] %}", "dest": "{% address[1] %}", "packet-interval": 0.1,
			"bucket-width": 0.001, "packet-count": 600}},
		"trace": map[string]any{"type": "trace", "spec": map[string]any{"schema": 1,
			"source": "{% address[0] %}", "dest": "{% address[1] %}", "wait": "PT1M", "length": 1200,
			"first-ttl": 1, "probe-type": "udp", "ip-version": 4}},
		"throughput": map[string]any{"type": "throughput", "spec": map[string]any{"schema": 1,
			"source": "{% address[0] %}", "dest": "{% address[1] %}", "duration": "PT25S", "omit": "PT5S",
			"ip-version": 4}},
	},
	"schedules": map[string]any{
		"trace":      map[string]any{"repeat": "PT10M", "slip": "PT5M", "sliprand": true},
		"throughput": map[string]any{"repeat": "PT6H", "slip": "PT3H", "sliprand": true},
	},
	"tasks": map[string]any{
		"latency":    map[string]any{"group": "mesh", "test": "latency"},
		"trace":      map[string]any{"group": "mesh", "test": "trace", "schedule": "trace", "tools": []string{"traceroute"}},
		"throughput": map[string]any{"group": "mesh", "test": "throughput", "schedule": "throughput", "tools": []string{"iperf3"}},
	},
	"groups": map[string]any{"mesh": map[string]any{"type": "mesh"}},
}

// HostNames are the fleet's n hosts, prefix-h0000 on.
func HostNames(prefix string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%s-h%04d", prefix, i)
	}
	return out
}

// Meshes are pSConfig templates, one per mesh of size hosts in turn (the last may be smaller):
// the pattern's tests, schedules and tasks, every mesh group of it over the mesh's hosts.
func Meshes(pattern map[string]any, hosts []string, size int) ([][]byte, error) {
	var out [][]byte
	for lo := 0; lo < len(hosts); lo += size {
		mesh := hosts[lo:min(lo+size, len(hosts))]
		doc, err := meshTemplate(pattern, mesh)
		if err != nil {
			return nil, err
		}
		out = append(out, doc)
	}
	return out, nil
}

func meshTemplate(pattern map[string]any, hosts []string) ([]byte, error) {
	doc := map[string]any{}
	for _, k := range []string{"tests", "schedules", "tasks", "archives"} {
		if v, ok := pattern[k]; ok {
			doc[k] = v
		}
	}
	addrs, members := map[string]any{}, []any{}
	for _, h := range hosts {
		addrs[h] = map[string]any{"address": h}
		members = append(members, map[string]any{"name": h})
	}
	groups := map[string]any{}
	pg, _ := pattern["groups"].(map[string]any)
	names := make([]string, 0, len(pg))
	for name := range pg {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		g, _ := pg[name].(map[string]any)
		if g["type"] != "mesh" {
			return nil, fmt.Errorf("pattern group %q is of type %v: a fleet is made of mesh groups", name, g["type"])
		}
		groups[name] = map[string]any{"type": "mesh", "addresses": members}
	}
	doc["addresses"], doc["groups"] = addrs, groups
	return json.Marshal(doc)
}

// ReadPattern is a pSConfig template read as a pattern (its tests, schedules, tasks, groups).
func ReadPattern(path string) (map[string]any, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return m, nil
}
