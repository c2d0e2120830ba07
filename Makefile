# Kaboodle: one Makefile for a newcomer, CI and the cluster build. `make help` lists every target.
SHELL := /bin/bash
.DEFAULT_GOAL := help

NODE_VERSION := $(shell cat .nvmrc)
NODE_ARCH := $(shell uname -m | sed -e 's/x86_64/x64/' -e 's/aarch64/arm64/')
TOOLS := $(CURDIR)/.tools
NODE_PKG_DIR := $(TOOLS)/node-$(NODE_VERSION)/node_modules/node-linux-$(NODE_ARCH)
SYSTEM_NODE_VERSION := $(shell node --version 2>/dev/null | sed 's/^v//')

# Use the machine's Node only when it is exactly the pinned major; otherwise provision the pinned one.
ifeq ($(firstword $(subst ., ,$(SYSTEM_NODE_VERSION))),$(firstword $(subst ., ,$(NODE_VERSION))))
NODE_STAMP :=
else
NODE_STAMP := $(NODE_PKG_DIR)/bin/node
export PATH := $(NODE_PKG_DIR)/bin:$(PATH)
# native addons (node-gyp) must build against the headers of the Node that runs them
export npm_config_nodedir := $(NODE_PKG_DIR)
endif

export KABOODLE_DATA_DIR ?= $(CURDIR)/.data
# Node keeps the bytecode of every module it compiles here and reads it back in the next process
# (make up, each product a test starts, each vitest worker): 12-15 % less CPU on the unit tests
# (docs/benchmarks/2026-11-27-ci-time.md). Keyed by Node's version; safe to delete.
export NODE_COMPILE_CACHE ?= $(CURDIR)/.cache/node-compile
PORT ?= 8080
export PORT
NPM_INSTALL := npm install --no-audit --no-fund --loglevel=error
# onnxruntime-node ships its CPU runtime in the tarball; its install script would only fetch GPU
# (CUDA) libraries, which Kaboodle does not use and an offline machine cannot download.
export ONNXRUNTIME_NODE_INSTALL := skip

##@ The two commands
up: install build ## Install, build and run the whole product (kaboodle --target=all) on embedded engines
	@echo "Starting Kaboodle on http://localhost:$(PORT) (data in $(KABOODLE_DATA_DIR)); Ctrl-C to stop"
	node services/server/src/main.ts --target=all

test: install build test-deps ## Install, build and run every test tier (real engines are used when their URLs are set)
	$(MAKE) --no-print-directory -j2 --output-sync=target check
	tests/run-vitest.sh

##@ Building
$(NODE_PKG_DIR)/bin/node: .nvmrc
	@echo "Provisioning Node $(NODE_VERSION) into $(TOOLS) (machine has $(or $(SYSTEM_NODE_VERSION),none))"
	@mkdir -p $(TOOLS)/node-$(NODE_VERSION)
	@npm install --prefix $(TOOLS)/node-$(NODE_VERSION) --no-audit --no-fund --loglevel=error --no-save node-linux-$(NODE_ARCH)@$(NODE_VERSION)
	@touch $@

node: $(NODE_STAMP) ## Provision the pinned Node (.nvmrc) locally when the machine's is another version
	@echo "node $$(node --version) at $$(command -v node)"

node_modules/.install-stamp: $(NODE_STAMP) package.json package-lock.json $(wildcard */package.json services/*/package.json frontends/*/package.json)
	$(NPM_INSTALL)
	@touch $@

install: node_modules/.install-stamp ## Install every workspace's dependencies with the pinned Node

build: install ## Generate protobuf code and the frontends' API types (from the OpenAPI document), build the web frontends
	npm run --silent -w @kaboodle/proto generate
	npm run --silent -w @kaboodle/server generate:api
	npm run --silent build --workspaces --if-present

proto: install ## Regenerate TypeScript from proto/ (committed, so a diff shows a change)
	npm run -w @kaboodle/proto generate

