package config

import (
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"
)

// nodeIndex maps field paths ("probes[1].params") to their YAML nodes and lines back to the
// deepest path that starts on them, so both decode errors (which only know a line) and
// validation errors (which only know a path) name FILE:LINE and the field.
type nodeIndex struct {
	byPath   map[string]*yaml.Node // the value node of each path
	pathLine map[string]int        // the line of each path's key (or sequence item)
	byLine   map[int]string
}

func indexNodes(doc *yaml.Node) *nodeIndex {
	idx := &nodeIndex{byPath: map[string]*yaml.Node{}, pathLine: map[string]int{}, byLine: map[int]string{}}
	if doc != nil && doc.Kind == yaml.DocumentNode && len(doc.Content) > 0 {
		idx.walk(doc.Content[0], "")
	}
	return idx
}

func (x *nodeIndex) note(n *yaml.Node, path string) {
	x.pathLine[path] = n.Line
	// Keep the deepest path of a line along one branch; siblings on one line (flow style)
	// keep the first.
	if old, ok := x.byLine[n.Line]; !ok || strings.HasPrefix(path, old) {
		x.byLine[n.Line] = path
	}
}

func (x *nodeIndex) walk(n *yaml.Node, path string) {
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			p := join(path, n.Content[i].Value)
			x.note(n.Content[i], p)
			x.byPath[p] = n.Content[i+1]
			x.walk(n.Content[i+1], p)
		}
	case yaml.SequenceNode:
		for i, item := range n.Content {
			p := fmt.Sprintf("%s[%d]", path, i)
			x.note(item, p)
			x.byPath[p] = item
			x.walk(item, p)
		}
	case yaml.AliasNode:
		if n.Alias != nil {
			x.walk(n.Alias, path)
		}
	}
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// node returns the node at path, or nil.
func (x *nodeIndex) node(path string) *yaml.Node {
	if x == nil {
		return nil
	}
	return x.byPath[path]
}

// line returns the line of path or of its nearest indexed parent (1 if none).
func (x *nodeIndex) line(path string) int {
	if x == nil {
		return 1
	}
	for p := path; p != ""; p = parent(p) {
		if l, ok := x.pathLine[p]; ok {
			return l
		}
	}
	return 1
}

// pathAt returns the deepest path starting on line, or "".
func (x *nodeIndex) pathAt(line int) string {
	if x == nil {
		return ""
	}
	return x.byLine[line]
}

func parent(p string) string {
	i := strings.LastIndexAny(p, ".[")
	if i < 0 {
		return ""
	}
	return p[:i]
}
