package sample

// Screening is a sample that can say its run was a short screening burst for another throughput
// probe of the link (throughput_sample.v2 `screens`): the Flink job judges it against the burst's
// own baseline and, when it is low, asks for a run of that probe.
type Screening interface {
	SetScreens(probeID string)
}

// ApplyScreens marks s as of a screening burst for probeID, when s can carry it and probeID is set.
func ApplyScreens(s Sample, probeID string) {
	if x, ok := s.(Screening); ok && probeID != "" {
		x.SetScreens(probeID)
	}
}
