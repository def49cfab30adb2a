// Package checkout finds the files a Longhaul program reads from its installation: the
// contract (ingest/), the dashboards (dashboards/json), the job jar (bin/). There is one rule,
// used by every program, so `bin/longhaul`, `bin/longhaul-probe` and `go test` agree:
//
//  1. $LONGHAUL_ROOT when set (an installation elsewhere, e.g. /usr/share/longhaul);
//  2. else the nearest folder holding ingest/, walking up from the executable (bin/..);
//  3. else the same walk up from the working directory (go test, go run);
//  4. else the working directory.
package checkout

import (
	"os"
	"path/filepath"
)

// EnvRoot names the variable that overrides the search.
const EnvRoot = "LONGHAUL_ROOT"

// marker is what makes a folder a Longhaul root.
const marker = "ingest"

// Root returns the Longhaul root by the package's rule.
func Root() string {
	if r := os.Getenv(EnvRoot); r != "" {
		return r
	}
	var starts []string
	if exe, err := os.Executable(); err == nil {
		if real, err := filepath.EvalSymlinks(exe); err == nil {
			exe = real
		}
		starts = append(starts, filepath.Dir(exe))
	}
	wd, _ := os.Getwd()
	starts = append(starts, wd)
	for _, s := range starts {
		if r, ok := findUp(s); ok {
			return r
		}
	}
	return wd
}

// Path joins elements under the root: Path("ingest", "schemas").
func Path(elem ...string) string {
	return filepath.Join(append([]string{Root()}, elem...)...)
}

// findUp is the nearest folder at or above dir that holds the marker folder.
func findUp(dir string) (string, bool) {
	for d := dir; ; d = filepath.Dir(d) {
		if st, err := os.Stat(filepath.Join(d, marker)); err == nil && st.IsDir() {
			return d, true
		}
		if filepath.Dir(d) == d {
			return "", false
		}
	}
}
