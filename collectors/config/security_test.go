package config

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"longhaul/internal/kafkaconn"
)

// secured is a config with every security key set in the file.
const secured = `src: cern-ps1
kafka:
  bootstrap: 127.0.0.1:9092
  security: sasl_ssl
  tls:
    ca_file: %s
  sasl:
    user: agent-cern-ps1
    password_file: %s
targets: [{name: fnal-ps1}]
probes: [{id: tput, kind: test-kind, interval: 4h}]
`

func securedConfig(t *testing.T, ca, pw string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "mesh.yaml")
	if err := os.WriteFile(path, []byte(fmt.Sprintf(secured, ca, pw)), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func writeSecret(t *testing.T, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "secret")
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestSecurityIsSASLSSLUnlessPlaintextIsWritten(t *testing.T) {
	c, err := Load("testdata/good/minimal.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if c.Kafka.Security != kafkaconn.SASLSSL || len(c.Warnings()) != 0 {
		t.Fatalf("default security %q, warnings %q", c.Kafka.Security, c.Warnings())
	}
	raw := []byte("src: a\nkafka:\n  bootstrap: k:9092\n  security: plaintext\ntargets: [{name: b}]\nprobes: [{id: p, kind: test-kind, interval: 1h}]\n")
	c, err = Parse("plain.yaml", raw)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"plain.yaml:4: kafka.security is plaintext: samples cross the network in clear and Kafka cannot tell this agent from anyone else"}
	if c.Kafka.Security != kafkaconn.Plaintext || !reflect.DeepEqual(c.Warnings(), want) {
		t.Fatalf("plaintext: %q, warnings %q", c.Kafka.Security, c.Warnings())
	}
}

// The environment replaces each security key of the file, as LONGHAUL_KAFKA replaces
// kafka.bootstrap, and errors and check name where each value came from.
func TestTheEnvironmentReplacesTheFilesSecurityKeys(t *testing.T) {
	path := securedConfig(t, "/file/ca.crt", "/file/kafka.password")
	vars := map[string]string{
		"LONGHAUL_KAFKA_SECURITY":      "sasl_ssl",
		"LONGHAUL_KAFKA_CA":            "/env/ca.crt",
		"LONGHAUL_KAFKA_CERT":          "/env/agent.pem",
		"LONGHAUL_KAFKA_USER":          "agent-cern-ps1",
		"LONGHAUL_KAFKA_PASSWORD_FILE": "/env/kafka.password",
	}
	c, err := LoadWith(path, Options{Getenv: env(vars)})
	if err != nil {
		t.Fatal(err)
	}
	got := c.KafkaSecurity()
	want := kafkaconn.Security{Mode: "sasl_ssl", CAFile: "/env/ca.crt", CertFile: "/env/agent.pem", User: "agent-cern-ps1", PasswordFile: "/env/kafka.password"}
	if got != want {
		t.Errorf("security %+v, want %+v", got, want)
	}
	for key, from := range map[string]string{SecurityKey: "LONGHAUL_KAFKA_SECURITY", CAKey: "LONGHAUL_KAFKA_CA", CertKey: "LONGHAUL_KAFKA_CERT",
		UserKey: "LONGHAUL_KAFKA_USER", PasswordFileKey: "LONGHAUL_KAFKA_PASSWORD_FILE", KeyKey: KeyKey} {
		if c.SecurityFrom(key) != from {
			t.Errorf("%s from %s, want %s", key, c.SecurityFrom(key), from)
		}
	}
	// Without the environment, the file's values.
	c, _ = LoadWith(path, Options{Getenv: env(nil)})
	if s := c.KafkaSecurity(); s.CAFile != "/file/ca.crt" || s.User != "agent-cern-ps1" || s.PasswordFile != "/file/kafka.password" || c.SecurityFrom(UserKey) != UserKey {
		t.Errorf("file: %+v", s)
	}
	// A bad value from the environment is named by its variable.
	_, err = LoadWith(path, Options{Getenv: env(map[string]string{"LONGHAUL_KAFKA_SECURITY": "tls"})})
	if err == nil || err.Error() != `LONGHAUL_KAFKA_SECURITY: "tls" is not sasl_ssl, ssl or plaintext` {
		t.Errorf("bad security from the environment: %v", err)
	}
}

