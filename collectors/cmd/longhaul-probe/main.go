// Command longhaul-probe is the Longhaul agent of a sender host: it runs iperf3, traceroute
// and ping probes against a mesh of targets on a schedule and publishes their samples to
// Kafka through an on-disk spool, so no sample is lost while Kafka is away.
//
//	longhaul-probe run --config FILE     run the agent
//	longhaul-probe check --config FILE   check a config and the tools its probes run
//	longhaul-probe status [--health A]   ask a running agent how it is (its /health)
//	longhaul-probe config sample         print the sample config
//	longhaul-probe plan --psconfig F --host A   the plan a host would run from a pSConfig template
//	longhaul-probe parse ...             parse a tool's saved output into samples
//	longhaul-probe version               which build this is (also --version)
//
// main only wires: one file per subcommand (flags and printing), the help and exit-code rule
// in internal/cli, the logic in config/, schedule/, publish/, agent/ and probes/.
package main

import (
	"os"

	"longhaul/collectors/config"
	"longhaul/internal/cli"
	_ "longhaul/probes/all" // registers every probe kind
)

func main() {
	os.Exit(app.Run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

var app = &cli.App{
	Name: "longhaul-probe",
	Doc: `The Longhaul agent of a sender host: runs iperf3, traceroute, ping and host probes against
a mesh of targets and publishes their samples to Kafka through an on-disk spool.`,
	Commands: []cli.Command{
		{Name: "run", Summary: "run the agent (probes → spool → Kafka, health on 127.0.0.1:9273)", Run: runCmd},
		{Name: "check", Summary: "check a config and that the tools its probes run are installed; run nothing", Run: checkCmd},
		{Name: "status", Summary: "how a running agent is: Kafka (connected, unreachable, refused and why), spool, probes", Run: statusCmd},
		{Name: "config", Summary: "print the sample config (config sample)", Run: configApp.Command},
		{Name: "plan", Summary: "the plan a host would run from a pSConfig template, one JSON object a line", Run: planCmd},
		{Name: "parse", Summary: "parse a tool's saved output into samples", Run: parseCmd},
		cli.VersionCommand(),
	},
}

const defaultConfig = "/etc/longhaul/longhaul-probe.yaml"

// configFlags are the flags of the commands that load a config: --config and the settings
// given outside the file (--kafka, and its old name --brokers).
type configFlags struct {
	fs    *cli.FlagSet
	path  *string
	kafka *string
}

func addConfigFlags(fs *cli.FlagSet) configFlags {
	f := configFlags{fs: fs}
	f.path = fs.String("config", defaultConfig, "the agent's YAML `FILE` (longhaul-probe config sample prints one)")
	f.kafka = fs.String(config.KafkaFlag, "", "Kafka bootstrap `HOST:PORT,...`; over $"+config.KafkaEnv+", over the file's "+config.KafkaKey)
	fs.Deprecated(config.OldKafkaFlag, config.KafkaFlag)
	return f
}

// load loads the config with its settings by precedence: flag > environment > file.
func (f configFlags) load() (*config.Config, error) {
	opt := config.Options{}.WithEnv()
	if from := f.fs.SetAs(config.KafkaFlag); from != "" {
		opt.Kafka = config.Override{From: from, Value: *f.kafka}
	}
	return config.LoadWith(*f.path, opt)
}
