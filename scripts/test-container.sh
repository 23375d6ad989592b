#!/usr/bin/env bash
# `npm run test:container`: the container engine's suites on a real Docker daemon, set up from nothing
# (docs/container.md "Tests") by scripts/with-docker.sh: the `container` vitest projects and the `image` project
# (the Dockerfile built offline and served, test/package/image/image.test.ts); the daemon is stopped afterwards.
# vitest's JSON report goes to .tmp/vitest-container.json, so CI's log tail can name the failed tests.
# One file at a time: the files share one daemon and the host's parent cgroup of all sprites, whose memory and pids
# totals test/container/limits.test.ts sets and measures.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p .tmp && rm -f .tmp/vitest-container.json
exec bash scripts/with-docker.sh npx vitest run --project container --project conformance-container --project image \
  --no-file-parallelism --reporter=default --reporter=json --outputFile.json=.tmp/vitest-container.json "$@"
