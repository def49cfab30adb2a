package watchdog

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestInfluxWritesAreJudgedByTheStatisticDueInIt(t *testing.T) {
	c := InfluxCheck{Delay: 3 * time.Minute}
	if f := c.Judge(&Observations{}); !f[0].Tentative {
		t.Fatal("with nothing due, InfluxDB answering proves no statistic is stored: tentative")
	}
	for name, tc := range map[string]struct {
		in      InfluxObs
		healthy bool
		want    string
	}{
		"down":          {InfluxObs{PingErr: errors.New("connection refused")}, false, "does not answer"},
		"nothing due":   {InfluxObs{}, true, "no statistic due"},
		"stored":        {InfluxObs{Due: at(0), Stored: true}, true, "holds the statistics of"},
		"missing":       {InfluxObs{Due: at(0), Newest: at(-600)}, false, "its newest is 10m0s older"},
		"never stored":  {InfluxObs{Due: at(0)}, false, "none stored yet"},
		"query refused": {InfluxObs{Due: at(0), QueryErr: errors.New("403 reader")}, false, "cannot be queried"},
	} {
		f := c.Judge(&Observations{Influx: tc.in})
		if len(f) != 1 || f[0].Healthy != tc.healthy || !strings.Contains(f[0].Message, tc.want) || f[0].Component != ComponentInflux {
			t.Errorf("%s: %+v", name, f)
		}
	}
}

func TestTheTipSaysWhichStatisticIsDue(t *testing.T) {
	var tip StatsTip
	if !tip.Due(at(0), time.Minute).IsZero() {
		t.Fatal("due before any statistic")
	}
	tip.Record(at(0), at(-60))  // the minute ending at -60, arrived at 0
	tip.Record(at(1), at(-120)) // an older one: changes nothing
	tip.Record(at(60), at(0))   // the next minute
	tip.Record(at(120), at(60))
	if d := tip.Due(at(30), time.Minute); !d.IsZero() {
		t.Fatalf("nothing arrived a minute before 30 s: %v", d)
	}
	if d := tip.Due(at(90), time.Minute); !d.Equal(at(-60)) {
		t.Fatalf("%v", d)
	}
	if d := tip.Due(at(121), time.Minute); !d.Equal(at(0)) {
		t.Fatalf("%v", d)
	}
	if d := tip.Due(at(500), time.Minute); !d.Equal(at(60)) || len(tip.entries) != 1 {
		t.Fatalf("%v, %d entries kept", d, len(tip.entries))
	}
}

func TestSeriesAreJudgedAgainstTheBudget(t *testing.T) {
	c := SeriesCheck{Budget: 1000}
	for name, tc := range map[string]struct {
		in                 InfluxObs
		healthy, tentative bool
		want               string
	}{
		"within":      {InfluxObs{Series: 250}, true, false, "holds 250 series, 25 % of the budget (1000)"},
		"over":        {InfluxObs{Series: 1000}, false, false, "holds 1000 series, over the budget of 1000 (--series-budget)"},
		"uncountable": {InfluxObs{SeriesErr: errors.New("403 reader")}, false, false, "cannot be counted: 403 reader"},
		"down":        {InfluxObs{PingErr: errors.New("connection refused")}, true, true, "not counted"},
	} {
		f := c.Judge(&Observations{Influx: tc.in})
		if len(f) != 1 || f[0].Healthy != tc.healthy || f[0].Tentative != tc.tentative || !strings.Contains(f[0].Message, tc.want) ||
			f[0].Component != ComponentSeries || f[0].Severity != SeverityWarning {
			t.Errorf("%s: %+v", name, f)
		}
	}
}
