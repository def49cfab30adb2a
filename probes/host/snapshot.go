package host

import (
	"context"
	"fmt"
	"io/fs"
	"net"
	"os"

	"longhaul/ingest/sample"
	"longhaul/probes/probe"
	"longhaul/probes/probekit"
)

// Snapshotter takes host snapshots: the sysctls from FS, the egress interface towards the
// target from `ip -o route get ADDR` and its MTU from /sys/class/net/<dev>/mtu.
type Snapshotter struct {
	FS     fs.FS      // the host's root directory
	Exec   probe.Exec // runs ip
	Lookup func(ctx context.Context, host string) ([]string, error)
	Route  bool // also look up the egress interface and its MTU
}

// NewSnapshotter reads the real host through exec.
func NewSnapshotter(exec probe.Exec) Snapshotter {
	return Snapshotter{FS: os.DirFS("/"), Exec: exec, Lookup: net.DefaultResolver.LookupHost, Route: true}
}

// Take builds the snapshot of this host towards m.Target at ts; runID links it to the
// throughput run it accompanies (nil for a snapshot of its own). The interface and MTU are
// left out when the route cannot be found; an unreadable sysctl is an error: a snapshot
// without the buffer sizes says nothing.
func (s Snapshotter) Take(ctx context.Context, m probekit.Meta, ts int64, runID *string) (*sample.Host, error) {
	t, err := ReadTuning(s.FS)
	if err != nil {
		return nil, err
	}
	h := sample.NewHost(m.Src, m.Dst, m.ProbeID, ts)
	h.RunID = runID
	h.TCPRmem, h.TCPWmem = t.Rmem, t.Wmem
	h.RmemMax, h.WmemMax = t.RmemMax, t.WmemMax
	h.WindowScaling = t.WindowScaling
	h.CongestionControl = t.Congestion
	h.AvailableCongestionControl = t.AvailableCongCtrl
	if s.Route && m.Target != "" {
		if dev, err := s.egress(ctx, m.Target); err == nil {
			h.Interface = sample.Str(dev)
			if mtu, err := interfaceMTU(s.FS, dev); err == nil && mtu >= 68 {
				h.MTU = sample.I64(mtu)
			}
		}
	}
	return h, nil
}

// egress asks the kernel which interface packets to target leave by.
func (s Snapshotter) egress(ctx context.Context, target string) (string, error) {
	if err := probekit.CheckTarget(target); err != nil {
		return "", err
	}
	addr := target
	if net.ParseIP(target) == nil {
		if s.Lookup == nil {
			return "", fmt.Errorf("no resolver for %q", target)
		}
		addrs, err := s.Lookup(ctx, target)
		if err != nil || len(addrs) == 0 || net.ParseIP(addrs[0]) == nil {
			return "", fmt.Errorf("resolving %q: %v", target, err)
		}
		addr = addrs[0]
	}
	out, _, err := s.Exec(ctx, RouteArgv(addr))
	if err != nil {
		return "", err
	}
	return ParseRouteGet(out)
}

// RouteArgv is the route query for an address (never a name: ip does not resolve).
func RouteArgv(addr string) []string { return []string{RouteTool, "-o", "route", "get", addr} }

// RouteTool is the program a snapshot runs (only with Route), looked up on PATH.
const RouteTool = "ip"

// Tools names the programs Take runs: ip with Route, else none. Without ip a snapshot is
// still taken, with a null interface and MTU.
func (s Snapshotter) Tools() []probe.Tool {
	if s.Route {
		return []probe.Tool{{Name: RouteTool, Without: "host snapshots carry no interface or MTU"}}
	}
	return nil
}
