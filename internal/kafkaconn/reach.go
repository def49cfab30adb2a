package kafkaconn

import (
	"context"
	"fmt"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
)

// Reach reaches the brokers once (within 20 s), so that a refused credential or an unreachable
// cluster is told at start rather than by silence; a refusal is named by its reason.
func Reach(ctx context.Context, cl *kgo.Client, conn Conn) error {
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	err := cl.Ping(ctx)
	if reason, ok := Refusal(err); ok {
		return fmt.Errorf("kafka %s: %s", conn, reason)
	}
	if err != nil {
		return fmt.Errorf("kafka %s: %w", conn, err)
	}
	return nil
}
