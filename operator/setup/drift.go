package setup

import "sort"

// kept are the configs setup brings an existing topic to, not only a new one: those the pipeline
// is wrong without. message.timestamp.type is one: on a raw topic the Flink job judges each
// agent's clock against the broker's append time, which a CreateTime topic does not record (an
// install older than the rule has such topics). Retention and cleanup stay as an operator may
// have tuned them, as partition counts do.
var kept = []string{cfgTimestampType}

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
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out
}
