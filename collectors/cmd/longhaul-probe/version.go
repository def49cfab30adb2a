package main

import (
	"fmt"

	"longhaul/internal/cli"
)

func versionCmd(env *cli.Env, args []string) int {
	if code, done := env.FlagSet("", "Prints the version.").Parse(args); done {
		return code
	}
	fmt.Fprintf(env.Stdout, "longhaul-probe %s\n", version)
	return cli.ExitOK
}
