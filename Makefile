# cityvibe: build, demo, test, lint, bench, deps.
# The two commands a newcomer needs: `make demo` and `make test`.

CARGO ?= cargo
DEMO_DB ?= data/demo.db
# The demo keeps its own host ledger, apart from the machine's (P8).
DEMO_STATE ?= data/demo-state
# Where the demo writes the report site (status page, host pages).
DEMO_REPORT ?= data/demo-report
# The moment the demo lists the samples at (`events list --at`): their events
# run from 2026-11-30 into 2027-01, so on any later day the demo still shows
# them as a reader saw them then. `make demo DEMO_AT=` lists as of now.
DEMO_AT ?= 2026-11-30
TARGET_DIR := $(or $(CARGO_TARGET_DIR),target)
CITYVIBE := $(TARGET_DIR)/release/cityvibe

.PHONY: build release demo test fuzz lint scaffold-check bench mt-score deps docs clean upgrade-check

build:
	$(CARGO) build --release

release: build

## Install the Debian packages translation needs (Apertium and its pairs).
deps:
	bash scripts/deps.sh

## The main job, offline, against the project's own samples, then some stored events.
demo: deps build
	@rm -f $(DEMO_DB) $(DEMO_DB)-wal $(DEMO_DB)-shm
	@rm -rf $(DEMO_STATE)
	$(CITYVIBE) --state-dir $(DEMO_STATE) --db $(DEMO_DB) --mirror data/samples run
	$(CITYVIBE) --state-dir $(DEMO_STATE) --db $(DEMO_DB) source list
	$(CITYVIBE) --state-dir $(DEMO_STATE) --db $(DEMO_DB) events list --limit 4 $(if $(DEMO_AT),--at $(DEMO_AT))
	$(CITYVIBE) --state-dir $(DEMO_STATE) --db $(DEMO_DB) events list --limit 4 --lang en $(if $(DEMO_AT),--at $(DEMO_AT))
	$(CITYVIBE) --state-dir $(DEMO_STATE) --db $(DEMO_DB) report --out $(DEMO_REPORT) --lang en

## Every test: unit, integration, real data, loopback HTTP, real Apertium.
## Six tests at a time whatever the cores: most integration tests wait on a
## host's delay or a server's Retry-After rather than compute (on 2 cores the
## suite took 600 s with 2 at a time, 225 s with 6).
TEST_THREADS ?= 6
test: deps
	$(CARGO) test --all-targets --no-fail-fast -- --test-threads=$(TEST_THREADS)
	$(CARGO) test --doc

## A longer fuzzing run of the record drivers: N cases per
## property instead of make test's few (`make fuzz CASES=20000`).
CASES ?= 2000
fuzz: deps
	PROPTEST_CASES=$(CASES) $(CARGO) test --test it sources::fuzz_drivers -- --nocapture

## Adapters never do I/O (docs/ARCHITECTURE.md): no network, file, database or process
## API in adapters/ (comment lines aside), then clippy with warnings as errors
## (clippy.toml's disallowed methods and types are denied in adapters/).
ADAPTER_IO := std::fs|std::net|std::process|ureq|rusqlite|File::|TcpStream|UdpSocket|Command::|OpenOptions

