// Package udplog writes a long iperf 2 UDP server log, for the parser's memory test and benchmark
// (docs/benchmarks.md): a log nobody would commit, made on demand.
package udplog

import (
	"fmt"
	"strings"
)

// ServerLog is an iperf 2 UDP server's log of n one-second intervals, each followed by
// its "datagrams received out-of-order" line (as a server receiving over a path that reorders
// prints them, seed004-oplapro73-udp-server-out-of-order), then the final row and its own.
func ServerLog(n int) []byte {
	var b strings.Builder
	b.Grow(n * 150)
	b.WriteString("------------------------------------------------------------\nServer listening on UDP port 5001\nReceiving 1470 byte datagrams\nUDP buffer size: 2.00 MByte (default)\n------------------------------------------------------------\n")
	b.WriteString("[  3] local 10.0.0.1 port 5001 connected with 10.0.0.2 port 32769\n")
	for i := 0; i < n; i++ {
		lost := i % 200
		fmt.Fprintf(&b, "[  3] %4d.0-%4d.0 sec    114 MBytes    955 Mbits/sec  0.015 ms  %d/81365 (%.2g%%)\n", i, i+1, lost, float64(lost)*100/81365)
		fmt.Fprintf(&b, "[  3] %4d.0-%4d.0 sec  %d datagrams received out-of-order\n", i, i+1, i%9)
	}
	fmt.Fprintf(&b, "[  3]  0.0-%d.0 sec  %d MBytes    953 Mbits/sec  0.019 ms 7299/%d (0.3%%)\n", n, 114*n, 81365*n)
	fmt.Fprintf(&b, "[  3]  0.0-%d.0 sec  %d datagrams received out-of-order\n", n, 4*n)
	return []byte(b.String())
}
