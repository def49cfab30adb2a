package main

import (
	"fmt"
	"strings"
)

// List is a run of lines in a file that is not rendered whole (a compose service's environment, a
// Kubernetes ConfigMap's data, .env.example): a line for each setting whose listed_in names the
// list, in the description's order, written from Line. So a new setting that every deployment
// hands a service is one edit of the description, not one per deployment. The run stands between
// the file's line that ends with listBegin+Name and the one that ends with listEnd+Name (comments
// in the file's own syntax, written by hand once).
type List struct {
	Name string `yaml:"name"`
	File string `yaml:"file"`
	Line string `yaml:"line"` // {name} stands for the setting's name, {value} for its default
}

// The ends of a list's run in its file: the text a line ends with.
const (
	listBegin = "deploy/gen renders the lines below from deploy/services.yaml: "
	listEnd   = "end of the lines rendered: "
)

// checkList is a List's own mistake, found before any file is read: the field and why.
func checkList(l List) (field, msg string) {
	switch {
	case !inRepository(l.File):
		return "file", fmt.Sprintf("%q is not a file of the repository", l.File)
	case !serviceName.MatchString(l.Name):
		return "name", fmt.Sprintf("%q is not a list's name (lower case, digits, -)", l.Name)
	case !strings.Contains(l.Line, "{name}"):
		return "line", fmt.Sprintf("%q names no setting: it has no {name}", l.Line)
	}
	return "", ""
}

// lines is the list's run: Line for each setting listed in it.
func (d *Description) lines(l List) []string {
	var out []string
	for _, s := range d.Settings {
		for _, name := range s.ListedIn {
			if name == l.Name {
				line := strings.ReplaceAll(l.Line, "{name}", s.Name)
				out = append(out, strings.ReplaceAll(line, "{value}", s.Default)+"\n")
			}
		}
	}
	return out
}

// fill replaces the run between l's two marks in lines by d's lines of l: exactly one of each
// mark, the begin before the end, or an error naming the list.
func (d *Description) fill(lines []string, l List) ([]string, error) {
	begin, end := -1, -1
	for i, line := range lines {
		body := strings.TrimRight(line, "\n")
		for _, m := range []struct {
			suffix string
			at     *int
		}{{listBegin + l.Name, &begin}, {listEnd + l.Name, &end}} {
			if strings.HasSuffix(body, m.suffix) {
				if *m.at >= 0 {
					return nil, fmt.Errorf("lines %d and %d both end with %q", *m.at+1, i+1, m.suffix)
				}
				*m.at = i
			}
		}
	}
	switch {
	case begin < 0:
		return nil, fmt.Errorf("no line ends with %q", listBegin+l.Name)
	case end < 0:
		return nil, fmt.Errorf("no line ends with %q", listEnd+l.Name)
	case end < begin:
		return nil, fmt.Errorf("the end of the list (line %d) comes before its beginning (line %d)", end+1, begin+1)
	}
	out := append([]string{}, lines[:begin+1]...)
	out = append(out, d.lines(l)...)
	return append(out, lines[end:]...), nil
}
