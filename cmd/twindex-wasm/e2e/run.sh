#!/usr/bin/env bash
# End-to-end test of the browser demo: builds the static site, serves it on
# 127.0.0.1, and drives Debian's chromium through it with playwright-core.
# Installs chromium with apt-get when /usr/bin/chromium is missing (needs
# root or sudo). Artifacts (screenshot, metrics.json, keystrokes.json) are
# kept in $E2E_OUT, a new temp folder by default; the path is printed.
#
# The page loads the prebuilt index of the corpus; E2E_INDEX=browser makes
# it index the corpus in the tab instead, to measure that path. The corpus
# has $E2E_DOCS documents (default 3000, as `serve` ships it). The native
# CLI indexes the same corpus and answers parity-queries.txt in each mode;
# demo.test.mjs checks that the page answers the same. Then
# peers.test.mjs compares twindex with MiniSearch, Orama and FlexSearch
# (npm packages pinned in package.json) on the same page and keystrokes,
# $PEERS_ROUNDS rounds (default 2); PEERS=0 skips it.
set -euo pipefail
cd "$(dirname "$0")/../../.."
e2e=cmd/twindex-wasm/e2e
export CGO_ENABLED=0

if [ ! -x /usr/bin/chromium ]; then
  echo "== installing chromium"
  sudo=""
  [ "$(id -u)" = 0 ] || sudo="sudo"
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -q
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium
fi
/usr/bin/chromium --version

echo "== npm ci (playwright-core and the peer libraries, pinned)"
(cd "$e2e" && npm ci --no-audit --no-fund --loglevel=error)

out="${E2E_OUT:-$(mktemp -d "${TMPDIR:-/tmp}/twindex-e2e.XXXXXX")}"
mkdir -p "$out"
echo "== building the site into $out/site"
go run ./cmd/twindex-wasm/serve --build-only "$out/site" --docs "${E2E_DOCS:-3000}"
go build -o "$out/serve" ./cmd/twindex-wasm/serve

echo "== the native CLI's answers to parity-queries.txt, which the page must match"
go build -o "$out/twindex" ./cmd/twindex
node -e 'const fs = require("fs");
  const docs = JSON.parse(fs.readFileSync(process.argv[1]));
  fs.writeFileSync(process.argv[2], docs.map((d) => JSON.stringify(d) + "\n").join(""));' \
  "$out/site/corpus.json" "$out/corpus.jsonl"
"$out/twindex" index --jsonl "$out/corpus.jsonl" --index "$out/cli-index" --quiet
for mode in auto substring text; do
  "$out/twindex" search --index "$out/cli-index" --queries "$e2e/parity-queries.txt" \
    --format jsonl --mode "$mode" --limit 10 --quiet >"$out/cli-$mode.jsonl"
done

echo "== serving it"
"$out/serve" --dir "$out/site" --port 0 >"$out/url" 2>"$out/serve.log" &
server=$!
trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true' EXIT
for _ in $(seq 100); do
  [ -s "$out/url" ] && break
  kill -0 "$server" 2>/dev/null || { cat "$out/serve.log"; exit 1; }
  sleep 0.1
done
url=$(head -n1 "$out/url")
[ -n "$url" ] || { echo "the server printed no URL"; cat "$out/serve.log"; exit 1; }
echo "$url"

echo "== e2e test in chromium"
TWINDEX_URL="$url" E2E_OUT="$out" node --test --test-reporter=spec "$e2e/demo.test.mjs"
if [ "${PEERS:-1}" != 0 ]; then
  echo "== peer comparison in chromium"
  TWINDEX_URL="$url" E2E_OUT="$out" node --test --test-reporter=spec "$e2e/peers.test.mjs"
fi
echo "artifacts: $out"
