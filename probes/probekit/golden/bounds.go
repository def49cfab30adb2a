package golden

// What a parser may spend on hostile input: a huge line, binary garbage, and allocation per byte
// of text, each bounded (Bounds, MaxAllocPerByte); skipped under -short (Long).

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"longhaul/ingest/sample"
)

// Limits of what a text parser may spend on hostile input (issue 15, item 5).
const (
	HugeInput   = 50 << 20  // bytes of the garbage and single-line inputs
	MaxErrorLen = 1024      // bytes of an error message
	MaxAlloc    = 300 << 20 // bytes allocated while parsing one input
	MaxTime     = 2 * time.Second
)

// Long skips a parser's size and time bounds under `go test -short` (make check, which must stay
// fast and runs beside other work): they feed the parser inputs of tens of MB and bound its CPU
// time, which a loaded machine may miss. `make test-go` runs them.
func Long(t testing.TB) {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: a bound on a parser's time and memory over inputs of tens of MB (make test-go runs it)")
	}
}

// Bounds feeds parse a 50 MB single line, 50 MB of binary garbage in short lines, and
// valid-looking text: unit repeated to about 8 MB followed by one line that is not the tool's
// (valid must make parse read to the end). Each must give an error, within MaxTime of CPU, having
// allocated less than MaxAlloc, with a message under MaxErrorLen that names a line (and,
// for the text, the last one). It returns the bytes allocated per input byte for the
// valid-looking text, for the caller to bound further.
func Bounds(t *testing.T, parse func([]byte) error, unit string) float64 {
	t.Helper()
	Long(t)
	single := bytes.Repeat([]byte("x"), HugeInput)
	garbage := make([]byte, HugeInput)
	seed := uint32(2463534242)
	for i := range garbage {
		seed ^= seed << 13
		seed ^= seed >> 17
		seed ^= seed << 5
		garbage[i] = byte(seed)
		if i%97 == 96 {
			garbage[i] = '\n'
		}
	}
	n := (8 << 20) / len(unit)
	text := append(bytes.Repeat([]byte(unit), n), "this is not tool output\n"...)
	lastLine := "line " + strconv.Itoa(bytes.Count(text, []byte("\n")))
	var perByte float64
	for _, in := range []struct {
		name, want string
		input      []byte
	}{{"50 MB single line", "line 1", single}, {"50 MB garbage", "line ", garbage}, {"8 MB text then garbage", lastLine, text}} {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		start, cpu0 := time.Now(), CPUTime()
		err := parse(in.input)
		wall, took := time.Since(start), CPUTime()-cpu0
		runtime.ReadMemStats(&after)
		alloc := after.TotalAlloc - before.TotalAlloc
		switch {
		case err == nil:
			t.Errorf("%s: no error", in.name)
			continue
		case len(err.Error()) > MaxErrorLen:
			t.Errorf("%s: error of %d bytes: %.200s…", in.name, len(err.Error()), err)
		case !strings.Contains(err.Error(), in.want):
			t.Errorf("%s: error %q does not name %q", in.name, err, in.want)
		}
		if took > MaxTime {
			t.Errorf("%s: took %v of CPU, want < %v", in.name, took, MaxTime)
		}
		if alloc > MaxAlloc {
			t.Errorf("%s: allocated %d MB, want < %d MB", in.name, alloc>>20, MaxAlloc>>20)
		}
		t.Logf("%s: %v (CPU %v), %.1f MB allocated: %.120s", in.name, wall.Round(time.Millisecond), took.Round(time.Millisecond), float64(alloc)/(1<<20), err)
		perByte = float64(alloc) / float64(len(in.input))
	}
	return perByte
}

// MaxAllocPerByte bounds what a text parser allocates per byte of valid-looking text: 50 MB of
// such lines would allocate (not even hold) under 300 MB.
const MaxAllocPerByte = 6

// TextBounds is Bounds for a text parser, each input imported with ImportArgs, whose
// valid-looking text (unit repeated) must also allocate at most MaxAllocPerByte per input byte.
func TextBounds(t *testing.T, parse Parse, unit string) {
	t.Helper()
	perByte := Bounds(t, func(in []byte) error {
		_, err := parse(Case{Input: in, Args: ImportArgs})
		return err
	}, unit)
	if perByte > MaxAllocPerByte {
		t.Errorf("%.1f bytes allocated per input byte: want at most %d", perByte, MaxAllocPerByte)
	}
}

// CPUTime is the CPU the test process has used (user and system, every thread): unlike the
// wall clock it does not grow when other processes load the machine, so the time bound holds
// on a busy CI host.
func CPUTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchInput parses in once per iteration, reporting its bytes (MB/s) and the samples a second it
// yields.
func BenchInput(b *testing.B, in []byte, parse func(in []byte) ([]sample.Sample, error)) {
	b.SetBytes(int64(len(in)))
	b.ResetTimer()
	n := 0
	for i := 0; i < b.N; i++ {
		ss, err := parse(in)
		if err != nil {
			b.Fatal(err)
		}
		n += len(ss)
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "samples/s")
}

// Bench parses every case input of dirs once per iteration, counting their bytes for MB/s.
func Bench(b *testing.B, parse Parse, dirs ...string) {
	var cases []Case
	size := 0
	for _, d := range dirs {
		for _, c := range Cases(b, d) {
			if _, err := os.Stat(filepath.Join(c.Dir, "error.txt")); err == nil {
				continue
			}
			cases = append(cases, c)
			size += len(c.Input)
		}
	}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, c := range cases {
			if _, err := parse(c); err != nil {
				b.Fatalf("%s: %v", c.Name, err)
			}
		}
	}
}
