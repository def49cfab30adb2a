// Package schema validates messages against the versioned JSON Schemas of ingest/schemas,
// which every binary carries embedded (package ingest); a folder can be loaded instead.
package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path"
	"strconv"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"longhaul/ingest"
)

// Registry holds every compiled schema, by "<name>.v<version>".
type Registry struct {
	schemas map[string]*jsonschema.Schema
}

// Load compiles every *.schema.json file of dir.
func Load(dir string) (*Registry, error) {
	return LoadFS(os.DirFS(dir), dir)
}

var embedded struct {
	once sync.Once
	reg  *Registry
	err  error
}

// Embedded is the registry of the schemas this binary carries, compiled once.
func Embedded() (*Registry, error) {
	embedded.once.Do(func() { embedded.reg, embedded.err = LoadFS(ingest.Schemas(), "(embedded)") })
	return embedded.reg, embedded.err
}

// LoadFS compiles every *.schema.json file of fsys; where names it in errors.
func LoadFS(fsys fs.FS, where string) (*Registry, error) {
	files, err := fs.Glob(fsys, "*.schema.json")
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no *.schema.json in %s", where)
	}
	c := jsonschema.NewCompiler()
	r := &Registry{schemas: map[string]*jsonschema.Schema{}}
	for _, f := range files {
		name := strings.TrimSuffix(path.Base(f), ".schema.json")
		raw, err := fs.ReadFile(fsys, f)
		if err != nil {
			return nil, err
		}
		f = path.Join(where, f)
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		url := "longhaul:///schemas/" + name + ".schema.json"
		if err := c.AddResource(url, doc); err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		s, err := c.Compile(url)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		r.schemas[name] = s
	}
	return r, nil
}

// Names lists the loaded schemas as "<name>.v<version>".
func (r *Registry) Names() []string {
	out := make([]string, 0, len(r.schemas))
	for n := range r.schemas {
		out = append(out, n)
	}
	return out
}

// ValidateAs checks msg against the named schema ("throughput_sample.v2").
func (r *Registry) ValidateAs(name string, msg []byte) error {
	s, ok := r.schemas[name]
	if !ok {
		return fmt.Errorf("unknown schema %q", name)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(msg))
	if err != nil {
		return fmt.Errorf("not JSON: %w", err)
	}
	return s.Validate(inst)
}

// Validate checks msg against the schema it names in its `schema` and `version` fields.
func (r *Registry) Validate(msg []byte) error {
	var head struct {
		Schema  string `json:"schema"`
		Version int    `json:"version"`
	}
	if err := json.Unmarshal(msg, &head); err != nil {
		return fmt.Errorf("not a JSON object: %w", err)
	}
	if head.Schema == "" || head.Version == 0 {
		return fmt.Errorf("message names no schema and version")
	}
	return r.ValidateAs(Name(head.Schema, head.Version), msg)
}

// Name is the registry's name of a schema's version: "throughput_sample.v2".
func Name(schema string, version int) string {
	return schema + ".v" + strconv.Itoa(version)
}

// Open is the registry of dir, or the embedded one when dir is "".
func Open(dir string) (*Registry, error) {
	if dir == "" {
		return Embedded()
	}
	return Load(dir)
}
