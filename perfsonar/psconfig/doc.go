// Package psconfig reads a pSConfig template (the JSON document perfSONAR meshes are described
// with, e.g. WLCG's https://psconfig.opensciencegrid.org/pub/auto/<FQDN>) and turns it into the
// plan one host runs: which (task, source, dest) pairs it schedules, with which of Longhaul's
// probe kinds, at which interval and slip. It follows pSConfig's own expansion (perfsonar/psconfig
// client: groups, address selection, excludes, scheduled-by and the no-agent hand-over): see
// perfsonar/psconfig/README.md.
//
// Nothing is dropped silently: a pair this host schedules and cannot run (a test type without
// a Longhaul probe, a tool it does not have, a test it could only run from the other end) is
// in the plan with the reason in Unsupported.
//
// Source fetches a template from a file or an HTTPS URL, again every refresh with conditional
// requests, and keeps the last good plan when a fetch fails or a document is invalid.
package psconfig
