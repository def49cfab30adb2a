package version

import (
	"strings"
	"testing"
)

func TestStampedValuesWinOverTheToolchainsRecord(t *testing.T) {
	vcs := map[string]string{"vcs.revision": "0123abc", "vcs.time": "2026-11-01T00:00:00Z", "vcs.modified": "true"}
	i := resolve("1.2.3", "fedcba9", "2026-11-27T10:00:00Z", vcs)
	if i.Version != "1.2.3" || i.Commit != "fedcba9" || i.Date != "2026-11-27T10:00:00Z" || i.Modified {
		t.Fatalf("%+v", i)
	}
	line := i.String("longhaul")
	for _, want := range []string{"longhaul 1.2.3", "commit fedcba9", "built 2026-11-27T10:00:00Z", "go1."} {
		if !strings.Contains(line, want) {
			t.Errorf("%q lacks %q", line, want)
		}
	}
}

func TestUnstampedBuildsSayWhatTheToolchainRecorded(t *testing.T) {
	i := resolve("", "", "", map[string]string{"vcs.revision": "0123abc", "vcs.time": "2026-11-01T00:00:00Z", "vcs.modified": "true"})
	if i.Version != "dev" || i.Commit != "0123abc" || !i.Modified || !strings.Contains(i.String("x"), "+modified") {
		t.Fatalf("%+v", i)
	}
	if i := resolve("", "", "", nil); i.Commit != "unknown" || i.Date != "unknown" {
		t.Fatalf("nothing recorded: %+v", i)
	}
}
