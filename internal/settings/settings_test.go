package settings

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// noStackEnvironment removes every LONGHAUL_ variable for the test (restored after it): defaults
// depend on each other (the credentials on LONGHAUL_SECRETS_DIR, that on LONGHAUL_STACK_DIR), and
// a test run on a stack host inherits the stack's settings (scripts/test-all.sh exports them).
func noStackEnvironment(t *testing.T) {
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(name, "LONGHAUL_") {
			t.Setenv(name, "") // registers the restore
			os.Unsetenv(name)
		}
	}
}

func TestAFlagDefaultsToItsVariableThenToTheDefault(t *testing.T) {
	noStackEnvironment(t)
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	if v := Kafka.String(fs); *v != "127.0.0.1:9092" {
		t.Fatalf("default = %q", *v)
	}
	t.Setenv(Kafka.Env, "broker:9093")
	fs = flag.NewFlagSet("x", flag.ContinueOnError)
	v := Kafka.String(fs)
	if *v != "broker:9093" {
		t.Fatalf("from env = %q", *v)
	}
	if err := fs.Parse([]string{"--kafka", "a:1,b:2"}); err != nil || *v != "a:1,b:2" {
		t.Fatalf("flag = %q, %v", *v, err)
	}
	if !strings.Contains(fs.Lookup("kafka").Usage, "LONGHAUL_KAFKA") {
		t.Fatal("the usage does not name the variable")
	}
}

func TestEverySettingHasItsOwnFlagAndVariable(t *testing.T) {
	flags, envs := map[string]bool{}, map[string]bool{}
	for _, s := range []Setting{Kafka, Influx, InfluxDB, Flink, FlinkState, Dashboards, KafkaSecurity, KafkaCA, KafkaUser, KafkaPasswordFile, KafkaCert, SecretsDir, KafkaAdmin, KafkaAdminCert, InfluxUser, InfluxPasswordFile, InfluxCA, Alertmanager, AlertmanagerUser, AlertmanagerPasswordFile, AlertmanagerCA, AlertContacts} {
		if flags[s.Flag] || envs[s.Env] || !strings.HasPrefix(s.Env, "LONGHAUL_") {
			t.Fatalf("%+v: flag or variable taken twice, or not LONGHAUL_*", s)
		}
		flags[s.Flag], envs[s.Env] = true, true
	}
}

func TestListDropsBlanks(t *testing.T) {
	if got := List(" a:1, ,b:2 "); len(got) != 2 || got[0] != "a:1" || got[1] != "b:2" {
		t.Fatal(got)
	}
}

func TestASecretIsTheFileWithoutItsNewlineAndNeverEmpty(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "pw")
	os.WriteFile(p, []byte("s3cret\n"), 0o600)
	if got, err := Secret(p); err != nil || got != "s3cret" {
		t.Fatalf("%q %v", got, err)
	}
	os.WriteFile(p, []byte("\n"), 0o600)
	if _, err := Secret(p); err == nil || !strings.Contains(err.Error(), "is empty") {
		t.Fatalf("empty file: %v", err)
	}
	if _, err := Secret(filepath.Join(dir, "absent")); err == nil || strings.Contains(err.Error(), "s3cret") {
		t.Fatalf("absent file: %v", err)
	}
}

func TestOnAStackHostTheCredentialsDefaultToTheLocalSecrets(t *testing.T) {
	noStackEnvironment(t)
	stack := t.TempDir()
	t.Setenv("LONGHAUL_STACK_DIR", stack)
	for _, s := range []Setting{KafkaCA, KafkaUser, KafkaPasswordFile, InfluxUser, InfluxPasswordFile, SecretsDir} {
		if v := s.Value(); v != "" {
			t.Fatalf("%s without a local stack: %q", s.Env, v)
		}
	}
	secrets := filepath.Join(stack, "run", "secrets")
	os.MkdirAll(secrets, 0o700)
	for _, f := range []string{"ca.crt", "kafka-operator.password", "influx-reader.password"} {
		os.WriteFile(filepath.Join(secrets, f), []byte("x"), 0o600)
	}
	for _, c := range []struct {
		s    Setting
		want string
	}{{KafkaCA, filepath.Join(secrets, "ca.crt")}, {KafkaUser, "operator"},
		{KafkaPasswordFile, filepath.Join(secrets, "kafka-operator.password")}, {InfluxUser, "reader"}, {SecretsDir, secrets}} {
		if v := c.s.Value(); v != c.want {
			t.Errorf("%s = %q, want %q", c.s.Env, v, c.want)
		}
	}
	t.Setenv(KafkaUser.Env, "admin")
	if KafkaUser.Value() != "admin" {
		t.Fatal("the environment does not win over the local default")
	}
}
