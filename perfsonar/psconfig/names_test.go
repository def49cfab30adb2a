package psconfig

import (
	"strings"
	"testing"
)

// psconfig-web names groups, tests and tasks after their descriptions ("OPN IPv4 Bandwidth
// Testspec"); pSConfig's schema does not check objects under such names, and its agent runs them.
func TestNamesWithSpacesAreAcceptedAsTheSchemaDoes(t *testing.T) {
	tp := tmpl(t, doc(abc, `"groups":{"Bandwidth mesh":{"type":"mesh","addresses":[{"name":"a"},{"name":"b"}]}}`,
		`"tests":{"Bandwidth test":{"type":"rtt","spec":{"dest":"{% address[1] %}"}}}`,
		`"schedules":{"every hour":{"repeat":"PT1H"}}`,
		`"tasks":{"Bandwidth task":{"group":"Bandwidth mesh","test":"Bandwidth test","schedule":"every hour"}}`))
	plan := tp.Plan([]string{"a"})
	if len(plan) != 1 || plan[0].Task != "Bandwidth task" || plan[0].Dst != "b.example" || plan[0].Unsupported != "" {
		t.Fatalf("plan: %+v", plan)
	}
}

// An object under a name the schema checks may refer only to names that match its pattern.
func TestACheckedObjectRefersOnlyToPatternNames(t *testing.T) {
	_, err := Parse("t.json", []byte(doc(abc, `"groups":{"g h":{"type":"mesh","addresses":[{"name":"a"},{"name":"b"}]}}`,
		`"tests":{"x":{"type":"rtt","spec":{}}}`, `"tasks":{"t":{"group":"g h","test":"x"}}`)))
	if err == nil || !strings.Contains(err.Error(), `tasks.t.group: "g h": a name referred to here must be letters`) {
		t.Fatalf("err: %v", err)
	}
}

func TestAnEmptyNameIsRefused(t *testing.T) {
	_, err := Parse("t.json", []byte(doc(abc, `"groups":{},"tests":{"":{"type":"rtt","spec":{}}}`, `"tasks":{}`)))
	if err == nil || !strings.Contains(err.Error(), "tests: an empty name") {
		t.Fatalf("err: %v", err)
	}
}
