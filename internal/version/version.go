// Package version says which build a binary is: the release version, the commit and the build
// date, stamped at link time by the Makefile and `make dist` (-ldflags -X, from scripts/version.sh),
// else what the Go toolchain recorded of the checkout it built from (vcs.revision, vcs.time).
package version

import (
	"fmt"
	"runtime"
	"runtime/debug"
)

// Stamped by the linker: -X longhaul/internal/version.version=... (and .commit, .date).
var (
	version = ""
	commit  = ""
	date    = ""
)

// Info is one build's identity.
type Info struct {
	Version string `json:"version"`
	Commit  string `json:"commit"`
	Date    string `json:"date"`
	Go      string `json:"go"`
	// Modified says the tree had uncommitted changes when it was built.
	Modified bool `json:"modified,omitempty"`
}

// Get is this binary's Info.
func Get() Info {
	return resolve(version, commit, date, buildSettings())
}

// resolve prefers the stamped values and falls back to the toolchain's VCS settings.
func resolve(v, c, d string, vcs map[string]string) Info {
	i := Info{Version: v, Commit: c, Date: d, Go: runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH}
	if i.Commit == "" {
		i.Commit = vcs["vcs.revision"]
		i.Modified = vcs["vcs.modified"] == "true"
	}
	if i.Date == "" {
		i.Date = vcs["vcs.time"]
	}
	if i.Version == "" {
		i.Version = "dev"
	}
	if i.Commit == "" {
		i.Commit = "unknown"
	}
	if i.Date == "" {
		i.Date = "unknown"
	}
	return i
}

func buildSettings() map[string]string {
	out := map[string]string{}
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			out[s.Key] = s.Value
		}
	}
	return out
}

// String is the one line `PROGRAM --version` prints.
func (i Info) String(program string) string {
	dirty := ""
	if i.Modified {
		dirty = "+modified"
	}
	return fmt.Sprintf("%s %s (commit %s%s, built %s, %s)", program, i.Version, i.Commit, dirty, i.Date, i.Go)
}
