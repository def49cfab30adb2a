package main

import (
	"bufio"
	"net"
	"path/filepath"
	"testing"
	"time"
)

func TestForwardCarriesAConversationThroughAUnixSocket(t *testing.T) {
	echo, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer echo.Close()
	go func() {
		for {
			c, err := echo.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				line, _ := bufio.NewReader(c).ReadString('\n')
				_, _ = c.Write([]byte("echo " + line))
			}()
		}
	}()
	sock := filepath.Join(t.TempDir(), "fwd.sock")
	front, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	frontAddr := front.Addr().String()
	front.Close()
	go func() { _ = Forward("unix:"+sock, "tcp:"+echo.Addr().String()) }()
	go func() { _ = Forward("tcp:"+frontAddr, "unix:"+sock) }()
	var c net.Conn
	for i := 0; i < 100; i++ {
		if c, err = net.Dial("tcp", frontAddr); err == nil {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(5 * time.Second))
	if _, err := c.Write([]byte("kafka\n")); err != nil {
		t.Fatal(err)
	}
	got, err := bufio.NewReader(c).ReadString('\n')
	if err != nil || got != "echo kafka\n" {
		t.Fatalf("got %q, %v", got, err)
	}
}

func TestSplitAddrRefusesUnknownNetworks(t *testing.T) {
	if _, _, err := splitAddr("udp:1.2.3.4:5"); err == nil {
		t.Fatal("udp accepted")
	}
	if n, a, err := splitAddr("unix:/tmp/x.sock"); err != nil || n != "unix" || a != "/tmp/x.sock" {
		t.Fatalf("unix:/tmp/x.sock → %q %q %v", n, a, err)
	}
}
