#!/usr/bin/env bash
# Makes the images the local cluster runs, once, as one `docker save` tar at .cache/k8s/images/images.tar:
#   docker.io/local/pause:1           the pod sandbox: one static binary (build/pause) that waits for a signal
#   docker.io/local/sprite:1          the container suites' test image (scripts/with-docker.sh builds it)
#   docker.io/local/spritzer-agent:1  that image plus /app/dist/agent/agent.mjs and /app/node_modules/node-pty, the two
#                                     paths the Kubernetes runtime's init container copies (as from the Dockerfile's image)
# The names are the kubelet's normalised forms (`local/x:1` is `docker.io/local/x:1`); pods use them with no pull.
# Usage: scripts/cluster/images.sh   (prints the tar's path; a no-op while the agent bundle is unchanged)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="$root/.cache/k8s/images"
tar="$out/images.tar"
if [[ "${1:-}" != --inside ]]; then
  mkdir -p "$out/ctx"
  # The agent bundle, as `npm run build` makes it for the Dockerfile (about 1 s); the images are made again only
  # when it changed, so that pods never run an agent older than the code.
  (cd "$root" && nice -n 19 npx tsx scripts/build-agent.ts "$out/ctx/agent.mjs.new" >&2)
  if [[ -s "$tar" ]] && cmp -s "$out/ctx/agent.mjs.new" "$out/ctx/agent.mjs"; then
    rm -f "$out/ctx/agent.mjs.new"
    echo "$tar"
    exit 0
  fi
  mv "$out/ctx/agent.mjs.new" "$out/ctx/agent.mjs"
  rm -f "$tar"
  [[ -f "$root/node_modules/node-pty/build/Release/pty.node" ]] || { echo "images.sh: node-pty is not built (npm ci)" >&2; exit 1; }
  rm -rf "$out/ctx/node-pty" && mkdir -p "$out/ctx/node-pty/build"
  cp -r "$root/node_modules/node-pty/package.json" "$root/node_modules/node-pty/lib" "$out/ctx/node-pty/"
  cp -r "$root/node_modules/node-pty/build/Release" "$out/ctx/node-pty/build/"
  (cd "$here/build" && CGO_ENABLED=0 nice -n 19 go build -trimpath -ldflags "-s -w" -o "$out/ctx/pause" ./pause)
  # with-docker.sh and the tools it runs (mkfs, debootstrap) talk on stdout: only the tar's path goes there.
  bash "$root/scripts/with-docker.sh" bash "$here/images.sh" --inside >&2
  [[ -s "$tar" ]] || { echo "images.sh: $tar was not made" >&2; exit 1; }
  echo "$tar"
  exit 0
fi
# Inside scripts/with-docker.sh: dockerd runs and $SPRITZER_TEST_IMAGE is built.
ctx="$out/ctx"
tar -C "$ctx" -c pause | docker import -c 'ENTRYPOINT ["/pause"]' - local/pause:1 >/dev/null
docker tag "$SPRITZER_TEST_IMAGE" local/sprite:1
cat >"$ctx/Dockerfile" <<'DOCKERFILE'
FROM local/sprite:1
COPY agent.mjs /app/dist/agent/agent.mjs
COPY node-pty /app/node_modules/node-pty
DOCKERFILE
DOCKER_BUILDKIT=0 docker build -q -t local/spritzer-agent:1 "$ctx" >/dev/null
docker save -o "$tar.tmp" local/pause:1 local/sprite:1 local/spritzer-agent:1
mv "$tar.tmp" "$tar"
