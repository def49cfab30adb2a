package throughput

import (
	"strconv"
	"time"

	"longhaul/probes/probekit"
)

// Tool is the program a throughput run executes, looked up on PATH.
const Tool = "iperf3"

// Argv is the iperf3 client command for params p against target, run without a shell. The
// target is checked first: one starting with '-' would be read as an option.
func Argv(p Params, target string) ([]string, error) {
	if err := probekit.CheckTarget(target); err != nil {
		return nil, err
	}
	argv := []string{Tool, "-c", target, "-J",
		"-p", strconv.Itoa(p.Port),
		"-t", strconv.Itoa(int(p.Duration.D() / time.Second)),
		"-P", strconv.Itoa(p.Streams),
	}
	if p.Omit > 0 {
		argv = append(argv, "-O", strconv.Itoa(int(p.Omit.D()/time.Second)))
	}
	if ct := p.ConnectTimeout.D(); ct > 0 {
		argv = append(argv, "--connect-timeout", strconv.FormatInt(ct.Milliseconds(), 10))
	}
	if p.Protocol == "udp" {
		argv = append(argv, "-u")
	}
	if p.Bitrate != nil {
		argv = append(argv, "-b", strconv.FormatInt(int64(*p.Bitrate), 10))
	}
	if p.Window > 0 {
		argv = append(argv, "-w", strconv.FormatInt(int64(p.Window), 10))
	}
	if p.Congestion != "" && p.Protocol == "tcp" {
		argv = append(argv, "-C", p.Congestion)
	}
	if p.Reverse {
		argv = append(argv, "-R")
	}
	return argv, nil
}
