package throughput

// The parts of `iperf3 -J` output (and of --json-stream's events) the parser reads (iperf
// 3.1 … 3.17). Pointers are fields a version or a mode may leave out.
type i3Output struct {
	Start     i3Start      `json:"start"`
	Intervals []i3Interval `json:"intervals"`
	End       i3End        `json:"end"`
	Error     string       `json:"error"`

	haveStart bool   // the start section was read whole
	endRead   bool   // the end section was read whole
	cut       string // why the output ends before iperf3 finished printing it; "" when whole
}

type i3Start struct {
	Version   string `json:"version"`
	Timestamp *struct {
		Timesecs *int64 `json:"timesecs"`
	} `json:"timestamp"`
	ConnectingTo *struct {
		Host string `json:"host"`
		Port int64  `json:"port"`
	} `json:"connecting_to"`
	// The server's own log (iperf3 -s -J) has accepted_connection (the client) instead of
	// connecting_to, and its listening port as each connection's local_port.
	AcceptedConnection *struct {
		Host string `json:"host"`
	} `json:"accepted_connection"`
	// Cookie is set once the server accepted the control connection (iperf3 prints it then).
	Cookie    string `json:"cookie"`
	Connected []struct {
		LocalPort int64 `json:"local_port"`
	} `json:"connected"`
	SockBufsize *int64 `json:"sock_bufsize"`
	TestStart   *struct {
		Protocol   string  `json:"protocol"`
		NumStreams int64   `json:"num_streams"`
		Omit       float64 `json:"omit"`
		Duration   float64 `json:"duration"`
		Reverse    int64   `json:"reverse"`
		Bidir      int64   `json:"bidir"` // 3.17; 3.12 says --bidir only by the *_bidir_reverse sums
	} `json:"test_start"`
}

type i3Interval struct {
	Streams         []i3Stream `json:"streams"`
	Sum             *i3Stream  `json:"sum"`
	SumBidirReverse *i3Stream  `json:"sum_bidir_reverse"` // --bidir: the other direction
}

// i3Stream is a stream or sum row of an interval, or a summary row of `end`.
type i3Stream struct {
	Start         float64  `json:"start"`
	End           float64  `json:"end"`
	Seconds       float64  `json:"seconds"`
	Bytes         int64    `json:"bytes"`
	BitsPerSecond float64  `json:"bits_per_second"`
	Retransmits   *int64   `json:"retransmits"`
	SndCwnd       *int64   `json:"snd_cwnd"`
	SndWnd        *int64   `json:"snd_wnd"`     // 3.10+: the receiver's advertised window (tcpi_snd_wnd)
	MaxSndWnd     *int64   `json:"max_snd_wnd"` // 3.10+, end.streams[].sender: its largest over the run
	RTT           *float64 `json:"rtt"`         // µs
	RTTVar        *float64 `json:"rttvar"`      // µs
	MinRTT        *float64 `json:"min_rtt"`
	MaxRTT        *float64 `json:"max_rtt"`
	MeanRTT       *float64 `json:"mean_rtt"`
	JitterMs      *float64 `json:"jitter_ms"`
	LostPackets   *int64   `json:"lost_packets"`
	Packets       *int64   `json:"packets"`
	LostPercent   *float64 `json:"lost_percent"`
	OutOfOrder    *int64   `json:"out_of_order"`
	Omitted       *bool    `json:"omitted"`
	Sender        *bool    `json:"sender"` // 3.7+: the local side sent this row's data
}

type i3End struct {
	Streams []struct {
		Sender   *i3Stream `json:"sender"`
		Receiver *i3Stream `json:"receiver"`
		UDP      *i3Stream `json:"udp"`
	} `json:"streams"`
	SumSent               *i3Stream `json:"sum_sent"`
	SumReceived           *i3Stream `json:"sum_received"`
	Sum                   *i3Stream `json:"sum"`
	SenderTCPCongestion   string    `json:"sender_tcp_congestion"`
	ReceiverTCPCongestion string    `json:"receiver_tcp_congestion"`
	// --bidir: the same sums for the other direction.
	SumSentBidirReverse     *i3Stream `json:"sum_sent_bidir_reverse"`
	SumReceivedBidirReverse *i3Stream `json:"sum_received_bidir_reverse"`
	SumBidirReverse         *i3Stream `json:"sum_bidir_reverse"`
}
