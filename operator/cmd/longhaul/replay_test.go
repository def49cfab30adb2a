package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReplayCommandUsesFlinkHomeAndPassesArgsThrough(t *testing.T) {
	dir := t.TempDir()
	jar := filepath.Join(dir, "job.jar")
	lib := filepath.Join(dir, "flink", "lib")
	os.MkdirAll(lib, 0o755)
	os.WriteFile(jar, []byte("x"), 0o644)
	os.WriteFile(filepath.Join(lib, "flink-dist-2.2.1.jar"), []byte("x"), 0o644)
	t.Setenv("LONGHAUL_FLINK_JAR", jar)
	t.Setenv("FLINK_HOME", filepath.Join(dir, "flink"))
	t.Setenv("LONGHAUL_JAVA_HOME", "/opt/jdk17")

	argv, err := replayCommand([]string{"--stats", "--collapse.drop", "0.4"})
	if err != nil {
		t.Fatal(err)
	}
	line := strings.Join(argv, " ")
	for _, want := range []string{"/opt/jdk17/bin/java", "-cp " + jar + ":" + lib + "/*", "org.longhaul.flink.replay.Replay --stats --collapse.drop 0.4"} {
		if !strings.Contains(line, want) {
			t.Errorf("%q lacks %q", line, want)
		}
	}
}

// noStackCache points the stack's cache (and the user's cache folder it defaults to) at an empty
// folder: what make up installed on this machine must not decide the test.
func noStackCache(t *testing.T) {
	empty := t.TempDir()
	t.Setenv("LONGHAUL_STACK_CACHE", "")
	t.Setenv("XDG_CACHE_HOME", empty)
}

func TestReplayCommandExplainsAMissingJarOrRuntime(t *testing.T) {
	noStackCache(t)
	dir := t.TempDir()
	t.Setenv("LONGHAUL_FLINK_JAR", filepath.Join(dir, "absent.jar"))
	if _, err := replayCommand(nil); err == nil || !strings.Contains(err.Error(), "make build-flink") {
		t.Errorf("missing jar: %v", err)
	}
	jar := filepath.Join(dir, "job.jar")
	os.WriteFile(jar, []byte("x"), 0o644)
	t.Setenv("LONGHAUL_FLINK_JAR", jar)
	t.Setenv("FLINK_HOME", filepath.Join(dir, "nowhere"))
	if _, err := flinkRuntime(); err == nil || !strings.Contains(err.Error(), "FLINK_HOME") {
		t.Errorf("missing runtime: %v", err)
	}
}

func TestReplayFallsBackToTheMavenBuildsClasspath(t *testing.T) {
	noStackCache(t)
	file := filepath.Join(t.TempDir(), "replay.classpath")
	t.Setenv("FLINK_HOME", "")
	t.Setenv("LONGHAUL_REPLAY_CLASSPATH", file)
	if _, err := flinkRuntime(); err == nil || !strings.Contains(err.Error(), file) {
		t.Fatalf("an absent classpath file is not named: %v", err)
	}
	os.WriteFile(file, []byte("/m2/a.jar:/m2/b.jar\n"), 0o644)
	if cp, err := flinkRuntime(); err != nil || cp != "/m2/a.jar:/m2/b.jar" {
		t.Fatalf("%q %v", cp, err)
	}
}
