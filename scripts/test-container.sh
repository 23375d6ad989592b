#!/usr/bin/env bash
# `npm run test:container`: the container engine's suites on a real Docker daemon, set up from nothing
# (docs/container.md "Tests") by scripts/with-docker.sh: the `container` vitest projects and the `image` project
# (the Dockerfile built offline and served, test/package/image/image.test.ts); the daemon is stopped afterwards.
set -euo pipefail
cd "$(dirname "$0")/.."
exec bash scripts/with-docker.sh npx vitest run --project container --project conformance-container --project image "$@"
