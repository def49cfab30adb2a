package render

import (
	"strings"
	"testing"
)

func TestTableAlignsNumbersRight(t *testing.T) {
	tb := &TextTable{Header: []string{"time", "throughput", "loss %"}}
	tb.Add("2026-11-21 06:00", "912 Mbit/s", "0.1")
	tb.Add("2026-11-21 07:00", "20 Mbit/s", "10")
	var b strings.Builder
	_ = tb.Write(&b)
	want := "time              throughput  loss %\n" +
		"2026-11-21 06:00  912 Mbit/s     0.1\n" +
		"2026-11-21 07:00  20 Mbit/s       10\n"
	if b.String() != want {
		t.Fatalf("got\n%s\nwant\n%s", b.String(), want)
	}
	for v, want := range map[float64]string{9.12e8: "912 Mbit/s", 2.5e9: "2.5 Gbit/s", 0: "0 bit/s"} {
		if got := FormatValue(v, "bps"); got != want {
			t.Errorf("FormatValue(%g, bps) = %q, want %q", v, got, want)
		}
	}
}
