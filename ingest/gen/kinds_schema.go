package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// eventSchemaFile is the schema contract.yaml gives the events role (the newest version of
// event, which every consumer reads), by its path from the repository's root.
func eventSchemaFile(c contractYAML) (string, error) {
	for _, r := range c.TopicRoles {
		if r.Role == eventsRole {
			return filepath.ToSlash(filepath.Join(schemasDir, r.Schema+".schema.json")), nil
		}
	}
	return "", fmt.Errorf("%s: topic_roles: no role %q", contractFile, eventsRole)
}

// renderKindEnum is the event schema's text with its properties.kind.enum written anew from
// contract.yaml's event_kinds, in their order, and nothing else changed: a new kind is one entry
// of event_kinds. The enum is found as the file writes it, an "enum": [ line after the "kind": {
// line, one name a line, up to its ]; a schema written otherwise is refused, naming the file.
func renderKindEnum(file string, text []byte, kinds []Kind) ([]byte, error) {
	lines := strings.SplitAfter(string(text), "\n")
	open, end := -1, -1
	for i := 0; i+1 < len(lines); i++ {
		if strings.TrimSpace(lines[i]) == `"kind": {` && strings.TrimSpace(lines[i+1]) == `"enum": [` {
			if open >= 0 {
				return nil, fmt.Errorf("%s: two \"kind\" properties with an enum", file)
			}
			open = i + 1
		}
	}
	for i := open + 1; open >= 0 && i < len(lines); i++ {
		if strings.HasPrefix(strings.TrimSpace(lines[i]), "]") {
			end = i
			break
		}
	}
	if open < 0 || end < 0 {
		return nil, fmt.Errorf(`%s: no "kind": { "enum": [ … ] } written a line each`, file)
	}
	indent := lines[open][:len(lines[open])-len(strings.TrimLeft(lines[open], " "))] + "  "
	out := append([]string{}, lines[:open+1]...)
	for i, k := range kinds {
		name, _ := json.Marshal(k.Name)
		comma := ","
		if i == len(kinds)-1 {
			comma = ""
		}
		out = append(out, indent+string(name)+comma+"\n")
	}
	out = append(out, lines[end:]...)
	rendered := []byte(strings.Join(out, ""))
	if !json.Valid(rendered) {
		return nil, fmt.Errorf("%s: not JSON with the kinds written in", file)
	}
	return rendered, nil
}

// renderEventSchema reads the event schema under root and renders its kind enum.
func renderEventSchema(root string, c contractYAML, kinds []Kind) (string, []byte, error) {
	file, err := eventSchemaFile(c)
	if err != nil {
		return "", nil, err
	}
	text, err := os.ReadFile(filepath.Join(root, file))
	if err != nil {
		return "", nil, err
	}
	out, err := renderKindEnum(file, text, kinds)
	return file, out, err
}
