package cli

import (
	"encoding/json"
	"fmt"
	"strings"

	"longhaul/internal/version"
)

// VersionCommand is the `version` command of a Longhaul binary (`--version` runs it too): the
// release version, commit, build date and Go version, one line or --json.
func VersionCommand() Command {
	return Command{Name: "version", Summary: "print the version, commit, build date and Go version (also --version)", Run: runVersion}
}

func runVersion(env *Env, args []string) int {
	fs := env.FlagSet("[--json]", "Prints which build this is: version, commit, build date, Go version.")
	asJSON := fs.Bool("json", false, "print it as a JSON object")
	if code, done := fs.Parse(args); done {
		return code
	}
	info := version.Get()
	if *asJSON {
		b, _ := json.Marshal(info)
		fmt.Fprintln(env.Stdout, string(b))
		return ExitOK
	}
	fmt.Fprintln(env.Stdout, info.String(env.Program()))
	return ExitOK
}

// Program is the binary's name: "longhaul-probe" of "longhaul-probe version".
func (e *Env) Program() string {
	name, _, _ := strings.Cut(e.Name, " ")
	return name
}
