package psbridge

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSeenSurvivesAReopenAndForgetsTheOldestBeyondCapacity(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state", "seen.log")
	s, err := OpenSeen(path, 1000)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 1500; i++ {
		if err := s.Add(fmt.Sprintf("pscheduler-%d", i)); err != nil {
			t.Fatal(err)
		}
	}
	s.Add("pscheduler-1499") // again: no new line
	if s.Len() != 1000 || s.Has("pscheduler-499") || !s.Has("pscheduler-500") || !s.Has("pscheduler-1499") {
		t.Fatalf("len %d; 499 %v, 500 %v", s.Len(), s.Has("pscheduler-499"), s.Has("pscheduler-500"))
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	// a crash mid-line leaves a torn last line: skipped
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(strings.Repeat("ab", 17) + "\n") // damaged: a digest and a byte more
	f.WriteString("0123abc")
	f.Close()
	r, err := OpenSeen(path, 1000)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if r.Len() != 1000 || r.Has("pscheduler-499") || !r.Has("pscheduler-500") || !r.Has("pscheduler-1499") {
		t.Fatalf("after reopening: len %d", r.Len())
	}
	b, _ := os.ReadFile(path)
	if n := strings.Count(string(b), "\n"); n != 1000 {
		t.Errorf("reopening compacts the file to what is kept: %d lines", n)
	}
}

func TestSeenFileStaysBounded(t *testing.T) {
	path := filepath.Join(t.TempDir(), "seen.log")
	s, err := OpenSeen(path, 1000)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for i := 0; i < 10_000; i++ {
		s.Add(fmt.Sprint(i))
	}
	b, _ := os.ReadFile(path)
	if n := strings.Count(string(b), "\n"); n >= 2000 || n < 1000 {
		t.Errorf("%d lines for a capacity of 1000", n)
	}
	if !s.Has("9999") || s.Has("8999") {
		t.Error("compaction lost the newest or kept the oldest")
	}
}
