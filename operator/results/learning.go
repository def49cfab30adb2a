package results

import (
	"context"
	"fmt"
	"sort"

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
	if n, ok := unmeasured(targets, found); ok {
		return NoSamples(n, s), nil
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
	}
	return nil, nil
}

// unmeasured is what a panel's first query without a sample reads, when that query needs no
// history (so waiting would not fill it): a kind of sample there is none of in the range.
func unmeasured(targets []dashboards.Target, found []bool) (dashboards.Need, bool) {
	for i, t := range targets {
		if n := dashboards.NeedOf(t.Query); !found[i] && !n.Learning() {
			return n, true
		}
	}
	return dashboards.Need{}, false
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

// learningCells marks the cells of a matrix that have no value because the collapse detector
// has no ready baseline yet for their link, each with the runs it has so far, and sums them up
// in g.Why.
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
		if !dashboards.NeedOf(t.Query).Baseline {
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
		ps, err := b.progress(ctx, t.Query, vars)
		if err != nil {
			return err
		}
		g.Learning = map[[2]string]string{}
		learning := make([]Progress, 0, len(missing))
		for _, k := range missing {
			p := ps[k]
			p.Src, p.Dst = k[0], k[1]
			learning = append(learning, p)
			g.Learning[k] = DetectorBaseline(p)
			g.RowNames, g.ColNames = addName(g.RowNames, k[0]), addName(g.ColNames, k[1])
		}
		g.Why = DetectorBaselines(learning, len(links))
		return nil
	}
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
