package main

import (
	"fmt"
	"io"
	"sync/atomic"
	"time"
)

// Line is a delay line: packets read from dev are written back to it delay later, in order.
// The kernel routes a packet into the TUN device (policy routing in the router namespace),
// the line holds it, and writing it back makes the kernel receive it on the device and forward
// it on by the main table. The router thereby decrements TTL twice; the line gives one back
// (FixTTL) so the delay router is one hop in traceroute, like a router at the end of a fibre.
type Line struct {
	dev     io.ReadWriter
	delay   time.Duration
	queue   chan held
	now     func() time.Time
	sleep   func(time.Duration)
	in, out atomic.Uint64
	dropped atomic.Uint64
}

type held struct {
	due time.Time
	pkt []byte
}

func NewLine(dev io.ReadWriter, delay time.Duration, queue int) *Line {
	return &Line{dev: dev, delay: delay, queue: make(chan held, queue), now: time.Now, sleep: time.Sleep}
}

// Run reads packets until the device fails; a writer goroutine releases each at its due time.
func (l *Line) Run() error {
	errc := make(chan error, 1)
	go func() { errc <- l.release() }()
	buf := make([]byte, 65536)
	for {
		n, err := l.dev.Read(buf)
		if err != nil {
			return fmt.Errorf("read: %w", err)
		}
		pkt := make([]byte, n)
		copy(pkt, buf[:n])
		FixTTL(pkt)
		l.in.Add(1)
		select {
		case l.queue <- held{due: l.now().Add(l.delay), pkt: pkt}:
		case err := <-errc:
			return err
		default:
			l.dropped.Add(1)
		}
	}
}

func (l *Line) release() error {
	for h := range l.queue {
		if wait := h.due.Sub(l.now()); wait > 0 {
			l.sleep(wait)
		}
		if _, err := l.dev.Write(h.pkt); err != nil {
			return fmt.Errorf("write: %w", err)
		}
		l.out.Add(1)
	}
	return nil
}

// Stats is one line for the log: packets in, out, dropped because the queue was full.
func (l *Line) Stats() string {
	return fmt.Sprintf("delay line: %d packets in, %d out, %d dropped (queue full)", l.in.Load(), l.out.Load(), l.dropped.Load())
}

// FixTTL adds one to an IPv4 packet's TTL (and fixes the header checksum), undoing the
// extra decrement of the second pass through the router. Other packets are left alone.
func FixTTL(pkt []byte) {
	if len(pkt) < 20 || pkt[0]>>4 != 4 {
		return
	}
	ihl := int(pkt[0]&0x0f) * 4
	if ihl < 20 || len(pkt) < ihl || pkt[8] == 255 {
		return
	}
	pkt[8]++
	pkt[10], pkt[11] = 0, 0
	sum := HeaderChecksum(pkt[:ihl])
	pkt[10], pkt[11] = byte(sum>>8), byte(sum)
}

// HeaderChecksum is the Internet checksum (RFC 1071) of an IPv4 header.
func HeaderChecksum(h []byte) uint16 {
	var s uint32
	for i := 0; i+1 < len(h); i += 2 {
		s += uint32(h[i])<<8 | uint32(h[i+1])
	}
	for s>>16 != 0 {
		s = s&0xffff + s>>16
	}
	return ^uint16(s)
}
