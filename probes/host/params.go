package host

// Params of a host probe.
type Params struct {
	// Route also records the egress interface towards the target and its MTU. Default true.
	Route bool `yaml:"route"`
}

// DefaultParams is every default in one place.
func DefaultParams() Params { return Params{Route: true} }
