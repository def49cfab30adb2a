package dashboards

import (
	"sort"

	"longhaul/operator/influx"
)

// Frame is a table result: one row per series row, tag columns first (what Grafana's table
// panel shows for resultFormat "table").
type Frame struct {
	Columns []string
	Rows    [][]any
}

// ToFrame flattens InfluxQL series into one frame; the time column is dropped when tagged
// aggregate rows (GROUP BY tags without time) make it meaningless, i.e. when dropTime is set.
func ToFrame(series []influx.Series, dropTime bool) Frame {
	var f Frame
	index := map[string]int{}
	col := func(name string) int {
		if i, ok := index[name]; ok {
			return i
		}
		index[name] = len(f.Columns)
		f.Columns = append(f.Columns, name)
		return index[name]
	}
	for _, s := range series {
		keys := make([]string, 0, len(s.Tags))
		for k := range s.Tags {
			keys = append(keys, k)
		}
		sort.Slice(keys, func(i, j int) bool { return tagOrder(keys[i]) < tagOrder(keys[j]) })
		for _, k := range keys {
			col(k)
		}
		for _, c := range s.Columns {
			if !(dropTime && c == "time") {
				col(c)
			}
		}
	}
	for _, s := range series {
		for _, v := range s.Values {
			row := make([]any, len(f.Columns))
			for k, tv := range s.Tags {
				row[index[k]] = tv
			}
			for i, c := range s.Columns {
				if dropTime && c == "time" {
					continue
				}
				row[index[c]] = v[i]
			}
			f.Rows = append(f.Rows, row)
		}
	}
	return f
}

// tagOrder sorts the link first (src, then dst), then the other tags by name.
func tagOrder(k string) string {
	switch k {
	case "src":
		return "\x00"
	case "dst":
		return "\x01"
	}
	return k
}

// Merge joins frames on their shared string columns (Grafana's "merge" transformation): rows
// with the same values there become one row.
func Merge(frames ...Frame) Frame {
	if len(frames) == 1 {
		return frames[0]
	}
	var out Frame
	index := map[string]int{}
	for _, f := range frames {
		for _, c := range f.Columns {
			if _, ok := index[c]; !ok {
				index[c] = len(out.Columns)
				out.Columns = append(out.Columns, c)
			}
		}
	}
	keyCols := sharedKeyColumns(frames)
	byKey := map[string]int{}
	for _, f := range frames {
		for _, r := range f.Rows {
			key := ""
			for _, k := range keyCols {
				key += influx.Str(r[colIndex(f, k)]) + "\x00"
			}
			i, ok := byKey[key]
			if !ok || len(keyCols) == 0 {
				i = len(out.Rows)
				byKey[key] = i
				out.Rows = append(out.Rows, make([]any, len(out.Columns)))
			}
			for j, c := range f.Columns {
				if r[j] != nil {
					out.Rows[i][index[c]] = r[j]
				}
			}
		}
	}
	return out
}

func sharedKeyColumns(frames []Frame) []string {
	var keys []string
	for _, c := range frames[0].Columns {
		shared := c != "time"
		for _, f := range frames[1:] {
			if colIndex(f, c) < 0 {
				shared = false
			}
		}
		if shared {
			keys = append(keys, c)
		}
	}
	return keys
}

func colIndex(f Frame, name string) int {
	for i, c := range f.Columns {
		if c == name {
			return i
		}
	}
	return -1
}

// Col is the index of a column, or -1.
func (f Frame) Col(name string) int { return colIndex(f, name) }

// Divide adds column alias = left / right (Grafana's calculateField, binary mode, "/").
func (f Frame) Divide(alias, left, right string) Frame {
	l, r := f.Col(left), f.Col(right)
	out := Frame{Columns: append(append([]string{}, f.Columns...), alias)}
	for _, row := range f.Rows {
		var v any
		if l >= 0 && r >= 0 {
			a, ok1 := influx.Float(row[l])
			b, ok2 := influx.Float(row[r])
			if ok1 && ok2 && b != 0 {
				v = a / b
			}
		}
		out.Rows = append(out.Rows, append(append([]any{}, row...), v))
	}
	return out
}

// Matrix is a rows × columns grid of one value (Grafana's groupingToMatrix).
type Matrix struct {
	RowNames, ColNames []string
	Cells              map[[2]string]float64
}

// ToMatrix groups a frame into a matrix: rowField values down, columnField values across.
func (f Frame) ToMatrix(rowField, columnField, valueField string) Matrix {
	m := Matrix{Cells: map[[2]string]float64{}}
	ri, ci, vi := f.Col(rowField), f.Col(columnField), f.Col(valueField)
	if ri < 0 || ci < 0 || vi < 0 {
		return m
	}
	rows, cols := map[string]bool{}, map[string]bool{}
	for _, r := range f.Rows {
		v, ok := influx.Float(r[vi])
		if !ok {
			continue
		}
		rn, cn := influx.Str(r[ri]), influx.Str(r[ci])
		rows[rn], cols[cn] = true, true
		m.Cells[[2]string{rn, cn}] = v
	}
	for k := range rows {
		m.RowNames = append(m.RowNames, k)
	}
	for k := range cols {
		m.ColNames = append(m.ColNames, k)
	}
	sort.Strings(m.RowNames)
	sort.Strings(m.ColNames)
	return m
}
