# Longhaul: one entry point for building, running and testing every component.
# Ports and heap sizes: deploy/services.yaml (override any LONGHAUL_* in the environment).
# `make help` lists the targets: each `## name: text` line below is one.
SHELL := /bin/bash
ROOT  := $(abspath .)
BIN   := $(ROOT)/bin
GO    ?= go
export PATH := /usr/local/go/bin:$(PATH)
# version, commit and build date stamped into the binaries (--version): scripts/version.sh;
# -trimpath as make dist builds them, so both share the Go build cache
GO_LDFLAGS = $(shell bash scripts/version.sh ldflags)

.PHONY: all help build build-go build-flink prereqs up down status check test test-go test-java \
        test-python test-integration test-install test-e2e test-cluster fuzz dist demo demo-down bench bench-short \
        real-world-psconfig real-world-outputs clean

all: build

## help: this list
help:
	@sed -n 's/^## \([a-z0-9-]*\): \(.*\)/\1\t\2/p' $(MAKEFILE_LIST) | expand -t 22

## build: every component; executables go to bin/
build: build-go build-flink

## build-go: the agent, the operator CLI and the testbed's delay line into bin/
build-go:
	@mkdir -p $(BIN)
	$(GO) build -trimpath -ldflags "$(GO_LDFLAGS)" -o $(BIN)/longhaul-probe ./collectors/cmd/longhaul-probe
	$(GO) build -trimpath -ldflags "$(GO_LDFLAGS)" -o $(BIN)/longhaul ./operator/cmd/longhaul
	$(GO) build -o $(BIN)/longhaul-netemu ./tests/testbed/netemu

## build-flink: the Flink job jar, bin/longhaul-flink.jar (Maven, JDK 17)
build-flink:
	@mkdir -p $(BIN)
	bash scripts/build-flink.sh

## dist: release artifacts into dist/: .deb and .rpm (amd64, arm64) of both packages, SBOMs, SHA256SUMS
dist: prereqs
	bash scripts/dist.sh

## prereqs: OS packages, JDK, Python venv and linters, Node tools (idempotent)
prereqs:
	bash scripts/prereqs.sh

## up: start the native stack (Kafka, Flink, InfluxDB, Telegraf, Alertmanager) on 127.0.0.1
up: prereqs build
	bash scripts/stack/up.sh

## down: stop the native stack (the job with a savepoint first)
down:
	bash scripts/stack/down.sh

## status: every supervised process, the job's tasks, the watchdog's view
status:
	bash scripts/stack/status.sh

## check: formatters, linters, unit tests, generated files (minutes; starts no service)
check: prereqs
	bash scripts/check.sh

## test: every test of every tier below, with stage times and one "N passed, N failed" line
test: prereqs build
	bash scripts/test-all.sh

## test-go: Go unit tests, the fuzz targets on their committed corpora
test-go: prereqs
	bash scripts/test-all.sh go

## fuzz: explore every Go fuzz target within FUZZ_BUDGET seconds (600); findings become seeds
fuzz: prereqs
	bash scripts/fuzz.sh

## test-java: the Flink job's unit tests (Surefire); builds bin/longhaul-flink.jar
test-java: prereqs
	bash scripts/test-all.sh java

## test-python: Python unit tests (contract, dashboards, compose, Kubernetes, systemd)
test-python: prereqs
	bash scripts/test-all.sh python

## test-integration: Go, Python and Java tests against the real native stack (started if down)
test-integration: prereqs build
	bash scripts/test-all.sh integration

## test-install: the packages: lintian, rpmlint; the agent's .deb on a clean Debian 12 (nspawn) with the stack
test-install: prereqs build
	bash scripts/test-all.sh install

## test-e2e: the namespace testbed's stories on the native stack (started if down)
test-e2e: prereqs build
	bash scripts/test-all.sh e2e

## test-cluster: the story scaled out (3 brokers, 2 TaskManagers, JobManager HA), its own stack
test-cluster: prereqs build
	bash scripts/test-all.sh cluster

## demo: the whole system on an emulated long-haul testbed
demo: prereqs build
	bash scripts/demo.sh

## demo-down: remove the demo's testbed and agents (the stack keeps running)
demo-down:
	bash scripts/demo-down.sh

## bench: performance figures on this machine (docs/benchmarks.md)
bench: prereqs build
	bash scripts/bench.sh

## bench-short: every benchmark once at a small size, so none rots (CI runs it; figures not judged)
bench-short: prereqs build
	BENCH_SHORT=1 bash scripts/bench.sh

## real-world-psconfig: the pSConfig planner over published templates (DIR=../shared/real-world/psconfig)
real-world-psconfig:
	bash scripts/real-world-psconfig.sh $(DIR)

## real-world-outputs: parse every output others published (DIR=, default ../shared/real-world/tool-outputs): ok, refused and why
real-world-outputs: build-go
	bash scripts/real-world-outputs.sh $(DIR)

## clean: remove build outputs (bin/, flink-jobs/target)
clean:
	rm -rf $(BIN) dist flink-jobs/target
