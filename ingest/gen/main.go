// Command gen writes the Go and Java forms of Longhaul's contract names from
// ingest/contract.yaml and ingest/topics.yaml: topic names by role, event kinds and which
// recovery closes which alert, and the shared thresholds; and the kind enum of the events
// topic's schema, from the same event kinds. Run it with `go generate ./ingest/...`
// (ingest/contract/doc.go); the tests of this package fail when a committed file differs from
// what it would write.
package main

import "longhaul/internal/rendered"

func main() {
	rendered.Main("go generate ./ingest/...", Generate)
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
	return map[string][]byte{goFile: goSrc, javaKindFile: kinds, javaNamesFile: names, c.EventSchemaFile: c.EventSchema}, nil
}
