package kafkaadmin

import "sort"

// kept are the configs setup brings an existing topic to, not only a new one: those the pipeline
// is wrong without. message.timestamp.type is one: on a raw topic the Flink job judges each
// agent's clock against the broker's append time, which a CreateTime topic does not record (an
// install older than the rule has such topics). Retention and cleanup stay as an operator may
// have tuned them, as partition counts do, but for a bound: a topic without the retention.bytes
// its spec has gets it (bounded ones keep theirs: see bounds).
var kept = []string{cfgTimestampType}

// bounds are the configs setup sets on an existing topic only where it has none ("-1", Kafka's
// "no bound"), never over an operator's own value.
var bounds = []string{cfgRetentionBy}

// ConfigChange is one config of an existing topic that differs from topics.yaml.
type ConfigChange struct {
	Key, Have, Want string
}

// Drift lists the kept configs of spec that an existing topic's configs (have, key → value)
// lack or hold differently, in key order.
func (t TopicSpec) Drift(have map[string]string) []ConfigChange {
	want := t.Configs()
	var out []ConfigChange
	for _, key := range kept {
		w, ok := want[key]
		if !ok || have[key] == *w {
			continue
		}
		out = append(out, ConfigChange{Key: key, Have: have[key], Want: *w})
	}
	for _, key := range bounds {
		if w, ok := want[key]; ok && (have[key] == "" || have[key] == "-1") {
			out = append(out, ConfigChange{Key: key, Have: have[key], Want: *w})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out
}
