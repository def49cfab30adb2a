package probekit

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os/exec"
	"strings"
	"unicode/utf8"

	"longhaul/ingest/sample"
)

// classes maps phrases tools print to error classes, most specific first: the first phrase
// found in the (lower-cased) message decides. Phrases come from iperf3, iperf2, traceroute and
// iputils ping as captured in the probes' testdata.
var classes = []struct {
	phrase string
	class  sample.ErrorClass
}{
	{"connection refused", sample.ErrConnectionRefused},
	{"server is busy", sample.ErrServerBusy},
	{"timed out", sample.ErrTimeout},
	{"timeout", sample.ErrTimeout},
	{"name or service not known", sample.ErrDNS},
	{"temporary failure in name resolution", sample.ErrDNS},
	{"no address associated with hostname", sample.ErrDNS},
	{"unknown host", sample.ErrDNS},
	{"could not resolve", sample.ErrDNS},
	{"nodename nor servname", sample.ErrDNS},
	{"bad address '", sample.ErrDNS}, // BusyBox ping and traceroute: bad address 'name'
	{"cannot resolve", sample.ErrDNS},
	{"no route to host", sample.ErrNoRoute},
	{"network is unreachable", sample.ErrNoRoute},
	{"net unreachable", sample.ErrNoRoute},
	{"host unreachable", sample.ErrHostUnreachable},
	// ICMP destination unreachable, code 13 (ping prints "Packet filtered"): the schemas have
	// no class of its own for an administrative block, it is the destination-unreachable family.
	{"packet filtered", sample.ErrHostUnreachable},
	{"administratively prohibited", sample.ErrHostUnreachable},
	// ICMP time exceeded in answer to a ping: the packets die on the way (a routing loop, or a
	// path longer than the TTL) — the destination has no working route, the tool worked.
	{"time to live exceeded", sample.ErrNoRoute},
}

// Classify names the error class of a tool's error message; tool_failed when nothing matches.
func Classify(msg string) sample.ErrorClass {
	m := strings.ToLower(msg)
	for _, c := range classes {
		if strings.Contains(m, c.phrase) {
			return c.class
		}
	}
	return sample.ErrToolFailed
}

// RunError builds the error of a run from a message, classifying it.
func RunError(msg string) *sample.RunError {
	return &sample.RunError{Class: Classify(msg), Message: Message(msg)}
}

// ExecFailure explains a tool run that produced nothing usable: the tool is missing, the run
// timed out or was cancelled, or the tool failed (its stderr says why).
func ExecFailure(ctx context.Context, tool string, err error, stderr []byte) *sample.RunError {
	text := strings.TrimSpace(string(stderr))
	switch {
	case err != nil && (errors.Is(err, exec.ErrNotFound) || errors.Is(err, fs.ErrNotExist)):
		return &sample.RunError{Class: sample.ErrToolMissing, Message: Message(fmt.Sprintf("%s: %v", tool, err))}
	case ctx != nil && errors.Is(ctx.Err(), context.DeadlineExceeded):
		return &sample.RunError{Class: sample.ErrTimeout, Message: Message(joinMsg(tool+" run exceeded its timeout", text))}
	case ctx != nil && errors.Is(ctx.Err(), context.Canceled):
		return &sample.RunError{Class: sample.ErrOther, Message: Message(joinMsg(tool+" run cancelled (the agent is stopping)", text))}
	case text != "":
		return RunError(text)
	case err != nil:
		return &sample.RunError{Class: sample.ErrToolFailed, Message: Message(fmt.Sprintf("%s: %v", tool, err))}
	}
	return &sample.RunError{Class: sample.ErrToolFailed, Message: tool + " printed nothing"}
}

func joinMsg(a, b string) string {
	if b == "" {
		return a
	}
	return a + ": " + b
}

// maxMessage is the schemas' maxLength of error.message.
const maxMessage = 2000

// Message trims a tool's message to what the schemas accept, on a character boundary.
func Message(s string) string {
	s = strings.TrimSpace(strings.ToValidUTF8(s, "?"))
	if len(s) <= maxMessage {
		return s
	}
	cut := maxMessage - len("…")
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
