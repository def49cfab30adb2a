package config

import (
	"fmt"
	"sort"
	"strings"
)

// FieldError is one problem of a config file, located by line and field path
// ("probes[1].interval"), or of a setting given outside the file (File empty, Path the flag or
// variable: "--kafka").
type FieldError struct {
	File string
	Line int
	Path string
	Msg  string
}

func (e FieldError) Error() string {
	if e.File == "" { // a setting given outside the file: Path is the flag or variable
		return fmt.Sprintf("%s: %s", e.Path, e.Msg)
	}
	if e.Path == "" {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s:%d: %s: %s", e.File, e.Line, e.Path, e.Msg)
}

// Errors is every problem found in a file, in file order.
type Errors []FieldError

func (es Errors) Error() string {
	lines := make([]string, len(es))
	for i, e := range es {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

// errorList accumulates located errors for one file.
type errorList struct {
	file string
	idx  *nodeIndex
	errs Errors
}

// at records an error on the node at path (its line, or the nearest enclosing node's).
func (l *errorList) at(path, format string, args ...any) {
	l.errs = append(l.errs, FieldError{File: l.file, Line: l.idx.line(path), Path: path, Msg: fmt.Sprintf(format, args...)})
}

// atLine records an error whose line is known.
func (l *errorList) atLine(line int, path, msg string) {
	l.errs = append(l.errs, FieldError{File: l.file, Line: line, Path: path, Msg: msg})
}

// outside records an error of a setting given outside the file (a flag, a variable).
func (l *errorList) outside(name, msg string) {
	l.errs = append(l.errs, FieldError{Path: name, Msg: msg})
}

func (l *errorList) err() error {
	if len(l.errs) == 0 {
		return nil
	}
	sort.SliceStable(l.errs, func(i, j int) bool { return l.errs[i].Line < l.errs[j].Line })
	return l.errs
}
