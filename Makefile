# cityvibe: build, demo, test, lint, bench, deps.
# The two commands a newcomer needs: `make demo` and `make test`.

CARGO ?= cargo
DEMO_DB ?= data/demo.db

.PHONY: build release demo test lint bench deps clean

build:
	$(CARGO) build --release

release: build

## Install the Debian packages translation needs (Apertium and its pairs).
deps:
	bash scripts/deps.sh

## The main job, offline, against the project's own samples, then some stored events.
demo: deps build
	@rm -f $(DEMO_DB) $(DEMO_DB)-wal $(DEMO_DB)-shm
	./target/release/cityvibe --db $(DEMO_DB) --mirror data/samples run
	./target/release/cityvibe --db $(DEMO_DB) source list
	./target/release/cityvibe --db $(DEMO_DB) events list --limit 8

## Every test: unit, integration, real data, loopback HTTP, real Apertium.
test: deps
	$(CARGO) test --all-targets --no-fail-fast

## Clippy with warnings as errors.
lint:
	$(CARGO) clippy --all-targets -- -D warnings

## Throughput and memory figures (not a pass/fail test).
bench: build
	$(CARGO) build --release --bin cityvibe-bench
	./target/release/cityvibe-bench

clean:
	$(CARGO) clean
