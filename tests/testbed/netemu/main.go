// longhaul-netemu: the testbed's userspace network pieces (netem is not available here).
//
//	longhaul-netemu delay -dev NAME -ms D     a delay line on a TUN device: every packet the
//	                                          kernel routes into NAME comes back out of it D ms later
//	longhaul-netemu forward -listen A -connect B
//	                                          a TCP/unix stream forwarder (tcp:HOST:PORT or unix:PATH),
//	                                          so agents in sender namespaces reach Kafka in the root one
package main

import (
	"flag"
	"fmt"
	"log"
	"os"
	"os/signal"
	"syscall"
	"time"
)

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	log.SetFlags(log.LstdFlags | log.Lmicroseconds)
	switch os.Args[1] {
	case "delay":
		fs := flag.NewFlagSet("delay", flag.ExitOnError)
		dev := fs.String("dev", "", "TUN device to create (or attach to)")
		ms := fs.Float64("ms", 0, "one-way delay added to every packet, milliseconds")
		queue := fs.Int("queue", 1<<16, "packets held at most (more are dropped, like a full fibre buffer)")
		_ = fs.Parse(os.Args[2:])
		if *dev == "" || *ms < 0 {
			usage()
		}
		tun, err := OpenTUN(*dev)
		if err != nil {
			log.Fatalf("delay: %v", err)
		}
		d := time.Duration(*ms * float64(time.Millisecond))
		log.Printf("delay line on %s: %v per packet, queue %d", *dev, d, *queue)
		line := NewLine(tun, d, *queue)
		go exitOnSignal(line.Stats)
		if err := line.Run(); err != nil {
			log.Fatalf("delay: %v", err)
		}
	case "forward":
		fs := flag.NewFlagSet("forward", flag.ExitOnError)
		listen := fs.String("listen", "", "tcp:HOST:PORT or unix:PATH")
		connect := fs.String("connect", "", "tcp:HOST:PORT or unix:PATH")
		_ = fs.Parse(os.Args[2:])
		if *listen == "" || *connect == "" {
			usage()
		}
		go exitOnSignal(func() string { return "" })
		log.Fatalf("forward: %v", Forward(*listen, *connect))
	default:
		usage()
	}
}

func exitOnSignal(stats func() string) {
	c := make(chan os.Signal, 1)
	signal.Notify(c, syscall.SIGTERM, syscall.SIGINT)
	<-c
	if s := stats(); s != "" {
		log.Print(s)
	}
	os.Exit(0)
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: longhaul-netemu delay -dev NAME -ms D [-queue N] | forward -listen ADDR -connect ADDR")
	os.Exit(2)
}
