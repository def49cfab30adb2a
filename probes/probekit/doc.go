// Package probekit holds what every probe kind shares: the context a parser needs (Meta), the
// classification of failed runs into the schemas' error classes, strict decoding of a probe's
// `params`, size/rate/duration units, target checks, line handling for text importers, the
// pScheduler archive envelope and the run id of imports. It is exported (not internal) because
// `longhaul-probe parse` uses it too.
package probekit
