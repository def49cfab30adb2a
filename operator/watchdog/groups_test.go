package watchdog

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"longhaul/internal/kafkaadmin"

	"github.com/twmb/franz-go/pkg/kadm"
)

// Telegraf's groups, as its configuration names them, are the ones whose lag the watchdog reads:
// each must fall under the groups Telegraf may use and the watchdog may describe.
func TestTelegrafsGroupsAreReadFromItsConfiguration(t *testing.T) {
	groups, err := TelegrafGroups("../../ingest/telegraf/telegraf.conf")
	if err != nil {
		t.Fatal(err)
	}
	if len(groups) != 3 {
		t.Fatalf("%v", groups)
	}
	for _, g := range groups {
		if !strings.HasPrefix(g, kafkaadmin.TelegrafGroupPrefix) {
			t.Errorf("%s is not under %s", g, kafkaadmin.TelegrafGroupPrefix)
		}
		if !kafkaadmin.Allows(kafkaadmin.Grants(kafkaadmin.Watchdog), kafkaadmin.GroupResource, g, kadm.OpDescribe) {
			t.Errorf("the watchdog may not describe %s", g)
		}
	}
	p := filepath.Join(t.TempDir(), "t.conf")
	os.WriteFile(p, []byte("# consumer_group = \"commented\"\n[[inputs.kafka_consumer]]\n  consumer_group = \"x\"\n"), 0o644)
	if g, err := TelegrafGroups(p); err != nil || len(g) != 1 || g[0] != "x" {
		t.Fatalf("%v %v", g, err)
	}
	os.WriteFile(p, []byte("[agent]\n"), 0o644)
	if _, err := TelegrafGroups(p); err == nil {
		t.Fatal("a configuration without groups")
	}
}
