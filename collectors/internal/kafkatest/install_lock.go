//go:build integration

package kafkatest

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// lockInstall holds an exclusive lock on cacheDir's install, across processes: a test run in a
// process of its own (SlotEnv) shares its parent's cache, and two installs into an empty cache at
// once failed copying the same jar (a fresh machine, 2026-12-03: "Failed to copy full contents
// ... kafka_2.13-4.3.1.jar"). installing orders the brokers of one process; this, the processes.
func lockInstall(t testing.TB, cacheDir string) (unlock func()) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(cacheDir), 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(cacheDir+".lock", os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		t.Fatal(err)
	}
	return func() {
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}
}
