package throughput

import (
	"longhaul/ingest/sample"
)

// i3View is one direction of an iperf3 run as one side's output shows it: which interval sum
// and end sums are that direction's, and whether the side whose output this is sent its data
// (then it measured the congestion window and RTT; the receiver measured jitter and loss).
type i3View struct {
	dir     string // forward (client to server) or reverse
	local   bool   // this output's side sent the direction's data
	bidir   bool
	sumName string // of the interval sums, for error paths
	suffix  string // of the run id: "" or -forward / -reverse with --bidir

	sent, recv *i3Stream // end sums of the sender and the receiver; nil when unknown
	loss       *i3Stream // the receiver's UDP jitter and loss
}

// serverLog tells the server's own log (iperf3 -s -J) from the client's output.
func serverLog(o *i3Output) bool {
	return o.Start.ConnectingTo == nil && o.Start.AcceptedConnection != nil
}

// bidirectional: 3.17 says so in test_start; 3.12 only prints the *_bidir_reverse sums.
func bidirectional(o *i3Output) bool {
	if ts := o.Start.TestStart; ts != nil && ts.Bidir != 0 {
		return true
	}
	e := &o.End
	if e.SumSentBidirReverse != nil || e.SumReceivedBidirReverse != nil || e.SumBidirReverse != nil {
		return true
	}
	return len(o.Intervals) > 0 && o.Intervals[0].SumBidirReverse != nil
}

// iperf3Views is the run's one direction (forward, or reverse with -R), or both with --bidir.
func iperf3Views(o *i3Output, r *runInfo) []*i3View {
	server := serverLog(o)
	e := &o.End
	udp := r.protocol == "udp"
	main := &i3View{dir: r.direction, sumName: "sum", sent: e.SumSent, recv: e.SumReceived, loss: e.SumReceived}
	if main.sent == nil && udp { // UDP before 3.11: "sum" only
		main.sent = e.Sum
	}
	if main.loss == nil {
		main.loss = e.Sum
	}
	views := []*i3View{main}
	if bidirectional(o) {
		main.dir, main.bidir, main.suffix = "forward", true, "-forward"
		rev := &i3View{dir: "reverse", bidir: true, suffix: "-reverse", sumName: "sum_bidir_reverse",
			sent: e.SumSentBidirReverse, recv: e.SumReceivedBidirReverse, loss: e.SumReceivedBidirReverse}
		if rev.sent == nil && udp {
			rev.sent = e.SumBidirReverse
		}
		if rev.loss == nil {
			rev.loss = e.SumBidirReverse
		}
		views = append(views, rev)
	}
	for _, v := range views {
		v.local = (v.dir == "forward") != server
		if server { // the server's log holds zeros where only the client measured
			if !v.local && zero(v.sent) {
				v.sent = nil
			}
			if v.local && zero(v.recv) {
				v.recv = nil
			}
		}
	}
	return views
}

func zero(s *i3Stream) bool { return s != nil && s.Bytes == 0 && s.BitsPerSecond == 0 }

// intervalSum is the view's row of an interval.
func (v *i3View) intervalSum(iv *i3Interval) *i3Stream {
	if v.sumName == "sum_bidir_reverse" {
		return iv.SumBidirReverse
	}
	return iv.Sum
}

// mine says whether a per-stream row (by its "sender" flag) belongs to the view's direction;
// without --bidir every stream does.
func (v *i3View) mine(sender *bool) bool {
	return !v.bidir || sender == nil || *sender == v.local
}

// run is what every record of the view's direction repeats: with --bidir its own run id and
// direction, and the congestion control of the side that sent.
func (v *i3View) run(r *runInfo, o *i3Output) *runInfo {
	rv := *r
	rv.direction = v.dir
	if v.suffix != "" {
		id := rv.meta.RunID
		if len(id)+len(v.suffix) > 200 {
			id = id[:200-len(v.suffix)]
		}
		rv.meta.RunID = id + v.suffix
	}
	if rv.protocol != "udp" {
		// sender_tcp_congestion is the sending side's of the main direction (also with -R);
		// with --bidir it is this side's own and receiver_tcp_congestion the other's.
		c := o.End.SenderTCPCongestion
		if v.bidir && !v.local {
			c = o.End.ReceiverTCPCongestion
		}
		if c != "" {
			rv.congestion = sample.Str(c)
		} else if v.bidir && !v.local {
			rv.congestion = nil // a requested -C is this side's: not the other direction's
		}
	}
	return &rv
}
