// Package settings names every setting that more than one Longhaul program reads: one flag
// name, one environment variable and one default each, so `--kafka`, `LONGHAUL_KAFKA` and
// `kafka.bootstrap` (the agent's config key) mean the same thing everywhere. Scripts, tests
// and docs use the same names (scripts/stack/defaults.env derives them from the stack's ports).
package settings

import (
	"flag"
	"fmt"
	"os"
	"strings"
)

// Setting is one named setting: a flag, the environment variable that gives the flag's
// default, and the default when neither is set.
type Setting struct {
	Flag    string
	Env     string
	Default string
	Usage   string
}

// The settings shared by the agent, the operator CLI, the bench tools, the scripts and tests.
var (
	Kafka      = Setting{"kafka", "LONGHAUL_KAFKA", "127.0.0.1:9092", "Kafka bootstrap servers, host:port comma-separated"}
	Influx     = Setting{"influx", "LONGHAUL_INFLUX", "http://127.0.0.1:8086", "InfluxDB base URL"}
	InfluxDB   = Setting{"influx-db", "LONGHAUL_INFLUX_DB", "longhaul", "InfluxDB database"}
	Flink      = Setting{"flink", "LONGHAUL_FLINK", "http://127.0.0.1:8081", "Flink REST base URL"}
	Dashboards = Setting{"dashboards", "LONGHAUL_DASHBOARDS", "", "folder of the Grafana dashboard JSON (default: dashboards/json of the Longhaul root)"}
)

// Value is the environment's value, else the default.
func (s Setting) Value() string {
	if v := os.Getenv(s.Env); v != "" {
		return v
	}
	return s.Default
}

// String registers the setting's flag on fs, defaulting to Value(); its usage names the
// variable.
func (s Setting) String(fs *flag.FlagSet) *string {
	return fs.String(s.Flag, s.Value(), fmt.Sprintf("%s (env %s)", s.Usage, s.Env))
}

// List splits a comma-separated value (Kafka's bootstrap list), dropping empty items.
func List(v string) []string {
	var out []string
	for _, p := range strings.Split(v, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}
