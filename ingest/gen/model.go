package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// The files the generator reads, relative to the repository root.
const (
	contractFile = "ingest/contract.yaml"
	topicsFile   = "ingest/topics.yaml"
	schemasDir   = "ingest/schemas"
	eventsRole   = "events" // the role whose schema's kind enum the event kinds must equal
)

// Contract is what ingest/contract.yaml declares, joined with the topic names of topics.yaml.
type Contract struct {
	Topics     []Topic // in the order of topics.yaml
	Kinds      []Kind  // in the order of contract.yaml (and of the events topic's schema's enum)
	Thresholds []Threshold
	Headers    []Header
	Own        OwnTopics
	// EventSchemaFile is the events topic's schema, EventSchema its text with the kind enum
	// rendered from Kinds (kinds_schema.go).
	EventSchemaFile string
	EventSchema     []byte
}

// Topic is one topic of topics.yaml with the role contract.yaml gives it.
type Topic struct {
	Role, Name, Schema string
}

// Family is the schema's name without its version ("throughput_sample" of throughput_sample.v2),
// the `schema` field of its messages.
func (t Topic) Family() string {
	name, _, _ := strings.Cut(t.Schema, ".v")
	return name
}

// Version is the schema's version, the one producers write (consumers read it and every earlier
// one); 0 for a schema that is not Longhaul's (pscheduler_archive).
func (t Topic) Version() int {
	_, v, ok := strings.Cut(t.Schema, ".v")
	if !ok {
		return 0
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0
	}
	return n
}

// Kind is one event kind; Closes is set for a recovery only, Updates for an update only, ClosedBy
// (derived) for an alert.
type Kind struct {
	Name     string `yaml:"name"`
	Role     string `yaml:"role"`
	Closes   string `yaml:"closes"`
	Updates  string `yaml:"updates"`
	ClosedBy string `yaml:"-"`
}

// Threshold is a number more than one component applies.
type Threshold struct {
	Name  string   `yaml:"name"`
	Value *float64 `yaml:"value"`
	Doc   string   `yaml:"doc"`
}

// Header is a Kafka record header a producer sets: Name is the contract's name, Header the wire's.
type Header struct {
	Name   string `yaml:"name"`
	Header string `yaml:"header"`
	Doc    string `yaml:"doc"`
}

type contractYAML struct {
	TopicRoles []struct {
		Role   string `yaml:"role"`
		Schema string `yaml:"schema"`
	} `yaml:"topic_roles"`
	EventKinds []Kind      `yaml:"event_kinds"`
	Thresholds []Threshold `yaml:"thresholds"`
	Headers    []Header    `yaml:"record_headers"`
	Own        OwnTopics   `yaml:"own_topics"`
}

var (
	snakeName = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)
	roleName  = regexp.MustCompile(`^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*$`)
	kindRoles = []string{"alert", "recovery", "update", "info"}
	// headerName is a lower-case token of dash-separated words, as HTTP and Kafka headers are named.
	headerName = regexp.MustCompile(`^[a-z][a-z0-9]*(-[a-z0-9]+)*$`)
)

