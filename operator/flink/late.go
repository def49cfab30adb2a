package flink

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strings"
)

// LateMetric is Flink's count of the records an event-time window operator dropped because they
// arrived behind the watermark. Its REST id is "<operator name, sanitized>.numLateRecordsDropped"
// (the job's windows: "stats__1m_windows.numLateRecordsDropped"); the watchdog finds every such
// id instead of naming the operators.
const LateMetric = "numLateRecordsDropped"

// LateMetrics are where a job counts late records: per vertex id, its metric ids that end in
// LateMetric. Empty until the job's tasks have reported their metrics.
type LateMetrics map[string][]string

// FindLateMetrics lists, for each vertex of job id, the metric ids of its operators that count
// late records (aggregated over subtasks: /jobs/:id/vertices/:vertex/subtasks/metrics).
func (c *Client) FindLateMetrics(ctx context.Context, id string) (LateMetrics, error) {
	d, err := c.Job(ctx, id)
	if err != nil {
		return nil, err
	}
	found := LateMetrics{}
	for _, v := range d.Vertices {
		var ids []struct {
			ID string `json:"id"`
		}
		if err := c.do(ctx, http.MethodGet, vertexMetrics(id, v.ID), nil, "", &ids); err != nil {
			return nil, err
		}
		for _, m := range ids {
			if strings.HasSuffix(m.ID, "."+LateMetric) {
				found[v.ID] = append(found[v.ID], m.ID)
			}
		}
		sort.Strings(found[v.ID])
	}
	return found, nil
}

// LateDropped sums the late records of every metric in where, over every subtask: what the job's
// windows have dropped since its tasks (re)started.
func (c *Client) LateDropped(ctx context.Context, id string, where LateMetrics) (int64, error) {
	var total float64
	for vertex, ids := range where {
		var r []struct {
			ID  string  `json:"id"`
			Sum float64 `json:"sum"`
		}
		path := vertexMetrics(id, vertex) + "?" + url.Values{"get": {strings.Join(ids, ",")}}.Encode()
		if err := c.do(ctx, http.MethodGet, path, nil, "", &r); err != nil {
			return 0, err
		}
		if len(r) != len(ids) {
			return 0, fmt.Errorf("flink job %s, vertex %s: asked for %d metrics (%s), got %d", id, vertex, len(ids), strings.Join(ids, ", "), len(r))
		}
		for _, m := range r {
			total += m.Sum
		}
	}
	return int64(total), nil
}

func vertexMetrics(job, vertex string) string {
	return "/jobs/" + job + "/vertices/" + vertex + "/subtasks/metrics"
}
