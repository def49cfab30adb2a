package main

import (
	"os"
	"path/filepath"
)

// writeWhole writes b to path whole or not at all: to a temporary file beside it, then renamed
// over it, so a reader (Alertmanager, Grafana) never sees half of a file.
func writeWhole(path string, b []byte, perm os.FileMode) error {
	tmp := filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".tmp")
	if err := os.WriteFile(tmp, b, perm); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
