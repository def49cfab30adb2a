package rendered

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestSyncWritesWhatDiffersAndCheckNamesItWithoutWriting(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "same"), []byte("a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "old"), []byte("b\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{"same": []byte("a\n"), "old": []byte("B\n"), "new": []byte("c\n")}
	stale, err := Sync(root, files, true)
	if err != nil || !slices.Equal(stale, []string{"new", "old"}) {
		t.Fatalf("check: %v %v, want [new old]", stale, err)
	}
	if got, _ := os.ReadFile(filepath.Join(root, "old")); string(got) != "b\n" {
		t.Fatalf("check wrote old: %q", got)
	}
	if stale, err := Sync(root, files, false); err != nil || stale != nil {
		t.Fatalf("write: %v %v", stale, err)
	}
	for name, want := range files {
		if got, _ := os.ReadFile(filepath.Join(root, name)); string(got) != string(want) {
			t.Errorf("%s: %q, want %q", name, got, want)
		}
	}
	if stale, err := Sync(root, files, true); err != nil || len(stale) != 0 {
		t.Fatalf("after writing, stale %v %v", stale, err)
	}
}
