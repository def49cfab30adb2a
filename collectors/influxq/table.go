package influxq

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// Table is text laid out in aligned columns, for the terminal.
type Table struct {
	Header []string
	Rows   [][]string
}

// Add appends a row.
func (t *Table) Add(cells ...string) { t.Rows = append(t.Rows, cells) }

// Write prints the table: columns two spaces apart, numbers right-aligned.
func (t *Table) Write(w io.Writer) error {
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

// FormatBps writes a rate with a unit: 912 Mbit/s, 2.5 Gbit/s.
func FormatBps(v float64) string {
	units := []string{"bit/s", "kbit/s", "Mbit/s", "Gbit/s", "Tbit/s"}
	i := 0
	for v >= 1000 && i < len(units)-1 {
		v /= 1000
		i++
	}
	if v >= 100 {
		return fmt.Sprintf("%.0f %s", v, units[i])
	}
	return fmt.Sprintf("%.3g %s", v, units[i])
}
