// Package sampletest reads sample configs the way their tests need them. A sample shows
// every optional setting commented with its default ("# key: value") and writes its prose
// as "## ..." comments, so uncommenting every commented setting must change nothing: that is
// how the tests hold the samples to the defaults in the code.
package sampletest

import (
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
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
