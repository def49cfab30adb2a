package probekit

import (
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"
)

// DecodeParams decodes a probe's `params` mapping into dst, a pointer to a struct whose fields
// carry `yaml` tags and already hold the defaults. A missing or empty node leaves the defaults.
// Unknown and repeated fields are refused; every error names the field ("window: …"), and the
// config loader adds file and line.
func DecodeParams(node *yaml.Node, dst any) error {
	if node == nil || node.Kind == 0 {
		return nil
	}
	if node.Kind == yaml.DocumentNode && len(node.Content) == 1 {
		node = node.Content[0]
	}
	if node.Kind == yaml.ScalarNode && node.Tag == "!!null" {
		return nil
	}
	if node.Kind != yaml.MappingNode {
		return fmt.Errorf("params: must be a mapping of field: value")
	}
	v := reflect.ValueOf(dst)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		return fmt.Errorf("DecodeParams: dst must point to a struct")
	}
	fields := fieldsByTag(v.Elem())
	seen := map[string]bool{}
	for i := 0; i+1 < len(node.Content); i += 2 {
		k, val := node.Content[i], node.Content[i+1]
		name := k.Value
		f, ok := fields[name]
		if !ok {
			return fmt.Errorf("%s: unknown field (known: %s)", name, strings.Join(sortedKeys(fields), ", "))
		}
		if seen[name] {
			return fmt.Errorf("%s: given twice", name)
		}
		seen[name] = true
		if err := val.Decode(f.Addr().Interface()); err != nil {
			return fmt.Errorf("%s: %s", name, explain(err, val, f.Type()))
		}
	}
	return nil
}

func fieldsByTag(s reflect.Value) map[string]reflect.Value {
	out := map[string]reflect.Value{}
	t := s.Type()
	for i := 0; i < t.NumField(); i++ {
		tag := strings.Split(t.Field(i).Tag.Get("yaml"), ",")[0]
		if tag == "" || tag == "-" || !t.Field(i).IsExported() {
			continue
		}
		out[tag] = s.Field(i)
	}
	return out
}

func sortedKeys(m map[string]reflect.Value) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// explain turns yaml.v3's type errors into a message about the value; errors of our own
// UnmarshalYAML methods are already phrased for the user.
func explain(err error, val *yaml.Node, t reflect.Type) string {
	var te *yaml.TypeError
	if !errors.As(err, &te) {
		return err.Error()
	}
	want := t.Kind().String()
	switch t.Kind() {
	case reflect.Int, reflect.Int64, reflect.Int32:
		want = "an integer"
	case reflect.Bool:
		want = "true or false"
	case reflect.String:
		want = "a string"
	case reflect.Slice:
		want = "a list"
	case reflect.Float64:
		want = "a number"
	}
	if val.Kind != yaml.ScalarNode {
		return fmt.Sprintf("want %s", want)
	}
	return fmt.Sprintf("invalid value %q (want %s)", val.Value, want)
}

// DecodeChecked is a kind's params: defaults with node decoded over them (DecodeParams), then
// checked by their Check; errors name the field.
func DecodeChecked[T any, PT interface {
	*T
	Check() error
}](node *yaml.Node, defaults T) (T, error) {
	p := defaults
	if err := DecodeParams(node, &p); err != nil {
		return p, err
	}
	return p, PT(&p).Check()
}
