package probekit

import (
	"crypto/sha256"
	"encoding/hex"
)

// ImportRunID derives the run id of an imported output from the tool and the bytes of the
// output, so importing the same file twice yields the same run id and the pipeline can
// de-duplicate.
func ImportRunID(tool string, input []byte) string {
	h := sha256.New()
	h.Write([]byte(tool))
	h.Write([]byte{0})
	h.Write(input)
	return "import-" + tool + "-" + hex.EncodeToString(h.Sum(nil))[:16]
}
