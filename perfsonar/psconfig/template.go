package psconfig

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Template is a pSConfig template: maps of named objects that refer to each other by name.
// Only what the plan needs is typed; the rest (archives, contexts, subtasks, address classes,
// hosts' archives) is kept raw and does not change the plan.
type Template struct {
	Addresses      map[string]*Address        `json:"addresses"`
	AddressClasses map[string]*AddressClass   `json:"address-classes"`
	Groups         map[string]*Group          `json:"groups"`
	Tests          map[string]*Test           `json:"tests"`
	Schedules      map[string]*Schedule       `json:"schedules"`
	Tasks          map[string]*Task           `json:"tasks"`
	Archives       map[string]json.RawMessage `json:"archives"`
	Hosts          map[string]*Host           `json:"hosts"`
	Contexts       map[string]json.RawMessage `json:"contexts"`
	Subtasks       map[string]json.RawMessage `json:"subtasks"`
	Includes       []string                   `json:"includes"`
	Meta           json.RawMessage            `json:"_meta"`

	includesMerged bool     // the includes were fetched and merged (by a Source)
	includeNotes   []string // what merging them says (an included document's own includes)
}

// Meta is an object's `_meta`: free-form, for people (display names, URLs).
type Meta map[string]any

// BaseAddress is what an address, its labels and its remote addresses all have (pSConfig's
// Addresses::BaseAddress): `address` is the host name or IP the tools use.
type BaseAddress struct {
	Address           string   `json:"address"`
	LeadBindAddress   string   `json:"lead-bind-address"`
	PSchedulerAddress string   `json:"pscheduler-address"`
	Contexts          []string `json:"contexts"`
	Disabled          bool     `json:"disabled"`
	NoAgent           bool     `json:"no-agent"`
	Meta              Meta     `json:"_meta"`
}

// Address is one measurement point.
type Address struct {
	BaseAddress
	Host            string                    `json:"host"`
	Labels          map[string]*AddressLabel  `json:"labels"`
	RemoteAddresses map[string]*RemoteAddress `json:"remote-addresses"`
	Tags            []string                  `json:"tags"`
}

// AddressLabel is another address of the same point (an IPv6 one, another interface), chosen
// by a selector's `label`.
type AddressLabel struct {
	BaseAddress
}

// RemoteAddress is the address used for this point when it is paired with the named one.
type RemoteAddress struct {
	BaseAddress
	Labels map[string]*AddressLabel `json:"labels"`
}

// Host groups addresses of one machine; its disabled and no-agent apply to them all.
type Host struct {
	Archives []string `json:"archives"`
	Tags     []string `json:"tags"`
	Site     string   `json:"site"`
	Disabled bool     `json:"disabled"`
	NoAgent  bool     `json:"no-agent"`
	Meta     Meta     `json:"_meta"`
}

// Selector picks an address of a group: by name (and label), or by class.
type Selector struct {
	Name     string `json:"name"`
	Label    string `json:"label"`
	Disabled bool   `json:"disabled"`
	Class    string `json:"class"`
}

func (s Selector) key() string {
	return s.Name + "\x00" + s.Label + "\x00" + s.Class + "\x00" + strconv.FormatBool(s.Disabled)
}

// Group types.
const (
	GroupMesh     = "mesh"
	GroupDisjoint = "disjoint"
	GroupList     = "list"
)

// Group says which addresses are paired: mesh (every ordered pair), disjoint (A×B, and B×A
// unless unidirectional) or list (each address alone).
type Group struct {
	Type                string     `json:"type"`
	Addresses           []Selector `json:"addresses"`
	AAddresses          []Selector `json:"a-addresses"`
	BAddresses          []Selector `json:"b-addresses"`
	Unidirectional      bool       `json:"unidirectional"`
	ExcludesSelf        string     `json:"excludes-self"`
	Excludes            []Exclude  `json:"excludes"`
	DefaultAddressLabel string     `json:"default-address-label"`
	Meta                Meta       `json:"_meta"`
}

// Exclude drops the pairs local-address → each of target-addresses (that direction only).
type Exclude struct {
	LocalAddress    Selector   `json:"local-address"`
	TargetAddresses []Selector `json:"target-addresses"`
}

