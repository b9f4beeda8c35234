#!/usr/bin/env bash
# Install the Debian packages cityvibe's translation needs: the Apertium engine,
# the language pairs for es <-> {ca, gl, en, fr, it, pt}, ca -> {en, fr, it, pt}
# and eu -> {es, en} (Basque originals)
# (every mode data/translate/routes.tsv names), and apertium-apy
# (the HTTP server the ApyTranslator backend talks to, also used by tests).
#
# Idempotent: installs only the packages that are missing. Needs root; when not
# root and something is missing, prints the exact command to run and exits 1.
set -euo pipefail

PACKAGES=(
  apertium          # engine: apertium, lt-proc, ...
  apertium-eng-spa  # modes spa-eng, eng-spa
  apertium-spa-cat  # modes spa-cat, cat-spa (and valencian variants)
  apertium-es-gl    # modes es-gl, gl-es
  apertium-es-pt    # modes es-pt, pt-es (and es-pt_BR)
  apertium-spa-ita  # modes spa-ita, ita-spa
  apertium-fr-es    # modes es-fr, fr-es
  apertium-eng-cat  # modes cat-eng, eng-cat (Catalan originals, data/translate/routes.tsv)
  apertium-fra-cat  # modes cat-fra, fra-cat (Catalan originals; Spanish descriptions via Catalan)
  apertium-cat-ita  # modes cat-ita, ita-cat (Catalan originals; Spanish descriptions via Catalan)
  apertium-por-cat  # modes cat-por, por-cat (Catalan originals; Spanish descriptions via Catalan)
  apertium-eu-es    # mode eu-es (Basque originals into Spanish, then on through the route table)
  apertium-eu-en    # mode eu-en (Basque originals; its analyser decides a text's language beside Spanish)
  apertium-apy      # HTTP API server (Python)
)

missing=()
for p in "${PACKAGES[@]}"; do
  # dpkg-query prints "install ok installed" only for a fully installed package.
  if [ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)" != "install ok installed" ]; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "deps: all ${#PACKAGES[@]} packages already installed"
  exit 0
fi

echo "deps: missing: ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
  echo "deps: not root; run:" >&2
  echo "  sudo apt-get update && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends ${missing[*]}" >&2
  exit 1
fi

export DEBIAN_FRONTEND=noninteractive
# Refresh the package lists only when apt has none yet or a package is unknown.
need_update=0
for p in "${missing[@]}"; do
  if ! apt-cache show "$p" >/dev/null 2>&1; then need_update=1; fi
done
if [ "$need_update" -eq 1 ]; then
  apt-get update -q
fi
apt-get install -y -q --no-install-recommends "${missing[@]}"
echo "deps: installed: ${missing[*]}"
