package influx

import (
	"context"
	"net"
	"net/http"
	"strings"
	"testing"
)

// serve answers /query with body on a real socket and records the request.
func serve(t *testing.T, status int, body string, got *http.Request, form *string) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		*got = *r
		*form = r.PostForm.Get("q")
		w.WriteHeader(status)
		_, _ = w.Write([]byte(body))
	})}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	return "http://" + ln.Addr().String()
}

func TestQuerySendsInfluxQLWithBasicAuthAndReadsSeries(t *testing.T) {
	var req http.Request
	var q string
	url := serve(t, 200, `{"results":[{"statement_id":0,"series":[{"name":"link_stats","tags":{"dst":"lyon"},
		"columns":["time","mean"],"values":[[1700000000000,2.5e6],[1700000060000,null]]}]}]}`, &req, &q)
	c, err := New(url, "longhaul", Auth{User: "reader", PasswordFile: secretFile(t, "s3cret\n")})
	if err != nil {
		t.Fatal(err)
	}
	series, err := c.Query(context.Background(), `SELECT mean("x") FROM "raw"."link_stats"`)
	if err != nil {
		t.Fatal(err)
	}
	user, pw, ok := req.BasicAuth()
	if q != `SELECT mean("x") FROM "raw"."link_stats"` || req.URL.Query().Get("db") != "longhaul" ||
		req.URL.Query().Get("epoch") != "ms" || !ok || user != "reader" || pw != "s3cret" {
		t.Fatalf("request: q=%q url=%s basic auth=%q,%v", q, req.URL, user, ok)
	}
	if len(series) != 1 || series[0].Tags["dst"] != "lyon" || series[0].Millis(series[0].Values[0]) != 1700000000000 {
		t.Fatalf("series: %+v", series)
	}
	if v, ok := Float(series[0].Values[0][1]); !ok || v != 2.5e6 {
		t.Fatalf("value %v %v", v, ok)
	}
	if _, ok := Float(series[0].Values[1][1]); ok {
		t.Fatal("null must not read as a number")
	}
}

func TestQueryErrorsNameTheProblem(t *testing.T) {
	var req http.Request
	var q string
	url := serve(t, 200, `{"results":[{"statement_id":0,"error":"error parsing query: found EOF"}]}`, &req, &q)
	_, err := (&Client{URL: url, DB: "x"}).Query(context.Background(), "SELECT")
	if err == nil || !strings.Contains(err.Error(), "found EOF") {
		t.Fatalf("err = %v", err)
	}
	url = serve(t, 404, `{"error":"database not found: x"}`, &req, &q)
	_, err = (&Client{URL: url, DB: "x"}).Query(context.Background(), "SELECT 1")
	if err == nil || !strings.Contains(err.Error(), "database not found") {
		t.Fatalf("err = %v", err)
	}
	_, err = (&Client{URL: "http://127.0.0.1:1", DB: "x"}).Query(context.Background(), "SELECT 1")
	if err == nil {
		t.Fatal("no error from a closed port")
	}
}

func TestPingAnswersNilOn204AndNamesTheRefusal(t *testing.T) {
	var req http.Request
	var q string
	c, _ := New(serve(t, 204, "", &req, &q), "longhaul", Auth{User: "reader", PasswordFile: secretFile(t, "pw")})
	if err := c.Ping(context.Background()); err != nil || req.URL.Path != "/ping" {
		t.Fatalf("%v %s", err, req.URL.Path)
	}
	c, _ = New(serve(t, 401, `{"error":"authorization failed"}`, &req, &q), "longhaul", Auth{User: "reader", PasswordFile: secretFile(t, "pw")})
	if err := c.Ping(context.Background()); err == nil || !strings.Contains(err.Error(), "reader") {
		t.Fatalf("refusal: %v", err)
	}
}
