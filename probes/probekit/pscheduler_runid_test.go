package probekit

import (
	"regexp"
	"strings"
	"testing"
)

// runIDSpec is what isRunID decides, as the regexp it replaced.
var runIDSpec = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._:-]{0,180}$`)

func TestARunIDIsWhatItsPatternSays(t *testing.T) {
	for _, id := range []string{
		"", "a", "-a", ".a", "a-b.c_d:e", "5d3f0b7e-1c1b-4c5e-9a53-6f1c2a9d0e11-run-8a1e2f34",
		"a b", "a/b", "é", strings.Repeat("a", 181), strings.Repeat("a", 182), "a\n",
	} {
		if got, want := isRunID(id), runIDSpec.MatchString(id); got != want {
			t.Errorf("isRunID(%q) = %v, the pattern says %v", id, got, want)
		}
	}
}

func FuzzIsRunID(f *testing.F) {
	f.Add("5d3f0b7e-1c1b-4c5e-9a53-6f1c2a9d0e11-run-8a1e2f34")
	f.Add("_x")
	f.Fuzz(func(t *testing.T, id string) {
		if got, want := isRunID(id), runIDSpec.MatchString(id); got != want {
			t.Fatalf("isRunID(%q) = %v, the pattern says %v", id, got, want)
		}
	})
}
