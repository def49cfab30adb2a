package setup

import "os"

// readOrEmbedded is the file at path, or when path is "" the contract's own copy that the binary
// carries (named "NAME (embedded)" in errors).
func readOrEmbedded(path, name string, embedded func() []byte) ([]byte, string, error) {
	if path == "" {
		return embedded(), name + " (embedded)", nil
	}
	raw, err := os.ReadFile(path)
	return raw, path, err
}
