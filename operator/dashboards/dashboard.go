// Package dashboards loads Longhaul's Grafana dashboards (dashboards/json) and expands their InfluxQL
// queries the way Grafana does, so the operator CLI runs exactly the dashboards' queries.
package dashboards

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path"

	dashfiles "longhaul/dashboards"
)

// Dashboard is the part of Grafana's dashboard model the CLI needs.
type Dashboard struct {
	UID         string                    `json:"uid"`
	Title       string                    `json:"title"`
	Description string                    `json:"description"`
	Panels      []Panel                   `json:"panels"`
	Time        struct{ From, To string } `json:"time"`
	Templating  struct {
		List []Variable `json:"list"`
	} `json:"templating"`
	Annotations struct {
		List []Annotation `json:"list"`
	} `json:"annotations"`
}

// Panel is one panel and its queries.
type Panel struct {
	ID          int      `json:"id"`
	Type        string   `json:"type"`
	Title       string   `json:"title"`
	Description string   `json:"description"`
	Targets     []Target `json:"targets"`
	FieldConfig struct {
		Defaults struct {
			Unit    string `json:"unit"`
			NoValue string `json:"noValue"` // what Grafana shows instead of "No data"
		} `json:"defaults"`
	} `json:"fieldConfig"`
	GridPos         struct{ X, Y, W, H int } `json:"gridPos"`
	Transformations []Transformation         `json:"transformations"`
}

// Transformation is a Grafana data transformation (merge, calculateField, groupingToMatrix, …).
type Transformation struct {
	ID      string         `json:"id"`
	Options map[string]any `json:"options"`
}

// Transform returns the panel's transformation with this id, or nil.
func (p *Panel) Transform(id string) *Transformation {
	for i := range p.Transformations {
		if p.Transformations[i].ID == id {
			return &p.Transformations[i]
		}
	}
	return nil
}

// Option reads a string option, following dotted paths ("binary.left").
func (t *Transformation) Option(path ...string) string {
	var v any = t.Options
	for _, k := range path {
		m, ok := v.(map[string]any)
		if !ok {
			return ""
		}
		v = m[k]
	}
	s, _ := v.(string)
	return s
}

// Target is one raw InfluxQL query of a panel.
type Target struct {
	RefID        string `json:"refId"`
	Query        string `json:"query"`
	ResultFormat string `json:"resultFormat"`
	Alias        string `json:"alias"`
}

// Variable is a query variable (src, dst, site).
type Variable struct {
	Name     string `json:"name"`
	Type     string `json:"type"`
	Query    string `json:"query"`
	AllValue string `json:"allValue"`
}

// Annotation is an annotation query (events on the time axis).
type Annotation struct {
	Name   string `json:"name"`
	Target *struct {
		Query string `json:"query"`
	} `json:"target"`
}

// Load reads one dashboard JSON file.
func Load(path string) (*Dashboard, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return parse(b, path)
}

func parse(b []byte, path string) (*Dashboard, error) {
	var d Dashboard
	if err := json.Unmarshal(b, &d); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if d.UID == "" || len(d.Panels) == 0 {
		return nil, fmt.Errorf("%s: not a dashboard (no uid or no panels)", path)
	}
	return &d, nil
}

// LoadUID finds the dashboard with this uid in dir ("": the dashboards this binary carries).
func LoadUID(dir, uid string) (*Dashboard, error) {
	fsys, where := dashfiles.JSON(), "(embedded)"
	if dir != "" {
		fsys, where = os.DirFS(dir), dir
	}
	files, err := fs.Glob(fsys, "*.json")
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		b, err := fs.ReadFile(fsys, f)
		if err != nil {
			return nil, err
		}
		d, err := parse(b, path.Join(where, f))
		if err != nil {
			return nil, err
		}
		if d.UID == uid {
			return d, nil
		}
	}
	return nil, fmt.Errorf("no dashboard with uid %q in %s", uid, where)
}

// Panel returns the panel with this title, or nil.
func (d *Dashboard) Panel(title string) *Panel {
	for i := range d.Panels {
		if d.Panels[i].Title == title {
			return &d.Panels[i]
		}
	}
	return nil
}
