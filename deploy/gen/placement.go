package main

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Placement is one more line where a setting's value is written by hand around it, in a file that
// is not rendered whole (docker-compose.yml, a Kubernetes manifest): Line is that line with {} where
// the value stands, e.g. `    jobmanager.memory.process.size: {}`. The generator rewrites the value
// of the one line of File that has Line's text around it, so a heap is still one edit.
type Placement struct {
	File string `yaml:"file"`
	Line string `yaml:"line"`
}

// valueMark stands for the setting's value in a Placement's line.
const valueMark = "{}"

// around is the text of the line before and after its value.
func (p Placement) around() (before, after string) {
	before, after, _ = strings.Cut(p.Line, valueMark)
	return before, after
}

// checkPlacement is a Placement's own mistake, found before any file is read: the field and why.
func checkPlacement(p Placement) (field, msg string) {
	switch {
	case !inRepository(p.File):
		return "file", fmt.Sprintf("%q is not a file of the repository", p.File)
	case strings.Count(p.Line, valueMark) != 1:
		return "line", fmt.Sprintf("%q has not one %s where the value stands", p.Line, valueMark)
	case strings.TrimSpace(strings.Replace(p.Line, valueMark, "", 1)) == "":
		return "line", "no text around the value to find the line by"
	}
	return "", ""
}

// inRepository: a path from the repository's root that stays inside it.
func inRepository(file string) bool {
	return file != "" && !strings.HasPrefix(file, "/") && !strings.Contains(file, "..")
}

// RenderPlacements is every file named by a setting's rendered_in or by a list, as read by read
// (by its path from the repository's root) with each list's run written anew and then each placed
// value set to the setting's default. A line that matches no line of its file, or more than one,
// or a list's marks missing or doubled, is an error naming the file and the setting or the list.
func (d *Description) RenderPlacements(read func(name string) ([]byte, error)) (map[string]string, error) {
	type placed struct {
		setting *Setting
		at      Placement
	}
	byFile := map[string][]placed{}
	listsOf := map[string][]List{}
	for i := range d.Settings {
		for _, p := range d.Settings[i].RenderedIn {
			byFile[p.File] = append(byFile[p.File], placed{&d.Settings[i], p})
		}
	}
	for _, l := range d.Lists {
		listsOf[l.File] = append(listsOf[l.File], l)
		if _, ok := byFile[l.File]; !ok {
			byFile[l.File] = nil
		}
	}
	out := map[string]string{}
	for _, file := range slices.Sorted(maps.Keys(byFile)) {
		data, err := read(file)
		if err != nil {
			return nil, err
		}
		lines := strings.SplitAfter(string(data), "\n")
		for _, l := range listsOf[file] {
			if lines, err = d.fill(lines, l); err != nil {
				return nil, fmt.Errorf("%s: list %s: %w", file, l.Name, err)
			}
		}
		for _, p := range byFile[file] {
			if err := place(lines, p.at, p.setting.Default); err != nil {
				return nil, fmt.Errorf("%s: %s: %w", file, p.setting.Name, err)
			}
		}
		out[file] = strings.Join(lines, "")
	}
	return out, nil
}

// place sets value in the one line of lines that has p's text around its value.
func place(lines []string, p Placement, value string) error {
	before, after := p.around()
	at := -1
	for i, l := range lines {
		body := strings.TrimSuffix(l, "\n")
		if len(body) < len(before)+len(after) || !strings.HasPrefix(body, before) || !strings.HasSuffix(body, after) {
			continue
		}
		if at >= 0 {
			return fmt.Errorf("lines %d and %d both read %q", at+1, i+1, p.Line)
		}
		at = i
	}
	if at < 0 {
		return fmt.Errorf("no line reads %q", p.Line)
	}
	end := ""
	if strings.HasSuffix(lines[at], "\n") {
		end = "\n"
	}
	lines[at] = before + value + after + end
	return nil
}
