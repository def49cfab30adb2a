package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"longhaul/collectors/config"
	"longhaul/collectors/publish"
	"longhaul/ingest/contract"
	"longhaul/ingest/sample"
	"longhaul/perfsonar/psbridge"
)

// bridgeConfig is an agent that only bridges pScheduler results: no targets, no probes.
func bridgeConfig(t *testing.T, dir string) *config.Config {
	t.Helper()
	for name, v := range map[string]string{"kafka.password": knownPassword, "token": "tok-en"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(v+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(dir, "bridge.yaml")
	body := fmt.Sprintf(`src: psbridge-1
kafka:
  bootstrap: [127.0.0.1:1]
  sasl: {user: psbridge, password_file: %[1]s/kafka.password}
spool: {dir: %[1]s/spool, max_bytes: 4MiB, segment_bytes: 256KiB}
health: {listen: "off"}
schemas_dir: ../../ingest/schemas
pscheduler_bridge:
  listen: 127.0.0.1:0
  token_file: %[1]s/token
`, dir)
	return loadConfig(t, path, body)
}

// acceptFrom takes a result and settles it at once, as the HTTP endpoint does for one post.
func (a *Agent) acceptFrom(body []byte, input, identity string) (psbridge.Outcome, error) {
	settle, err := a.takeFrom(body, input, identity)
	if err != nil {
		return psbridge.Outcome{}, err
	}
	return settle()
}

func TestTheBridgeSpoolsEachResultOnceAndDeadLettersWhatItCannotConvert(t *testing.T) {
	dir := t.TempDir()
	result, err := os.ReadFile("../../probes/throughput/testdata/pscheduler/iperf3-tcp-2streams-tbf20mbit/input.json")
	if err != nil {
		t.Fatal(err)
	}
	mem := newMemKafka()
	a, err := New(bridgeConfig(t, dir), Options{Logger: quiet, Producer: mem})
	if err != nil {
		t.Fatal(err)
	}
	if a.req != nil {
		t.Fatal("a bridge-only agent consumes probe requests (which its Kafka user may not read)")
	}
	out, err := a.acceptFrom(result, psbridge.InputHTTP, contract.HTTPArchiver)
	if err != nil || out.Status != psbridge.Accepted || out.Samples == 0 {
		t.Fatalf("%+v %v", out, err)
	}
	if again, _ := a.acceptFrom(result, InputKafka, contract.SharedArchiver); again.Status != psbridge.Duplicate || again.Key != out.Key {
		t.Fatalf("the same result again: %+v", again)
	}
	bad, err := a.acceptFrom([]byte(`{"id":"r2","test":{"type":"rtt"}}`), InputKafka, contract.SharedArchiver)
	if err != nil || bad.Status != psbridge.DeadLettered || bad.Reason != "JSON path result: missing" {
		t.Fatalf("bad: %+v %v", bad, err)
	}
	h := a.Health().PSBridge
	if h.Accepted != 1 || h.Duplicates != 1 || h.DeadLettered != 1 || h.ByInput["http"] != 1 || h.ByInput["kafka"] != 2 || h.Remembered != 1 {
		t.Errorf("health %+v", *h)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- a.Run(ctx) }()
	want := out.Samples + 1
	waitFor(t, mem.changed, "the samples and the dead letter published", func() bool { return len(mem.records()) == want })
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	var dl deadLetter
	for _, r := range mem.records() {
		switch r.Topic {
		case sample.TopicThroughput:
			if !strings.Contains(string(r.Key), "|") {
				t.Errorf("sample keyed %q", r.Key)
			}
		case sample.TopicDeadLetter:
			if err := json.Unmarshal(r.Value, &dl); err != nil {
				t.Fatal(err)
			}
		default:
			t.Errorf("record on %s", r.Topic)
		}
	}
	if dl.Reason != "pScheduler result from kafka: JSON path result: missing" || dl.Payload != `{"id":"r2","test":{"type":"rtt"}}` || dl.SourceTopic != "longhaul.pscheduler.results" {
		t.Errorf("dead letter %+v", dl)
	}

	// a restart remembers what was converted: an archiver's retry after it adds nothing
	b, err := New(bridgeConfig(t, dir), Options{Logger: quiet, Producer: newMemKafka()})
	if err != nil {
		t.Fatal(err)
	}
	defer b.closeAll()
	if again, _ := b.acceptFrom(result, psbridge.InputHTTP, contract.HTTPArchiver); again.Status != psbridge.Duplicate {
		t.Errorf("after a restart: %+v", again)
	}
}

func TestABridgeWithoutItsTokenFileDoesNotStart(t *testing.T) {
	dir := t.TempDir()
	cfg := bridgeConfig(t, dir)
	os.Remove(filepath.Join(dir, "token"))
	if _, err := New(cfg, Options{Logger: quiet, Producer: newMemKafka()}); err == nil {
		t.Fatal("started without its token")
	}
}

func TestABridgeWithAFullSpoolKeepsNoPartOfAResultAndSaysTryAgain(t *testing.T) {
	dir := t.TempDir()
	cfg := bridgeConfig(t, dir)
	cfg.Spool.MaxBytes, cfg.Spool.SegmentBytes = 256<<10, 64<<10 // the smallest spool allowed
	template, err := os.ReadFile("../../probes/throughput/testdata/pscheduler/iperf3-tcp-2streams-tbf20mbit/input.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(template, &doc); err != nil {
		t.Fatal(err)
	}
	result := func(i int) []byte {
		doc["id"] = fmt.Sprintf("run-%d", i)
		b, _ := json.Marshal(doc)
		return b
	}
	a, err := New(cfg, Options{Logger: quiet, Producer: newMemKafka()}) // never run: nothing is sent
	if err != nil {
		t.Fatal(err)
	}
	defer a.closeAll()
	accepted := 0
	for ; accepted < 10_000; accepted++ {
		out, err := a.acceptFrom(result(accepted), psbridge.InputHTTP, contract.HTTPArchiver)
		if err != nil {
			if !errors.Is(err, publish.ErrFull) {
				t.Fatalf("result %d: %v", accepted, err)
			}
			break
		}
		if out.Status != psbridge.Accepted {
			t.Fatalf("result %d: %+v", accepted, out)
		}
	}
	st := a.spool.Stats()
	if accepted == 0 || accepted == 10_000 || st.DroppedOther != 0 || st.Refused == 0 {
		t.Fatalf("%d results accepted before the spool was full; spool %+v: an accepted result's summary was dropped, or nothing refused", accepted, st)
	}
	// refused whole and not remembered: the archiver's retry is converted once there is room
	h := a.Health().PSBridge
	if h.Accepted != uint64(accepted) || h.Remembered != accepted || h.LastError == "" {
		t.Errorf("health %+v", *h)
	}
	if out, err := a.acceptFrom(result(accepted), psbridge.InputHTTP, contract.HTTPArchiver); err == nil || out.Status != "" {
		t.Errorf("the same result again while full: %+v %v", out, err)
	}
}

// A result that would make more samples than pscheduler_bridge.max_samples is dead-lettered with
// the reason, its samples dropped: one post cannot make the bridge hold an unbounded batch.
func TestAResultOverMaxSamplesIsDeadLetteredNotSpooled(t *testing.T) {
	dir := t.TempDir()
	result, err := os.ReadFile("../../probes/throughput/testdata/pscheduler/iperf3-tcp-2streams-tbf20mbit/input.json")
	if err != nil {
		t.Fatal(err)
	}
	cfg := bridgeConfig(t, dir)
	cfg.PSBridge.MaxSamples = 4 // the result makes 5; below what the config takes, to use a real result
	a, err := New(cfg, Options{Logger: quiet, Producer: newMemKafka()})
	if err != nil {
		t.Fatal(err)
	}
	defer a.closeAll()
	out, err := a.acceptFrom(result, psbridge.InputHTTP, contract.HTTPArchiver)
	if err != nil || out.Status != psbridge.DeadLettered || out.Samples != 0 ||
		!strings.Contains(out.Reason, "more than pscheduler_bridge.max_samples (4)") {
		t.Fatalf("%+v %v", out, err)
	}
	if h := a.Health().PSBridge; h.DeadLettered != 1 || h.Accepted != 0 || h.Samples != 0 {
		t.Errorf("health %+v", *h)
	}
}

// A pScheduler host's certificate writes its own topic, and the bridge takes from it the results
// of tests its hosts take part in only (pscheduler_bridge.hosts); the rest become dead letters
// naming the identity and the hosts.
func TestAPSchedulerHostReportsForItsOwnHostsOnly(t *testing.T) {
	dir := t.TempDir()
	cfg := bridgeConfig(t, dir)
	result, conv := goldenResult(t, "iperf3-tcp-2streams-tbf20mbit")
	src := conv.Samples[0].Head().Src
	cfg.PSBridge.Hosts = map[string][]string{"pscheduler-lyon": {"perfsonar.in2p3.fr"}, "pscheduler-here": {src}}
	a, err := New(cfg, Options{Logger: quiet, Producer: newMemKafka()})
	if err != nil {
		t.Fatal(err)
	}
	out, err := a.acceptFrom(result, InputKafka, archiverOf("longhaul.pscheduler.results", "longhaul.pscheduler.results.pscheduler-lyon"))
	if err != nil || out.Status != psbridge.DeadLettered || !strings.HasPrefix(out.Reason, "pscheduler_host: a result of "+src+"→") ||
		!strings.HasSuffix(out.Reason, " from pscheduler-lyon, which may report for perfsonar.in2p3.fr only") {
		t.Fatalf("another host's result: %+v %v", out, err)
	}
	if out, _ := a.acceptFrom(result, InputKafka, contract.SharedArchiver); out.Status != psbridge.DeadLettered || !strings.Contains(out.Reason, "pscheduler has no host list") {
		t.Fatalf("the shared topic, its identity without a list: %+v", out)
	}
	if out, err := a.acceptFrom(result, InputKafka, archiverOf("longhaul.pscheduler.results", "longhaul.pscheduler.results.pscheduler-here")); err != nil || out.Status != psbridge.Accepted {
		t.Fatalf("its own host's result: %+v %v", out, err)
	}
}

// A run's id is known to both participants of a throughput test. The destination's host posting
// the run's id first, with figures of its own, must not have the source's real result dropped as
// a duplicate; a copy that says the same (a retry, the other participant's default archive) is
// one result.
func TestAParticipantPostingARunsIdFirstDoesNotDropTheRealResult(t *testing.T) {
	dir := t.TempDir()
	cfg := bridgeConfig(t, dir)
	real, conv := goldenResult(t, "iperf3-tcp-2streams-tbf20mbit")
	src, dst := conv.Samples[0].Head().Src, conv.Samples[0].Head().Dst
	cfg.PSBridge.Hosts = map[string][]string{"pscheduler-src": {src}, "pscheduler-dst": {dst}}
	mem := newMemKafka()
	a, err := New(cfg, Options{Logger: quiet, Producer: mem})
	if err != nil {
		t.Fatal(err)
	}
	defer a.closeAll()
	// the run's summary at a tenth of what was measured: a collapse that never was
	forged := []byte(strings.Replace(string(real), `27359274.99225367`, `2735927.499225367`, 1))
	if string(forged) == string(real) {
		t.Fatal("the forged copy is the real one: the summary's figure is not in the golden result")
	}
	fromDst := archiverOf(contract.TopicPschedulerResults, contract.TopicPschedulerResults+".pscheduler-dst")
	fromSrc := archiverOf(contract.TopicPschedulerResults, contract.TopicPschedulerResults+".pscheduler-src")
	for _, step := range []struct {
		what     string
		body     []byte
		identity string
		want     string
	}{
		{"the destination's forged copy, first", forged, fromDst, psbridge.Accepted},
		{"the source's real result", real, fromSrc, psbridge.Accepted},
		{"the source's retry", real, fromSrc, psbridge.Duplicate},
		{"the destination's default archive of the real run", real, fromDst, psbridge.Duplicate},
	} {
		out, err := a.acceptFrom(step.body, InputKafka, step.identity)
		if err != nil || out.Status != step.want || out.Key != conv.Key {
			t.Fatalf("%s: %+v %v, want %s of %s", step.what, out, err, step.want, conv.Key)
		}
	}
}

// goldenResult is a golden pScheduler throughput result (probes/throughput/testdata)
// and its conversion.
func goldenResult(t *testing.T, name string) ([]byte, psbridge.Converted) {
	t.Helper()
	result, err := os.ReadFile("../../probes/throughput/testdata/pscheduler/" + name + "/input.json")
	if err != nil {
		t.Fatal(err)
	}
	conv, err := psbridge.Convert(result)
	if err != nil {
		t.Fatal(err)
	}
	return result, conv
}
