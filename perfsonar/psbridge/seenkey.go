package psbridge

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
)

// SeenKey is what a bridge remembers a result by, here and for the fleet's other bridges
// (Share.Digest): its run (Key) and what it says (a digest of its samples as they are spooled).
//
// A run's id is known to every participant of its test, so remembered by its id alone, a
// participant could post the id of a test it takes part in before the side that measured it, and
// the real result would be dropped as a duplicate. Remembered by id and content, a copy that
// says something else is not the same result: both are converted, each under its own identity's
// host list. An archiver's retry says the same, and so does the copy of one run that each
// participant's default archives send (pScheduler archives a task's own archives on its lead
// only, its default archives on every participant): one result, converted once.
func (c Converted) SeenKey() (string, error) {
	h := sha256.New()
	for _, s := range c.Samples {
		b, err := json.Marshal(s)
		if err != nil {
			return "", fmt.Errorf("encoding a %s sample: %w", s.Head().Schema, err)
		}
		h.Write(b)
		h.Write([]byte{'\n'})
	}
	return c.Key + " " + hex.EncodeToString(h.Sum(nil)[:16]), nil
}
