package results

import (
	"context"
	"fmt"
	"sort"
	"time"

	"longhaul/operator/dashboards"
	"longhaul/operator/influx"
	"longhaul/operator/render"
)

// explain says why a panel found nothing, given which of its targets found nothing: a target
// that needs no history and found nothing is the reason (no samples; waiting would not help),
// else the first target still learning, with its figures counted in InfluxDB (or, for the
// collapse detector's baseline, published by the detector). nil: no reason is known, and the
// panel says "no data".
func (b *Report) explain(ctx context.Context, targets []dashboards.Target, found []bool, s Scope, vars map[string]string) (*render.Why, error) {
	for i, t := range targets {
		if n := dashboards.NeedOf(t.Query); !found[i] && !n.Learning() {
			return NoSamples(n, s), nil
		}
	}
	for i, t := range targets {
		n := dashboards.NeedOf(t.Query)
		if found[i] {
			continue
		}
		if n.Points > 0 {
			have, err := b.points(ctx, dashboards.Inner(t.Query), vars)
			if err != nil {
				return nil, err
			}
			return MovingAverage(n, have, s), nil
		}
		if n.Baseline {
			ps, err := b.progress(ctx, t.Query, vars)
			if err != nil {
				return nil, err
			}
			p := ps[[2]string{s.Src, s.Dst}]
			p.Src, p.Dst = s.Src, s.Dst
			return DetectorBaselines([]Progress{p}, 1), nil
		}
		if r, ok := n.Rollup(); ok {
			ws, err := b.windows(ctx, t.Query, vars)
			if err != nil {
				return nil, err
			}
			learning := make([]Windows, 0, len(ws))
			for _, w := range ws {
				learning = append(learning, w)
			}
			if len(learning) == 0 {
				learning = append(learning, Windows{Src: s.Src, Dst: s.Dst})
			}
			sortWindows(learning)
			return Baselines(r, learning, len(learning), b.Range.To), nil
		}
	}
	return nil, nil
}

// points counts the values a query returns: the points of the series a moving average is
// taken over.
func (b *Report) points(ctx context.Context, query string, vars map[string]string) (int, error) {
	series, err := Run(ctx, b.C, query, b.Range, vars)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, l := range Lines(series, "") {
		n = max(n, len(l.Points))
	}
	return n, nil
}

// windows counts, per link the query groups by (or for its one link), the finer windows the
// rollup it reads is made of, and finds the first one.
func (b *Report) windows(ctx context.Context, query string, vars map[string]string) (map[[2]string]Windows, error) {
	count, first, ok := dashboards.FinerWindows(query)
	if !ok {
		return nil, fmt.Errorf("cannot count the finer windows of %s", query)
	}
	out := map[[2]string]Windows{}
	link := func(s influx.Series) [2]string {
		src, dst := s.Tags["src"], s.Tags["dst"]
		if src == "" {
			src, dst = vars["src"], vars["dst"]
		}
		return [2]string{src, dst}
	}
	counted, err := Run(ctx, b.C, count, b.Range, vars)
	if err != nil {
		return nil, err
	}
	for _, s := range counted {
		ci := s.Col("windows")
		for _, row := range s.Values {
			k := link(s)
			w := out[k]
			w.Src, w.Dst = k[0], k[1]
			if v, ok := influx.Float(row[ci]); ok {
				w.Count += int(v)
			}
			out[k] = w
		}
	}
	firsts, err := Run(ctx, b.C, first, b.Range, vars)
	if err != nil {
		return nil, err
	}
	for _, s := range firsts {
		for _, row := range s.Values {
			k := link(s)
			if w, ok := out[k]; ok {
				w.First = time.UnixMilli(s.Millis(row)).UTC()
				out[k] = w
			}
		}
	}
	return out, nil
}