lint:
	@bad=$$(grep -nE '$(ADAPTER_IO)' adapters/*.rs | grep -vE '^[^:]+:[0-9]+:[[:space:]]*//' || true); \
	if [ -n "$$bad" ]; then \
	  echo "$$bad" >&2; \
	  echo "lint: adapters/ must not use network, file, database or process APIs (docs/ARCHITECTURE.md: adapters never do I/O)" >&2; \
	  exit 1; \
	fi
	$(CARGO) clippy --all-targets -- -D warnings
	$(CARGO) fmt --check
	RUSTDOCFLAGS="-D warnings" $(CARGO) doc --no-deps --document-private-items

## Prove that `cityvibe adapter new` yields adapters that compile and pass their
## tests untouched: copy the crate (without target/ and .git) to a temp dir,
## scaffold one adapter per format there, check each sample offline, run the
## library tests (the new adapters' own tests) and the conformance suite, and
## lint the new files. Builds go to SCAFFOLD_TARGET_DIR (kept between runs),
## first seeded with hard links to the main debug build so the dependencies
## are not compiled twice.
SCAFFOLD_TARGET_DIR ?= $(or $(CARGO_TARGET_DIR),$(CURDIR)/target)/scaffold-check

scaffold-check:
	@set -e; tmp=$$(mktemp -d "$${TMPDIR:-/tmp}/cityvibe-scaffold.XXXXXX"); \
	trap 'rm -rf "$$tmp"' EXIT; \
	tar --exclude=./target --exclude=./.git --exclude='./data/*.db*' --exclude=./fuzz/target --exclude=./fuzz/corpus --exclude=./fuzz/artifacts -cf - . | tar -C "$$tmp" -xf -; \
	if [ ! -d "$(SCAFFOLD_TARGET_DIR)/debug" ] && [ -d "$(TARGET_DIR)/debug" ]; then \
	  mkdir -p "$(SCAFFOLD_TARGET_DIR)"; \
	  cp -al "$(TARGET_DIR)/debug" "$(SCAFFOLD_TARGET_DIR)/" 2>/dev/null || cp -a "$(TARGET_DIR)/debug" "$(SCAFFOLD_TARGET_DIR)/"; \
	fi; \
	export CARGO_TARGET_DIR="$(SCAFFOLD_TARGET_DIR)"; \
	cd "$$tmp"; \
	for f in json xml csv; do \
	  $(CARGO) run --quiet --bin cityvibe -- adapter new probe_$$f --host agenda-$$f.example.es --format $$f; \
	done; \
	for f in json xml csv; do \
	  $(CARGO) run --quiet --bin cityvibe -- adapter check probe_$$f --sample data/samples/agenda-$$f.example.es/TODO/probe_$$f.$$f --limit 1; \
	done; \
	if $(CARGO) run --quiet --bin cityvibe -- source enable probe_json; then echo "scaffold-check: source enable switched on a TODO manifest (P3)" >&2; exit 1; fi; \
	cp sources.toml "$$tmp/sources.toml.kept"; \
	sed -i '/^\[sources.probe_json\]/,/^enabled/ s/^enabled = false/enabled = true/' sources.toml; \
	out=$$($(CARGO) run --quiet --bin cityvibe -- --db "$$tmp/p3.db" --mirror "$$tmp/data/samples" run --source probe_json --no-translate --json || true); \
	echo "$$out" | grep -q '"status": "refused"' && echo "$$out" | grep -q 'TODO' || { echo "scaffold-check: run did not refuse a TODO manifest (P3): $$out" >&2; exit 1; }; \
	cp "$$tmp/sources.toml.kept" sources.toml; \
	$(CARGO) test --lib probe_; \
	$(CARGO) test --test it sources::conformance::; \
	if grep -nE '$(ADAPTER_IO)' adapters/probe_*.rs | grep -vE '^[^:]+:[0-9]+:[[:space:]]*//'; then echo "scaffold uses an I/O API" >&2; exit 1; fi; \
	warn=$$($(CARGO) clippy --lib --message-format=short -- -D warnings 2>&1 | grep 'adapters/probe_' || true); \
	if [ -n "$$warn" ]; then echo "$$warn" >&2; echo "scaffold-check: clippy warns on the scaffolded adapters" >&2; exit 1; fi; \
	echo "scaffold-check: json, xml and csv scaffolds compile, pass their tests and the conformance suite; a TODO manifest is neither switched on nor fetched (P3)"

## Throughput and memory figures (not a pass/fail test): the translation
## scores, then the four benchmarks in benches/ (cargo builds them and the
## release binary they run, in release). `make test` only compiles them.
## The upgrade check: a release built from HEAD plus one comment line in
## src/translate/finish/, run on a database HEAD's release filled with the
## real Madrid feed's first UPGRADE_EVENTS events, must send 0 texts to the
## engine and change no stored text (scripts/upgrade_check.sh; two release
## builds and a translation run: minutes, not part of `make test`).
UPGRADE_EVENTS ?= 100
upgrade-check:
	bash scripts/upgrade_check.sh --events $(UPGRADE_EVENTS)

bench: build mt-score
	$(CARGO) bench --bench ingest
	$(CARGO) bench --bench esmadrid
	$(CARGO) bench --bench translate
	$(CARGO) bench --bench report

## Translation quality: chrF++ per language on the dev set MT_DEV names,
## beside the floor of copying the Spanish (needs `pip install sacrebleu`).
MT_DEV ?= ../shared/mt-dev

## A host ledger of its own: the runs read a local mirror, and the machine's
## ledger caps 24 requests a day per host (a day of scoring skips a source).
mt-score: build
	state=$$(mktemp -d) && CITYVIBE_STATE_DIR=$$state python3 $(MT_DEV)/score.py .; rc=$$?; rm -rf $$state; exit $$rc

## The command reference in docs/OPERATING.md, generated from the clap
## definitions (src/cli.rs) by clap-markdown; `make test` fails while the
## committed reference differs from what they generate.
docs:
	CITYVIBE_UPDATE_DOCS=1 $(CARGO) test --test it surface::docs_repo::the_command_reference_in_operating_md_is_what_clap_generates -- --exact

clean:
	$(CARGO) clean
