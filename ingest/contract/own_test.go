package contract

import (
	"regexp"
	"testing"
)

func TestAnAgentWritesItsOwnRawTopicsAndTheSharedOthers(t *testing.T) {
	if got := OwnTopic(TopicRawThroughput, "agent-cern-ps1"); got != "longhaul.raw.throughput.agent-cern-ps1" {
		t.Fatalf("OwnTopic = %q", got)
	}
	for _, c := range []struct{ topic, principal string }{
		{TopicHistoryThroughput, "agent-cern-ps1"}, // the importer's
		{TopicRawThroughput, "psbridge"},           // the bridge writes the shared topics
		{TopicRawThroughput, ""},                   // a plaintext lab
		{TopicRawThroughput, "agent-"},             // no name
	} {
		if got := OwnTopic(c.topic, c.principal); got != c.topic {
			t.Errorf("OwnTopic(%q, %q) = %q, want it unchanged", c.topic, c.principal, got)
		}
	}
	if got := OwnTopic(TopicDeadLetter, "agent-cern-ps1"); got != "longhaul.deadletter.agent-cern-ps1" {
		t.Fatalf("an agent's dead letters: OwnTopic = %q", got)
	}
	if got := OwnTopic(TopicDeadLetter, "importer"); got != TopicDeadLetter {
		t.Fatalf("the importer's dead letters: OwnTopic = %q", got)
	}
	own := OwnTopics("agent-a")
	if len(own) != len(RawTopics) || own[1] != TopicRawPath+".agent-a" {
		t.Fatalf("OwnTopics = %v", own)
	}
	if OwnTopics("telegraf") != nil {
		t.Fatal("a service has no own topics")
	}
}

func TestTheTopicNamesItsWriterAndTheSrcItMayCarry(t *testing.T) {
	w, raw := WriterOf("longhaul.raw.path.agent-ihep.ac.cn")
	if w != "agent-ihep.ac.cn" || raw != TopicRawPath || OwnSrc(w) != "ihep.ac.cn" {
		t.Fatalf("WriterOf = %q, %q", w, raw)
	}
	if w, raw := WriterOf("longhaul.raw.bench-1.throughput.agent-bench-007"); w != "agent-bench-007" || raw != "longhaul.raw.bench-1.throughput" {
		t.Fatalf("a benchmark's own topic: %q, %q", w, raw)
	}
	for _, topic := range []string{TopicRawPath, "longhaul.raw.path.psbridge", "longhaul.raw.path.agent-", TopicStats, ".agent-a"} {
		if w, _ := WriterOf(topic); w != "" {
			t.Errorf("WriterOf(%q) = %q, want no writer", topic, w)
		}
	}
	if r := ForeignSrc("longhaul.raw.throughput.agent-a", "a"); r != "" {
		t.Fatalf("an agent's own src refused: %s", r)
	}
	if r := ForeignSrc(TopicRawThroughput, "anyone"); r != "" {
		t.Fatalf("the shared topic proves no writer, yet: %s", r)
	}
	r := ForeignSrc("longhaul.raw.throughput.agent-a", "b")
	if want := `foreign_src: src "b" on longhaul.raw.throughput.agent-a, where agent-a may write only src "a"`; r != want {
		t.Fatalf("ForeignSrc = %q, want %q", r, want)
	}
}

// One identity's bad input is dead-lettered on its own dead-letter topic, the job's verdicts on its
// samples included: a flood from it evicts its own dead letters only.
func TestADeadLetterOfAnIdentitysOwnTopicGoesToItsOwnDeadLetterTopic(t *testing.T) {
	for source, want := range map[string]string{
		"longhaul.raw.path.agent-ihep.ac.cn":       "longhaul.deadletter.agent-ihep.ac.cn",
		"longhaul.raw.latency.psbridge-cern":       "longhaul.deadletter.psbridge-cern",
		TopicRawPath:                               TopicDeadLetter, // the shared topic proves no writer
		TopicHistoryThroughput:                     TopicDeadLetter,
		"longhaul.pscheduler.results.pscheduler-x": TopicDeadLetter,
	} {
		if got := DeadLetterTopicOf(TopicDeadLetter, source); got != want {
			t.Errorf("DeadLetterTopicOf(%q) = %q, want %q", source, got, want)
		}
	}
	if got := DeadLetterTopicOf("it-1.deadletter", "it-1.raw.rtt.agent-a"); got != "it-1.deadletter.agent-a" {
		t.Errorf("a test's topics: %q", got)
	}
}

