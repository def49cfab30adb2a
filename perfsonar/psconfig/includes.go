package psconfig

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/url"
	"path/filepath"
	"strings"
)

// Bounds of a template's includes. pSConfig's agent follows the includes of the template it
// reads, not those of an included document (BaseConnect.expand_config), so there is no
// deeper level and no loop to follow.
const (
	MaxIncludes     = 16          // URIs in one template's includes
	MaxIncludedSize = MaxDocument // bytes of all included documents together
)

// mergedFields are the maps pSConfig's client merges from an included document
// (BaseConnect._merge_configs); anything else in it (its own includes, _meta) is not used.
var mergedFields = []string{"addresses", "address-classes", "archives", "contexts", "groups", "hosts",
	"schedules", "subtasks", "tasks", "tests"}

// load parses a document and, as pSConfig's agent does (base_agent._process_psconfig), checks
// it alone, fetches and merges its includes, and checks the result; it returns the template
// and the document it was made from. Any include that cannot be fetched or read fails the
// whole load (the agent then keeps its cached template; the Source its last good plan).
func (s *Source) load(ctx context.Context, raw []byte) (*Template, []byte, error) {
	t, err := decode(s.loc, raw)
	if err != nil {
		return nil, nil, err
	}
	if len(t.Includes) == 0 {
		t, err = Parse(s.loc, raw)
		return t, raw, err
	}
	if len(t.Includes) > MaxIncludes {
		return nil, nil, &Invalid{Source: s.loc, Errs: []string{fmt.Sprintf("includes: %d URIs, at most %d", len(t.Includes), MaxIncludes)}}
	}
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(raw, &doc); err != nil {
		return nil, nil, err
	}
	var notes []string
	left := MaxIncludedSize
	for i, inc := range t.Includes {
		p := fmt.Sprintf("includes[%d] %s", i, inc)
		loc, err := includeLoc(s.loc, inc)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %s: %w", s.loc, p, err)
		}
		body, _, _, err := s.get(ctx, loc, validators{}, left)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %s: %w", s.loc, p, err)
		}
		left -= len(body)
		note, err := mergeInclude(doc, body)
		if err != nil {
			return nil, nil, &Invalid{Source: s.loc, Errs: []string{p + ": " + err.Error()}}
		}
		if note != "" {
			notes = append(notes, p+": "+note)
		}
	}
	merged, err := json.Marshal(doc)
	if err != nil {
		return nil, nil, err
	}
	t, err = Parse(s.loc+" (with its includes)", merged)
	if err != nil {
		return nil, nil, err
	}
	t.includesMerged, t.includeNotes = true, notes
	return t, merged, nil
}

// mergeInclude merges an included document into doc as _merge_configs does: field by field,
// each name the document does not already have (or has as an empty object or null); a name
// it has is not replaced. It returns a note when the included document lists includes of
// its own (not followed).
func mergeInclude(doc map[string]json.RawMessage, body []byte) (string, error) {
	var inc map[string]json.RawMessage
	if err := json.Unmarshal(body, &inc); err != nil {
		return "", fmt.Errorf("not a JSON object: %v", err)
	}
	for _, field := range mergedFields {
		if empty(inc[field]) {
			continue
		}
		var add, have map[string]json.RawMessage
		if err := json.Unmarshal(inc[field], &add); err != nil {
			return "", fmt.Errorf("%s: not an object", field)
		}
		if !empty(doc[field]) {
			if err := json.Unmarshal(doc[field], &have); err != nil {
				return "", fmt.Errorf("%s: not an object in the template", field)
			}
		}
		if have == nil {
			have = map[string]json.RawMessage{}
		}
		for name, v := range add {
			if empty(have[name]) {
				have[name] = v
			}
		}
		b, err := json.Marshal(have)
		if err != nil {
			return "", err
		}
		doc[field] = b
	}
	if !empty(inc["includes"]) {
		return "its own includes are not followed (pSConfig's agent does not follow them either)", nil
	}
	return "", nil
}

// empty is what Python's truth test calls false in a JSON value: absent, null, false, 0, "",
// [] or {}.
func empty(v json.RawMessage) bool {
	switch string(bytes.TrimSpace(v)) {
	case "", "null", "false", "0", `""`, "[]", "{}":
		return true
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(v, &m) == nil && m != nil && len(m) == 0 {
		return true
	}
	var a []json.RawMessage
	return json.Unmarshal(v, &a) == nil && a != nil && len(a) == 0
}

// includeLoc is where an include is read from. A template read over HTTPS includes only
// https:// URLs (it may not make the agent read its own files); a file template also files
// (a relative path is taken from the template's folder) and https://. Plain http:// is
// accepted only on the loopback interface (a test server), as the agent's own URL is
// refused when it is plain http.
func includeLoc(parent, inc string) (string, error) {
	u, err := url.Parse(inc)
	if err != nil {
		return "", fmt.Errorf("not a URI: %v", err)
	}
	switch u.Scheme {
	case "https":
		return inc, nil
	case "http":
		if !loopback(u.Hostname()) {
			return "", fmt.Errorf("plain http; use https:// (plain http only on the loopback interface)")
		}
		return inc, nil
	case "file", "":
		if IsURL(parent) {
			return "", fmt.Errorf("a file, included by a template read over HTTP(S): refused (https:// only)")
		}
		path := strings.TrimPrefix(inc, "file://")
		if !filepath.IsAbs(path) {
			path = filepath.Join(filepath.Dir(strings.TrimPrefix(parent, "file://")), path)
		}
		return path, nil
	}
	return "", fmt.Errorf("scheme %q: https://, a file:// URL or a path", u.Scheme)
}

func loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
