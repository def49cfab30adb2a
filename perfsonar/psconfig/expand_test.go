package psconfig

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// tmpl builds a template from the parts the test changes; the rest is a two-address mesh.
func tmpl(t *testing.T, doc string) *Template {
	t.Helper()
	tp, err := Parse("test.json", []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	return tp
}

// pairsOf is the plan of host as "task src→dst" (and the reason, if any).
func pairsOf(tp *Template, host ...string) []string {
	var out []string
	for _, e := range tp.Plan(host) {
		s := e.Task + " " + e.Src + "→" + e.Dst
		if e.Unsupported != "" {
			s += " !" + e.Unsupported
		}
		out = append(out, s)
	}
	return out
}

func same(t *testing.T, got []string, want ...string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

const (
	abc = `"addresses":{"a":{"address":"a.example"},"b":{"address":"b.example"},"c":{"address":"c.example"}}`
	bw  = `"tests":{"bw":{"type":"throughput","spec":{"source":"{% address[0] %}","dest":"{% address[1] %}"}}},
	       "schedules":{"s":{"repeat":"PT1H","slip":"PT10M"}}`
)

func doc(parts ...string) string { return "{" + strings.Join(parts, ",") + "}" }

func TestMeshIsEveryOrderedPairEachScheduledByItsFirstAddress(t *testing.T) {
	tp := tmpl(t, doc(abc, bw, `"groups":{"g":{"type":"mesh","addresses":[{"name":"a"},{"name":"b"},{"name":"c"}]}}`,
		`"tasks":{"t":{"group":"g","test":"bw","schedule":"s"}}`))
	same(t, pairsOf(tp, "a"), "t a.example→b.example", "t a.example→c.example")
	same(t, pairsOf(tp, "b.example"), "t b.example→a.example", "t b.example→c.example")
	same(t, pairsOf(tp, "a", "b", "c"), "t a.example→b.example", "t a.example→c.example", "t b.example→a.example",
		"t b.example→c.example", "t c.example→a.example", "t c.example→b.example")
}

func TestDisjointIsBothWaysUnlessUnidirectional(t *testing.T) {
	for _, uni := range []bool{false, true} {
		g := `"groups":{"g":{"type":"disjoint","unidirectional":` + map[bool]string{false: "false", true: "true"}[uni] +
			`,"a-addresses":[{"name":"a"}],"b-addresses":[{"name":"b"},{"name":"c"}]}}`
		tp := tmpl(t, doc(abc, bw, g, `"tasks":{"t":{"group":"g","test":"bw","schedule":"s"}}`))
		same(t, pairsOf(tp, "a"), "t a.example→b.example", "t a.example→c.example")
		if uni {
			same(t, pairsOf(tp, "b", "c"))
		} else {
			same(t, pairsOf(tp, "b", "c"), "t b.example→a.example", "t c.example→a.example")
		}
	}
}

func TestListIsEachAddressAloneWithTheSpecsDest(t *testing.T) {
	tp := tmpl(t, doc(abc, `"groups":{"g":{"type":"list","addresses":[{"name":"a"},{"name":"b"}]}}`,
		`"tests":{"r":{"type":"rtt","spec":{"dest":"www.example.org"}},"bad":{"type":"rtt","spec":{"dest":"{% address[1] %}"}}}`,
		`"schedules":{"s":{"repeat":"PT5M"}}`,
		`"tasks":{"t":{"group":"g","test":"r","schedule":"s"},"u":{"group":"g","test":"bad","schedule":"s"}}`))
	same(t, pairsOf(tp, "a"), "t a.example→www.example.org", "u → !spec: dest: {% address[1] %}: the group gives 1 address(es)")
}

func TestExcludesDropOneDirectionOnly(t *testing.T) {
	tp := tmpl(t, doc(abc, bw, `"groups":{"g":{"type":"mesh","addresses":[{"name":"a"},{"name":"b"},{"name":"c"}],
		"excludes":[{"local-address":{"name":"a"},"target-addresses":[{"name":"b"}]}]}}`,
		`"tasks":{"t":{"group":"g","test":"bw","schedule":"s"}}`))
	same(t, pairsOf(tp, "a"), "t a.example→c.example")
	same(t, pairsOf(tp, "b"), "t b.example→a.example", "t b.example→c.example")
}

func TestExcludesSelf(t *testing.T) {
	// a and a2 are one host; a and same are one address under two names.
	addrs := `"addresses":{"a":{"address":"a.example","host":"h"},"a2":{"address":"a2.example","host":"h"},
		"same":{"address":"a.example"},"b":{"address":"b.example"}},"hosts":{"h":{}}`
	for scope, want := range map[string][]string{
		"":        {"t a.example→b.example"},
		"host":    {"t a.example→b.example"},
		"address": {"t a.example→a2.example", "t a.example→b.example"},
		// pSConfig's mesh pairs an entry with itself too: with excludes-self disabled, a → a
		// comes from (a, a) and again from (a, same).
		"disabled": {"t a.example→a.example", "t a.example→a.example", "t a.example→a2.example", "t a.example→b.example"},
	} {
		es := ""
		if scope != "" {
			es = `,"excludes-self":"` + scope + `"`
		}
		tp := tmpl(t, doc(addrs, bw, `"groups":{"g":{"type":"mesh","addresses":[{"name":"a"},{"name":"a2"},{"name":"same"},{"name":"b"}]`+es+`}}`,
			`"tasks":{"t":{"group":"g","test":"bw","schedule":"s"}}`))
		var got []string
		for _, e := range tp.Plan([]string{"a"}) {
			if e.Unsupported == "" || strings.Contains(e.Unsupported, "both") {
				got = append(got, e.Task+" "+e.Src+"→"+e.Dst)
			}
		}
		t.Run("excludes-self="+scope, func(t *testing.T) { same(t, got, want...) })
	}
}

func TestDisabledAddressesHostsAndTasksAreNotPlanned(t *testing.T) {
	addrs := `"addresses":{"a":{"address":"a.example"},"b":{"address":"b.example","disabled":true},
		"c":{"address":"c.example","host":"hc"},"d":{"address":"d.example"}},"hosts":{"hc":{"disabled":true}}`
	tp := tmpl(t, doc(addrs, bw,
		`"groups":{"g":{"type":"mesh","addresses":[{"name":"a"},{"name":"b"},{"name":"c"},{"name":"d","disabled":true}]},
		"h":{"type":"mesh","addresses":[{"name":"a"},{"name":"d"}]}}`,
		`"tasks":{"t":{"group":"g","test":"bw","schedule":"s"},"off":{"group":"h","test":"bw","schedule":"s","disabled":true},
		"on":{"group":"h","test":"bw","schedule":"s"}}`))
	// A selector's own disabled (d in g) is not read by pSConfig's TaskGenerator: a → d stays.
	same(t, pairsOf(tp, "a"), "on a.example→d.example", "t a.example→d.example")
}

func TestScheduledByNamesTheSchedulingAddress(t *testing.T) {
	tp := tmpl(t, doc(abc, bw, `"groups":{"g":{"type":"disjoint","unidirectional":true,"a-addresses":[{"name":"a"}],"b-addresses":[{"name":"b"}]}}`,
		`"tasks":{"t":{"group":"g","test":"bw","schedule":"s","scheduled-by":1}}`))
	same(t, pairsOf(tp, "a"))
	plan := tp.Plan([]string{"b"})
	if len(plan) != 1 || !plan[0].FromDest || !plan[0].Reverse || plan[0].Target != "a.example" || plan[0].Src != "a.example" {
		t.Errorf("b schedules a→b and runs it from b with a sending: %+v", plan)
	}
}

// A no-agent scheduler hands the pair to the first address with an agent, with flip set:
// throughput runs from the dest with the source sending, rtt pings back, trace cannot.
func TestANoAgentSchedulerHandsOverWithFlip(t *testing.T) {
	addrs := `"addresses":{"n":{"address":"n.example","no-agent":true},"b":{"address":"b.example"},"m":{"address":"m.example","host":"hm"}},
		"hosts":{"hm":{"no-agent":true}}`
	tests := `"tests":{"bw":{"type":"throughput","spec":{"source":"{% address[0] %}","dest":"{% address[1] %}","reverse":"{% flip %}"}},
		"tr":{"type":"trace","spec":{"source":"{% address[0] %}","dest":"{% address[1] %}"}},
		"rt":{"type":"rtt","spec":{"source":"{% address[0] %}","dest":"{% address[1] %}"}}},"schedules":{"s":{"repeat":"PT1H"}}`
	tp := tmpl(t, doc(addrs, tests, `"groups":{"g":{"type":"disjoint","unidirectional":true,"a-addresses":[{"name":"n"},{"name":"m"}],"b-addresses":[{"name":"b"}]}}`,
		`"tasks":{"bw":{"group":"g","test":"bw","schedule":"s"},"tr":{"group":"g","test":"tr","schedule":"s"},"rt":{"group":"g","test":"rt","schedule":"s"}}`))
	byTask := map[string][]Entry{}
	for _, e := range tp.Plan([]string{"b.example"}) {
		byTask[e.Task] = append(byTask[e.Task], e)
	}
	// {% flip %} is true: the spec asks the dest to send; from the dest that is a forward run.
	if bw := byTask["bw"]; len(bw) != 2 || !bw[0].FromDest || bw[0].Reverse || bw[0].Target != "m.example" || bw[1].Target != "n.example" {
		t.Errorf("bw: %+v", bw)
	}
	if rt := byTask["rt"]; len(rt) != 2 || !rt[0].FromDest || rt[0].Unsupported != "" || rt[0].Tool != "ping" {
		t.Errorf("rt: %+v", rt)
	}
	if tr := byTask["tr"]; len(tr) != 2 || !strings.Contains(tr[0].Unsupported, "a trace runs only from its source") {
		t.Errorf("tr: %+v", tr)
	}
	same(t, pairsOf(tp, "n", "m")) // no agent: schedules nothing
}

// b has the label v6 only for its peer a (pSConfig's reference check accepts that): paired
// with c, its label is missing and the pair is dropped.
func TestALabelSelectsTheLabelsAddressAndAMissingLabelDropsThePair(t *testing.T) {
	addrs := `"addresses":{"a":{"address":"a.example","labels":{"v6":{"address":"2001:db8::a"}}},
		"b":{"address":"b.example","remote-addresses":{"a":{"labels":{"v6":{"address":"2001:db8::b"}}}}},
		"c":{"address":"c.example","remote-addresses":{"a":{"address":"c-for-a.example"}}}}`
	tp := tmpl(t, doc(addrs, bw, `"groups":{"g":{"type":"disjoint","unidirectional":true,
		"a-addresses":[{"name":"a","label":"v6"},{"name":"b","label":"v6"}],"b-addresses":[{"name":"c"}]},
		"r":{"type":"disjoint","unidirectional":true,"a-addresses":[{"name":"c"}],"b-addresses":[{"name":"a"},{"name":"b"}]}}`,
		`"tasks":{"t":{"group":"g","test":"bw","schedule":"s"},"u":{"group":"r","test":"bw","schedule":"s"}}`))
	same(t, pairsOf(tp, "a"), "t 2001:db8::a→c-for-a.example")
	same(t, pairsOf(tp, "b"))
	same(t, pairsOf(tp, "c"), "u c-for-a.example→a.example", "u c.example→b.example")
}

func TestVariables(t *testing.T) {
	v := vars{pair: []*endpoint{{Address: "a.example", PSched: "ps-a.example", LeadBind: "a.example"}, {Address: "b.example", PSched: "b.example"}},
		sched: &endpoint{Address: "a.example"}, flip: true}
	got, err := v.expand(map[string]any{"f": "{% flip %}", "u": "https://{% scheduled_by_address %}/logstash",
		"p": "{%pscheduler_address[0]%}", "l": []any{"{% address[1] %}", 3.0}})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(got)
	if string(b) != `{"f":true,"l":["b.example",3],"p":"ps-a.example","u":"https://a.example/logstash"}` {
		t.Errorf("got %s", b)
	}
	for _, bad := range []string{"{% jq .x %}", "{% address[2] %}", "{% nope %}"} {
		if _, err := v.expand(bad); err == nil {
			t.Errorf("%s expanded", bad)
		}
	}
}

func TestScheduleRepeatSlipAndSliprand(t *testing.T) {
	tests := `"tests":{"bw":{"type":"throughput","spec":{"source":"{% address[0] %}","dest":"{% address[1] %}","duration":"PT30S"}},
		"rt":{"type":"rtt","spec":{"source":"{% address[0] %}","dest":"{% address[1] %}"}}},
		"schedules":{"long":{"repeat":"PT1H","slip":"PT2H","sliprand":true},"plain":{"repeat":"PT0.5M","slip":"PT10S"}}`
	tp := tmpl(t, doc(abc, tests, `"groups":{"g":{"type":"disjoint","unidirectional":true,"a-addresses":[{"name":"a"}],"b-addresses":[{"name":"b"}]}}`,
		`"tasks":{"bw":{"group":"g","test":"bw","schedule":"long"},"rt":{"group":"g","test":"rt","schedule":"plain"},"once":{"group":"g","test":"rt"}}`))
	p := tp.Plan([]string{"a"})
	if len(p) != 3 {
		t.Fatalf("%+v", p)
	}
	// the slip is cut to repeat − the test's duration
	if bw := p[0]; bw.Interval() != time.Hour || bw.Slip() != time.Hour-30*time.Second || !bw.Sliprand || bw.Params["duration"] != "30s" {
		t.Errorf("bw: %+v", bw)
	}
	if once := p[1]; !strings.HasPrefix(once.Unsupported, "no schedule repeat") {
		t.Errorf("a task without a schedule: %+v", once)
	}
	if rt := p[2]; rt.Interval() != 30*time.Second || rt.Slip() != 10*time.Second || rt.Sliprand {
		t.Errorf("rt: %+v", rt)
	}
}

func TestTestTypesWithoutALonghaulProbeAreReportedWithTheReason(t *testing.T) {
	tests := `"tests":{"owamp":{"type":"latencybg","spec":{"source":"{% address[0] %}","dest":"{% address[1] %}"}},
		"dns":{"type":"dns","spec":{"query":"x"}},
		"bw":{"type":"throughput","spec":{"source":"{% address[0] %}","dest":"{% address[1] %}"}}},"schedules":{"s":{"repeat":"PT1H"}}`
	tp := tmpl(t, doc(abc, tests, `"groups":{"g":{"type":"disjoint","unidirectional":true,"a-addresses":[{"name":"a"}],"b-addresses":[{"name":"b"}]}}`,
		`"tasks":{"l":{"group":"g","test":"owamp"},"d":{"group":"g","test":"dns","schedule":"s"},"n":{"group":"g","test":"bw","schedule":"s","tools":["nuttcp","ethr"]}}`))
	p := tp.Plan([]string{"a"})
	if len(p) != 3 {
		t.Fatalf("%+v", p)
	}
	for i, want := range []string{`no Longhaul probe for test type "dns"`, "", "the task asks for tools nuttcp, ethr"} {
		if !strings.Contains(p[i].Unsupported, want) || p[i].Tool != "" {
			t.Errorf("%s: %q, want %q", p[i].Task, p[i].Unsupported, want)
		}
	}
	// latencybg is planned, for pScheduler to measure (the bridge brings its results), not unsupported
	if l := p[1]; l.Test != "latencybg" || l.MeasuredBy != "pscheduler" || l.Unsupported != "" {
		t.Errorf("latencybg: %+v", l)
	}
}

func TestDisplayNamesBecomeLabels(t *testing.T) {
	addrs := `"addresses":{"a":{"address":"a.example","_meta":{"display-name":"Site A","nested":{"x":1}}},"b":{"address":"b.example","_meta":{"display-name":"Site B"}}}`
	tp := tmpl(t, doc(addrs, bw, `"groups":{"g":{"type":"disjoint","unidirectional":true,"a-addresses":[{"name":"a"}],"b-addresses":[{"name":"b"}]}}`,
		`"tasks":{"t":{"group":"g","test":"bw","schedule":"s","_meta":{"display-name":"T"},
		"reference":{"display-task-group":["WLCG","Bw"],"sched":"{% scheduled_by_address %}"}}}`))
	p := tp.Plan([]string{"a"})
	b, _ := json.Marshal(p[0].Labels)
	if string(b) != `{"display-name":"T","display-task-group":"WLCG,Bw","dst.display-name":"Site B","sched":"a.example","src.display-name":"Site A"}` {
		t.Errorf("labels %s", b)
	}
}

func TestUnsafeAddressesAreNotRun(t *testing.T) {
	addrs := `"addresses":{"a":{"address":"a.example"},"b":{"address":"-oProxyCommand=x"}}`
	tp := tmpl(t, doc(addrs, bw, `"groups":{"g":{"type":"mesh","addresses":[{"name":"a"},{"name":"b"}]}}`,
		`"tasks":{"t":{"group":"g","test":"bw","schedule":"s"}}`))
	p := tp.Plan([]string{"a"})
	if len(p) != 1 || !strings.Contains(p[0].Unsupported, "looks like a command-line flag") {
		t.Errorf("%+v", p)
	}
}

func TestISODurations(t *testing.T) {
	for in, want := range map[string]time.Duration{"PT6H": 6 * time.Hour, "PT10M": 10 * time.Minute, "P1D": 24 * time.Hour,
		"P1W": 7 * 24 * time.Hour, "PT0.5S": 500 * time.Millisecond, "P1DT1H30M": 25*time.Hour + 30*time.Minute, "PT1.5M": 90 * time.Second} {
		if got, err := ParseDuration(in); err != nil || got != want {
			t.Errorf("%s: %s, %v", in, got, err)
		}
	}
	for _, bad := range []string{"", "P", "PT", "P1Y", "P1M", "6h", "PT1H2", "pt1h", "P1DT"} {
		if _, err := ParseDuration(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestInvalidDocumentsNameTheField(t *testing.T) {
	for doc, want := range map[string]string{
		`{"addresses":{},"groups":{},"tests":{}}`:                                                                "tasks: required",
		`{"addresses":{},"groups":{},"tests":{},"tasks":{},"extra":1}`:                                           `unknown field "extra"`,
		`{"addresses":{"a":{}},"groups":{},"tests":{},"tasks":{}}`:                                               "addresses.a.address: required",
		`{"addresses":{"a":{"address":"x","labels":{"v 6":{"address":"y"}}}},"groups":{},"tests":{},"tasks":{}}`: `addresses.a.labels: name "v 6"`,
		`{"addresses":{},"groups":{"g":{"type":"star","addresses":[]}},"tests":{},"tasks":{}}`:                   `groups.g.type: unknown group type "star"`,
		`{"addresses":{},"groups":{"g":{"type":"mesh","addresses":[{"name":"zz"}]}},"tests":{},"tasks":{}}`:      `groups.g.addresses[0].name: unknown address "zz"`,
		`{"addresses":{},"groups":{},"tests":{},"schedules":{"s":{"repeat":"6h"}},"tasks":{}}`:                   "schedules.s.repeat:",
		`{"addresses":{},"groups":{},"tests":{},"tasks":{"t":{"group":"g","test":"x"}}}`:                         `tasks.t.group: unknown group "g"`,
		`{"addresses":{},"groups":{},"tests":{},"tasks":{}`:                                                      "line 1:",
		`{"addresses":{"a":{"address":1}},"groups":{},"tests":{},"tasks":{}}`:                                    "line 1: addresses.address: a JSON number, want string",
	} {
		_, err := Parse("t.json", []byte(doc))
		if err == nil || !strings.Contains(err.Error(), want) || !strings.HasPrefix(err.Error(), "t.json: invalid pSConfig template") {
			t.Errorf("%s: %v, want %q", doc, err, want)
		}
	}
}

func TestWhatNoPlanAppliesIsWarnedAbout(t *testing.T) {
	tp := tmpl(t, doc(abc, `"groups":{},"tests":{},"tasks":{}`, `"includes":["https://example.org/extra.json"]`,
		`"schedules":{"s":{"repeat":"PT1H","until":"2027-01-01T00:00:00Z","max-runs":3},"ok":{"repeat":"PT1H"}}`))
	same(t, tp.Warnings(),
		"includes: 1 URI(s) not fetched (https://example.org/extra.json): their tasks are not in the plan",
		"schedules.s: until, max-runs not applied: runs go on every repeat")
}
