package probekit

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestIntTakesWhatDraft7CallsAnInteger(t *testing.T) {
	for in, want := range map[string]int64{`5`: 5, `5.0`: 5, `5e0`: 5, `1.5e3`: 1500, `-3`: -3, `0.0`: 0, `9007199254740992`: 1 << 53} {
		var v struct{ N *Int }
		if err := json.Unmarshal([]byte(`{"N":`+in+`}`), &v); err != nil || v.N == nil || int64(*v.N) != want {
			t.Errorf("%s: %v, %v", in, v.N, err)
		}
	}
}

func TestIntRefusesFractionsAndNonNumbers(t *testing.T) {
	for _, in := range []string{`5.5`, `"5"`, `true`, `1e300`, `[]`} {
		var v struct{ N *Int }
		err := DecodeAt("result", []byte(`{"N":`+in+`}`), &v)
		if err == nil || !strings.Contains(err.Error(), "result.N") {
			t.Errorf("%s: %v, want an error naming result.N", in, err)
		}
	}
}

func TestIntNullStaysAbsent(t *testing.T) {
	var v struct{ N *Int }
	if err := json.Unmarshal([]byte(`{"N":null}`), &v); err != nil || v.N != nil || v.N.Ptr() != nil {
		t.Fatalf("%v, %v", v.N, err)
	}
}
