package agent

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync/atomic"
	"testing"
	"time"
)

func TestConnMaxKeepsDescriptorsForTheSpool(t *testing.T) {
	for _, c := range []struct {
		limit uint64
		want  int
	}{{20000, 19488}, {1024, 512}, {100, 64}, {1 << 40, 1 << 20}} {
		if got := connMax(c.limit); got != c.want {
			t.Errorf("connMax(%d) = %d, want %d", c.limit, got, c.want)
		}
	}
}

// askConn asks for / on c and returns the answer's Connection header ("close" when the server will
// not keep c alive).
func askConn(t *testing.T, c net.Conn) string {
	t.Helper()
	c.SetDeadline(time.Now().Add(5 * time.Second))
	fmt.Fprintf(c, "GET / HTTP/1.1\r\nHost: bridge\r\n\r\n")
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.Header.Get("Connection")
}

func dial(t *testing.T, addr net.Addr) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", addr.String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func TestNearTheLimitIdleConnectionsAreClosedThenKeptAliveAgainBelowIt(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var idleNow atomic.Int64
	srv := &http.Server{
		Handler: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.Write([]byte("ok")) }),
		ConnState: func(_ net.Conn, s http.ConnState) {
			if s == http.StateIdle {
				idleNow.Add(1)
			}
		},
	}
	l := newConnLimit(ln, srv, 5) // keep-alives off from 4 open, on again below 3
	go srv.Serve(l)
	defer srv.Close()
	var idle []net.Conn
	for i := range 3 {
		c := dial(t, ln.Addr())
		if h := askConn(t, c); h != "" {
			t.Fatalf("connection %d of 3: Connection %q, want kept alive", i+1, h)
		}
		idle = append(idle, c)
	}
	// the server counts them idle only after its answer is written: wait for that
	deadline := time.Now().Add(5 * time.Second)
	for idleNow.Load() < 3 {
		if time.Now().After(deadline) {
			t.Fatalf("%d of 3 connections idle", idleNow.Load())
		}
		time.Sleep(5 * time.Millisecond)
	}
	askConn(t, dial(t, ln.Addr())) // the fourth: shed
	if _, _, shed := l.Stats(); shed != 1 {
		t.Fatalf("keep-alives shed %d times, want 1", shed)
	}
	for i, c := range idle {
		c.SetReadDeadline(time.Now().Add(5 * time.Second))
		if n, err := c.Read(make([]byte, 1)); !errors.Is(err, io.EOF) {
			t.Fatalf("idle connection %d: read %d bytes, %v; want it closed by the server", i+1, n, err)
		}
	}
	// the three closed: at most the fourth is open (kept alive if it was answered after they went)
	deadline = time.Now().Add(5 * time.Second)
	for open, _, _ := l.Stats(); open > 1; open, _, _ = l.Stats() {
		if time.Now().After(deadline) {
			t.Fatalf("%d connections still open after shedding keep-alives", open)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if h := askConn(t, dial(t, ln.Addr())); h != "" {
		t.Fatalf("below the mark again: Connection %q, want kept alive", h)
	}
}

func TestAtTheLimitAcceptWaitsForAConnectionToClose(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	l := newConnLimit(ln, &http.Server{}, 2)
	defer l.Close()
	accepted := make(chan net.Conn, 3)
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			accepted <- c
		}
	}()
	for range 3 {
		dial(t, ln.Addr())
	}
	first := <-accepted
	<-accepted
	select {
	case <-accepted:
		t.Fatal("a third connection was accepted with 2 open and a limit of 2")
	case <-time.After(200 * time.Millisecond):
	}
	first.Close()
	first.Close() // its slot is given back once
	select {
	case c := <-accepted:
		c.Close()
	case <-time.After(5 * time.Second):
		t.Fatal("the third connection was not accepted after one closed")
	}
	if open, most, _ := l.Stats(); open != 1 || most != 2 {
		t.Fatalf("open %d of %d, want 1 of 2", open, most)
	}
}
