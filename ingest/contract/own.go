package contract

import (
	"regexp"
	"slices"
	"strings"
)

// OwnTopic is the topic principal writes a record of topic to: its own (topic, OwnTopicSeparator,
// principal) when topic is a raw topic and principal is one whose raw topics are its own (an agent,
// OwnTopicPrincipalPrefix); topic itself otherwise (dead letters, the bridge, a plaintext lab).
func OwnTopic(topic, principal string) string {
	if !slices.Contains(RawTopics, topic) || !OwnsTopics(principal) {
		return topic
	}
	return OwnTopicName(topic, principal)
}

// OwnTopicName is the name of principal's own topic of the raw topic topic, whichever topic a
// consumer reads as raw (the contract's, or a benchmark's; WriterOf reverses it).
func OwnTopicName(topic, principal string) string { return topic + OwnTopicSeparator + principal }

// OwnTopics are every raw topic of principal's own, in the order of RawTopics; nil for a
// principal that writes the shared ones.
func OwnTopics(principal string) []string {
	if !OwnsTopics(principal) {
		return nil
	}
	out := make([]string, len(RawTopics))
	for i, t := range RawTopics {
		out[i] = OwnTopic(t, principal)
	}
	return out
}

// OwnsTopics says whether principal writes raw topics of its own: an agent's Kafka user.
func OwnsTopics(principal string) bool {
	return strings.HasPrefix(principal, OwnTopicPrincipalPrefix) && len(principal) > len(OwnTopicPrincipalPrefix)
}

// WriterOf is the principal whose own topic topic is, with the topic it stands for: what follows
// the first OwnTopicSeparator+OwnTopicPrincipalPrefix, and what comes before it; "", "" for a
// topic without one (a shared raw topic among them). No contract topic's name holds that infix,
// and consumers read only the raw topics they name and the own topics of those
// (RawTopicPattern), so among what they read only an agent's own topics name a writer; a topic
// a benchmark names (longhaul.raw.bench-1.throughput) gets its own topics the same way.
func WriterOf(topic string) (principal, raw string) {
	infix := OwnTopicSeparator + OwnTopicPrincipalPrefix
	i := strings.Index(topic, infix)
	if i <= 0 || !OwnsTopics(topic[i+len(OwnTopicSeparator):]) {
		return "", ""
	}
	return topic[i+len(OwnTopicSeparator):], topic[:i]
}

// OwnSrc is the one src principal's own topics may carry: its name without the prefix (agent-X
// reports for X).
func OwnSrc(principal string) string { return strings.TrimPrefix(principal, OwnTopicPrincipalPrefix) }

// ForeignSrc says why a sample of src read from topic is refused: src is not the writer's own
// ("" when it is, or when topic is shared and proves no writer).
func ForeignSrc(topic, src string) string {
	w, _ := WriterOf(topic)
	if w == "" || src == OwnSrc(w) {
		return ""
	}
	return "foreign_src: src " + quote(src) + " on " + topic + ", where " + w + " may write only src " + quote(OwnSrc(w))
}

func quote(s string) string { return "\"" + s + "\"" }

// RawTopicPattern is a regular expression matching raw topic topic and every own topic of it
// (for consumers that subscribe by pattern: the job, the watchdog, Telegraf).
func RawTopicPattern(topic string) string {
	return "^" + regexp.QuoteMeta(topic) + "(" + regexp.QuoteMeta(OwnTopicSeparator+OwnTopicPrincipalPrefix) + "[a-z0-9._-]+)?$"
}

// ArchiverTopic is the archivers' topic principal writes: its own (TopicPschedulerResults,
// OwnTopicSeparator, principal) for a pScheduler host's archiver (OwnTopicArchiverPrefix<name>,
// `longhaul admin add-pscheduler-host`), the shared one for any other (the legacy `pscheduler`).
func ArchiverTopic(principal string) string {
	if !ownsArchiverTopic(principal) {
		return TopicPschedulerResults
	}
	return OwnTopicName(TopicPschedulerResults, principal)
}

// ArchiverOf is the pScheduler host principal whose own topic of the archivers' topic base topic
// is, or "" (base itself, or any other).
func ArchiverOf(base, topic string) string {
	rest, ok := strings.CutPrefix(topic, base+OwnTopicSeparator)
	if !ok || !ownsArchiverTopic(rest) {
		return ""
	}
	return rest
}

// ArchiverTopicPattern is a regular expression matching the archivers' topic base and every
// pScheduler host's own topic of it (the bridge reads them all, by pattern).
func ArchiverTopicPattern(base string) string {
	return "^" + regexp.QuoteMeta(base) + "(" + regexp.QuoteMeta(OwnTopicSeparator+OwnTopicArchiverPrefix) + "[a-z0-9._-]+)?$"
}

func ownsArchiverTopic(principal string) bool {
	return strings.HasPrefix(principal, OwnTopicArchiverPrefix) && len(principal) > len(OwnTopicArchiverPrefix)
}
