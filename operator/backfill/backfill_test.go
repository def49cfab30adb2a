package backfill

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"longhaul/ingest/contract"
	"longhaul/ingest/schema"
	"longhaul/perfsonar/psbridge"
)

// recorder is a Producer that keeps what it is given, failing the records of one topic on demand.
type recorder struct {
	mu     sync.Mutex
	recs   []*kgo.Record
	failOn string
}

func (r *recorder) Produce(_ context.Context, rec *kgo.Record, promise func(*kgo.Record, error)) {
	r.mu.Lock()
	r.recs = append(r.recs, rec)
	r.mu.Unlock()
	if rec.Topic == r.failOn {
		promise(rec, errors.New("NOT_ENOUGH_REPLICAS"))
		return
	}
	promise(rec, nil)
}

func (r *recorder) Flush(context.Context) error { return nil }

// archiveLine is a golden pScheduler archive message with its id and start replaced.
func archiveLine(t *testing.T, kind, c, id, start string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "probes", kind, "testdata", "pscheduler", c, "input.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	m["id"] = id
	m["schedule"].(map[string]any)["start"] = start
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

func importer(t *testing.T, prod Producer, seenPath string) *Importer {
	t.Helper()
	reg, err := schema.Load("../../ingest/schemas")
	if err != nil {
		t.Fatal(err)
	}
	seen, err := psbridge.OpenSeen(seenPath, 1000)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { seen.Close() })
	return NewImporter(prod, reg, seen, func() time.Time { return time.UnixMilli(1_790_000_000_000) })
}