func TestABridgeOfItsOwnWritesItsOwnRawTopicsForItsListsSrcs(t *testing.T) {
	if got := OwnTopic(TopicRawLatency, "psbridge-cern"); got != "longhaul.raw.latency.psbridge-cern" {
		t.Fatalf("OwnTopic = %q", got)
	}
	if !IsBridge("psbridge-cern") || IsAgent("psbridge-cern") || IsBridge("psbridge") || IsBridge("psbridge-") {
		t.Fatal("IsBridge/IsAgent disagree on psbridge-cern, psbridge, psbridge-")
	}
	w, raw := WriterOf("longhaul.raw.latency.psbridge-cern")
	if w != "psbridge-cern" || raw != TopicRawLatency {
		t.Fatalf("WriterOf = %q, %q", w, raw)
	}
	// the first infix names the writer, whichever of the two it is
	if w, raw := WriterOf("longhaul.raw.rtt.agent-a.psbridge-b"); w != "agent-a.psbridge-b" || raw != TopicRawRTT {
		t.Fatalf("WriterOf = %q, %q", w, raw)
	}
	// its srcs are its central list's, which the job holds: no verdict here
	if r := ForeignSrc("longhaul.raw.latency.psbridge-cern", "anyone"); r != "" {
		t.Fatalf("ForeignSrc = %q", r)
	}
}

func TestThePatternMatchesARawTopicAndItsOwnTopicsOnly(t *testing.T) {
	re := regexp.MustCompile(RawTopicPattern(TopicRawThroughput))
	for topic, want := range map[string]bool{
		TopicRawThroughput:                         true,
		"longhaul.raw.throughput.agent-a":          true,
		"longhaul.raw.throughput.agent-cern.ch":    true,
		"longhaul.raw.throughput.psbridge":         false,
		"longhaul.raw.throughput.psbridge-cern":    true,
		"longhaul.raw.throughput.psbridge-":        false,
		"longhaul.raw.throughputs":                 false,
		"longhaul.raw.throughput.agent-":           false,
		TopicHistoryThroughput:                     false,
		"xlonghaul.raw.throughput":                 false,
		"longhaul.raw.throughput.agent-a.extra/..": false,
	} {
		if re.MatchString(topic) != want {
			t.Errorf("%q: match %v, want %v", topic, !want, want)
		}
	}
}

func TestAPSchedulerHostWritesItsOwnArchiversTopic(t *testing.T) {
	own := ArchiverTopic("pscheduler-lyon")
	if own != TopicPschedulerResults+".pscheduler-lyon" || ArchiverOf(TopicPschedulerResults, own) != "pscheduler-lyon" {
		t.Fatalf("ArchiverTopic = %q, ArchiverOf = %q", own, ArchiverOf(TopicPschedulerResults, own))
	}
	for _, p := range []string{"pscheduler", "pscheduler-", "agent-lyon", ""} {
		if ArchiverTopic(p) != TopicPschedulerResults {
			t.Errorf("%q writes %q, want the shared topic", p, ArchiverTopic(p))
		}
	}
	for _, topic := range []string{TopicPschedulerResults, TopicPschedulerResults + ".agent-a", TopicPschedulerResults + ".pscheduler-", TopicRawRTT} {
		if ArchiverOf(TopicPschedulerResults, topic) != "" {
			t.Errorf("ArchiverOf(%q) = %q, want none", topic, ArchiverOf(TopicPschedulerResults, topic))
		}
	}
	re := regexp.MustCompile(ArchiverTopicPattern(TopicPschedulerResults))
	if !re.MatchString(own) || !re.MatchString(TopicPschedulerResults) || re.MatchString(TopicPschedulerResults+".agent-a") {
		t.Fatal("the pattern reads the archivers' topic and the hosts' own, nothing else")
	}
}
