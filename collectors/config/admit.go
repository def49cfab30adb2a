package config

import (
	"errors"
	"fmt"
	"os/exec"

	"longhaul/probes/probe"
)

// ToolCheck is one program a configured probe runs, looked up the way the runner will run it.
type ToolCheck struct {
	ProbeID, Kind, Tool string
	Path                string      // where it was found; "" when it was not
	Missing             *FieldError // FILE:LINE of the probe entry and why, when it was not
}

// CheckTools is the admission check (pScheduler's can-run): it looks up every program of
// every built probe (probe.ToolUser) with lookPath — exec.LookPath, what the runner uses — so
// a missing tool is said up front, naming the probe and the tool, instead of being found
// out by each run failing with tool_missing. In config order.
func (c *Config) CheckTools(insts []Instance, lookPath func(string) (string, error)) []ToolCheck {
	index := map[*Probe]int{}
	for i := range c.Probes {
		index[&c.Probes[i]] = i
	}
	var out []ToolCheck
	for _, in := range insts {
		u, ok := in.Probe.(probe.ToolUser)
		if !ok {
			continue
		}
		for _, tool := range u.Tools() {
			tc := ToolCheck{ProbeID: in.Conf.ID, Kind: in.Conf.Kind, Tool: tool.Name}
			path, err := lookPath(tool.Name)
			if err == nil {
				tc.Path = path
			} else {
				why := err.Error()
				if errors.Is(err, exec.ErrNotFound) {
					why = "not found in $PATH"
				}
				at := fmt.Sprintf("probes[%d]", index[in.Conf])
				tc.Missing = &FieldError{File: c.file, Line: c.idx.line(at), Path: at,
					Msg: fmt.Sprintf("probe %q (%s) runs %s: %s; without it %s", in.Conf.ID, in.Conf.Kind, tool.Name, why, tool.Without)}
			}
			out = append(out, tc)
		}
	}
	return out
}
