// Package sampletest reads sample configs the way their tests need them. A sample shows
// every optional setting commented with its default ("# key: value") and writes its prose
// as "## ..." comments, so uncommenting every commented setting must change nothing: that is
// how the tests hold the samples to the defaults in the code. It also decodes the params the
// probes' tests write inline.
package sampletest

import (
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"longhaul/probes/probe"
)

// setting is a commented setting: "# key: value" (prose is "## ...", continuations "#   ##").
var setting = regexp.MustCompile(`(?m)^(\s*)# ([a-z_]+:(?:\s.*)?)$`)

// Uncomment turns every commented setting of a sample into a setting, and says how many.
func Uncomment(sample string) (string, int) {
	n := len(setting.FindAllStringIndex(sample, -1))
	return setting.ReplaceAllString(sample, "$1$2"), n
}

// Params returns the params node of a kind's sample (its one probe entry), as written and
// with every commented setting uncommented.
func Params(t testing.TB, sample string) (written, uncommented *yaml.Node) {
	t.Helper()
	u, n := Uncomment(sample)
	if n == 0 {
		t.Fatal("the sample has no commented setting")
	}
	return params(t, sample), params(t, u)
}

func params(t testing.TB, sample string) *yaml.Node {
	t.Helper()
	var entries []struct {
		Params yaml.Node `yaml:"params"`
	}
	if err := yaml.Unmarshal([]byte(sample), &entries); err != nil {
		t.Fatalf("sample: %v\n%s", err, sample)
	}
	if len(entries) != 1 {
		t.Fatalf("the sample has %d probe entries, want 1", len(entries))
	}
	return &entries[0].Params
}

// Keys lists the keys of a mapping node, sorted.
func Keys(n *yaml.Node) []string {
	var out []string
	if n.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(n.Content); i += 2 {
			out = append(out, n.Content[i].Value)
		}
	}
	sort.Strings(out)
	return out
}

// Tags lists the yaml names of a struct's exported fields, sorted: the params a kind accepts.
func Tags(v any) []string {
	var out []string
	t := reflect.TypeOf(v)
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name := strings.Split(f.Tag.Get("yaml"), ",")[0]
		if f.IsExported() && name != "" && name != "-" {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

// ShowsEveryParam fails unless the uncommented sample's params are exactly the struct's fields.
func ShowsEveryParam(t testing.TB, uncommented *yaml.Node, params any) {
	t.Helper()
	if got, want := Keys(uncommented), Tags(params); !reflect.DeepEqual(got, want) {
		t.Errorf("the sample shows params %v, the kind has %v", got, want)
	}
}

// Node is the YAML src as a node, failing the test when src is not YAML.
func Node(t testing.TB, src string) *yaml.Node {
	t.Helper()
	var n yaml.Node
	if err := yaml.Unmarshal([]byte(src), &n); err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	return &n
}

// Decode decodes params written in YAML (src) with a kind's decode.
func Decode[P any](t testing.TB, src string, decode func(*yaml.Node) (P, error)) (P, error) {
	t.Helper()
	return decode(Node(t, src))
}

// MustDecode is Decode of params that must decode.
func MustDecode[P any](t testing.TB, src string, decode func(*yaml.Node) (P, error)) P {
	t.Helper()
	p, err := Decode(t, src, decode)
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	return p
}

// RefusedParams holds a kind's decode to its errors: each params (YAML) of refused must fail
// with an error that contains the text it maps to (the field's name, and why).
func RefusedParams[P any](t *testing.T, decode func(*yaml.Node) (P, error), refused map[string]string) {
	t.Helper()
	for src, want := range refused {
		if _, err := Decode(t, src, decode); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want %q", src, err, want)
		}
	}
}

// OneTool holds a kind that runs one program to what it tells the agent: its default argv runs
// tool, and its probe names tool as the one program it needs, every run failing without it.
func OneTool(t testing.TB, argv []string, tools []probe.Tool, tool string) {
	t.Helper()
	if want := []probe.Tool{{Name: tool, Without: probe.WithoutIt}}; len(argv) == 0 || argv[0] != tool || !reflect.DeepEqual(tools, want) {
		t.Fatalf("argv %q, tools %q", argv, tools)
	}
}

// DecodesToDefaults holds a probe's sample to its code: the sample shows every field of
// params, and its params, as written and with every commented setting uncommented, decode to
// want (the defaults the code applies).
func DecodesToDefaults[P any](t testing.TB, sample string, params any, decode func(*yaml.Node) (P, error), want P) {
	t.Helper()
	written, uncommented := Params(t, sample)
	ShowsEveryParam(t, uncommented, params)
	for name, n := range map[string]*yaml.Node{"as written": written, "uncommented": uncommented} {
		got, err := decode(n)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("sample %s: %+v, %v; defaults %+v", name, got, err, want)
		}
	}
}
