package main

import (
	"bytes"
	"encoding/hex"
	"io"
	"sync"
	"testing"
	"time"
)

// an IPv4 header (ICMP echo 192.168.0.1 → 192.168.0.199, TTL 64) whose checksum 0x519e was
// computed independently (Python, RFC 1071)
var echoHeader, _ = hex.DecodeString("45000054a6f200004001519ec0a80001c0a800c7")

func TestChecksumOfCapturedHeaderIsZeroWhenIncluded(t *testing.T) {
	if got := HeaderChecksum(echoHeader); got != 0 {
		t.Fatalf("checksum over a valid header = %#04x, want 0", got)
	}
}

func TestFixTTLAddsOneAndKeepsChecksumValid(t *testing.T) {
	pkt := append([]byte(nil), echoHeader...)
	FixTTL(pkt)
	if pkt[8] != 65 {
		t.Fatalf("ttl = %d, want 65", pkt[8])
	}
	if HeaderChecksum(pkt[:20]) != 0 {
		t.Fatalf("checksum invalid after FixTTL: % x", pkt[10:12])
	}
}

func TestFixTTLLeavesIPv6AndTTL255Alone(t *testing.T) {
	v6 := []byte{0x60, 0, 0, 0, 0, 8, 17, 64, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}
	orig := append([]byte(nil), v6...)
	FixTTL(v6)
	if !bytes.Equal(v6, orig) {
		t.Fatal("IPv6 packet changed")
	}
	p := append([]byte(nil), echoHeader...)
	p[8] = 255
	before := append([]byte(nil), p...)
	FixTTL(p)
	if !bytes.Equal(p, before) {
		t.Fatal("TTL 255 packet changed")
	}
}

// fakeDev hands out queued packets on Read and records Writes with their time.
type fakeDev struct {
	mu      sync.Mutex
	in      chan []byte
	written [][]byte
	at      []time.Time
}

func (f *fakeDev) Read(b []byte) (int, error) {
	p, ok := <-f.in
	if !ok {
		return 0, io.EOF
	}
	return copy(b, p), nil
}

func (f *fakeDev) Write(b []byte) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.written = append(f.written, append([]byte(nil), b...))
	f.at = append(f.at, time.Now())
	return len(b), nil
}

func TestLineHoldsEachPacketForTheDelayAndKeepsOrder(t *testing.T) {
	dev := &fakeDev{in: make(chan []byte, 10)}
	line := NewLine(dev, 50*time.Millisecond, 16)
	start := time.Now()
	for i := 0; i < 5; i++ {
		p := append([]byte(nil), echoHeader...)
		p[4] = byte(i) // identification: the packet's number
		dev.in <- p
	}
	close(dev.in)
	_ = line.Run() // returns at EOF; the writer keeps draining
	deadline := time.Now().Add(2 * time.Second)
	for {
		dev.mu.Lock()
		n := len(dev.written)
		dev.mu.Unlock()
		if n == 5 || time.Now().After(deadline) {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	dev.mu.Lock()
	defer dev.mu.Unlock()
	if len(dev.written) != 5 {
		t.Fatalf("%d packets released, want 5", len(dev.written))
	}
	for i, p := range dev.written {
		if p[4] != byte(i) {
			t.Fatalf("packet %d released as #%d: order not kept", p[4], i)
		}
		if p[8] != 65 {
			t.Fatalf("packet %d ttl %d, want 65", i, p[8])
		}
		if held := dev.at[i].Sub(start); held < 50*time.Millisecond || held > 150*time.Millisecond {
			t.Fatalf("packet %d held %v, want ≈50ms", i, held)
		}
	}
}

func TestLineDropsWhenQueueIsFull(t *testing.T) {
	dev := &fakeDev{in: make(chan []byte, 10)}
	line := NewLine(dev, time.Hour, 2)
	line.sleep = func(time.Duration) { select {} } // the writer never releases
	for i := 0; i < 6; i++ {
		dev.in <- append([]byte(nil), echoHeader...)
	}
	close(dev.in)
	_ = line.Run()
	// one packet may sit in the writer, two in the queue; the rest are dropped
	if d := line.dropped.Load(); d < 3 || d > 4 {
		t.Fatalf("dropped %d, want 3 or 4 (%s)", d, line.Stats())
	}
}
