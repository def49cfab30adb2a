package psconfig

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// includeServer serves the main template and two includes over HTTPS; the include of the
// first (c.json) is served too, to show it is not read.
func includeServer(t *testing.T) (*httptest.Server, map[string]*server) {
	t.Helper()
	docs := map[string]*server{"/main.json": {}, "/a.json": {}, "/b.json": {}, "/c.json": {}}
	mux := http.NewServeMux()
	for path, s := range docs {
		mux.Handle(path, s)
	}
	ts := httptest.NewTLSServer(mux)
	t.Cleanup(ts.Close)
	docs["/main.json"].set(fmt.Sprintf(`{"includes":["%[1]s/a.json","%[1]s/b.json"],
		"addresses":{"a":{"address":"a.example"}},"groups":{},"tests":{},"tasks":{}}`, ts.URL), "m1", 0)
	docs["/a.json"].set(fmt.Sprintf(`{"includes":["%s/c.json"],"addresses":{"b":{"address":"b.example"},"a":{"address":"not-a.example"}},
		"groups":{"g":{"type":"mesh","addresses":[{"name":"a"},{"name":"b"}]}},
		"tests":{"bw":{"type":"throughput","spec":{"source":"{%% address[0] %%}","dest":"{%% address[1] %%}"}}},
		"schedules":{"s":{"repeat":"PT6H"}}}`, ts.URL), "a1", 0)
	docs["/b.json"].set(`{"tasks":{"t":{"group":"g","test":"bw","schedule":"s"}}}`, "b1", 0)
	docs["/c.json"].set(`{"tasks":{"from-c":{"group":"g","test":"bw","schedule":"s"}}}`, "c1", 0)
	return ts, docs
}

func TestIncludesAreFetchedOverHTTPSAndMergedFirstDefinitionWins(t *testing.T) {
	ts, docs := includeServer(t)
	src := NewSource(ts.URL+"/main.json", Options{Client: ts.Client()})
	tp, changed, err := src.Refresh(context.Background())
	if err != nil || !changed {
		t.Fatalf("%v %v", changed, err)
	}
	if got := planOf(tp); got != "t a.example→b.example;" {
		t.Fatalf("plan %q", got)
	}
	if len(docs["/c.json"].got) != 0 {
		t.Error("an include's own include was fetched")
	}
	same(t, tp.Warnings(), "includes[0] "+ts.URL+"/a.json: its own includes are not followed (pSConfig's agent does not follow them either)")
}

// The template answers 304, an include has changed: the plan changes all the same.
func TestAnIncludeIsFetchedAgainWhenTheTemplateHasNotChanged(t *testing.T) {
	ts, docs := includeServer(t)
	src := NewSource(ts.URL+"/main.json", Options{Client: ts.Client()})
	ctx := context.Background()
	if _, _, err := src.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	if _, changed, err := src.Refresh(ctx); changed || err != nil || src.Status().NotModified != 1 {
		t.Fatalf("unchanged: %v %v %+v", changed, err, src.Status())
	}
	docs["/b.json"].set(`{"tasks":{"t":{"group":"g","test":"bw","schedule":"s","disabled":true}}}`, "b2", 0)
	tp, changed, err := src.Refresh(ctx)
	if err != nil || !changed || planOf(tp) != "" {
		t.Fatalf("include changed: %v %v %q", changed, err, planOf(tp))
	}
	if docs["/main.json"].lastRequest() != "m1|Mon, 23 Nov 2026 10:00:00 GMT" {
		t.Errorf("the template was not asked for conditionally: %s", docs["/main.json"].lastRequest())
	}
}

