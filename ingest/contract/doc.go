// Package contract holds the names of Longhaul's contract for Go code: topic names by role, the
// event kinds and which recovery closes which alert, and the thresholds several components
// share. contract_gen.go is generated from ingest/contract.yaml and ingest/topics.yaml; edit
// those and run `go generate ./ingest/...`.
package contract

//go:generate go run ../gen -root ../..
//go:generate go run ../../deploy/kubernetes/gen -topics ../topics.yaml -out ../../deploy/kubernetes/kafka