// Load reads the contract under root and checks it: every error at once, each as FILE:LINE: field.
func Load(root string) (*Contract, error) {
	raw, err := os.ReadFile(filepath.Join(root, contractFile))
	if err != nil {
		return nil, err
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(raw, &doc); err != nil {
		return nil, fmt.Errorf("%s: %w", contractFile, err)
	}
	dec := yaml.NewDecoder(bytes.NewReader(raw))
	dec.KnownFields(true)
	var c contractYAML
	if err := dec.Decode(&c); err != nil {
		return nil, fmt.Errorf("%s: %w", contractFile, err)
	}
	topics, err := loadTopics(root)
	if err != nil {
		return nil, err
	}
	p := &problems{doc: &doc}
	out := &Contract{Kinds: c.EventKinds, Thresholds: c.Thresholds, Headers: c.Headers, Own: c.Own}
	out.Topics = joinTopics(p, c, topics)
	checkSampleFamilies(p, out.Topics)
	checkKinds(p, c.EventKinds)
	checkThresholds(p, c.Thresholds)
	checkHeaders(p, c.Headers)
	checkOwnTopics(p, c.Own)
	if len(p.errs) > 0 {
		return nil, fmt.Errorf("%s", strings.Join(p.errs, "\n"))
	}
	if out.EventSchemaFile, out.EventSchema, err = renderEventSchema(root, c, c.EventKinds); err != nil {
		return nil, err
	}
	for i, k := range out.Kinds {
		for _, r := range out.Kinds {
			if r.Closes == k.Name {
				out.Kinds[i].ClosedBy = r.Name
			}
		}
	}
	return out, nil
}

// problems collects errors, each located by the line of its list item in contract.yaml.
type problems struct {
	doc  *yaml.Node
	errs []string
}

func (p *problems) at(list string, i int, field, format string, args ...any) {
	p.errs = append(p.errs, fmt.Sprintf("%s:%d: %s[%d].%s: %s", contractFile, itemLine(p.doc, list, i), list, i, field,
		fmt.Sprintf(format, args...)))
}

// uniqueName: the name of item i of list is a lower-case snake_case name no earlier item (seen)
// has; what is what the list holds, for the message.
func (p *problems) uniqueName(seen map[string]bool, list string, i int, what, name string) {
	switch {
	case !snakeName.MatchString(name):
		p.at(list, i, "name", "%q is not a lower-case snake_case name", name)
	case seen[name]:
		p.at(list, i, "name", "duplicate %s %q", what, name)
	}
	seen[name] = true
}

func (p *problems) add(format string, args ...any) {
	p.errs = append(p.errs, fmt.Sprintf(format, args...))
}

// itemLine is the line of the i-th item of a top-level list, or 0.
func itemLine(doc *yaml.Node, list string, i int) int {
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return 0
	}
	m := doc.Content[0].Content
	for k := 0; k+1 < len(m); k += 2 {
		if m[k].Value == list && i < len(m[k+1].Content) {
			return m[k+1].Content[i].Line
		}
	}
	return 0
}

// loadTopics reads name, schema and role (optional) of every topic of topics.yaml (operator/setup
// checks the rest).
func loadTopics(root string) ([]Topic, error) {
	raw, err := os.ReadFile(filepath.Join(root, topicsFile))
	if err != nil {
		return nil, err
	}
	var f struct {
		Topics []struct {
			Name   string `yaml:"name"`
			Schema string `yaml:"schema"`
			Role   string `yaml:"role"`
		} `yaml:"topics"`
	}
	if err := yaml.Unmarshal(raw, &f); err != nil {
		return nil, fmt.Errorf("%s: %w", topicsFile, err)
	}
	out := make([]Topic, len(f.Topics))
	for i, t := range f.Topics {
		out[i] = Topic{Role: t.Role, Name: t.Name, Schema: t.Schema}
	}
	return out, nil
}

// joinTopics gives each topic of topics.yaml its role: the one it names, or else the one role of
// its schema (a schema that several roles carry, such as a raw sample's and its history's, needs
// the topic to name its role). Every topic needs a role, and every role exactly one topic.
func joinTopics(p *problems, c contractYAML, topics []Topic) []Topic {
	schemaOf := map[string]string{}
	rolesOf := map[string][]string{}
	for i, r := range c.TopicRoles {
		switch {
		case !roleName.MatchString(r.Role):
			p.at("topic_roles", i, "role", "%q is not a lower-case dotted name", r.Role)
		case schemaOf[r.Role] != "":
			p.at("topic_roles", i, "role", "duplicate role %q", r.Role)
		}
		schemaOf[r.Role] = r.Schema
		rolesOf[r.Schema] = append(rolesOf[r.Schema], r.Role)
	}
	n := map[string]int{}
	out := make([]Topic, 0, len(topics))
	for _, t := range topics {
		role := t.Role
		switch roles := rolesOf[t.Schema]; {
		case role != "" && schemaOf[role] == "":
			p.add("%s: topic %s names role %q, which %s topic_roles lacks", topicsFile, t.Name, role, contractFile)
			continue
		case role != "" && schemaOf[role] != t.Schema:
			p.add("%s: topic %s carries %s, but its role %s carries %s", topicsFile, t.Name, t.Schema, role, schemaOf[role])
			continue
		case role != "":
		case len(roles) == 0:
			p.add("%s: topic %s (schema %s) has no role in %s topic_roles", topicsFile, t.Name, t.Schema, contractFile)
			continue
		case len(roles) > 1:
			p.add("%s: topic %s: schema %s has the roles %s; name the topic's role", topicsFile, t.Name, t.Schema, strings.Join(roles, ", "))
			continue
		default:
			role = roles[0]
		}
		n[role]++
		out = append(out, Topic{Role: role, Name: t.Name, Schema: t.Schema})
	}
	for i, r := range c.TopicRoles {
		if n[r.Role] != 1 {
			p.at("topic_roles", i, "schema", "%d topics of %s carry %q; a role needs exactly one", n[r.Role], topicsFile, r.Schema)
		}
	}
	return out
}