// The values of excludes-self.
const (
	ExcludeSelfHost     = "host" // the default: same host, or same address
	ExcludeSelfAddress  = "address"
	ExcludeSelfDisabled = "disabled"
)

// Test is what is measured: a pScheduler test type and its spec.
type Test struct {
	Type string         `json:"type"`
	Spec map[string]any `json:"spec"`
	Meta Meta           `json:"_meta"`
}

// Schedule is when: every repeat, starting within slip (at random in it with sliprand).
type Schedule struct {
	Start    string `json:"start"`
	Slip     string `json:"slip"`
	Sliprand bool   `json:"sliprand"`
	Repeat   string `json:"repeat"`
	Until    string `json:"until"`
	MaxRuns  int    `json:"max-runs"`
	Meta     Meta   `json:"_meta"`
}

// Task puts a test, a group and a schedule together.
type Task struct {
	Group       string         `json:"group"`
	Test        string         `json:"test"`
	Schedule    string         `json:"schedule"`
	Archives    []string       `json:"archives"`
	Tools       []string       `json:"tools"`
	Reference   map[string]any `json:"reference"`
	Disabled    bool           `json:"disabled"`
	Priority    int            `json:"priority"`
	ScheduledBy *int           `json:"scheduled-by"`
	Subtasks    []string       `json:"subtasks"`
	Meta        Meta           `json:"_meta"`
}

// Invalid is every problem of a document, each naming the field ("tasks.bw.schedule").
type Invalid struct {
	Source string
	Errs   []string
}

func (e *Invalid) Error() string {
	if len(e.Errs) == 1 {
		return fmt.Sprintf("%s: invalid pSConfig template: %s", e.Source, e.Errs[0])
	}
	return fmt.Sprintf("%s: invalid pSConfig template (%d problems): %s", e.Source, len(e.Errs), strings.Join(e.Errs, "; "))
}

// Parse decodes and checks a template; source names it in errors. Unknown keys are errors
// (the schema is closed), except `_meta`, which may be anywhere.
func Parse(source string, raw []byte) (*Template, error) {
	t, err := decode(source, raw)
	if err != nil {
		return nil, err
	}
	if errs := t.check(); len(errs) > 0 {
		return nil, &Invalid{Source: source, Errs: errs}
	}
	return t, nil
}

// decode reads a template without checking what it refers to (what pSConfig's agent does
// before it merges the includes: the schema, whose top-level maps are required).
func decode(source string, raw []byte) (*Template, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	var t Template
	if err := dec.Decode(&t); err != nil {
		return nil, &Invalid{Source: source, Errs: []string{jsonError(raw, err)}}
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, &Invalid{Source: source, Errs: []string{"more than one JSON value"}}
	}
	if errs := t.checkRequired(); len(errs) > 0 {
		return nil, &Invalid{Source: source, Errs: errs}
	}
	return &t, nil
}

// jsonError says where a decoding error is: line and column.
// documentPath is a decoding error's field path as the document names it: encoding/json puts in
// the Go name of an embedded struct (addresses.BaseAddress.address), a key no document has.
func documentPath(field string) string {
	return strings.ReplaceAll(field, "BaseAddress.", "")
}

func jsonError(raw []byte, err error) string {
	var off int64 = -1
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF):
		return fmt.Sprintf("line %d: the document ends too soon (cut short?)", lineAt(raw, int64(len(raw))))
	case errors.As(err, &se):
		off = se.Offset
	case errors.As(err, &te):
		off = te.Offset
		if te.Field != "" {
			return fmt.Sprintf("line %d: %s: a JSON %s, want %s", lineAt(raw, off), documentPath(te.Field), te.Value, te.Type)
		}
	}
	msg := strings.TrimPrefix(err.Error(), "json: ")
	if off >= 0 {
		return fmt.Sprintf("line %d: %s", lineAt(raw, off), msg)
	}
	return msg
}

func lineAt(raw []byte, off int64) int {
	if off > int64(len(raw)) {
		off = int64(len(raw))
	}
	return bytes.Count(raw[:off], []byte("\n")) + 1
}
