package agent

import (
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"syscall"
)

// descriptorsKept are the file descriptors the bridge keeps from its connections' share of the
// process's limit: the spool's segments, the Kafka clients, token files, logs.
const descriptorsKept = 512

// connLimit bounds the bridge's open connections below the process's file descriptors, so the
// spool and the token files always have some: at 1,000 simulated pScheduler hosts (25 connections
// each kept alive) the bridge held 19,989 sockets of its 20,000 descriptors, could no longer open a
// spool segment, and answered 1.58 million posts 429 (issue 45, docs/benchmarks.md, The knee).
//
// Past high open connections the server stops keeping them alive (idle ones are closed at once,
// and each answer closes its connection) until fewer than three quarters of high are open;
// at max, Accept waits for one to close (the kernel's backlog holds the new ones, and an archiver
// whose connection times out retries by its policy).
type connLimit struct {
	net.Listener
	srv       *http.Server
	slots     chan struct{} // one per open connection, max of them
	high      int64
	open      atomic.Int64
	keepAlive atomic.Bool   // no lock: shedding closes idle connections, which calls closed
	shed      atomic.Uint64 // times keep-alives were turned off
}

// processConnMax is the connections this process may hold: its open-files limit less
// descriptorsKept (keep-alives off past 80 % of that).
func processConnMax() int {
	var r syscall.Rlimit
	limit := uint64(4096) // if the limit cannot be read
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &r); err == nil {
		limit = r.Cur
	}
	return connMax(limit)
}

// connMax is the connections a process with limit descriptors may hold: limit less
// descriptorsKept, at least 64 (a limit that small is a misconfiguration the bridge still serves).
func connMax(limit uint64) int {
	if limit <= descriptorsKept+64 {
		return 64
	}
	return int(min(limit-descriptorsKept, 1<<20))
}

func newConnLimit(ln net.Listener, srv *http.Server, most int) *connLimit {
	l := &connLimit{Listener: ln, srv: srv, slots: make(chan struct{}, most), high: int64(most) * 4 / 5}
	l.keepAlive.Store(true)
	return l
}

// Accept waits for a free slot, then for a connection.
func (l *connLimit) Accept() (net.Conn, error) {
	l.slots <- struct{}{}
	c, err := l.Listener.Accept()
	if err != nil {
		<-l.slots
		return nil, err
	}
	l.opened()
	return &limitedConn{Conn: c, l: l}, nil
}

func (l *connLimit) opened() {
	if l.open.Add(1) >= l.high && l.keepAlive.CompareAndSwap(true, false) {
		l.shed.Add(1)
		l.srv.SetKeepAlivesEnabled(false) // also closes the idle ones
	}
}

func (l *connLimit) closed() {
	n := l.open.Add(-1)
	<-l.slots
	if n < l.high*3/4 && l.keepAlive.CompareAndSwap(false, true) {
		l.srv.SetKeepAlivesEnabled(true)
	}
}

// Stats are the open connections, the most that may be open, and how often keep-alives were shed.
func (l *connLimit) Stats() (open int64, most int, shed uint64) {
	return l.open.Load(), cap(l.slots), l.shed.Load()
}

// limitedConn gives its slot back once, however often it is closed.
type limitedConn struct {
	net.Conn
	l    *connLimit
	once sync.Once
}

func (c *limitedConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.l.closed)
	return err
}
