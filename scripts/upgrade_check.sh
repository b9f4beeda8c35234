#!/usr/bin/env bash
# The upgrade check (docs/TRANSLATION.md, "Cache and upgrades"): a release
# built from REV plus one comment line in src/translate/finish/, run on a
# database that the release built from REV filled, sends 0 texts to the
# engine (the run's `translated` is 0) and leaves every stored text as it was.
#
# It builds both releases for real, each in a git worktree of its own (one
# target folder, seeded with hard links to ./target/release so that the
# dependencies are not compiled again), fills a fresh database with the
# first N events of the real 2025-10 Madrid feed (../shared/realdata) in the
# seven languages with Apertium, runs the second release on it, and
# compares what is stored. Prints the figures; exits 1 when the check fails.
#
# Not for: CI (two release builds and a translation run take minutes; wrap
# it in the machine's lock for heavy jobs when others share it), or a
# finishing whose output changed (that one rewrites texts, still asking the
# engine nothing: `translate_engine_answers`).
#
# usage (from the project root): scripts/upgrade_check.sh [--rev REV] [--events N] [--keep DIR]
#   REV: the release to check (default HEAD); N: events of the feed (default
#   100; 0: all 1,001); --keep DIR: work there and keep it (default a
#   temporary folder, removed at the end).
set -euo pipefail
rev=HEAD events=100 keep=
while [ $# -gt 0 ]; do
  case $1 in
    --rev) rev=$2; shift 2 ;;
    --events) events=$2; shift 2 ;;
    --keep) keep=$2; shift 2 ;;
    *) echo "usage: $0 [--rev REV] [--events N] [--keep DIR]" >&2; exit 2 ;;
  esac
done
root=$(git rev-parse --show-toplevel)
feed=$root/../shared/realdata/madrid_300107/300107-0-agenda-actividades-eventos_2025-10.json
[ -f "$feed" ] || { echo "upgrade_check: the real Madrid feed is missing ($feed): it needs ../shared/realdata" >&2; exit 2; }
command -v apertium >/dev/null || { echo "upgrade_check: Apertium is not installed (make deps)" >&2; exit 2; }
if [ -n "$keep" ]; then work=$keep; rm -rf "$work"; mkdir -p "$work"; else work=$(mktemp -d "${TMPDIR:-/tmp}/cityvibe-upgrade.XXXXXX"); fi
work=$(cd "$work" && pwd)
cleanup() {
  git -C "$root" worktree remove --force "$work/a" 2>/dev/null || true
  git -C "$root" worktree remove --force "$work/b" 2>/dev/null || true
  [ -n "$keep" ] || rm -rf "$work"
}
trap cleanup EXIT
sha=$(git -C "$root" rev-parse "$rev")
git -C "$root" worktree add --detach "$work/a" "$sha" >/dev/null
git -C "$root" worktree add --detach "$work/b" "$sha" >/dev/null
echo "// The upgrade check's comment line: no output changes." >> "$work/b/src/translate/finish/mod.rs"
mkdir -p "$work/target"
[ -d "$root/target/release" ] && cp -al "$root/target/release" "$work/target/release"
rm -f "$work/target/release/.cargo-lock"
for side in a b; do
  echo "upgrade_check: building $side ($(git -C "$work/$side" describe --always --dirty))" >&2
  (cd "$work/$side" && CARGO_TARGET_DIR=$work/target cargo build --release --quiet)
  cp "$work/target/release/cityvibe" "$work/cityvibe-$side"
done
mkdir -p "$work/run/m/datos.madrid.es/egob/catalogo"
python3 - "$feed" "$events" "$work/run/m/datos.madrid.es/egob/catalogo/300107-0-agenda-actividades-eventos.json" <<'PY'
import json, sys
raw = open(sys.argv[1], 'rb').read().decode('utf-8', 'replace')
# The feed holds raw control characters inside its strings.
feed = json.loads(''.join(' ' if ord(c) < 32 else c for c in raw))
n = int(sys.argv[2])
if n:
    feed['@graph'] = feed['@graph'][:n]
open(sys.argv[3], 'w').write(json.dumps(feed))
PY
cat > "$work/run/sources.toml" <<'T'
[settings]
translator = "apertium"
languages = ["es", "en", "fr", "it", "pt", "ca", "gl"]

[sources.madrid]
enabled = true
T
export CITYVIBE_STATE_DIR=$work/run/state
db=$work/run/cityvibe.db
run() { "$work/cityvibe-$1" --config "$work/run/sources.toml" --db "$db" --mirror "$work/run/m" run --force --source madrid --json; }
dump() {
  python3 - "$db" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
for row in db.execute("SELECT e.source_event_id, t.lang, t.field, t.origin, t.text FROM translations t JOIN events e ON e.id = t.event_id ORDER BY 1, 2, 3"):
    print('\t'.join(str(c).replace('\n', ' ') for c in row))
PY
}
# The texts the last run sent to the engine: its `translated`, as `cityvibe runs` shows it.
translated() {
  python3 - "$db" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
print(db.execute("SELECT sum(translated) FROM run_sources WHERE run_id = (SELECT max(run_id) FROM run_sources)").fetchone()[0] or 0)
PY
}
run a > "$work/run-a.json"
sent_a=$(translated)
dump > "$work/before.tsv"
run b > "$work/run-b.json"
sent_b=$(translated)
dump > "$work/after.tsv"
rows=$(wc -l < "$work/before.tsv")
differ=$(diff "$work/before.tsv" "$work/after.tsv" | grep -c '^>' || true)
echo "upgrade_check: $sha, $events events: release a sent $sent_a texts to the engine and stored $rows translations; release b (one comment line in src/translate/finish/) sent $sent_b, and $differ stored texts differ"
[ "$sent_a" -gt 0 ] && [ "$sent_b" -eq 0 ] && [ "$differ" -eq 0 ] && [ "$rows" -gt 0 ]
