#!/bin/sh
# Seed the cargo-fuzz corpora (fuzz/corpus/TARGET, not committed) with the
# project's samples, the real feeds (../shared/realdata beside the project,
# or CITYVIBE_REALDATA=DIR; read, never committed) and the hostile cases
# below (docs/POLITENESS.md, "No input makes a run unbounded"). Run from the project root: sh fuzz/seed.sh
set -eu
real="${CITYVIBE_REALDATA:-../shared/realdata}"
for t in json csv xml; do mkdir -p "fuzz/corpus/$t"; done
for ext in json csv xml; do
  find data/samples "$real" -name "*.$ext" 2>/dev/null | while read -r f; do
    cp "$f" "fuzz/corpus/$ext/$(echo "$f" | tr '/' '_')"
  done
done
# diba's feed paths have no extension: JSON.
find data/samples/do.diba.cat -type f | while read -r f; do
  cp "$f" "fuzz/corpus/json/$(echo "$f" | tr '/' '_')"
done
printf '[{"a": 1}, {"a": ]"x", "b": 1}, {"a": 2}]' > fuzz/corpus/json/hostile-bracket
printf '{"@graph": [{"a": 1} : {"a": 2}, ]}' > fuzz/corpus/json/hostile-colon
printf '<serviceList><service id="1"><a><a><a>x</a></a></a></service></serviceList>' > fuzz/corpus/xml/hostile-deep
printf ' ID-EVENTO;TITULO\n1;"a ""b"" \n c"\n2;x\n' > fuzz/corpus/csv/hostile-quotes
