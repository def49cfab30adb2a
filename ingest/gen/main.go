// Command gen writes the Go and Java forms of Longhaul's contract names from
// ingest/contract.yaml and ingest/topics.yaml: topic names by role, event kinds and which
// recovery closes which alert, and the shared thresholds. Run it with `go generate ./ingest/...`
// (ingest/contract/doc.go); the tests of this package fail when a committed file differs from
// what it would write.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
)

func main() {
	root := flag.String("root", ".", "the repository root")
	check := flag.Bool("check", false, "write nothing; exit 1 naming each generated file that differs from a fresh generation")
	flag.Parse()
	files, err := Generate(*root)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	stale := 0
	for _, name := range sortedKeys(files) {
		path := filepath.Join(*root, name)
		if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, files[name]) {
			continue
		}
		if *check {
			fmt.Fprintf(os.Stderr, "%s is stale: run `go generate ./ingest/...`\n", name)
			stale++
			continue
		}
		if err := os.WriteFile(path, files[name], 0o644); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Println("wrote", name)
	}
	if stale > 0 {
		os.Exit(1)
	}
}

// Generate loads the contract under root and returns every generated file by its path from root.
func Generate(root string) (map[string][]byte, error) {
	c, err := Load(root)
	if err != nil {
		return nil, err
	}
	goSrc, err := renderGo(c)
	if err != nil {
		return nil, err
	}
	kinds, err := renderJava(javaKindTemplate, c)
	if err != nil {
		return nil, err
	}
	names, err := renderJava(javaNamesTemplate, c)
	if err != nil {
		return nil, err
	}
	return map[string][]byte{goFile: goSrc, javaKindFile: kinds, javaNamesFile: names}, nil
}

func sortedKeys(m map[string][]byte) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
