package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"sort"
	"strconv"

	"gopkg.in/yaml.v3"
)

// Load reads, decodes, defaults and validates the file at path, as it is. Probe kinds are
// checked against the probe registry; their params are checked by Build.
func Load(path string) (*Config, error) { return LoadWith(path, Options{}) }

// LoadWith is Load with the settings given outside the file (flag > environment > file).
func LoadWith(path string, opt Options) (*Config, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ParseWith(path, raw, opt)
}

// Parse is Load for bytes already read; file names them in errors.
func Parse(file string, raw []byte) (*Config, error) { return ParseWith(file, raw, Options{}) }

// ParseWith is LoadWith for bytes already read.
func ParseWith(file string, raw []byte, opt Options) (*Config, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(raw, &doc); err != nil {
		return nil, Errors{{File: file, Line: lineOf(err.Error()), Msg: err.Error()}}
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return nil, Errors{{File: file, Line: 1, Msg: "empty configuration"}}
	}
	idx := indexNodes(&doc)
	c := &Config{file: file, root: &doc, idx: idx}
	dec := yaml.NewDecoder(bytes.NewReader(raw))
	dec.KnownFields(true)
	if err := dec.Decode(c); err != nil {
		return nil, decodeErrors(file, idx, err)
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		return nil, Errors{{File: file, Line: extra.Line, Msg: "more than one YAML document"}}
	}
	l := &errorList{file: file, idx: idx}
	c.resolveKafka(l, opt)
	c.resolveSecurity(opt)
	applyDefaults(c)
	validate(l, c)
	if err := l.err(); err != nil {
		return nil, err
	}
	return c, nil
}

var (
	lineRE    = regexp.MustCompile(`line (\d+)`)
	typeErrRE = regexp.MustCompile(`^line (\d+): (.*)$`)
	unknownRE = regexp.MustCompile(`^field (\S+) not found in type \S+$`)
)

func lineOf(msg string) int {
	if m := lineRE.FindStringSubmatch(msg); m != nil {
		n, _ := strconv.Atoi(m[1])
		return n
	}
	return 1
}

// decodeErrors turns yaml.v3's "line N: ..." messages into FieldErrors with the field path of
// that line.
func decodeErrors(file string, idx *nodeIndex, err error) error {
	var te *yaml.TypeError
	if !errors.As(err, &te) {
		return Errors{{File: file, Line: lineOf(err.Error()), Msg: err.Error()}}
	}
	out := Errors{}
	for _, e := range te.Errors {
		m := typeErrRE.FindStringSubmatch(e)
		if m == nil {
			out = append(out, FieldError{File: file, Line: 1, Msg: e})
			continue
		}
		line, _ := strconv.Atoi(m[1])
		msg := m[2]
		if u := unknownRE.FindStringSubmatch(msg); u != nil {
			msg = fmt.Sprintf("unknown field %q", u[1])
		}
		out = append(out, FieldError{File: file, Line: line, Path: idx.pathAt(line), Msg: msg})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Line < out[j].Line })
	return out
}
