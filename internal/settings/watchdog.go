package settings

import (
	"os"
	"path/filepath"

	"longhaul/internal/checkout"
)

// The watchdog's settings (operator/watchdog, `longhaul watchdog`): where it writes its status,
// which `longhaul watchdog status` and `make status` read, and where Telegraf's configuration
// names the consumer groups whose lag it watches.
var (
	WatchdogStatus = Setting{Flag: "status-file", Env: "LONGHAUL_WATCHDOG_STATUS",
		Usage: "the watchdog's status file (JSON, replaced every cycle)", local: stackRun("watchdog", "status.json")}
	TelegrafConf = Setting{Flag: "telegraf-conf", Env: "LONGHAUL_TELEGRAF_CONF",
		Usage: "Telegraf's configuration, whose consumer_group lines name Telegraf's groups", local: rootFile("ingest", "telegraf", "telegraf.conf")}
)

// LocalSecret is the path of the native stack's secret file name on this host ("" when it is
// not there): a command whose own identity differs from the CLI's default (the watchdog's
// kafka-watchdog.password) defaults to it.
func LocalSecret(name string) string { return localFile(name)() }

// stackRun is a path under the native stack's run folder (LONGHAUL_STACK_DIR/run, else .stack/run
// of the Longhaul root), whether or not it exists yet.
func stackRun(parts ...string) func() string {
	return func() string {
		root := os.Getenv("LONGHAUL_STACK_DIR")
		if root == "" {
			root = checkout.Path(".stack")
		}
		return filepath.Join(append([]string{root, "run"}, parts...)...)
	}
}

// rootFile is a file of the Longhaul root (checkout.Path).
func rootFile(parts ...string) func() string {
	return func() string { return checkout.Path(parts...) }
}
