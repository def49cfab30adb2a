package agent

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/twmb/franz-go/pkg/kgo"

	"longhaul/ingest/contract"
	"longhaul/perfsonar/psbridge"
)

// withID is a golden result as another run of the same test: its id replaced.
func withID(t *testing.T, body []byte, id string) []byte {
	t.Helper()
	const golden = "5d3f0b7e-1c1b-4c5e-9a53-6f1c2a9d0e11-run-8a1e2f34-5b6c-4d7e-8f90-a1b2c3d4e5f6"
	out := strings.Replace(string(body), golden, id, 1)
	if out == string(body) {
		t.Fatal("the golden result has not the id it had")
	}
	return []byte(out)
}

// bridgeAgent is a bridge-only agent (bridgeConfig) publishing to memory, closed with the test.
func bridgeAgent(t *testing.T) *Agent {
	t.Helper()
	a, err := New(bridgeConfig(t, t.TempDir()), Options{Logger: quiet, Producer: newMemKafka()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.closeAll() })
	return a
}

// One fetch of the Kafka archiver's topic is one fsync, a result repeated in it a duplicate, and
// every offset of it may be committed.
func TestAcceptAllOneFsyncForAFetchAndItsRepeatADuplicate(t *testing.T) {
	real, _ := goldenResult(t, "iperf3-tcp-2streams-tbf20mbit")
	a := bridgeAgent(t)
	var rs []*kgo.Record
	for _, id := range []string{"run-0", "run-1", "run-2", "run-0", "run-3"} {
		rs = append(rs, &kgo.Record{Topic: contract.TopicPschedulerResults, Value: withID(t, real, id)})
	}
	kept := a.acceptAll(context.Background(), rs, func(r *kgo.Record) string { return archiverOf(contract.TopicPschedulerResults, r.Topic) })
	if kept != len(rs) {
		t.Fatalf("kept %d of %d", kept, len(rs))
	}
	h := a.Health().PSBridge
	if h.Accepted != 4 || h.Duplicates != 1 || h.ByInput[InputKafka] != 5 {
		t.Fatalf("health %+v", *h)
	}
	// the repeat ends the first group (its first copy must be durable before it is found one):
	// runs 0 to 2 in one fsync, run 3 in another
	if got := a.spool.Stats().Fsyncs; got != 2 {
		t.Fatalf("fsyncs = %d, want 2 for five results", got)
	}
}

// The same result posted at once by many (an archiver's retry while its first post is being
// stored): one copy spooled, the others answered duplicate only once it is durable.
func TestAcceptFromTheSameResultAtOnceIsSpooledOnce(t *testing.T) {
	real, _ := goldenResult(t, "iperf3-tcp-2streams-tbf20mbit")
	a := bridgeAgent(t)
	const posts = 8
	outs := make([]psbridge.Outcome, posts)
	errs := make([]error, posts)
	var wg sync.WaitGroup
	for i := range posts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			outs[i], errs[i] = a.acceptFrom(real, psbridge.InputHTTP, contract.HTTPArchiver)
		}()
	}
	wg.Wait()
	accepted, samples := 0, 0
	for i, out := range outs {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		switch out.Status {
		case psbridge.Accepted:
			accepted++
			samples = out.Samples
		case psbridge.Duplicate:
		default:
			t.Fatalf("post %d: %+v", i, out)
		}
	}
	if accepted != 1 {
		t.Fatalf("%d posts accepted, want 1 and %d duplicates", accepted, posts-1)
	}
	if st := a.spool.Stats(); st.Samples != samples {
		t.Fatalf("the spool holds %d records, want the %d of one result", st.Samples, samples)
	}
	if h := a.Health().PSBridge; h.Accepted != 1 || h.Duplicates != posts-1 {
		t.Fatalf("health %+v", *h)
	}
}
