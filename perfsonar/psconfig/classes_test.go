package psconfig

import (
	"strings"
	"testing"
)

// classDoc is a template whose class c has the given filter as match-filter.
func classDoc(filter string) string {
	return doc(`"addresses":{"v4":{"address":"192.0.2.1","tags":["Lab"],"host":"h"},"v6":{"address":"2001:db8::1"},
		"name":{"address":"ps.example.org","host":"n"}},"hosts":{"h":{"tags":["edge"]},"n":{"no-agent":true}}`,
		`"address-classes":{"c":{"data-source":{"type":"current-config"},"match-filter":`+filter+`},
		"lab":{"data-source":{"type":"current-config"},"match-filter":{"type":"tag","tag":"lab"}}}`,
		`"groups":{"g":{"type":"list","addresses":[{"class":"c"}]}}`,
		`"tests":{"r":{"type":"rtt","spec":{"dest":"x.example"}}}`, `"tasks":{"t":{"group":"g","test":"r"}}`)
}

func members(t *testing.T, filter string) string {
	t.Helper()
	tp := tmpl(t, classDoc(filter))
	m, err := tp.classMembers("c")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, n := range m {
		names = append(names, n.name)
	}
	return strings.Join(names, ",")
}

func TestFiltersSelectAsPSConfigEvaluatesThem(t *testing.T) {
	for filter, want := range map[string]string{
		`{"type":"tag","tag":"LAB"}`:      "v4",
		`{"type":"tag","tag":"edge"}`:     "v4", // the host's tag
		`{"type":"tag"}`:                  "name,v4,v6",
		`{"type":"host","no-agent":true}`: "name",
		`{"type":"host"}`:                 "v4", // a hosts entry without no-agent
		`{"type":"host","tag":"edge"}`:    "v4",
		`{"type":"and","filters":[{"type":"not","filter":{"type":"host","no-agent":true}},{"type":"ip-version","ip-version":6}]}`:        "v6",
		`{"type":"and","filters":[{"type":"not","filter":{"type":"host","no-agent":true}},{"type":"netmask","netmask":"192.0.2.0/24"}]}`: "v4",
		`{"type":"and","filters":[]}`: "name,v4,v6",
		`{"type":"or","filters":[]}`:  "",
		`{"type":"not"}`:              "name,v4,v6",
		`{"type":"not","filter":{"type":"address-class","class":"lab"}}`:                       "name,v6",
		`{"type":"address-class","class":"nonesuch"}`:                                          "",
		`{"type":"or","filters":[{"type":"tag","tag":"lab"},{"type":"host","no-agent":true}]}`: "name,v4",
		// and stops at the first false, so the host name never reaches ip-version
		`{"type":"and","filters":[{"type":"tag","tag":"lab"},{"type":"ip-version","ip-version":4}]}`: "v4",
	} {
		if got := members(t, filter); got != want {
			t.Errorf("%s: %q, want %q", filter, got, want)
		}
	}
}

// What the planner cannot evaluate as perfSONAR's agent would refuses the template, naming
// the filter.
func TestAFilterThatCannotBeEvaluatedRefusesTheTemplate(t *testing.T) {
	for filter, want := range map[string]string{
		`{"type":"jq","jq":{"script":".tags"}}`:                               "address-classes.c.match-filter: a jq filter",
		`{"type":"host","jq":{"script":"."}}`:                                 "address-classes.c.match-filter.jq: a host filter with jq",
		`{"type":"ip-version","ip-version":4}`:                                `the ip-version filter on the host name "ps.example.org"`,
		`{"type":"or","filters":[{"type":"netmask","netmask":"10.0.0.0/8"}]}`: `address-classes.c.match-filter.filters[0]: the netmask filter on the host name`,
		`{"type":"address-class","class":"c"}`:                                `address-classes.c.match-filter.class: "c" refers back to itself (c → c)`,
	} {
		_, err := Parse("t.json", []byte(classDoc(filter)))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", filter, err, want)
		}
	}
	_, err := Parse("t.json", []byte(strings.Replace(classDoc(`{"type":"tag"}`), "current-config", "requesting-agent", 1)))
	if err == nil || !strings.Contains(err.Error(), "address-classes.c.data-source: requesting-agent") {
		t.Errorf("requesting-agent: %v", err)
	}
}

// A class only a disabled task uses is never evaluated, as pSConfig's agent never does.
func TestAClassOfADisabledTaskIsNotEvaluated(t *testing.T) {
	src := strings.Replace(classDoc(`{"type":"jq","jq":{"script":"."}}`), `"test":"r"}`, `"test":"r","disabled":true}`, 1)
	if _, err := Parse("t.json", []byte(src)); err != nil {
		t.Fatal(err)
	}
}
