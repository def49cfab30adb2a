package probekit

import (
	"regexp"
	"strings"
)

// reCommandLine is a command line as a capture shows it: an optional shell prompt ("$ ",
// "# ", "user@host:~$ "), then sudo or `ip netns exec NAME`, then the program (a path to it
// allowed) and its arguments.
var reCommandLine = regexp.MustCompile(`^(?:[\w.@:~/-]*[$#%>] +)?(?:sudo +(?:-\S+ +)*)?(?:ip netns exec \S+ +)?(?:\S*/)?([\w.+-]+)(?: |$)`)

// CommandLine reports whether t, the first line of a saved output, is the command that
// printed it ("$ iperf3 -c host -J", "ping -c 4 host", pScheduler's diagnostics): one of
// programs, the way a capture that begins with its command shows it. Parsers skip it there
// and only there; the output after it is read as usual.
func CommandLine(t string, programs ...string) bool {
	m := reCommandLine.FindStringSubmatch(strings.TrimSpace(t))
	if m == nil {
		return false
	}
	for _, p := range programs {
		if m[1] == p {
			return true
		}
	}
	return false
}
