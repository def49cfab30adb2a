# Longhaul: one entry point for building, running and testing every component.
# Ports and heap sizes: scripts/stack/defaults.env (override any LONGHAUL_* in the environment).
SHELL := /bin/bash
ROOT  := $(abspath .)
BIN   := $(ROOT)/bin
GO    ?= go
export PATH := /usr/local/go/bin:$(PATH)

.PHONY: all build build-go build-flink prereqs up down status test test-go test-java test-python \
        test-integration demo demo-down bench clean

all: build

## build: every component; executables go to bin/
build: build-go build-flink

build-go:
	@mkdir -p $(BIN)
	$(GO) build -o $(BIN)/longhaul-probe ./collectors/cmd/longhaul-probe
	$(GO) build -o $(BIN)/longhaul ./operator/cmd/longhaul
	$(GO) build -o $(BIN)/longhaul-netemu ./tests/testbed/netemu

build-flink:
	@mkdir -p $(BIN)
	bash scripts/build-flink.sh

## prereqs: OS packages, JDK, Python test deps (idempotent)
prereqs:
	bash scripts/prereqs.sh

## up / down / status: the native stack (Kafka, Flink, InfluxDB, Telegraf) on 127.0.0.1
up: prereqs build
	bash scripts/stack/up.sh

down:
	bash scripts/stack/down.sh

status:
	bash scripts/stack/status.sh

## test: every test of every language, unit and integration, with one summary line
test: prereqs build
	bash scripts/test-all.sh

## demo: the whole system on an emulated long-haul testbed
demo: prereqs build
	bash scripts/demo.sh

demo-down:
	bash scripts/demo-down.sh

bench: prereqs build
	bash scripts/bench.sh

clean:
	rm -rf $(BIN) flink-jobs/target
