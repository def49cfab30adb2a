package alerting

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/crypto/bcrypt"
	"gopkg.in/yaml.v3"
)

func TestWebConfigHashesEachUsersPasswordAndNeverHoldsIt(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "alertmanager-bridge.password"), []byte("s3cret-bridge"), 0o600)
	os.WriteFile(filepath.Join(dir, "alertmanager-operator.password"), []byte("s3cret-op\n"), 0o600)
	b, err := WebConfig(dir, "/c.crt", "/c.key")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "s3cret") {
		t.Fatal("a password in the web config")
	}
	var doc struct {
		TLS   map[string]string `yaml:"tls_server_config"`
		Users map[string]string `yaml:"basic_auth_users"`
	}
	if err := yaml.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.TLS["cert_file"] != "/c.crt" || len(doc.Users) != 2 || doc.Users["grafana"] != "" {
		t.Fatalf("%s", b)
	}
	if bcrypt.CompareHashAndPassword([]byte(doc.Users["operator"]), []byte("s3cret-op")) != nil {
		t.Fatal("the operator's hash does not match its password (without the file's newline)")
	}
	if _, err := WebConfig(t.TempDir(), "", ""); err == nil {
		t.Fatal("no user at all must be refused: Alertmanager's API would be open")
	}
}
