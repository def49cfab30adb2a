package render

import (
	"fmt"
	"html"
	"io"
	"strings"
)

// Why says why a panel draws nothing: it is still learning (it needs more history than there
// is yet), or there are no samples for it at all. A panel without a Why draws "no data".
type Why struct {
	Learning bool
	Text     string
}

// Learning is a panel that needs more history than there is yet.
func Learning(format string, args ...any) *Why {
	return &Why{Learning: true, Text: fmt.Sprintf(format, args...)}
}

// Empty is a panel with nothing to show in its range.
func Empty(format string, args ...any) *Why { return &Why{Text: fmt.Sprintf(format, args...)} }

// Class is the CSS class the state is drawn with.
func (w *Why) Class() string {
	if w == nil {
		return "nodata"
	}
	if w.Learning {
		return "learning"
	}
	return "empty"
}

// String is what the panel says.
func (w *Why) String() string {
	if w == nil {
		return "no data"
	}
	return w.Text
}

// State is one word for the text output: learning, empty, or no data (no reason known).
func (w *Why) State() string {
	switch {
	case w == nil:
		return "no data"
	case w.Learning:
		return "learning"
	}
	return "empty"
}

// svgText writes the state centred at (cx, cy), wrapped to lines of at most width characters.
func (w *Why) svgText(b *strings.Builder, cx, cy, width int) {
	lines := wrap(w.String(), width)
	y := cy - (len(lines)-1)*8
	fmt.Fprintf(b, `<text class="%s" x="%d" y="%d" text-anchor="middle">`, w.Class(), cx, y)
	for i, l := range lines {
		dy := 0
		if i > 0 {
			dy = 16
		}
		fmt.Fprintf(b, `<tspan x="%d" dy="%d">%s</tspan>`, cx, dy, html.EscapeString(l))
	}
	b.WriteString(`</text>`)
}

// wrap breaks text at spaces into lines of at most n characters (a longer word stays whole).
func wrap(text string, n int) []string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(text) {
		switch {
		case line == "":
			line = word
		case len([]rune(line))+1+len([]rune(word)) <= n:
			line += " " + word
		default:
			lines = append(lines, line)
			line = word
		}
	}
	return append(lines, line)
}

// WriteStates prints, for the terminal, one line per panel that shows nothing or is still
// learning: its state (learning, empty, no data), where it is and why.
func WriteStates(w io.Writer, d *Doc) error {
	for _, s := range d.Sections {
		for _, it := range s.Items {
			why, incomplete := it.State()
			if !incomplete {
				continue
			}
			if _, err := fmt.Fprintf(w, "  %-8s  %s / %s: %s\n", why.State(), s.Title, it.Title(), why); err != nil {
				return err
			}
		}
	}
	return nil
}
