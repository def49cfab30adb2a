// Package ingest is the contract's one home: the files every Longhaul program reads (the
// versioned JSON Schemas, the topics, the retention policies, Telegraf's configuration),
// embedded in the binaries that import it, so a binary copied alone to a bare host carries
// them. The Go types are in ingest/sample, the validator in ingest/schema, the generated names
// in ingest/contract.
package ingest

import (
	"embed"
	"io/fs"
	"os"
)

//go:embed schemas/*.schema.json topics.yaml influxdb/retention.yaml telegraf/telegraf.conf
var files embed.FS

// Schemas is the folder of *.schema.json (ingest/schemas).
func Schemas() fs.FS {
	sub, err := fs.Sub(files, "schemas")
	if err != nil {
		panic(err) // the pattern above guarantees the folder
	}
	return sub
}

// Topics is ingest/topics.yaml.
func Topics() []byte { return mustRead("topics.yaml") }

// Retention is ingest/influxdb/retention.yaml.
func Retention() []byte { return mustRead("influxdb/retention.yaml") }

// TelegrafConf is ingest/telegraf/telegraf.conf.
func TelegrafConf() []byte { return mustRead("telegraf/telegraf.conf") }

func mustRead(name string) []byte {
	b, err := files.ReadFile(name)
	if err != nil {
		panic(err) // embedded by the pattern above
	}
	return b
}

// ReadOrEmbedded is the file at path, or when path is "" the contract's own copy that the binary
// carries (embedded, named "NAME (embedded)" in errors).
func ReadOrEmbedded(path, name string, embedded func() []byte) ([]byte, string, error) {
	if path == "" {
		return embedded(), name + " (embedded)", nil
	}
	raw, err := os.ReadFile(path)
	return raw, path, err
}
