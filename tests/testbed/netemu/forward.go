package main

import (
	"fmt"
	"io"
	"log"
	"net"
	"os"
	"strings"
)

// Forward accepts on listen and copies each connection both ways to a new connection to
// connect. Addresses are tcp:HOST:PORT or unix:PATH (a stale unix socket file is replaced). It
// runs until it cannot listen or accept, and returns why (never nil).
func Forward(listen, connect string) error {
	lnet, laddr, err := splitAddr(listen)
	if err != nil {
		return err
	}
	cnet, caddr, err := splitAddr(connect)
	if err != nil {
		return err
	}
	if lnet == "unix" {
		_ = os.Remove(laddr)
	}
	ln, err := net.Listen(lnet, laddr)
	if err != nil {
		return err
	}
	log.Printf("forwarding %s → %s", listen, connect)
	for {
		c, err := ln.Accept()
		if err != nil {
			return err
		}
		go pipe(c, cnet, caddr)
	}
}

func pipe(c net.Conn, network, addr string) {
	defer c.Close()
	up, err := net.Dial(network, addr)
	if err != nil {
		log.Printf("forward: dial %s: %v", addr, err)
		return
	}
	defer up.Close()
	done := make(chan struct{}, 2)
	cp := func(dst, src net.Conn) {
		_, _ = io.Copy(dst, src)
		if cw, ok := dst.(interface{ CloseWrite() error }); ok {
			_ = cw.CloseWrite()
		}
		done <- struct{}{}
	}
	go cp(up, c)
	go cp(c, up)
	<-done
	<-done
}

func splitAddr(a string) (network, addr string, err error) {
	network, addr, ok := strings.Cut(a, ":")
	if !ok || (network != "tcp" && network != "unix") || addr == "" {
		return "", "", fmt.Errorf("address %q: want tcp:HOST:PORT or unix:PATH", a)
	}
	return network, addr, nil
}
