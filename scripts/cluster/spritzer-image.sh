#!/usr/bin/env bash
# Builds spritzer's own image from this checkout's Dockerfile, offline, as `docker save` tar at
# .cache/k8s/images/spritzer.tar, tagged `spritzer:latest` (the name deploy/k8s/spritzer.yaml runs, and its
# --agent-image). The context is scripts/image-context.ts's (the packed package plus this checkout's compiled
# production node_modules: no registry); both Dockerfile bases are the container suites' test image, which holds this
# host's node (scripts/with-docker.sh builds it), as test/package/image/image.test.ts builds it.
# Usage: scripts/cluster/spritzer-image.sh [--rebuild]   (prints the tar's path; made again when the checkout changed)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
tar="$root/.cache/k8s/images/spritzer.tar"
if [[ "${1:-}" == --inside ]]; then
  ctx=$2
  docker build --network none -q -t spritzer:latest --build-arg "BUILD_BASE=$SPRITZER_TEST_IMAGE" \
    --build-arg "BASE=$SPRITZER_TEST_IMAGE" "$ctx" >/dev/null
  docker save -o "$tar.tmp" spritzer:latest
  mv "$tar.tmp" "$tar"
  exit 0
fi
# The image is made again when the checkout changed since it was built (the commit, and any change not committed),
# so a deploy never runs an older spritzer than the one in the tree.
stamp=$(cd "$root" && { git rev-parse HEAD; git status --porcelain --untracked-files=no; git diff HEAD; } 2>/dev/null | sha256sum | cut -c1-16)
if [[ -s "$tar" && "${1:-}" != --rebuild && "$(cat "$tar.stamp" 2>/dev/null)" == "$stamp" ]]; then echo "$tar"; exit 0; fi
mkdir -p "$(dirname "$tar")"
ctx=$(mktemp -d /tmp/spritzer-image-ctx.XXXXXX)
trap 'rm -rf "$ctx"' EXIT
echo "spritzer-image.sh: packing and building spritzer:latest (a few minutes)" >&2
(cd "$root" && nice -n 19 npx tsx scripts/image-context.ts "$ctx" >&2)
nice -n 19 bash "$root/scripts/with-docker.sh" bash "$here/spritzer-image.sh" --inside "$ctx" >&2
echo "$stamp" > "$tar.stamp"
echo "$tar"