db-types: install ## Regenerate each service's row types from its migrations (committed; a stale file fails its test)
	node services/catalogue/src/db-schema.ts
	node services/auth/src/db-schema.ts
	node services/ingestion/src/db-schema.ts

test-deps: ## Debian packages the tests use (Chromium for e2e, qpdf for PDF fixtures), installed when missing
	deploy/tools/ensure-debian-packages.sh

##@ Quality
# Each check is one single-threaded process: `make -j2 check` runs two at a time (make test does).
check: typecheck lint format-check boundaries ## Every static check: types, lint, format, import boundaries

typecheck: install ## Type-check every TypeScript workspace (strict)
	npm run --silent typecheck

lint: install ## Lint (eslint)
	npm run --silent lint

format-check: install ## Check formatting (prettier)
	npm run --silent format:check

boundaries: install ## Check the architecture's import rules (.dependency-cruiser.cjs: services apart, packages by index only)
	npm run --silent boundaries

format: install ## Format the tree with prettier
	npm run --silent format

test-service: install ## One service's or remote's tests: make test-service S=search (unit tests, then the api/contract/topology/e2e files named for it)
	node deploy/tools/test-service.ts $(S)

proto-breaking: install ## buf breaking: proto/ against main (on main: against the previous commit); AGAINST=<ref> to choose
	deploy/tools/proto-breaking.sh $(AGAINST)

test-unit: install ## Unit tests only (colocated *.test.ts)
	npx vitest run --project unit

test-contract: install ## Port contract suites (embedded adapters, and real engines whose URLs are set)
	npx vitest run --project contract

test-topology: install build ## The same scenario with --target=all and with services as separate processes
	npx vitest run --project topology --project topology-private

##@ Engines (PostgreSQL, Kafka-protocol mock broker, s3rver) for local runs and CI
engines-up: install ## Start the engines that can run on this machine; prints the env to export
	deploy/engines/engines-up.sh

engines-down: ## Stop the engines started by engines-up
	deploy/engines/engines-down.sh

##@ Fuzzing (tests/fuzz; docs/fuzzing.md)
test-fuzz: install ## The fuzzing campaign's seeded short run (a few hundred cases; part of make test)
	npx vitest run --project fuzz

fuzz: install build test-deps ## Fuzz every operation of /api/openapi.json: 10,000 cases (FUZZ_CASES, FUZZ_SEED), split mode too when the engines are set
	node tests/fuzz/run.ts

##@ Benchmarks
bench: install build ## Print performance figures (medians, side by side)
	node tests/bench/run.ts

bench-search-1m: install ## Issue 21 at 1,000,000 items on the product process (fills .cache/bench/product-1m once; BASELINE=<checkout> side by side, LOG=<file>)
	node tests/bench/search/product.bench.ts --count 1000000 --reuse .cache/bench/product-1m $(if $(BASELINE),--baseline $(BASELINE)) $(if $(LOG),--log $(LOG)) $(BENCH_ARGS)

##@ Kubernetes
chart-lint: install ## helm lint + template the chart offline
	deploy/tools/helm.sh lint charts/kaboodle
	deploy/tools/helm.sh template kaboodle charts/kaboodle --set deploymentMode=distributed >/dev/null

clean: ## Remove build output, local data and the provisioned Node
	rm -rf .data test-output frontends/*/dist $(TOOLS)

help: ## List every target
	@awk 'BEGIN {FS = ":.*##"; printf "Usage: make \033[36m<target>\033[0m\n"} /^[a-zA-Z_-]+:.*?##/ { printf "  \033[36m%-16s\033[0m %s\n", $$1, $$2 } /^##@/ { printf "\n\033[1m%s\033[0m\n", substr($$0, 5) }' $(MAKEFILE_LIST)

.PHONY: test-service proto-breaking up test boundaries test-fuzz fuzz test-deps node install build proto db-types check typecheck lint format format-check test-unit test-contract test-topology engines-up engines-down bench bench-search-1m chart-lint clean help
