package flink

import (
	"archive/zip"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeJar(t *testing.T, entries map[string]string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "job.jar")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	w := zip.NewWriter(f)
	for name, body := range entries {
		e, _ := w.Create(name)
		e.Write([]byte(body))
	}
	w.Close()
	f.Close()
	return p
}

func TestJarBuildReadsWhatMavenStamped(t *testing.T) {
	jar := writeJar(t, map[string]string{jarVersionEntry: "# comment\nversion=0.9.0~git1\ncommit=abc\nbuilt=2026-11-27T10:00:00Z\njava=17.0.15\n"})
	got, err := JarBuild(jar)
	if err != nil || got != "longhaul-flink 0.9.0~git1 (commit abc, built 2026-11-27T10:00:00Z, Java 17.0.15)" {
		t.Fatalf("%q %v", got, err)
	}
}

func TestJarBuildNamesWhatIsMissing(t *testing.T) {
	if _, err := JarBuild(writeJar(t, map[string]string{"a.class": "x"})); err == nil || !strings.Contains(err.Error(), jarVersionEntry) {
		t.Fatalf("no entry: %v", err)
	}
	if _, err := JarBuild(filepath.Join(t.TempDir(), "absent.jar")); err == nil || !strings.Contains(err.Error(), "absent.jar") {
		t.Fatalf("no jar: %v", err)
	}
}
