package agent

import "strings"

// toolKeep are the variables of the agent's environment a tool may see: PATH (where LookPath
// found it), TMPDIR and TZ.
var toolKeep = []string{"PATH", "TMPDIR", "TZ"}

// toolEnv is the environment a tool runs with: toolKeep's variables from env, and the C locale its
// output is parsed in. Nothing else reaches a tool: not the agent's settings and secrets
// (LONGHAUL_*: a password file's path, a pScheduler token), not proxies, not LD_PRELOAD.
func toolEnv(env []string) []string {
	out := make([]string, 0, len(toolKeep)+1)
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		for _, k := range toolKeep {
			if name == k {
				out = append(out, kv)
			}
		}
	}
	return append(out, "LC_ALL=C")
}
