package probekit

import (
	"fmt"
	"strings"
)

// Line is one meaningful line of a text output with its 1-based number in the input.
type Line struct {
	No   int
	Text string
}

// LineError locates a parse error in a text input.
type LineError struct {
	Line int
	Msg  string
}

func (e *LineError) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

// Errorf makes a LineError at l.
func (l Line) Errorf(format string, args ...any) error {
	return &LineError{Line: l.No, Msg: fmt.Sprintf(format, args...)}
}

// Lines splits a text output into its meaningful lines. Besides the tool's own output it copes
// with what copying the output into a report does to it, since old reports are what gets
// imported: blank lines, Markdown code fences (```), table rows (| [ 3] | 0.0- 5.0 sec | … |,
// whose cells are re-joined with spaces; separator rows are dropped) and "..." elisions are
// skipped. Every other line is kept, trimmed, for the parser to accept or refuse.
func Lines(input []byte) []Line {
	var out []Line
	for i, raw := range strings.Split(string(input), "\n") {
		t := strings.TrimSpace(strings.TrimRight(raw, "\r"))
		switch {
		case t == "", t == "...", t == "…", strings.HasPrefix(t, "```"):
			continue
		case strings.HasPrefix(t, "|") && strings.HasSuffix(t, "|") && len(t) > 1:
			t = tableRow(t)
			if t == "" {
				continue
			}
		}
		out = append(out, Line{No: i + 1, Text: t})
	}
	return out
}

// tableRow re-joins the cells of a Markdown table row; "" for a separator row.
func tableRow(t string) string {
	cells := strings.Split(strings.Trim(t, "|"), "|")
	var kept []string
	for _, c := range cells {
		c = strings.TrimSpace(c)
		if c != "" {
			kept = append(kept, c)
		}
	}
	joined := strings.Join(kept, "  ")
	if strings.Trim(joined, "-: ") == "" {
		return ""
	}
	return joined
}
