package kafkaconn

import (
	"strings"
	"testing"
)

func TestABootstrapListIsCheckedAddressByAddress(t *testing.T) {
	c, err := Parse("a:9092, b:9093")
	if err != nil || len(c.Bootstrap) != 2 || c.Bootstrap[1] != "b:9093" {
		t.Fatalf("%+v %v", c, err)
	}
	for in, want := range map[string]string{"": "no Kafka bootstrap", "a:9092,b": `"b": want host:port`, "a:0": "port from 1"} {
		if _, err := Parse(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Parse(%q) = %v, want an error with %q", in, err, want)
		}
	}
	if len(c.Opts()) == 0 {
		t.Fatal("no options")
	}
}
