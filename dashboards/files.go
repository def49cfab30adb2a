// Package dashboards carries the Grafana dashboards (json/*.json, made by build_dashboards.py)
// embedded, so `longhaul report` and `longhaul alerts` query what the dashboards show from a
// binary installed alone.
package dashboards

import (
	"embed"
	"io/fs"
)

//go:embed json/*.json
var files embed.FS

// JSON is the folder of dashboard JSON files (dashboards/json).
func JSON() fs.FS {
	sub, err := fs.Sub(files, "json")
	if err != nil {
		panic(err) // the pattern above guarantees the folder
	}
	return sub
}
