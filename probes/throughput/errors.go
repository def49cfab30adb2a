package throughput

import (
	"errors"

	"longhaul/probes/probekit"
)

// maxErrBytes bounds what a parser's error says, whatever the input quoted in it: the
// messages quote short snippets already, this is the last guard (e.g. a JSON number of a
// million digits in a type error).
const maxErrBytes = 1024

// boundErr keeps an error message within maxErrBytes.
func boundErr(err error) error {
	if err == nil || len(err.Error()) <= maxErrBytes {
		return err
	}
	return errors.New(probekit.Bounded(err.Error()))
}
