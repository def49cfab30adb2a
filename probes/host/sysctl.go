package host

import (
	"fmt"
	"io/fs"
	"strconv"
	"strings"
)

// The sysctls of a snapshot, as paths under the file system root.
const (
	pathRmem      = "proc/sys/net/ipv4/tcp_rmem"
	pathWmem      = "proc/sys/net/ipv4/tcp_wmem"
	pathRmemMax   = "proc/sys/net/core/rmem_max"
	pathWmemMax   = "proc/sys/net/core/wmem_max"
	pathScaling   = "proc/sys/net/ipv4/tcp_window_scaling"
	pathCC        = "proc/sys/net/ipv4/tcp_congestion_control"
	pathCCAvail   = "proc/sys/net/ipv4/tcp_available_congestion_control"
	sysClassNet   = "sys/class/net"
	maxSysctlSize = 4096
)

// Tuning is the sender's TCP buffer and congestion-control settings.
type Tuning struct {
	Rmem, Wmem        [3]int64
	RmemMax, WmemMax  int64
	WindowScaling     *bool
	Congestion        string
	AvailableCongCtrl []string
}

// ReadTuning reads the sysctls from fsys (the host's / in production). The buffer sizes and
// the congestion control are required; window scaling and the available list are optional
// (containers may hide them).
func ReadTuning(fsys fs.FS) (*Tuning, error) {
	var t Tuning
	var err error
	if t.Rmem, err = triple(fsys, pathRmem); err != nil {
		return nil, err
	}
	if t.Wmem, err = triple(fsys, pathWmem); err != nil {
		return nil, err
	}
	if t.RmemMax, err = single(fsys, pathRmemMax); err != nil {
		return nil, err
	}
	if t.WmemMax, err = single(fsys, pathWmemMax); err != nil {
		return nil, err
	}
	cc, err := read(fsys, pathCC)
	if err != nil {
		return nil, err
	}
	if t.Congestion = strings.TrimSpace(cc); t.Congestion == "" {
		return nil, fmt.Errorf("%s: empty", pathCC)
	}
	if v, err := single(fsys, pathScaling); err == nil {
		on := v != 0
		t.WindowScaling = &on
	}
	if avail, err := read(fsys, pathCCAvail); err == nil {
		t.AvailableCongCtrl = strings.Fields(avail)
	}
	return &t, nil
}

func read(fsys fs.FS, path string) (string, error) {
	f, err := fsys.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	buf := make([]byte, maxSysctlSize)
	n, err := f.Read(buf)
	if n == 0 && err != nil {
		return "", fmt.Errorf("%s: %v", path, err)
	}
	return string(buf[:n]), nil
}

func single(fsys fs.FS, path string) (int64, error) {
	s, err := read(fsys, path)
	if err != nil {
		return 0, err
	}
	v, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil || v < 0 {
		return 0, fmt.Errorf("%s: %q is not a non-negative integer", path, strings.TrimSpace(s))
	}
	return v, nil
}

func triple(fsys fs.FS, path string) ([3]int64, error) {
	var out [3]int64
	s, err := read(fsys, path)
	if err != nil {
		return out, err
	}
	f := strings.Fields(s)
	if len(f) != 3 {
		return out, fmt.Errorf("%s: %q is not three numbers (min default max)", path, strings.TrimSpace(s))
	}
	for i, x := range f {
		v, err := strconv.ParseInt(x, 10, 64)
		if err != nil || v < 0 {
			return out, fmt.Errorf("%s: %q is not a non-negative integer", path, x)
		}
		out[i] = v
	}
	return out, nil
}

// interfaceMTU reads /sys/class/net/<dev>/mtu; dev must be a plain interface name.
func interfaceMTU(fsys fs.FS, dev string) (int64, error) {
	if !ifNameOK(dev) {
		return 0, fmt.Errorf("interface name %q refused", dev)
	}
	return single(fsys, sysClassNet+"/"+dev+"/mtu")
}
