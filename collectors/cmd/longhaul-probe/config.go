package main

import (
	"fmt"

	"longhaul/collectors/config"
	"longhaul/internal/cli"
)

var configApp = &cli.App{
	Name: "longhaul-probe config",
	Doc:  "The agent's configuration.",
	Commands: []cli.Command{
		{Name: "sample", Summary: "print the sample config: every field and every probe kind, defaults commented", Run: configSampleCmd},
	},
}

const configSampleDoc = `Prints the sample config: the agent's fields, then one probe of every kind with its params.
Required fields are set, optional ones commented with their default. It loads as it is:
  longhaul-probe config sample > longhaul-probe.yaml
  longhaul-probe check --config longhaul-probe.yaml`

func configSampleCmd(env *cli.Env, args []string) int {
	if code, done := env.FlagSet("", configSampleDoc).Parse(args); done {
		return code
	}
	if _, err := fmt.Fprint(env.Stdout, config.Sample()); err != nil {
		return env.Fail("%v", err)
	}
	return cli.ExitOK
}
