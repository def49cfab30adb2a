package render

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// TextTable is text laid out in aligned columns, for the terminal.
type TextTable struct {
	Header []string
	Rows   [][]string
}

// Add appends a row.
func (t *TextTable) Add(cells ...string) { t.Rows = append(t.Rows, cells) }

// Write prints the table: columns two spaces apart, numbers right-aligned.
func (t *TextTable) Write(w io.Writer) error {
	width := make([]int, len(t.Header))
	for i, h := range t.Header {
		width[i] = utf8.RuneCountInString(h)
	}
	for _, r := range t.Rows {
		for i, c := range r {
			if i < len(width) && utf8.RuneCountInString(c) > width[i] {
				width[i] = utf8.RuneCountInString(c)
			}
		}
	}
	line := func(cells []string) string {
		parts := make([]string, len(cells))
		for i, c := range cells {
			pad := strings.Repeat(" ", width[i]-utf8.RuneCountInString(c))
			if numeric(c) {
				parts[i] = pad + c
			} else {
				parts[i] = c + pad
			}
		}
		return strings.TrimRight(strings.Join(parts, "  "), " ")
	}
	if _, err := fmt.Fprintln(w, line(t.Header)); err != nil {
		return err
	}
	for _, r := range t.Rows {
		if _, err := fmt.Fprintln(w, line(r)); err != nil {
			return err
		}
	}
	return nil
}

func numeric(s string) bool {
	if s == "" || s == "-" {
		return s == "-"
	}
	for _, r := range s {
		if !strings.ContainsRune("0123456789.-+e%", r) {
			return false
		}
	}
	return true
}
