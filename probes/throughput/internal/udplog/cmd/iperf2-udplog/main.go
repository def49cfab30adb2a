// Command iperf2-udplog writes an iperf 2 UDP server log of N one-second intervals to FILE, for
// measuring `longhaul-probe parse` on it (docs/benchmarks.md):
//
//	go run ./probes/throughput/internal/udplog/cmd/iperf2-udplog FILE [N]   (N: 300000)
package main

import (
	"fmt"
	"os"
	"strconv"

	"longhaul/probes/throughput/internal/udplog"
)

func main() {
	if len(os.Args) < 2 || len(os.Args) > 3 {
		fmt.Fprintln(os.Stderr, "usage: iperf2-udplog FILE [INTERVALS]")
		os.Exit(2)
	}
	n := 300000
	if len(os.Args) == 3 {
		v, err := strconv.Atoi(os.Args[2])
		if err != nil || v < 1 || v > 10_000_000 {
			fmt.Fprintf(os.Stderr, "iperf2-udplog: INTERVALS %q: a whole number from 1 to 10000000\n", os.Args[2])
			os.Exit(2)
		}
		n = v
	}
	if err := os.WriteFile(os.Args[1], udplog.ServerLog(n), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "iperf2-udplog:", err)
		os.Exit(1)
	}
}
