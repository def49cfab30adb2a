package contract

import (
	"regexp"
	"slices"
	"strings"
)

// OwnTopic is the topic principal writes a record of topic to: its own (topic, OwnTopicSeparator,
// principal) when topic is a raw topic or the dead-letter topic and principal is one whose topics
// are its own (an agent, OwnTopicPrincipalPrefix; a bridge of its own, OwnTopicBridgePrefix);
// topic itself otherwise (the shared bridge user, the importer, a plaintext lab).
func OwnTopic(topic, principal string) string {
	if !ownable(topic) || !OwnsTopics(principal) {
		return topic
	}
	return OwnTopicName(topic, principal)
}

// ownable says whether an identity with topics of its own has its own of topic: each raw topic,
// and the dead-letter topic, so that what one identity's bad input piles up there (its own dead
// letters, and the job's of its samples) is bounded by its own topic's retention.bytes and evicts
// nobody else's.
func ownable(topic string) bool { return topic == TopicDeadLetter || slices.Contains(RawTopics, topic) }

// DeadLetterTopicOf is where a dead letter of a record read from sourceTopic goes: the own
// dead-letter topic of the identity whose own topic sourceTopic is, the shared deadLetter
// otherwise (deadLetter: the contract's, or a test's).
func DeadLetterTopicOf(deadLetter, sourceTopic string) string {
	if w, _ := WriterOf(sourceTopic); w != "" {
		return OwnTopicName(deadLetter, w)
	}
	return deadLetter
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

// OwnsTopics says whether principal writes raw topics of its own: an agent's Kafka user, or a
// bridge's of its own.
func OwnsTopics(principal string) bool { return IsAgent(principal) || IsBridge(principal) }

// IsAgent says whether principal is an agent's Kafka user (agent-NAME), whose own topics carry
// one src, NAME.
func IsAgent(principal string) bool { return hasName(principal, OwnTopicPrincipalPrefix) }

// IsBridge says whether principal is a pScheduler bridge's own Kafka user (psbridge-NAME), whose
// own topics carry the srcs of its central host list (topic bridge.hosts) only.
func IsBridge(principal string) bool { return hasName(principal, OwnTopicBridgePrefix) }

func hasName(principal, prefix string) bool {
	return strings.HasPrefix(principal, prefix) && len(principal) > len(prefix)
}

// ownInfixes are what separates a raw topic from its writer in an own topic's name.
var ownInfixes = []string{OwnTopicSeparator + OwnTopicPrincipalPrefix, OwnTopicSeparator + OwnTopicBridgePrefix}

// WriterOf is the principal whose own topic topic is, with the topic it stands for: what follows
// the first OwnTopicSeparator+OwnTopicPrincipalPrefix (or +OwnTopicBridgePrefix), and what comes
// before it; "", "" for a topic without one (a shared raw topic among them). No contract topic's
// name holds those infixes, and consumers read only the raw topics they name and the own topics
// of those (RawTopicPattern), so among what they read only an agent's or a bridge's own topics
// name a writer; a topic a benchmark names (longhaul.raw.bench-1.throughput) gets its own topics
// the same way.
func WriterOf(topic string) (principal, raw string) {
	i := -1
	for _, infix := range ownInfixes {
		if j := strings.Index(topic, infix); j > 0 && (i < 0 || j < i) {
			i = j
		}
	}
	if i <= 0 || !OwnsTopics(topic[i+len(OwnTopicSeparator):]) {
		return "", ""
	}
	return topic[i+len(OwnTopicSeparator):], topic[:i]
}

// OwnSrc is the one src principal's own topics may carry: its name without the prefix (agent-X
// reports for X).
func OwnSrc(principal string) string { return strings.TrimPrefix(principal, OwnTopicPrincipalPrefix) }

// ForeignSrc says why a sample of src read from topic is refused: src is not the writer's own
// ("" when it is, or when topic is shared and proves no writer). A bridge's own topic carries the
// srcs of its central list, which the job holds (flink-jobs' Writers), not this function: ""
// here.
func ForeignSrc(topic, src string) string {
	w, _ := WriterOf(topic)
	if w == "" || !IsAgent(w) || src == OwnSrc(w) {
		return ""
	}
	return "foreign_src: src " + quote(src) + " on " + topic + ", where " + w + " may write only src " + quote(OwnSrc(w))
}

func quote(s string) string { return "\"" + s + "\"" }

// RawTopicPattern is a regular expression matching raw topic topic and every own topic of it, an
// agent's or a bridge's (for consumers that subscribe by pattern: the job, the watchdog).
func RawTopicPattern(topic string) string {
	return "^" + regexp.QuoteMeta(topic) + "(" + regexp.QuoteMeta(OwnTopicSeparator) +
		"(?:" + regexp.QuoteMeta(OwnTopicPrincipalPrefix) + "|" + regexp.QuoteMeta(OwnTopicBridgePrefix) + ")[a-z0-9._-]+)?$"
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
