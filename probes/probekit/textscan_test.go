package probekit

import (
	"reflect"
	"strings"
	"testing"
)

func TestEachLineKeepsWhatLinesKeepWithTheirColumn(t *testing.T) {
	in := []byte("```\n  [ID]  Interval  Transfer\r\n\n| [3] | 0.0- 5.0 sec | 24.2 GBytes |\n|---|---|---|\n...\n\t[ 3] Sent 5 datagrams")
	var got []TextLine
	if err := EachLine(in, func(l TextLine) error { got = append(got, l); return nil }); err != nil {
		t.Fatal(err)
	}
	var lines []Line
	for _, l := range got {
		lines = append(lines, l.Line)
	}
	if !reflect.DeepEqual(lines, Lines(in)) {
		t.Errorf("EachLine %v, Lines %v", lines, Lines(in))
	}
	if got[0].Col != 3 || got[2].Col != 2 {
		t.Errorf("columns %d %d, want 3 and 2", got[0].Col, got[2].Col)
	}
}

func TestEachLineRefusesALongLineAndStopsAtTheFirstError(t *testing.T) {
	err := EachLine([]byte("ok\n"+strings.Repeat("é", MaxLineBytes)), func(TextLine) error { return nil })
	if err == nil || !strings.HasPrefix(err.Error(), "line 2: line longer than 4096 bytes") || len(err.Error()) > 300 {
		t.Fatalf("%v", err)
	}
	n := 0
	err = EachLine([]byte("a\nb\nc\n"), func(l TextLine) error { n++; return l.ErrorAt(0, "stop") })
	if n != 1 || err.Error() != `line 1: stop (col 1: "a")` {
		t.Fatalf("%d %v", n, err)
	}
}

func TestPosErrorQuotesABoundedSnippet(t *testing.T) {
	l := TextLine{Line: Line{No: 7, Text: "hop " + strings.Repeat("x", 5000)}, Col: 3}
	err := l.ErrorAtToken("x", "bad %s", strings.Repeat("y", 2000))
	if len(err.Error()) > 700 || !strings.HasPrefix(err.Error(), "line 7: bad yyy") || !strings.Contains(err.Error(), `(col 7: "xxxx`) {
		t.Fatalf("%d bytes: %.100s", len(err.Error()), err)
	}
	if s := Snippet("\xff\xfeabc"); s != "?abc" {
		t.Errorf("Snippet of invalid UTF-8: %q", s)
	}
}

func TestCheckSizeNamesTheLimit(t *testing.T) {
	if err := CheckSize(make([]byte, 2048), 1024, "mtr run"); err == nil || !strings.Contains(err.Error(), "larger than 1 KB, more than one mtr run") {
		t.Fatal(err)
	}
	if err := CheckSize(make([]byte, 1024), 1024, "mtr run"); err != nil {
		t.Fatal(err)
	}
}

func TestCommandLineIsTheProgramAfterAPrompt(t *testing.T) {
	for _, c := range []struct {
		line string
		want bool
	}{
		{"iperf -c localhost -e  --format b -i 2 -t 6", true},
		{"$ iperf3 -c 10.0.0.1 -J", true},
		{"root@host:~# /usr/bin/ping -c 4 example.net", true},
		{"sudo -E ping6 -D -O host", true},
		{"ip netns exec lhp-a ping -n -c 3 10.77.2.2", true},
		{"ping", true},
		{"ping: unknown host nowhere", false},
		{"PING 10.0.0.1 (10.0.0.1) 56(84) bytes of data.", false},
		{"iperf: ignoring extra argument -- x", false},
		{"pingx -c 1", false},
	} {
		if got := CommandLine(c.line, "iperf", "iperf3", "ping", "ping6"); got != c.want {
			t.Errorf("CommandLine(%q) = %v, want %v", c.line, got, c.want)
		}
	}
}
