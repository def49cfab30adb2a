// Package golden runs a parser over captured tool outputs kept as folders
// testdata/<tool>/<case>/{input.txt|input.json, args.txt, expected.jsonl | error.txt} and
// compares its samples with the expected JSON Lines. Every sample must also validate against
// ingest/schemas. `go test -update` rewrites expected.jsonl from the parser; review the diff by
// eye against the input before committing it.
package golden

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"longhaul/ingest/sample"
	"longhaul/ingest/schema"
	"longhaul/probes/probekit"
)

var update = flag.Bool("update", false, "rewrite testdata expected.jsonl from the parsers' output")

// Case is one folder.
type Case struct {
	Name  string
	Dir   string
	Input []byte
	Args  []string // the flags of `longhaul-probe parse`, from args.txt
}

// Cases lists the case folders of dir (testdata/<tool>).
func Cases(t testing.TB, dir string) []Case {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatalf("golden cases: %v", err)
	}
	var out []Case
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		c := Case{Name: e.Name(), Dir: filepath.Join(dir, e.Name())}
		for _, in := range []string{"input.txt", "input.json"} {
			if b, err := os.ReadFile(filepath.Join(c.Dir, in)); err == nil {
				c.Input = b
			}
		}
		if c.Input == nil {
			t.Fatalf("%s: no input.txt or input.json", c.Dir)
		}
		if b, err := os.ReadFile(filepath.Join(c.Dir, "args.txt")); err == nil {
			c.Args = strings.Fields(string(b))
		}
		out = append(out, c)
	}
	if len(out) == 0 {
		t.Fatalf("no golden cases in %s", dir)
	}
	return out
}

// Meta builds the parser context the way `longhaul-probe parse` does from the same flags:
// --src, --dst, --probe-id (default "import"), --ts (epoch ms); the run id is derived from
// the tool and the input.
func (c Case) Meta(tool string) (probekit.Meta, error) {
	m := probekit.Meta{ProbeID: "import", RunID: probekit.ImportRunID(tool, c.Input)}
	for i := 0; i+1 < len(c.Args); i += 2 {
		v := c.Args[i+1]
		switch c.Args[i] {
		case "--src":
			m.Src = v
		case "--dst":
			m.Dst = v
		case "--probe-id":
			m.ProbeID = v
		case "--ts":
			ms, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				return m, err
			}
			m.Start = time.UnixMilli(ms)
		}
	}
	return m, nil
}

// MustMeta is Meta for cases whose args are known to be well formed; the run id is left
// empty for parsers that find their own.
func (c Case) MustMeta() probekit.Meta {
	m, err := c.Meta("")
	if err != nil {
		panic(err)
	}
	m.RunID = ""
	return m
}

// Parse is a parser under test.
type Parse func(c Case) ([]sample.Sample, error)

// Parser is a tool's importer as `longhaul-probe parse` calls it.
type Parser func(in []byte, m probekit.Meta) ([]sample.Sample, error)

// Tool is the Parse of a tool's importer: the case's Meta for that tool, the run id derived from
// the input.
func Tool(tool string, parse Parser) Parse {
	return func(c Case) ([]sample.Sample, error) {
		m, err := c.Meta(tool)
		if err != nil {
			return nil, err
		}
		return parse(c.Input, m)
	}
}

// PScheduler is the Parse of a pScheduler importer: the run id is left empty, for the message's own.
func PScheduler(parse Parser) Parse {
	return func(c Case) ([]sample.Sample, error) {
		m, err := c.Meta("pscheduler")
		if err != nil {
			return nil, err
		}
		m.RunID = ""
		return parse(c.Input, m)
	}
}

// ImportArgs are the flags the unit tests import a bare input with (`longhaul-probe parse --src a
// --dst b --ts 1325746800000`).
var ImportArgs = []string{"--src", "a", "--dst", "b", "--ts", "1325746800000"}

// First parses in with ImportArgs and returns the first sample, of the type the parser gives.
func First[T sample.Sample](parse Parse, in []byte) (T, error) {
	ss, err := parse(Case{Input: in, Args: ImportArgs})
	if err != nil {
		var none T
		return none, err
	}
	return ss[0].(T), nil
}

// Run checks every case of dir.
func Run(t *testing.T, dir string, parse Parse) {
	reg := Schemas(t)
	for _, c := range Cases(t, dir) {
		t.Run(c.Name, func(t *testing.T) {
			got, err := parse(c)
			errFile := filepath.Join(c.Dir, "error.txt")
			if want, rerr := os.ReadFile(errFile); rerr == nil {
				if err == nil {
					t.Fatalf("want error containing %q, got %d samples", strings.TrimSpace(string(want)), len(got))
				}
				if !strings.Contains(err.Error(), strings.TrimSpace(string(want))) {
					t.Fatalf("error %q does not contain %q", err, strings.TrimSpace(string(want)))
				}
				return
			}
			if err != nil {
				t.Fatalf("parse: %v", err)
			}
			out := Encode(t, reg, got)
			expFile := filepath.Join(c.Dir, "expected.jsonl")
			if *update {
				if err := os.WriteFile(expFile, out, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(expFile)
			if err != nil {
				t.Fatalf("%v (run go test -update, then review the file)", err)
			}
			if !bytes.Equal(out, want) {
				t.Errorf("samples differ from %s\n got:\n%s\nwant:\n%s", expFile, out, want)
			}
		})
	}
}

// Encode writes samples as JSON Lines, failing the test on any sample the schemas refuse.
func Encode(t testing.TB, reg *schema.Registry, ss []sample.Sample) []byte {
	t.Helper()
	var buf bytes.Buffer
	for i, s := range ss {
		b, err := json.Marshal(s)
		if err != nil {
			t.Fatalf("sample %d: %v", i, err)
		}
		if err := reg.Validate(b); err != nil {
			t.Fatalf("sample %d does not validate: %v\n%s", i, err, b)
		}
		buf.Write(b)
		buf.WriteByte('\n')
	}
	return buf.Bytes()
}

var (
	regOnce sync.Once
	reg     *schema.Registry
	regErr  error
)

// Schemas loads ingest/schemas once per test binary.
func Schemas(t testing.TB) *schema.Registry {
	t.Helper()
	regOnce.Do(func() { reg, regErr = schema.Embedded() })
	if regErr != nil {
		t.Fatalf("schemas: %v", regErr)
	}
	return reg
}

// Seeds adds every case input of dir to a fuzz corpus.
func Seeds(f *testing.F, dir string) {
	for _, c := range Cases(f, dir) {
		f.Add(c.Input)
	}
}

// Fuzz is a parser's fuzz target: seeded with every case input of dirs, it parses each input as
// the case of args; an error must pass checkErr (nil: any error will do), the samples must
// validate (CheckAll).
func Fuzz(f *testing.F, parse Parse, args []string, checkErr func(*testing.T, error), dirs ...string) {
	for _, d := range dirs {
		Seeds(f, d)
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		ss, err := parse(Case{Input: in, Args: args})
		if err != nil {
			if checkErr != nil {
				checkErr(t, err)
			}
			return
		}
		CheckAll(t, ss)
	})
}

// ErrorBound fails the test when err's message is longer than MaxErrorLen.
func ErrorBound(t *testing.T, err error) {
	t.Helper()
	if len(err.Error()) > MaxErrorLen {
		t.Fatalf("error of %d bytes", len(err.Error()))
	}
}

// CheckAll fails when a parser returned a sample the schemas refuse: the property every fuzz
// target checks besides not panicking.
func CheckAll(t *testing.T, ss []sample.Sample) {
	t.Helper()
	Encode(t, Schemas(t), ss)
}