func TestAnArchiveIsImportedNewestThroughputFirstToTheHistoryTopicsAndEachRunOnce(t *testing.T) {
	tput := "iperf3-tcp-2streams-tbf20mbit"
	lines := []string{
		archiveLine(t, "throughput", tput, "r-old", "2026-01-01T00:00:00Z"),
		"",
		archiveLine(t, "rtt", "ping-diags-command-line", "r-ping", "2026-01-01T00:30:00Z"),
		archiveLine(t, "path", "traceroute-ecmp-3-hops", "r-trace", "2026-01-01T00:40:00Z"),
		archiveLine(t, "throughput", tput, "r-new", "2026-01-03T00:00:00Z"),
		archiveLine(t, "throughput", tput, "r-mid", "2026-01-02T00:00:00Z"),
		archiveLine(t, "throughput", tput, "r-mid", "2026-01-02T00:00:00Z"), // twice in the export
		`{"id":"r-bad","test":{"type":"latencybg"}}`,
	}
	seenPath := filepath.Join(t.TempDir(), "seen.log")
	rec := &recorder{}
	im := importer(t, rec, seenPath)
	if err := Archive("export.jsonl", strings.NewReader(strings.Join(lines, "\n")+"\n"), func(it Item) { im.Add(context.Background(), it) }, nil); err != nil {
		t.Fatal(err)
	}
	if len(rec.recs) == 0 || rec.recs[0].Topic != contract.TopicHistoryPath {
		t.Fatalf("the trace goes at once, before the held throughput runs: %d records", len(rec.recs))
	}
	rep, err := im.Finish(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	// the ping run is not imported: its baseline learns live
	if rep.Records != 7 || rep.Accepted != 4 || rep.Unused != 1 || rep.Duplicates != 1 || rep.Rejected != 1 || rep.Failed != 0 {
		t.Fatalf("report %+v", rep)
	}
	if len(rep.Problems) != 1 || !strings.HasPrefix(rep.Problems[0], "export.jsonl:8: ") {
		t.Errorf("problems %q", rep.Problems)
	}
	var order []string
	for _, r := range rec.recs {
		if len(r.Headers) != 1 || r.Headers[0].Key != contract.HeaderSentMs || string(r.Headers[0].Value) != "1790000000000" {
			t.Fatalf("headers %+v", r.Headers)
		}
		if !slices.Contains(contract.HistoryTopics, r.Topic) {
			t.Fatalf("a backfilled sample on %s: only the history topics say a sample is history", r.Topic)
		}
		if r.Topic == contract.TopicHistoryThroughput && strings.Contains(string(r.Value), `"record":"summary"`) {
			for _, id := range []string{"r-new", "r-mid", "r-old"} {
				if strings.Contains(string(r.Value), `"run_id":"pscheduler-`+id+`"`) {
					order = append(order, id)
				}
			}
		}
	}
	if fmt.Sprint(order) != "[r-new r-mid r-old]" {
		t.Errorf("throughput summaries in the order %v; want newest first", order)
	}
	if rep.Samples != len(rec.recs) {
		t.Errorf("%d samples reported, %d produced", rep.Samples, len(rec.recs))
	}

	// imported again: every run is a duplicate, nothing is sent
	again := &recorder{}
	im2 := importer(t, again, seenPath)
	Archive("export.jsonl", strings.NewReader(strings.Join(lines, "\n")), func(it Item) { im2.Add(context.Background(), it) }, nil)
	rep2, _ := im2.Finish(context.Background())
	if rep2.Duplicates != 5 || rep2.Accepted != 0 || len(again.recs) != 0 {
		t.Errorf("second import %+v, %d records", rep2, len(again.recs))
	}
}

func TestARunKafkaDidNotTakeIsNotRememberedSoItCanBeImportedAgain(t *testing.T) {
	seenPath := filepath.Join(t.TempDir(), "seen.log")
	im := importer(t, &recorder{failOn: contract.TopicHistoryThroughput}, seenPath)
	line := archiveLine(t, "throughput", "iperf3-tcp-2streams-tbf20mbit", "r1", "2026-01-01T00:00:00Z")
	Archive("a", strings.NewReader(line), func(it Item) { im.Add(context.Background(), it) }, nil)
	rep, _ := im.Finish(context.Background())
	if rep.Failed != 1 || rep.Accepted != 0 || !strings.Contains(strings.Join(rep.Problems, "\n"), "NOT_ENOUGH_REPLICAS") {
		t.Fatalf("%+v", rep)
	}
	im2 := importer(t, &recorder{}, seenPath)
	Archive("a", strings.NewReader(line), func(it Item) { im2.Add(context.Background(), it) }, nil)
	if rep, _ := im2.Finish(context.Background()); rep.Accepted != 1 {
		t.Errorf("the retry: %+v", rep)
	}
}

func TestALineTooLongIsRejectedAndTheRestRead(t *testing.T) {
	var items []Item
	input := strings.Repeat("x", MaxRecord+10) + "\n{}\n"
	if err := Archive("big", strings.NewReader(input), func(it Item) { items = append(items, it) }, nil); err != nil {
		t.Fatal(err)
	}
	if len(items) != 2 || items[0].Err == nil || !strings.Contains(items[0].Err.Error(), "longer than") || items[1].Where != "big:2" {
		t.Fatalf("%+v", items)
	}
}

func TestSavedOutputsAreDatedByTheirFileWhenTheyCarryNoTime(t *testing.T) {
	dir := t.TempDir()
	b, err := os.ReadFile("../../probes/rtt/testdata/ping/busybox-ping/input.txt")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "a", "ping-1.txt")
	os.MkdirAll(filepath.Dir(path), 0o755)
	os.WriteFile(path, b, 0o644)
	when := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	os.Chtimes(path, when, when)
	files, err := Files([]string{dir})
	if err != nil || len(files) != 1 {
		t.Fatalf("%v %v", files, err)
	}
	it := Outputs{Tool: "ping", Src: "a.example", Dst: "b.example", ProbeID: "ping-b"}.Read(files[0])
	if it.Err != nil || len(it.Samples) != 1 || it.Samples[0].Head().TS != when.UnixMilli() || !strings.HasPrefix(it.Key, "import-ping-") {
		t.Fatalf("%+v", it)
	}
}
