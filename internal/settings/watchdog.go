package settings

import (
	"path/filepath"
)

// The watchdog's settings (operator/watchdog, `longhaul watchdog`): where it writes its status,
// which `longhaul watchdog status` and `make status` read, and where Telegraf's configuration
// names the consumer groups whose lag it watches.
var (
	WatchdogStatus = Setting{Flag: "status-file", Env: "LONGHAUL_WATCHDOG_STATUS",
		Usage: "the watchdog's status file (JSON, replaced every cycle)", local: stackRun("watchdog", "status.json")}
	TelegrafConf = Setting{Flag: "telegraf-conf", Env: "LONGHAUL_TELEGRAF_CONF",
		Usage: "Telegraf's configuration, whose consumer_group lines name Telegraf's groups (default: the contract's copy this binary carries)"}
)

// LocalSecret is the path of the native stack's secret file name on this host ("" when it is
// not there): a command whose own identity differs from the CLI's default (the watchdog's
// kafka-watchdog.password) defaults to it.
func LocalSecret(name string) string { return localFile(name)() }

// stackRun is a path under StateDir, whether or not it exists yet.
func stackRun(parts ...string) func() string {
	return func() string { return filepath.Join(append([]string{StateDir()}, parts...)...) }
}
