package agent

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"longhaul/collectors/config"
	"longhaul/perfsonar/psconfig"
)

// What the plan tests share: a template server with ETags, a mesh of given addresses, an
// agent config that follows a template, and the WLCG template of ../shared/real-world.

// tmplServer serves a pSConfig template with an ETag; status, when set, answers instead.
type tmplServer struct {
	mu     sync.Mutex
	body   string
	etag   string
	status int
}

func (s *tmplServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.status != 0 {
		http.Error(w, "down for maintenance", s.status)
		return
	}
	w.Header().Set("ETag", s.etag)
	if r.Header.Get("If-None-Match") == s.etag {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	fmt.Fprint(w, s.body)
}

func (s *tmplServer) set(body, etag string, status int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.body, s.etag, s.status = body, etag, status
}

// meshOf is a template: a mesh of the given addresses with rtt, trace and latencybg tasks.
func meshOf(addrs ...string) string {
	var as, sel []string
	for i, a := range addrs {
		as = append(as, fmt.Sprintf(`"h%d":{"address":%q,"_meta":{"display-name":"Site %d"}}`, i, a, i))
		sel = append(sel, fmt.Sprintf(`{"name":"h%d"}`, i))
	}
	return `{"addresses":{` + strings.Join(as, ",") + `},
	  "groups":{"g":{"type":"mesh","addresses":[` + strings.Join(sel, ",") + `]}},
	  "tests":{"rtt":{"type":"rtt","spec":{"source":"{% address[0] %}","dest":"{% address[1] %}","count":5}},
	           "trace":{"type":"trace","spec":{"source":"{% address[0] %}","dest":"{% address[1] %}"}},
	           "owamp":{"type":"latencybg","spec":{"source":"{% address[0] %}","dest":"{% address[1] %}"}}},
	  "schedules":{"5m":{"repeat":"PT5M","slip":"PT1M"},"10m":{"repeat":"PT10M","slip":"PT10M","sliprand":true}},
	  "tasks":{"mesh-rtt":{"group":"g","test":"rtt","schedule":"5m"},"mesh-trace":{"group":"g","test":"trace","schedule":"10m"},
	           "mesh-owamp":{"group":"g","test":"owamp"}}}`
}

func psconfigConfig(t *testing.T, dir, url string) *config.Config {
	t.Helper()
	body := fmt.Sprintf(`src: cern-ps1
kafka:
  bootstrap: [127.0.0.1:1]
  security: plaintext
spool:
  dir: %s
  max_bytes: 4MiB
  segment_bytes: 256KiB
health:
  listen: "off"
schemas_dir: "off"
targets:
  - {name: fnal-ps1, address: ps1.fnal.gov}
probes:
  - {id: own, kind: synthetic, interval: 1m}
psconfig:
  url: %s
  match_addresses: [ps1.example.org]
`, filepath.Join(dir, "spool"), url)
	return loadConfig(t, filepath.Join(dir, "longhaul-probe.yaml"), body)
}

// wlcgTemplate is psconfig's golden WLCG-like template.
func wlcgTemplate(t *testing.T) *psconfig.Template {
	t.Helper()
	raw, err := os.ReadFile("../../perfsonar/psconfig/testdata/wlcg/template.json")
	if err != nil {
		t.Fatal(err)
	}
	tp, err := psconfig.Parse("wlcg", raw)
	if err != nil {
		t.Fatal(err)
	}
	return tp
}
