#!/usr/bin/env bash
# `npm run test:container`: the container engine's suites on a real Docker daemon, set up from nothing
# (docs/container.md "Tests") by scripts/with-docker.sh: the `container` vitest projects and the `image` project
# (the Dockerfile built offline and served, test/package/image/image.test.ts); the daemon is stopped afterwards.
# vitest's JSON report goes to .tmp/vitest-container.json, so CI's log tail can name the failed tests.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p .tmp && rm -f .tmp/vitest-container.json
exec bash scripts/with-docker.sh npx vitest run --project container --project conformance-container --project image \
  --reporter=default --reporter=json --outputFile.json=.tmp/vitest-container.json "$@"
