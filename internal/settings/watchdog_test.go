package settings

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestTheWatchdogsSettingsDefaultToTheLocalStack(t *testing.T) {
	stack := t.TempDir()
	t.Setenv("LONGHAUL_STACK_DIR", stack)
	t.Setenv("LONGHAUL_SECRETS_DIR", "")
	t.Setenv(WatchdogStatus.Env, "")
	t.Setenv(TelegrafConf.Env, "")
	if got := WatchdogStatus.Value(); got != filepath.Join(stack, "run", "watchdog", "status.json") {
		t.Fatalf("status file %q", got)
	}
	if got := TelegrafConf.Value(); got != "" {
		t.Fatalf("telegraf conf %q, not the embedded contract's", got)
	}
	if LocalSecret("kafka-watchdog.password") != "" {
		t.Fatal("a secret that is not there")
	}
	secrets := filepath.Join(stack, "run", "secrets")
	os.MkdirAll(secrets, 0o700)
	os.WriteFile(filepath.Join(secrets, "kafka-watchdog.password"), []byte("x"), 0o600)
	if LocalSecret("kafka-watchdog.password") != filepath.Join(secrets, "kafka-watchdog.password") {
		t.Fatal("the stack's secret is not found")
	}
	t.Setenv("LONGHAUL_STACK_DIR", "")
	if got := WatchdogStatus.Value(); got != "/var/lib/longhaul/watchdog/status.json" {
		t.Fatalf("without a development stack, the installed status file: %q", got)
	}
	if got := localSecrets(); got != "/etc/longhaul/secrets" {
		t.Fatalf("without a development stack, the installed secrets: %q", got)
	}
	t.Setenv(WatchdogStatus.Env, "/var/lib/longhaul/watchdog/status.json")
	if WatchdogStatus.Value() != "/var/lib/longhaul/watchdog/status.json" {
		t.Fatal("the environment does not win")
	}
}

func TestTheWatchdogsSettingsTakeNoOtherSettingsName(t *testing.T) {
	taken := map[string]bool{}
	for _, s := range []Setting{Kafka, Influx, InfluxDB, Flink, FlinkJar, Dashboards, KafkaSecurity, KafkaCA, KafkaUser, KafkaPasswordFile,
		KafkaCert, SecretsDir, KafkaAdmin, KafkaAdminCert, InfluxUser, InfluxPasswordFile, InfluxCA} {
		taken[s.Flag], taken[s.Env] = true, true
	}
	for _, s := range []Setting{WatchdogStatus, TelegrafConf} {
		if taken[s.Flag] || taken[s.Env] || !strings.HasPrefix(s.Env, "LONGHAUL_") {
			t.Errorf("%+v", s)
		}
	}
}
