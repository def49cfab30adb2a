// Package rendered is how Longhaul's generators (ingest/gen, deploy/gen) keep their output in the
// tree: Main writes every rendered file that differs from its committed copy, or, with -check,
// writes nothing and fails naming each stale one (make check runs every generator so).
package rendered

import (
	"bytes"
	"flag"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
)

// Main is a generator's main: -root (the repository) and -check, files rendered by render from
// root; how names the command that renders them again, for the stale file's message.
func Main(how string, render func(root string) (map[string][]byte, error)) {
	root := flag.String("root", ".", "the repository root")
	check := flag.Bool("check", false, "write nothing; exit 1 naming each rendered file that differs from a fresh rendering")
	flag.Parse()
	files, err := render(*root)
	if err == nil {
		var stale []string
		stale, err = Sync(*root, files, *check)
		for _, name := range stale {
			fmt.Fprintf(os.Stderr, "%s is stale: run `%s`\n", name, how)
		}
		if err == nil && len(stale) > 0 {
			os.Exit(1)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// Sync writes each file (by its path from root) whose content differs from what is there, and
// returns nothing stale; with check it writes nothing and returns those that differ, sorted.
func Sync(root string, files map[string][]byte, check bool) (stale []string, err error) {
	for _, name := range slices.Sorted(maps.Keys(files)) {
		path := filepath.Join(root, name)
		if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, files[name]) {
			continue
		}
		if check {
			stale = append(stale, name)
			continue
		}
		if err := os.WriteFile(path, files[name], 0o644); err != nil {
			return nil, err
		}
		fmt.Println("wrote", name)
	}
	return stale, nil
}
