package publish

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// The cursor file holds the acknowledgement watermark: every record with a lower sequence
// number has been acknowledged by Kafka (or dropped). It is replaced atomically (write,
// fsync, rename, fsync the directory). After a crash, records at or above it are sent again:
// at most those acknowledged since the last checkpoint (about a second) and those
// acknowledged out of order, so duplicates are possible and losses are not.
const cursorFile = "acked"

func readCursor(dir string) (uint64, error) {
	raw, err := os.ReadFile(filepath.Join(dir, cursorFile))
	if errors.Is(err, os.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	v, err := strconv.ParseUint(strings.TrimSpace(string(raw)), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", filepath.Join(dir, cursorFile), err)
	}
	return v, nil
}

func writeCursor(dir string, v uint64) error {
	path := filepath.Join(dir, cursorFile)
	tmp := path + ".tmp"
	f, err := os.OpenFile(tmp, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	_, err = f.WriteString(strconv.FormatUint(v, 10) + "\n")
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return err
	}
	return syncDir(dir)
}