// progress reads, per link the query groups by (or for its one link), how far the collapse
// detector is with the baseline the query reads: the runs of its newest baseline, ready or not,
// and the runs it needs; of several probes of a link, the one furthest along.
func (b *Report) progress(ctx context.Context, query string, vars map[string]string) (map[[2]string]Progress, error) {
	q, ok := dashboards.BaselineProgress(query)
	if !ok {
		return nil, fmt.Errorf("cannot ask the collapse detector's progress of %s", query)
	}
	series, err := Run(ctx, b.C, q, b.Range, vars)
	if err != nil {
		return nil, err
	}
	out := map[[2]string]Progress{}
	for _, s := range series {
		src, dst := s.Tags["src"], s.Tags["dst"]
		if src == "" {
			src, dst = vars["src"], vars["dst"]
		}
		ri, ni := s.Col("runs"), s.Col("needs")
		for _, row := range s.Values {
			runs, ok := influx.Float(row[ri])
			if !ok {
				continue
			}
			needs, _ := influx.Float(row[ni])
			k := [2]string{src, dst}
			if p := out[k]; int(runs) > p.Runs {
				out[k] = Progress{Src: src, Dst: dst, Runs: int(runs), Needs: int(needs)}
			}
		}
	}
	return out, nil
}

// learningCells marks the cells of a matrix that have no value because a learning target (the
// collapse detector's baseline, or a rollup) has nothing yet for their link, each with its
// figures, and sums them up in g.Why.
func (b *Report) learningCells(ctx context.Context, p dashboards.Panel, frames []dashboards.Frame, f dashboards.Frame, g *render.Grid, rowField, colField, valueField string, vars map[string]string) error {
	ri, ci, vi := f.Col(rowField), f.Col(colField), f.Col(valueField)
	if ri < 0 || ci < 0 {
		return nil
	}
	links := map[[2]string]bool{}
	for _, row := range f.Rows {
		if row[ri] != nil && row[ci] != nil {
			links[[2]string{influx.Str(row[ri]), influx.Str(row[ci])}] = true
		}
	}
	for i, t := range p.Targets {
		n := dashboards.NeedOf(t.Query)
		r, rollup := n.Rollup()
		if !rollup && !n.Baseline {
			continue
		}
		has := map[[2]string]bool{}
		tr, tc := frames[i].Col(rowField), frames[i].Col(colField)
		for _, row := range frames[i].Rows {
			if tr >= 0 && tc >= 0 {
				has[[2]string{influx.Str(row[tr]), influx.Str(row[tc])}] = true
			}
		}
		var missing [][2]string
		for _, row := range f.Rows {
			if row[ri] == nil || row[ci] == nil || (vi >= 0 && row[vi] != nil) {
				continue
			}
			if k := [2]string{influx.Str(row[ri]), influx.Str(row[ci])}; !has[k] {
				missing = append(missing, k)
			}
		}
		if len(missing) == 0 {
			continue
		}
		if g.Learning == nil {
			g.Learning = map[[2]string]string{}
		}
		if n.Baseline {
			return b.detectorCells(ctx, t.Query, missing, len(links), g, vars)
		}
		ws, err := b.windows(ctx, t.Query, vars)
		if err != nil {
			return err
		}
		var learning []Windows
		for _, k := range missing {
			w, ok := ws[k]
			if !ok {
				w = Windows{Src: k[0], Dst: k[1]}
			}
			learning = append(learning, w)
			g.Learning[k] = Baseline(r, w, b.Range.To)
			g.RowNames, g.ColNames = addName(g.RowNames, k[0]), addName(g.ColNames, k[1])
		}
		sortWindows(learning)
		g.Why = Baselines(r, learning, len(links), b.Range.To)
		return nil
	}
	return nil
}

// detectorCells marks the cells whose link the collapse detector has no ready baseline for, of
// the links cells in the matrix, with the runs it has so far.
func (b *Report) detectorCells(ctx context.Context, query string, missing [][2]string, links int, g *render.Grid, vars map[string]string) error {
	ps, err := b.progress(ctx, query, vars)
	if err != nil {
		return err
	}
	learning := make([]Progress, 0, len(missing))
	for _, k := range missing {
		p := ps[k]
		p.Src, p.Dst = k[0], k[1]
		learning = append(learning, p)
		g.Learning[k] = DetectorBaseline(p)
		g.RowNames, g.ColNames = addName(g.RowNames, k[0]), addName(g.ColNames, k[1])
	}
	g.Why = DetectorBaselines(learning, links)
	return nil
}

func addName(names []string, n string) []string {
	for _, x := range names {
		if x == n {
			return names
		}
	}
	names = append(names, n)
	sort.Strings(names)
	return names
}

func sortWindows(ws []Windows) {
	sort.Slice(ws, func(i, j int) bool { return ws[i].Src+"\x00"+ws[i].Dst < ws[j].Src+"\x00"+ws[j].Dst })
}