// checkSampleFamilies: a sample's schema field names its raw topic (RawTopicOfSchema) and its
// history topic, so no two raw.* topics, nor two history.*, carry one schema family.
func checkSampleFamilies(p *problems, topics []Topic) {
	for _, prefix := range []string{"raw.", "history."} {
		seen := map[string]string{}
		for _, t := range roleFamily(topics, prefix) {
			if other, ok := seen[t.Family()]; ok {
				p.add("%s: topics %s and %s both carry %s samples (roles %s*): a sample's topic would be ambiguous", topicsFile, other, t.Name, t.Family(), prefix)
			}
			seen[t.Family()] = t.Name
		}
	}
}

// checkKinds: unique names equal to the event schema's enum, known roles, every alert closed by
// exactly one recovery, and every update of an alert kind.
func checkKinds(p *problems, kinds []Kind) {
	role := map[string]string{}
	for _, k := range kinds {
		if _, dup := role[k.Name]; !dup {
			role[k.Name] = k.Role
		}
	}
	closers := map[string]int{}
	seen := map[string]bool{}
	for i, k := range kinds {
		p.uniqueName(seen, "event_kinds", i, "kind", k.Name)
		if !slices.Contains(kindRoles, k.Role) {
			p.at("event_kinds", i, "role", "%q is not one of %s", k.Role, strings.Join(kindRoles, ", "))
		}
		switch {
		case k.Role == "recovery" && role[k.Closes] != "alert":
			p.at("event_kinds", i, "closes", "a recovery closes an alert kind; %q is not one", k.Closes)
		case k.Role != "recovery" && k.Closes != "":
			p.at("event_kinds", i, "closes", "only a recovery closes an alert (role is %q)", k.Role)
		case k.Role == "recovery":
			closers[k.Closes]++
		}
		switch {
		case k.Role == "update" && role[k.Updates] != "alert":
			p.at("event_kinds", i, "updates", "an update re-raises an alert kind; %q is not one", k.Updates)
		case k.Role != "update" && k.Updates != "":
			p.at("event_kinds", i, "updates", "only an update updates an alert (role is %q)", k.Role)
		}
	}
	for i, k := range kinds {
		if k.Role == "alert" && closers[k.Name] != 1 {
			p.at("event_kinds", i, "name", "alert %q is closed by %d recovery kinds; it needs exactly one", k.Name, closers[k.Name])
		}
	}
}

func checkThresholds(p *problems, ts []Threshold) {
	seen := map[string]bool{}
	for i, t := range ts {
		p.uniqueName(seen, "thresholds", i, "threshold", t.Name)
		if t.Value == nil {
			p.at("thresholds", i, "value", "required")
		}
		if strings.TrimSpace(t.Doc) == "" {
			p.at("thresholds", i, "doc", "required: say what it means and who applies it")
		}
	}
}

// checkHeaders: unique snake_case names, unique dash-separated wire names, and a doc saying what
// the value is.
func checkHeaders(p *problems, hs []Header) {
	seen := map[string]bool{}
	seenWire := map[string]bool{}
	for i, h := range hs {
		p.uniqueName(seen, "record_headers", i, "header", h.Name)
		switch {
		case !headerName.MatchString(h.Header):
			p.at("record_headers", i, "header", "%q is not a lower-case dash-separated header name", h.Header)
		case seenWire[h.Header]:
			p.at("record_headers", i, "header", "duplicate header name %q", h.Header)
		}
		seenWire[h.Header] = true
		if strings.TrimSpace(h.Doc) == "" {
			p.at("record_headers", i, "doc", "required: say what the value is and who reads it")
		}
	}
}
