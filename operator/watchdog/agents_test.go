package watchdog

import (
	"slices"
	"testing"
	"time"
)

func TestTheBookCoalescesBurstsAndKeepsTheMedianGap(t *testing.T) {
	b := NewAgentBook(10)
	// a run's samples arrive together (one burst), a run every 60 s, one late by 30 s
	for _, burst := range []float64{0, 60, 120, 210, 270} {
		for i := 0; i < 5; i++ {
			b.Record("h1", at(burst+float64(i)*0.1), 0, false)
		}
	}
	v, _ := b.Views()
	if len(v) != 1 || v[0].Records != 25 || v[0].Gaps != 4 || v[0].UsualGap != 60*time.Second-400*time.Millisecond ||
		v[0].MaxGap != 90*time.Second-400*time.Millisecond || !v[0].LastSeen.Equal(at(270.4)) || v[0].Span != at(270.4).Sub(at(0)) {
		t.Fatalf("%+v", v)
	}
	// a record older than the last seen (another partition's) does not move it back
	b.Record("h1", at(100), 0, false)
	if v, _ := b.Views(); !v[0].LastSeen.Equal(at(270.4)) {
		t.Fatalf("%+v", v)
	}
}

func TestTheBookIsCappedAndCountsWhatItDidNotKeep(t *testing.T) {
	b := NewAgentBook(2)
	for _, h := range []string{"a", "b", "c", "c", "a", ""} {
		b.Record(h, at(0), 0, false)
	}
	v, untracked := b.Views()
	if len(v) != 2 || v[0].Host != "a" || v[1].Host != "b" || untracked != 2 || v[0].Records != 2 {
		t.Fatalf("%+v %d", v, untracked)
	}
	b.Seed("d", at(0), time.Minute)
	if v, _ := b.Views(); len(v) != 2 {
		t.Fatal("seed beyond the cap")
	}
}

func TestSkewIsTheMedianOfSentMinusBroker(t *testing.T) {
	b := NewAgentBook(10)
	for i, off := range []int64{-45000, -45100, -44900, 300000, -45050} { // one outlier
		broker := at(float64(i * 60))
		b.Record("h1", broker, broker.UnixMilli()+off, true)
	}
	b.Record("h1", at(400), 0, false) // no header: not a skew sample
	v, _ := b.Views()
	if v[0].Skews != 5 || v[0].Skew != -45*time.Second {
		t.Fatalf("%+v", v)
	}
}

func TestForgedNamesOnASharedTopicCannotCrowdOutHostsThatSpeakForThemselves(t *testing.T) {
	b := NewAgentBook(2)
	for _, h := range []string{"x1", "x2", "x3", "x4"} { // a shared writer's flood of names
		b.Record(h, at(0), 0, false)
	}
	b.RecordOwn("a", at(1), 0, false)  // an agent on its own topic: its side has room
	b.RecordOwn("x1", at(1), 0, false) // x1's own identity speaks: it moves to that side
	b.Record("x5", at(2), 0, false)    // which leaves room on the shared side again
	b.RecordOwn("b", at(3), 0, false)  // the own side is full too (Max each)
	v, untracked := b.Views()
	var hosts []string
	for _, x := range v {
		hosts = append(hosts, x.Host)
	}
	if !slices.Equal(hosts, []string{"a", "x1", "x2", "x5"}) || untracked != 3 {
		t.Fatalf("kept %v, %d records untracked", hosts, untracked)
	}
	if !v[0].Own || !v[1].Own || v[2].Own || v[3].Own {
		t.Fatalf("which side: %+v", v)
	}
}
