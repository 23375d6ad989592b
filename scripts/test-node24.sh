#!/usr/bin/env bash
# The unit, integration and conformance suites on Node 24, beside `npm test` on the machine's Node 20: a copy of the
# working tree (tracked and untracked files, not node_modules) under .tmp/node24, installed with `npm ci` by Node 24
# so that the native add-ons (better-sqlite3, node-pty) are built for its ABI against its own headers,
# then `vitest run` of those projects with Node 24 first on PATH (every `node` the tests start is Node 24 too).
# Ends with the Node version and vitest's own summary; exits with vitest's status. vitest's JSON report goes to
# .tmp/vitest-node24.json in the tree it was started from, so CI's log tail can name the failed tests.
set -euo pipefail
cd "$(dirname "$0")/.."
report="$PWD/.tmp/vitest-node24.json"
rm -f "$report"
node24=$(bash scripts/node24.sh)
bindir=$(dirname "$node24")
work=.tmp/node24
rm -rf "$work" && mkdir -p "$work"
git ls-files -z --cached --others --exclude-standard | grep -zv '^\.tmp/' | tar --null -T - -cf - | tar -xf - -C "$work"
cd "$work"
export PATH="$bindir:$PATH" npm_config_nodedir="$(dirname "$bindir")"
echo "node24: $(node --version) at $node24"
npm ci --no-audit --no-fund --loglevel=error
node -e "require('better-sqlite3'); require('node-pty'); console.log('node24: native add-ons load (ABI ' + process.versions.modules + ')')"
exec npx vitest run --project unit --project integration --project conformance \
  --reporter=default --reporter=json --outputFile.json="$report" "$@"
