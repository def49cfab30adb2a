package throughput

import (
	"math"

	"longhaul/ingest/sample"
	"longhaul/probes/probekit"
)

// iperf3Summary builds the one summary record of a direction. Sender figures come from
// sum_sent (UDP: sum before iperf 3.11), receiver figures from sum_received (with --bidir the
// *_bidir_reverse sums for the reverse direction); bits_per_second is the receiver's when
// known, else the sender's. A failed run keeps what the sender counted but no receiver figures
// (the server never reported them) and no bits_per_second; so does an output cut short, whose
// totals are unknown.
func iperf3Summary(r *runInfo, v *i3View, o *i3Output, startMS int64) (sample.Sample, error) {
	rec := r.record(sample.RecordSummary, startMS)
	switch {
	case o.Error != "":
		rec.Error = probekit.RunError(o.Error)
	case o.cut != "":
		rec.Error = &sample.RunError{Class: sample.ErrToolFailed, Message: o.cut}
	}
	sent, recv := v.sent, v.recv
	if rec.Error != nil {
		recv = nil
	}
	if err := checkSum("end.sum_sent", sent); err != nil {
		return nil, err
	}
	if err := checkSum("end.sum_received", recv); err != nil {
		return nil, err
	}
	if sent != nil && (sent.Bytes > 0 || sent.End > 0) {
		rec.SentBytes, rec.SentBitsPerSecond = sample.I64(sent.Bytes), sample.F64(sent.BitsPerSecond)
		rec.Retransmits = count(sent.Retransmits)
	}
	main := sent
	if recv != nil {
		rec.ReceivedBytes, rec.ReceivedBitsPerSecond = sample.I64(recv.Bytes), sample.F64(recv.BitsPerSecond)
		main = recv
	}
	if rec.Error == nil {
		if main == nil {
			return nil, probekit.PathError("end", "no sum_sent, sum_received or sum, and no error: not a finished iperf3 run")
		}
		rec.Bytes, rec.BitsPerSecond = sample.I64(main.Bytes), sample.F64(main.BitsPerSecond)
		rec.StartS, rec.EndS, rec.DurationS = sample.F64(0), sample.F64(main.End), sample.F64(main.End)
	}
	if r.protocol == "udp" {
		udpLoss(rec, v, o)
	} else if v.local {
		senderRTT(rec, v, o)
		receiverWindow(rec, v, o)
	}
	return rec, nil
}

func checkSum(path string, s *i3Stream) error {
	if s == nil {
		return nil
	}
	if s.Bytes < 0 || !finite(s.BitsPerSecond) || !finite(s.End) || !finite(s.Start) {
		return probekit.PathError(path, "bytes %d, bits_per_second %g, end %g are not valid figures", s.Bytes, s.BitsPerSecond, s.End)
	}
	return nil
}

// udpLoss takes jitter and loss from the receiver's figures (sum_received, or sum before
// 3.11) and adds up out-of-order packets over the direction's streams.
func udpLoss(rec *sample.Throughput, v *i3View, o *i3Output) {
	if loss := v.loss; loss != nil && rec.Error == nil {
		if j := loss.JitterMs; j != nil && finite(*j) {
			rec.JitterMs = sample.F64(*j)
		}
		rec.LostPackets = count(loss.LostPackets)
		rec.Packets = count(loss.Packets)
		rec.LossPercent = pct(loss.LostPercent)
	}
	var ooo int64
	var have bool
	for _, st := range o.End.Streams {
		if u := st.UDP; u != nil && v.mine(u.Sender) && u.OutOfOrder != nil && *u.OutOfOrder >= 0 && *u.OutOfOrder < 1<<50 {
			ooo += *u.OutOfOrder
			have = true
		}
	}
	if have && rec.Error == nil {
		rec.OutOfOrder = sample.I64(ooo)
	}
}

// receiverWindow is the largest window the receiver advertised over the run (max_snd_wnd, iperf
// 3.10+), summed over the sending streams: what the receiver let the whole transfer have in
// flight. Like RTT, only the sending side sees it.
func receiverWindow(rec *sample.Throughput, v *i3View, o *i3Output) {
	var sum int64
	var have bool
	for _, st := range o.End.Streams {
		s := st.Sender
		if s == nil || !v.mine(s.Sender) || s.MaxSndWnd == nil || *s.MaxSndWnd <= 0 || *s.MaxSndWnd >= 1<<50 {
			continue
		}
		sum += *s.MaxSndWnd
		have = true
	}
	if have {
		rec.SndWndBytes = sample.I64(sum)
	}
}

// senderRTT takes min, max and mean RTT over the sending streams (µs in iperf3, ms here): the
// smallest minimum, the largest maximum and the mean of the streams' means. Only the sending
// side measures RTT: a reverse run (-R) seen from the client, or a forward run in the
// server's log, has none.
func senderRTT(rec *sample.Throughput, v *i3View, o *i3Output) {
	minRTT, maxRTT, sum := math.Inf(1), 0.0, 0.0
	n := 0
	for _, st := range o.End.Streams {
		s := st.Sender
		if s == nil || !v.mine(s.Sender) || s.MaxRTT == nil || !finite(*s.MaxRTT) || *s.MaxRTT == 0 {
			continue
		}
		maxRTT = math.Max(maxRTT, *s.MaxRTT)
		if s.MinRTT != nil && finite(*s.MinRTT) && *s.MinRTT > 0 {
			minRTT = math.Min(minRTT, *s.MinRTT)
		}
		if s.MeanRTT != nil && finite(*s.MeanRTT) && *s.MeanRTT > 0 {
			sum += *s.MeanRTT
			n++
		}
	}
	if maxRTT > 0 && maxRTT < 1e12 {
		rec.MaxRTTMs = sample.F64(maxRTT / 1000)
	}
	if !math.IsInf(minRTT, 1) {
		rec.MinRTTMs = sample.F64(minRTT / 1000)
	}
	if n > 0 && finite(sum) {
		rec.RTTMs = sample.F64(sum / float64(n) / 1000)
	}
}
