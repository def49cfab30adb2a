package checkout

import (
	"os"
	"path/filepath"
	"testing"
)

func TestTheEnvironmentNamesTheRoot(t *testing.T) {
	t.Setenv(EnvRoot, "/opt/longhaul")
	if got := Path("ingest", "schemas"); got != "/opt/longhaul/ingest/schemas" {
		t.Fatal(got)
	}
}

func TestTheRootIsTheNearestFolderWithTheContract(t *testing.T) {
	t.Setenv(EnvRoot, "")
	root := t.TempDir()
	deep := filepath.Join(root, "a", "b")
	if err := os.MkdirAll(filepath.Join(root, "ingest"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	if got, ok := findUp(deep); !ok || got != root {
		t.Fatalf("findUp(%s) = %s, %v; want %s", deep, got, ok, root)
	}
	if _, ok := findUp(t.TempDir()); ok {
		t.Fatal("a folder without ingest/ above it was taken for a root")
	}
}

func TestGoTestFindsThisRepository(t *testing.T) {
	t.Setenv(EnvRoot, "")
	if _, err := os.Stat(Path("ingest", "topics.yaml")); err != nil {
		t.Fatal(err)
	}
}