// The password itself may come from LONGHAUL_KAFKA_PASSWORD: over the file's password_file,
// under a password file named in the environment.
func TestThePasswordMayComeFromTheEnvironment(t *testing.T) {
	path := securedConfig(t, "/file/ca.crt", "/file/kafka.password")
	c, err := LoadWith(path, Options{Getenv: env(map[string]string{PasswordEnv: "from-env"})})
	if err != nil {
		t.Fatal(err)
	}
	if s := c.KafkaSecurity(); s.PasswordFile != "" || s.Password != "from-env" || c.SecurityFrom(PasswordFileKey) != PasswordEnv {
		t.Errorf("env password: file %q, from %s", s.PasswordFile, c.SecurityFrom(PasswordFileKey))
	}
	c, _ = LoadWith(path, Options{Getenv: env(map[string]string{PasswordEnv: "from-env", "LONGHAUL_KAFKA_PASSWORD_FILE": "/env/pw"})})
	if s := c.KafkaSecurity(); s.PasswordFile != "/env/pw" || s.Password != "" {
		t.Errorf("both: file %q, password set %v", s.PasswordFile, s.Password != "")
	}
	// A file without password_file is complete with the password in the environment.
	raw := []byte("src: a\nkafka:\n  bootstrap: k:9092\n  sasl: {user: agent-a}\ntargets: [{name: b}]\nprobes: [{id: p, kind: test-kind, interval: 1h}]\n")
	if _, err := ParseWith("a.yaml", raw, Options{Getenv: env(map[string]string{PasswordEnv: "from-env"})}); err != nil {
		t.Errorf("password from the environment only: %v", err)
	}
	if _, err := ParseWith("a.yaml", raw, Options{Getenv: env(nil)}); err == nil || !strings.Contains(err.Error(), "a.yaml:4: kafka.sasl.password_file: required") {
		t.Errorf("no password anywhere: %v", err)
	}
}

// A password written in the config is refused, and appears nowhere: not in the error, not in
// the config's fields.
func TestAnInlinePasswordIsRefusedAndNeverRepeated(t *testing.T) {
	raw, _ := os.ReadFile("testdata/bad/inline-password.yaml")
	_, err := Parse("inline.yaml", raw)
	if err == nil || !strings.Contains(err.Error(), "inline.yaml:9: kafka.sasl.password: a password is never written in the config") {
		t.Fatalf("%v", err)
	}
	if strings.Contains(err.Error(), "s3cret-inline") {
		t.Fatalf("the error repeats the password: %v", err)
	}
	var s KafkaSASL
	if err := (&s.Password).UnmarshalYAML(nodeOf(t, "s3cret-inline")); err != nil {
		t.Fatal(err)
	}
	if dump := fmt.Sprintf("%+v %#v", s, s); strings.Contains(dump, "s3cret") {
		t.Fatalf("the config keeps the password: %s", dump)
	}
}

// KafkaConn reads the password file each time it is called: the agent calls it again at each
// re-check while Kafka refuses it, so a fixed file is picked up without a restart.
func TestKafkaConnReadsThePasswordFileEachTime(t *testing.T) {
	pw := filepath.Join(t.TempDir(), "kafka.password")
	c, err := Load(securedConfig(t, "", pw))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.KafkaConn(); err == nil || !strings.HasPrefix(err.Error(), "kafka.sasl.password_file: password file: open "+pw) {
		t.Fatalf("no file yet: %v", err)
	}
	os.WriteFile(pw, nil, 0o600)
	if _, err := c.KafkaConn(); err == nil || err.Error() != "kafka.sasl.password_file: password file "+pw+" is empty" {
		t.Fatalf("empty file: %v", err)
	}
	os.WriteFile(pw, []byte("now-right\n"), 0o600)
	conn, err := c.KafkaConn()
	if err != nil {
		t.Fatal(err)
	}
	if s := conn.String(); s != "[127.0.0.1:9092] sasl_ssl user agent-cern-ps1" {
		t.Errorf("conn %s", s)
	}
}

// The admission check reads every file the connection needs and names the key (FILE:LINE) or
// the variable that gave its path; never a file's content.
func TestCheckKafkaFilesNamesEveryUnreadableFile(t *testing.T) {
	notPEM := writeSecret(t, "s3cret-in-the-wrong-file")
	missing := filepath.Join(t.TempDir(), "kafka.password")
	path := securedConfig(t, notPEM, missing)
	c, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	err = c.CheckKafkaFiles()
	want := path + ":6: kafka.tls.ca_file: " + notPEM + " holds no PEM certificate\n" +
		path + ":9: kafka.sasl.password_file: password file: open " + missing + ": no such file or directory"
	if err == nil || err.Error() != want {
		t.Fatalf("got\n%v\nwant\n%s", err, want)
	}
	c, _ = LoadWith(path, Options{Getenv: env(map[string]string{"LONGHAUL_KAFKA_PASSWORD_FILE": missing, "LONGHAUL_KAFKA_CA": "/nonexistent/ca.crt"})})
	err = c.CheckKafkaFiles()
	if err == nil || !strings.Contains(err.Error(), "LONGHAUL_KAFKA_CA: open /nonexistent/ca.crt: no such file or directory") ||
		!strings.Contains(err.Error(), "LONGHAUL_KAFKA_PASSWORD_FILE: password file: open "+missing) {
		t.Fatalf("from the environment: %v", err)
	}
	os.WriteFile(missing, []byte("pw"), 0o600)
	c, _ = Load(securedConfig(t, "", missing))
	if err := c.CheckKafkaFiles(); err != nil {
		t.Fatalf("readable files: %v", err)
	}
}

func nodeOf(t *testing.T, scalar string) *yaml.Node {
	t.Helper()
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(scalar), &doc); err != nil {
		t.Fatal(err)
	}
	return doc.Content[0]
}
