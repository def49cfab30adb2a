package alerting

import (
	"strings"
	"testing"
)

func TestLinksParseWithIPv6InBrackets(t *testing.T) {
	for in, want := range map[string][2]string{
		"s1:dst-a": {"s1", "dst-a"}, "[2001:db8::1]:dst-a": {"2001:db8::1", "dst-a"},
		"s1:[2001:db8::2]": {"s1", "2001:db8::2"},
	} {
		src, dst, err := ParseLink(in)
		if err != nil || src != want[0] || dst != want[1] {
			t.Errorf("%s: %s %s %v", in, src, dst, err)
		}
	}
	for _, bad := range []string{"s1", "s1:", ":d", "2001:db8::1:dst", "[2001:db8::1"} {
		if _, _, err := ParseLink(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestASiteSilenceCoversBothEndsAndOnlyLonghaulsAlerts(t *testing.T) {
	sets := SiteSilences("IN2P3")
	got := MatchersString(sets[0]) + " | " + MatchersString(sets[1])
	if got != `source="longhaul",dst_site="IN2P3" | source="longhaul",src_site="IN2P3"` {
		t.Fatal(got)
	}
	if m := MatchersString(LinkSilence("s1", "dst-a")); !strings.Contains(m, `src="s1",dst="dst-a"`) {
		t.Fatal(m)
	}
	if m := MatchersString(IncidentSilence("4c2a")); m != `source="longhaul",incident="4c2a"` {
		t.Fatal(m)
	}
}
