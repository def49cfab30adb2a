// Package alerting keeps Prometheus Alertmanager in step with Longhaul's events: the alert
// bridge (Bridge) turns each alert event of the events topic into an Alertmanager alert, each
// recovery into its resolution and each info event into a short-lived notice, re-posts what is
// open so Alertmanager never resolves it on its own, and after a restart rebuilds the open set
// from the topic and reconciles Alertmanager with it. An incident (event.v4) is one alert named
// by its location and labelled with the team that owns it (contacts file), plus one member alert
// per link it explains, on which Alertmanager inhibits those links' own alerts. Silences
// (maintenance windows), the teams' routes and the Alertmanager web config (TLS, basic-auth users
// from secret files) are here too.
//
// Alertmanager does the rest: grouping by site and kind, inhibition, repeat, delivery by email
// and webhook (alerting/alertmanager.yml).
package alerting
