package throughput

import (
	"longhaul/ingest/sample"
)

// overrun explains a run stopped at its timeout, from what iperf3 printed when it was told to
// stop (SIGTERM: its JSON so far). timeout is the run's failure as a timeout (ExecFailure).
//
// A cookie in the start section means the server accepted the control connection: the
// destination answered, and the test did not finish. That is not evidence the destination cannot
// be reached, so the class is other, not timeout (a reachability class, which the job's
// reachability detector counts). Over heavy loss this is how UDP tests fail: iperf3 sets up a
// UDP stream with one datagram each way and, when either is lost, waits for the answer
// (esnet/iperf#351, "UDP streams creation is broken in lossy environments"; iperf 3.12 here), so
// a link losing 10 % of its packets was paged unreachable by two such runs in a row. Without a
// cookie (the control connection never made, nothing printed) the run stays a timeout.
func overrun(out []byte, timeout *sample.RunError) *sample.RunError {
	o, err := decodeIperf3(out)
	if err != nil || o.Start.Cookie == "" {
		return timeout
	}
	return &sample.RunError{Class: sample.ErrOther, Message: timeout.Message +
		": the server had accepted the control connection, so the destination answered but the test did not finish (a UDP stream's setup datagram lost, or the test stalled)"}
}
