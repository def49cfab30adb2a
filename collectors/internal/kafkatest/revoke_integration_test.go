//go:build integration

package kafkatest

import (
	"context"
	"fmt"
	"testing"
	"time"
	"unicode/utf16"

	"longhaul/internal/kafkaadmin"

	"longhaul/internal/kafkaconn"
)

// This test's broker: its own stack directory and ports, so restarting it disturbs no one.
const (
	revokeStackDir = "/tmp/lh-it-kafka-revoke"
	revokePort     = 19392
	revokeCtrlPort = 19393
)

// A broker that restarts rebuilds its SCRAM credentials from the metadata log. Kafka 4.3 and 4.4
// lose all of them there when a deleted credential is the first user their ScramDelta.apply
// meets: the deletion empties the mechanism's map, the mechanism is dropped, and every user
// after it goes into a map nothing keeps. Every SCRAM login is refused from then on, and the
// next metadata snapshot keeps the loss. Which user comes first is java.util.HashMap's order, so
// the revoked agent here is named to come first in any map of up to 1,024 buckets.
func TestIntegrationARevokedAgentLeavesEveryOtherLoginThroughARestart(t *testing.T) {
	b := Start(t, revokeStackDir, revokePort, revokeCtrlPort)
	revoked := firstKeyOfAnyMap(t)
	revokedUser, revokedPassword := b.AddAgent(revoked)
	kept := map[string]string{} // user → password file
	for i := 0; i < 15; i++ {   // 16 users: a map of 32 buckets
		user, pw := b.AddAgent(fmt.Sprintf("kept-%d", i))
		kept[user] = pw
	}
	b.RemoveAgent(revoked)
	b.Stop()
	b.Start()

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	for user, pw := range kept {
		if err := login(ctx, b.UserConn(user, pw)); err != nil {
			t.Errorf("%s, never revoked, after the broker's restart: %v", user, err)
		}
	}
	err := login(ctx, b.UserConn(revokedUser, revokedPassword))
	if _, refused := kafkaconn.Refusal(err); !refused {
		t.Errorf("%s, revoked, after the broker's restart: want a refused login, got %v", revokedUser, err)
	}
}

// firstKeyOfAnyMap is an agent name whose user falls in bucket 0 of every java.util.HashMap of up
// to 1,024 buckets: put first, it is the first key such a map iterates.
func firstKeyOfAnyMap(t *testing.T) string {
	// buckets the JDK gives (HashMap.hash(key) & (n - 1)), so a wrong port chooses no wrong name
	for key, want := range map[string][2]int{"flink": {16, 0}, "importer": {16, 1}, "telegraf": {32, 18}, "watchdog": {64, 51}} {
		if got := javaHashMapBucket(key, want[0]); got != want[1] {
			t.Fatalf("%q in %d buckets: bucket %d, the JDK's is %d", key, want[0], got, want[1])
		}
	}
	for i := 0; i < 1<<20; i++ {
		name := fmt.Sprintf("revoked-%d", i)
		user, err := kafkaadmin.AgentPrincipal(name)
		if err != nil {
			t.Fatal(err)
		}
		if javaHashMapBucket(user, 1024) == 0 {
			return name
		}
	}
	t.Fatal("no agent name falls in bucket 0")
	return ""
}

// javaHashMapBucket is the bucket of a java.util.HashMap of n buckets (a power of two) that key
// falls in: String.hashCode over UTF-16 units, spread as HashMap.hash spreads it.
func javaHashMapBucket(key string, n int) int {
	var h int32
	for _, c := range utf16.Encode([]rune(key)) {
		h = 31*h + int32(c)
	}
	u := uint32(h)
	return int((u ^ u>>16) & uint32(n-1))
}

// login opens a client on conn and has it reach the broker: nil, or the refusal or failure.
func login(ctx context.Context, conn kafkaconn.Conn) error {
	cl, err := conn.NewClient()
	if err != nil {
		return err
	}
	defer cl.Close()
	return cl.Ping(ctx)
}