// An include that fails fails the whole template, as in pSConfig's agent: the last good plan
// is kept.
func TestAFailedIncludeKeepsTheLastGoodPlan(t *testing.T) {
	ts, docs := includeServer(t)
	src := NewSource(ts.URL+"/main.json", Options{Client: ts.Client()})
	ctx := context.Background()
	if _, _, err := src.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	docs["/b.json"].set("", "b2", http.StatusNotFound)
	tp, changed, err := src.Refresh(ctx)
	if err == nil || !strings.Contains(err.Error(), "includes[1] "+ts.URL+"/b.json") || !strings.Contains(err.Error(), "404") ||
		changed || planOf(tp) != "t a.example→b.example;" || src.Status().State != StateStale {
		t.Fatalf("%v %v %v", changed, err, src.Status())
	}
	docs["/b.json"].set(`{"tasks":{"t":{"group":"nope","test":"bw"}}}`, "b3", 0)
	if _, _, err := src.Refresh(ctx); err == nil || !strings.Contains(err.Error(), `tasks.t.group: unknown group "nope"`) {
		t.Fatalf("a broken reference from an include: %v", err)
	}
}

func TestIncludesAreBounded(t *testing.T) {
	dir := t.TempDir()
	many := make([]string, MaxIncludes+1)
	for i := range many {
		many[i] = `"x.json"`
	}
	main := filepath.Join(dir, "main.json")
	os.WriteFile(main, []byte(`{"includes":[`+strings.Join(many, ",")+`],"addresses":{},"groups":{},"tests":{},"tasks":{}}`), 0o644)
	if _, _, err := NewSource(main, Options{}).Refresh(context.Background()); err == nil ||
		!strings.Contains(err.Error(), fmt.Sprintf("includes: %d URIs, at most %d", MaxIncludes+1, MaxIncludes)) {
		t.Errorf("count: %v", err)
	}
	big := filepath.Join(dir, "big.json")
	os.WriteFile(big, []byte(strings.Repeat(" ", 100)+"{}"), 0o644)
	if _, _, _, err := NewSource(main, Options{}).get(context.Background(), big, validators{}, 100); err == nil ||
		!strings.Contains(err.Error(), "larger than 100 bytes") {
		t.Errorf("size: %v", err)
	}
}

func TestWhereAnIncludeMayBeReadFrom(t *testing.T) {
	for _, c := range []struct{ parent, inc, want string }{
		{"/etc/longhaul/mesh.json", "extra.json", "/etc/longhaul/extra.json"},
		{"file:///etc/longhaul/mesh.json", "file:///srv/x.json", "/srv/x.json"},
		{"/etc/longhaul/mesh.json", "https://psconfig.example.org/x.json", "https://psconfig.example.org/x.json"},
		{"https://psconfig.example.org/m.json", "http://127.0.0.1:8080/x.json", "http://127.0.0.1:8080/x.json"},
		{"https://psconfig.example.org/m.json", "http://psconfig.example.org/x.json", "error: plain http"},
		{"https://psconfig.example.org/m.json", "/etc/passwd", "error: a file, included by a template read over HTTP(S)"},
		{"/etc/longhaul/mesh.json", "ftp://example.org/x.json", `error: scheme "ftp"`},
	} {
		got, err := includeLoc(c.parent, c.inc)
		if err != nil {
			got = "error: " + err.Error()
		}
		if !strings.HasPrefix(got, c.want) {
			t.Errorf("%s in %s: %q, want %q", c.inc, c.parent, got, c.want)
		}
	}
}

// _merge_configs tests a name with Python's truth: an empty object in the template is
// replaced; a field that is not an object is an error naming it.
func TestMergeReplacesOnlyAbsentOrEmptyNames(t *testing.T) {
	doc := map[string]json.RawMessage{"hosts": json.RawMessage(`{"h":{},"k":{"no-agent":true}}`)}
	if _, err := mergeInclude(doc, []byte(`{"hosts":{"h":{"disabled":true},"k":{},"n":{}}}`)); err != nil {
		t.Fatal(err)
	}
	if got := string(doc["hosts"]); got != `{"h":{"disabled":true},"k":{"no-agent":true},"n":{}}` {
		t.Errorf("hosts %s", got)
	}
	if _, err := mergeInclude(doc, []byte(`{"tests":[1]}`)); err == nil || err.Error() != "tests: not an object" {
		t.Errorf("%v", err)
	}
}
