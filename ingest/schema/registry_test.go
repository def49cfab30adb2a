package schema

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The same example files are loaded by the Python (ingest/tests) and Java (flink-jobs) tests.
const schemasDir = "../../ingest/schemas"

func examples(t *testing.T, validity string) map[string][]string {
	t.Helper()
	dirs, err := filepath.Glob(filepath.Join(schemasDir, "examples", "*"))
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no example folders: %v", err)
	}
	out := map[string][]string{}
	for _, d := range dirs {
		files, _ := filepath.Glob(filepath.Join(d, validity, "*.json"))
		out[filepath.Base(d)] = files
	}
	return out
}

func TestValidExamplesValidate(t *testing.T) {
	reg, err := Load(schemasDir)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for name, files := range examples(t, "valid") {
		for _, f := range files {
			raw, _ := os.ReadFile(f)
			if err := reg.ValidateAs(name, raw); err != nil {
				t.Errorf("%s: %v", f, err)
			}
			if err := reg.Validate(raw); err != nil {
				t.Errorf("%s by its own schema field: %v", f, err)
			}
			n++
		}
	}
	if n < 10 {
		t.Fatalf("only %d valid examples", n)
	}
}

func TestInvalidExamplesAreRejected(t *testing.T) {
	reg, err := Load(schemasDir)
	if err != nil {
		t.Fatal(err)
	}
	for name, files := range examples(t, "invalid") {
		if len(files) == 0 {
			t.Errorf("%s has no invalid example", name)
		}
		for _, f := range files {
			raw, _ := os.ReadFile(f)
			if err := reg.ValidateAs(name, raw); err == nil {
				t.Errorf("%s: accepted, want rejected", f)
			}
		}
	}
}

func TestValidateRejectsMessageWithoutSchema(t *testing.T) {
	reg, err := Load(schemasDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, msg := range []string{`{"src":"a"}`, `not json`, `{"schema":"nope","version":1}`} {
		if err := reg.Validate([]byte(msg)); err == nil {
			t.Errorf("%s: accepted", msg)
		}
	}
}

func TestLoadNamesEverySchema(t *testing.T) {
	reg, err := Load(schemasDir)
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(schemasDir, "*.schema.json"))
	var want []string
	for _, f := range files {
		want = append(want, strings.TrimSuffix(filepath.Base(f), ".schema.json"))
	}
	got := slices.Sorted(slices.Values(reg.Names()))
	if len(want) < 16 || !slices.Equal(got, want) {
		t.Errorf("names %v, want one a schema file: %v", got, want)
	}
}

func TestTheEmbeddedSchemasAreTheFolders(t *testing.T) {
	emb, err := Embedded()
	if err != nil {
		t.Fatal(err)
	}
	dir, err := Load(schemasDir)
	if err != nil {
		t.Fatal(err)
	}
	a, b := emb.Names(), dir.Names()
	slices.Sort(a)
	slices.Sort(b)
	if !slices.Equal(a, b) || len(a) < 10 {
		t.Fatalf("embedded %v, folder %v", a, b)
	}
	if r, err := Open(""); err != nil || r != emb {
		t.Fatalf("Open(\"\") is not the embedded registry: %v", err)
	}
}
