package setup

import (
	"context"
	"fmt"
	"io"

	"github.com/twmb/franz-go/pkg/kadm"

	"longhaul/internal/kafkaconn"
)

// EnsureTopics creates every missing topic of f and reports existing ones whose partition
// count differs (it never deletes or shrinks). It returns how many topics it created.
func EnsureTopics(ctx context.Context, conn kafkaconn.Conn, f *TopicsFile, log io.Writer) (int, error) {
	cl, err := conn.NewClient()
	if err != nil {
		return 0, err
	}
	defer cl.Close()
	adm := kadm.NewClient(cl)
	details, err := adm.ListTopics(ctx)
	if err != nil {
		return 0, fmt.Errorf("kafka %v: list topics: %w", conn.Bootstrap, err)
	}
	created := 0
	for _, t := range f.Topics {
		if d, ok := details[t.Name]; ok {
			if n := int32(len(d.Partitions)); n != t.Partitions {
				fmt.Fprintf(log, "topic %s exists with %d partitions (topics.yaml says %d); left as is\n", t.Name, n, t.Partitions)
			}
			continue
		}
		resp, err := adm.CreateTopic(ctx, t.Partitions, f.Defaults.ReplicationFactor, t.Configs(), t.Name)
		if err == nil {
			err = resp.Err
		}
		if err != nil {
			return created, fmt.Errorf("create topic %s: %w", t.Name, err)
		}
		fmt.Fprintf(log, "created topic %s (%d partitions, retention %d ms)\n", t.Name, t.Partitions, t.RetentionMs)
		created++
	}
	return created, nil
}
