package watchdog

import (
	"fmt"
	"os"
	"regexp"
	"strings"

	"longhaul/ingest"
)

var consumerGroup = regexp.MustCompile(`(?m)^\s*consumer_group\s*=\s*"([^"]+)"`)

// TelegrafGroups reads the consumer groups of Telegraf's Kafka inputs from its configuration
// (ingest/telegraf/telegraf.conf; "": the contract's copy the binary carries): the groups whose
// lag says whether Telegraf keeps up, and since it commits only after InfluxDB accepted a write,
// whether writes succeed.
func TelegrafGroups(conf string) ([]string, error) {
	b, err := ingest.TelegrafConf(), error(nil)
	if conf != "" {
		b, err = os.ReadFile(conf)
	} else {
		conf = "telegraf.conf (embedded)"
	}
	if err != nil {
		return nil, fmt.Errorf("telegraf configuration: %w", err)
	}
	var out []string
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "#") {
			continue
		}
		if m := consumerGroup.FindStringSubmatch(line); m != nil {
			out = append(out, m[1])
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("telegraf configuration %s: no consumer_group", conf)
	}
	return out, nil
}
