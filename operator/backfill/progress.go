package backfill

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// Progress draws how far the import is: a bar redrawn in place on a terminal, else a line at
// every tenth, so a log stays readable.
type Progress struct {
	w     io.Writer
	tty   bool
	total int64 // bytes or files; 0: unknown
	unit  string
	last  time.Time
	tenth int64
}

// NewProgress draws on w (a terminal when tty) towards total units.
func NewProgress(w io.Writer, tty bool, total int64, unit string) *Progress {
	return &Progress{w: w, tty: tty, total: total, unit: unit, tenth: -1}
}

const barWidth = 30

// Update shows done of total units with the running counts.
func (p *Progress) Update(done int64, r Report) {
	if p.total <= 0 {
		return
	}
	frac := min(float64(done)/float64(p.total), 1)
	if p.tty {
		if time.Since(p.last) < 200*time.Millisecond && done < p.total {
			return
		}
		p.last = time.Now()
		n := int(frac * barWidth)
		fmt.Fprintf(p.w, "\r[%s%s] %3.0f%%  %s", strings.Repeat("#", n), strings.Repeat(".", barWidth-n), 100*frac, counts(r))
		return
	}
	if t := int64(frac * 10); t > p.tenth {
		p.tenth = t
		fmt.Fprintf(p.w, "import: %3.0f%% of %d %s  %s\n", 100*frac, p.total, p.unit, counts(r))
	}
}

// Done ends the bar's line.
func (p *Progress) Done() {
	if p.tty && p.total > 0 {
		fmt.Fprintln(p.w)
	}
}

func counts(r Report) string {
	return fmt.Sprintf("%d records: %d to publish, %d duplicate, %d rejected", r.Records, r.Records-r.Duplicates-r.Rejected, r.Duplicates, r.Rejected)
}
