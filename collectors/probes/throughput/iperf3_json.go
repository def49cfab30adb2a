package throughput

// The parts of `iperf3 -J` output the parser reads (iperf 3.1 … 3.17). Pointers are fields a
// version or a mode may leave out.
type i3Output struct {
	Start     i3Start      `json:"start"`
	Intervals []i3Interval `json:"intervals"`
	End       i3End        `json:"end"`
	Error     string       `json:"error"`
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
	SockBufsize *int64 `json:"sock_bufsize"`
	TestStart   *struct {
		Protocol   string  `json:"protocol"`
		NumStreams int64   `json:"num_streams"`
		Omit       float64 `json:"omit"`
		Duration   float64 `json:"duration"`
		Reverse    int64   `json:"reverse"`
	} `json:"test_start"`
}

type i3Interval struct {
	Streams []i3Stream `json:"streams"`
	Sum     *i3Stream  `json:"sum"`
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
	RTT           *float64 `json:"rtt"`    // µs
	RTTVar        *float64 `json:"rttvar"` // µs
	MinRTT        *float64 `json:"min_rtt"`
	MaxRTT        *float64 `json:"max_rtt"`
	MeanRTT       *float64 `json:"mean_rtt"`
	JitterMs      *float64 `json:"jitter_ms"`
	LostPackets   *int64   `json:"lost_packets"`
	Packets       *int64   `json:"packets"`
	LostPercent   *float64 `json:"lost_percent"`
	OutOfOrder    *int64   `json:"out_of_order"`
	Omitted       *bool    `json:"omitted"`
}

type i3End struct {
	Streams []struct {
		Sender   *i3Stream `json:"sender"`
		Receiver *i3Stream `json:"receiver"`
		UDP      *i3Stream `json:"udp"`
	} `json:"streams"`
	SumSent             *i3Stream `json:"sum_sent"`
	SumReceived         *i3Stream `json:"sum_received"`
	Sum                 *i3Stream `json:"sum"`
	SenderTCPCongestion string    `json:"sender_tcp_congestion"`
}
