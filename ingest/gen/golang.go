package main

import (
	"bytes"
	"fmt"
	"go/format"
	"strings"
	"text/template"
)

// goFile is the Go form of the contract, package longhaul/ingest/contract.
const goFile = "ingest/contract/contract_gen.go"

var goTemplate = parseTemplate("contract_gen.go.tmpl", "")

var funcs = template.FuncMap{
	"goName":        goName,
	"javaConst":     javaConst,
	"wrap":          wrap,
	"number":        func(v *float64) string { return number(*v) },
	"rawTopics":     rawTopics,
	"historyTopics": historyTopics,
	"versioned":     versioned,
	"kindDoc":       kindDoc,
	"inc":           func(i int) int { return i + 1 },
}

// rawTopics are the topics whose role is raw.*.
func rawTopics(ts []Topic) []Topic { return roleFamily(ts, "raw.") }

// historyTopics are the topics whose role is history.*.
func historyTopics(ts []Topic) []Topic { return roleFamily(ts, "history.") }

// roleFamily are the topics whose role starts with prefix, in the order of topics.yaml.
func roleFamily(ts []Topic, prefix string) []Topic {
	var out []Topic
	for _, t := range ts {
		if strings.HasPrefix(t.Role, prefix) {
			out = append(out, t)
		}
	}
	return out
}

// versioned are the topics whose schema is Longhaul's, with a version.
func versioned(ts []Topic) []Topic {
	var out []Topic
	for _, t := range ts {
		if t.Version() > 0 {
			out = append(out, t)
		}
	}
	return out
}

// kindDoc says what a kind does to an episode, in words both languages' comments use.
func kindDoc(k Kind) string {
	switch k.Role {
	case "alert":
		return fmt.Sprintf("is an alert: it opens an episode that %s closes.", k.ClosedBy)
	case "recovery":
		return fmt.Sprintf("is a recovery: it closes %s.", k.Closes)
	case "update":
		return fmt.Sprintf("is an update: it re-raises the open episode of %s.", k.Updates)
	}
	return "is info: a one-off report that opens and closes nothing."
}

// renderGo writes the Go form of the contract, gofmt'ed.
func renderGo(c *Contract) ([]byte, error) {
	var b bytes.Buffer
	if err := goTemplate.Execute(&b, c); err != nil {
		return nil, err
	}
	out, err := format.Source(b.Bytes())
	if err != nil {
		return nil, fmt.Errorf("%s: gofmt: %w\n%s", goFile, err, b.Bytes())
	}
	return out, nil
}
