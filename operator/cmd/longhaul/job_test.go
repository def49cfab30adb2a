package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// stackEnv is the environment scripts/stack/defaults.env exports, with the CLI's own identity
// (operator), which the job must not inherit.
func stackEnv(t *testing.T, security string) {
	t.Setenv("LONGHAUL_KAFKA_SECURITY", security)
	t.Setenv("LONGHAUL_KAFKA_CA", "/stack/run/secrets/ca.crt")
	t.Setenv("LONGHAUL_SECRETS_DIR", "/stack/run/secrets")
	t.Setenv("LONGHAUL_KAFKA_USER", "operator")
	t.Setenv("LONGHAUL_KAFKA_PASSWORD_FILE", "/stack/run/secrets/kafka-operator.password")
}

func TestTheJobGetsItsOwnKafkaIdentityFromTheStacksEnvironment(t *testing.T) {
	stackEnv(t, "")
	got, err := withKafka([]string{"--parallelism", "2"}, "127.0.0.1:9092", "longhaul-link-monitor")
	want := "--kafka 127.0.0.1:9092 --kafka-security sasl_ssl --kafka-ca /stack/run/secrets/ca.crt " +
		"--kafka-user flink --kafka-password-file /stack/run/secrets/kafka-flink.password --parallelism 2"
	if err != nil || strings.Join(got, " ") != want {
		t.Fatalf("%v\n got %q\nwant %q", err, strings.Join(got, " "), want)
	}
}

func TestJobArgumentsThatNameTheKafkaSettingsWin(t *testing.T) {
	stackEnv(t, "sasl_ssl")
	for _, c := range []struct{ args, want string }{
		{"--kafka b:1 --kafka-ca /own/ca.pem", "--kafka-security sasl_ssl --kafka-user flink --kafka-password-file /stack/run/secrets/kafka-flink.password --kafka b:1 --kafka-ca /own/ca.pem"},
		// another identity: both or neither, never flink's password file for admin
		{"--kafka-user admin --kafka-password-file /s/kafka-admin.password", "--kafka k:9 --kafka-security sasl_ssl --kafka-ca /stack/run/secrets/ca.crt --kafka-user admin --kafka-password-file /s/kafka-admin.password"},
		{"--kafka-user admin", "--kafka k:9 --kafka-security sasl_ssl --kafka-ca /stack/run/secrets/ca.crt --kafka-user admin"},
		// the security the job arguments name decides what else applies
		{"--kafka-security plaintext", "--kafka k:9 --kafka-security plaintext"},
		{"--kafka-security ssl", "--kafka k:9 --kafka-ca /stack/run/secrets/ca.crt --kafka-security ssl"},
		{"-kafka-security plaintext", "--kafka k:9 -kafka-security plaintext"},
	} {
		got, err := withKafka(strings.Fields(c.args), "k:9", "longhaul-test")
		if err != nil || strings.Join(got, " ") != c.want {
			t.Errorf("%s: %v\n got %q\nwant %q", c.args, err, strings.Join(got, " "), c.want)
		}
	}
}

func TestPlaintextAndSslPassOnlyWhatTheJobTakes(t *testing.T) {
	stackEnv(t, "plaintext")
	if got, err := withKafka(nil, "k:9", "longhaul-test"); err != nil || strings.Join(got, " ") != "--kafka k:9 --kafka-security plaintext" {
		t.Errorf("plaintext: %q %v", got, err)
	}
	stackEnv(t, "ssl")
	if got, err := withKafka(nil, "k:9", "longhaul-test"); err != nil || strings.Join(got, " ") != "--kafka k:9 --kafka-security ssl --kafka-ca /stack/run/secrets/ca.crt" {
		t.Errorf("ssl: %q %v", got, err)
	}
	t.Setenv("LONGHAUL_KAFKA_CA", "")
	if got, err := withKafka(nil, "k:9", "longhaul-test"); err != nil || strings.Join(got, " ") != "--kafka k:9 --kafka-security ssl" {
		t.Errorf("ssl without a CA (the JVM's trust store): %q %v", got, err)
	}
}

func TestRelativeFilesReachTheJobAbsolute(t *testing.T) {
	stackEnv(t, "sasl_ssl")
	t.Setenv("LONGHAUL_KAFKA_CA", "secrets/ca.crt")
	t.Setenv("LONGHAUL_SECRETS_DIR", "secrets")
	wd, _ := os.Getwd()
	got, err := withKafka(nil, "k:9", "longhaul-test")
	want := "--kafka k:9 --kafka-security sasl_ssl --kafka-ca " + filepath.Join(wd, "secrets/ca.crt") +
		" --kafka-user flink --kafka-password-file " + filepath.Join(wd, "secrets/kafka-flink.password")
	if err != nil || strings.Join(got, " ") != want {
		t.Fatalf("%v\n got %q\nwant %q", err, strings.Join(got, " "), want)
	}
}

func TestSubmitSaysWhatIsMissingBeforeAskingTheCluster(t *testing.T) {
	stackEnv(t, "sasl_ssl")
	t.Setenv("LONGHAUL_SECRETS_DIR", "")
	t.Setenv("LONGHAUL_STACK_DIR", t.TempDir()) // no local stack's secrets folder to fall back on
	if _, err := withKafka(nil, "k:9", "longhaul-test"); err == nil || err.Error() != "the job's Kafka password file: "+
		"LONGHAUL_SECRETS_DIR is not set; give --kafka-user and --kafka-password-file after --" {
		t.Errorf("no secrets folder: %v", err)
	}
	if got, err := withKafka([]string{"--kafka-user", "u", "--kafka-password-file", "/p"}, "k:9", "longhaul-test"); err != nil || len(got) != 10 {
		t.Errorf("an identity in the job arguments needs no secrets folder: %q %v", got, err)
	}
	stackEnv(t, "sasl_ssl")
	if _, err := withKafka(nil, "k:9", "demo"); err == nil || err.Error() != `job name "demo": as the Kafka user flink the job `+
		"may use only groups and transactional ids starting with longhaul- (its name): name it longhaul-…" {
		t.Errorf("a name the flink user may not use: %v", err)
	}
	if _, err := withKafka([]string{"--kafka-user", "admin", "--kafka-password-file", "/p"}, "k:9", "demo"); err != nil {
		t.Errorf("another identity, another name rule: %v", err)
	}
	stackEnv(t, "tls")
	var out, errb strings.Builder
	code := dispatch([]string{"job", "submit", "--flink", "http://127.0.0.1:1"}, nil, &out, &errb)
	if code != 1 || !strings.Contains(errb.String(), `kafka security "tls" (LONGHAUL_KAFKA_SECURITY or --kafka-security): want sasl_ssl, ssl or plaintext`) {
		t.Errorf("exit %d, stderr %q", code, errb.String())
	}
}

func TestJobArgumentsFileTakesWordsAndDropsComments(t *testing.T) {
	p := filepath.Join(t.TempDir(), "job.args")
	os.WriteFile(p, []byte("# the testbed profile\n--collapse.min-history 5   # short\n\n--out-of-orderness 30s\n"), 0o644)
	got, err := readArgsFile(p)
	if err != nil || strings.Join(got, " ") != "--collapse.min-history 5 --out-of-orderness 30s" {
		t.Fatalf("%q %v", got, err)
	}
	if _, err := readArgsFile(p + ".missing"); err == nil || !strings.Contains(err.Error(), "job arguments") {
		t.Fatalf("a missing file: %v", err)
	}
}
