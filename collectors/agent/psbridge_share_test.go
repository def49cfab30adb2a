package agent

import (
	"testing"

	"longhaul/ingest/contract"
	"longhaul/perfsonar/psbridge"
)

func TestAResultAnotherBridgeConvertedIsADuplicateHere(t *testing.T) {
	dir := t.TempDir()
	result, conv := goldenResult(t, "iperf3-tcp-2streams-tbf20mbit")
	a, err := New(bridgeConfig(t, dir), Options{Logger: quiet, Producer: newMemKafka()})
	if err != nil {
		t.Fatal(err)
	}
	var said []string
	say := func(msg string, _ ...any) { said = append(said, msg) }
	_, other, ok := psbridge.EncodeShare(conv, seenKey(t, conv), "psbridge-2")
	if !ok {
		t.Fatal("a result with samples not shared")
	}
	a.psb.learn(other, say)
	a.psb.learn(other, say) // every bridge reads every share: once is news
	a.psb.learn([]byte(`{"schema":"psbridge_seen","version":1,"src":"a","dst":"b","probe_id":"p","ts":1,"digest":"xyz","bridge":"psbridge-2"}`), say)
	out, err := a.acceptFrom(result, psbridge.InputHTTP, contract.HTTPArchiver)
	if err != nil || out.Status != psbridge.Duplicate {
		t.Fatalf("%+v %v", out, err)
	}
	h := a.Health().PSBridge
	if h.Learnt != 1 || h.BadShares != 1 || h.Accepted != 0 || h.Duplicates != 1 || len(said) != 1 {
		t.Fatalf("health %+v, said %q", *h, said)
	}
	// not yet following the shared topic (Run does): a key converted here is counted unshared
	again, _ := goldenResult(t, "iperf3-udp-50M-loopback")
	if out, err := a.acceptFrom(again, psbridge.InputHTTP, contract.HTTPArchiver); err != nil || out.Status != psbridge.Accepted {
		t.Fatalf("%+v %v", out, err)
	}
	if h := a.Health().PSBridge; h.Unshared != 1 || h.Shared != 0 {
		t.Fatalf("health %+v", *h)
	}
}

func seenKey(t *testing.T, conv psbridge.Converted) string {
	t.Helper()
	k, err := conv.SeenKey()
	if err != nil {
		t.Fatal(err)
	}
	return k
}
