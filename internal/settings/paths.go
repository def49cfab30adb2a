package settings

import (
	"os"
	"path/filepath"
)

// Where an installed Longhaul keeps its files (the packages, deploy/systemd): configs and
// secrets under EtcDir, the central package's shared files under ShareDir, state under
// /var/lib/longhaul. The development stack (scripts/stack) says where its own are through
// EnvStackDir; no program searches for a source tree.
const (
	EtcDir      = "/etc/longhaul"
	ShareDir    = "/usr/share/longhaul"
	varDir      = "/var/lib/longhaul"
	EnvStackDir = "LONGHAUL_STACK_DIR"
)

// StateDir is the folder of the services' state on this host: LONGHAUL_STACK_DIR/run for the
// development stack, else /var/lib/longhaul.
func StateDir() string {
	if d := os.Getenv(EnvStackDir); d != "" {
		return filepath.Join(d, "run")
	}
	return varDir
}
