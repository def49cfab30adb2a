package alerting

import (
	"sort"

	"longhaul/ingest/contract"
)

// stateIndex finds the open entries an event touches without reading them all: at a fleet's
// scale (thousands open) a scan and sort of every key for each event, and again for each alert
// re-rendered, made one pipeline change cost 0.75 s of CPU at 2,000 open alerts
// (BenchmarkApplyAtFleetScale). Each set holds keys of s.open; put and remove keep them equal.
type stateIndex struct {
	byLink    map[string]map[string]bool // the event's "src|dst" (src "*" for a site-wide alert) → keys
	byDst     map[string]map[string]bool // the event's dst → keys
	pipelines map[string]bool            // the pipeline's own degraded alerts (src "*")
}

func (s *State) index() *stateIndex {
	if s.idx == nil {
		s.idx = &stateIndex{byLink: map[string]map[string]bool{}, byDst: map[string]map[string]bool{}, pipelines: map[string]bool{}}
		for k, ent := range s.open {
			s.idx.add(k, ent)
		}
	}
	return s.idx
}

// put opens (or replaces) the entry under key.
func (s *State) put(key string, ent *entry) {
	ix := s.index()
	if old := s.open[key]; old != nil {
		ix.drop(key, old)
	}
	s.open[key] = ent
	ix.add(key, ent)
}

// remove closes the entry under key.
func (s *State) remove(key string) {
	if ent := s.open[key]; ent != nil {
		s.index().drop(key, ent)
		delete(s.open, key)
	}
}

func (ix *stateIndex) add(key string, ent *entry) {
	e := ent.event
	addKey(ix.byLink, e.Key(), key)
	addKey(ix.byDst, e.Dst, key)
	if isPipelineAlert(e) {
		ix.pipelines[key] = true
	}
}

func (ix *stateIndex) drop(key string, ent *entry) {
	e := ent.event
	dropKey(ix.byLink, e.Key(), key)
	dropKey(ix.byDst, e.Dst, key)
	delete(ix.pipelines, key)
}

func isPipelineAlert(e Event) bool {
	return e.Kind == contract.KindPipelineDegraded && e.Src == Wildcard
}

func addKey(m map[string]map[string]bool, at, key string) {
	set := m[at]
	if set == nil {
		set = map[string]bool{}
		m[at] = set
	}
	set[key] = true
}

func dropKey(m map[string]map[string]bool, at, key string) {
	if set := m[at]; set != nil {
		delete(set, key)
		if len(set) == 0 {
			delete(m, at)
		}
	}
}

// sorted is the keys of the sets, each once, in order: the order every answer of State keeps.
func sorted(sets ...map[string]bool) []string {
	var keys []string
	for i, set := range sets {
		for k := range set {
			if !inAny(sets[:i], k) {
				keys = append(keys, k)
			}
		}
	}
	sort.Strings(keys)
	return keys
}

func inAny(sets []map[string]bool, k string) bool {
	for _, set := range sets {
		if set[k] {
			return true
		}
	}
	return false
}
