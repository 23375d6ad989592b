#!/usr/bin/env bash
# `bash scripts/with-docker.sh CMD ARGS…`: runs CMD with a real Docker daemon and the test image, set up from nothing,
# then stops the daemon (its exit status is CMD's). Installs docker.io when dockerd is missing (Debian, as root),
# starts dockerd by hand on its own socket, data root and exec root (no bridge, no iptables: sprites have loopback
# only), builds the test image once into the cache (debootstrap minbase + python3 + procps + git, this host's node at
# /usr/local/bin/node, the sprite user as on production: uid 1001, groups sudo and users), and exports DOCKER_HOST,
# SPRITZER_TEST_IMAGE, SPRITZER_TEST_RUNTIME and SPRITZER_SPRITE_IMAGE. A daemon already named by DOCKER_HOST is used
# as is. The data root is a btrfs filesystem (a loop-mounted image in the cache), so that dockerd's btrfs storage
# driver bounds each container's disk (`--storage-opt size`, spritzer's --disk-quota); without btrfs-progs it is a
# plain dir. SPRITZER_TEST_RUNTIME=podman does the same with `podman system service` (runc, catatonit, cgroupfs).
# Cache: $SPRITZER_CONTAINER_CACHE (default .cache/container): the daemon's data root, so the image survives runs.
# Used by `npm run test:container` (scripts/test-container.sh) and by `npm run test:clients` for the container engine.
set -euo pipefail
cd "$(dirname "$0")/.."
CACHE=${SPRITZER_CONTAINER_CACHE:-$PWD/.cache/container}
IMAGE=${SPRITZER_TEST_IMAGE:-spritzer-test:bookworm-3}
mkdir -p "$CACHE"
RUN=""
cleanup() {
  if [ -n "$RUN" ] && [ -f "$RUN/pid" ]; then
    pid=$(cat "$RUN/pid")
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  fi
  # A container on the host network (test/package/image) leaves dockerd's bind mount of the host netns behind.
  [ -n "$RUN" ] && for m in "$RUN"/exec/netns/*; do mountpoint -q "$m" 2>/dev/null && umount "$m" || true; done
  [ -n "$RUN" ] && mountpoint -q "$CACHE/docker-btrfs" 2>/dev/null && { umount "$CACHE/docker-btrfs" || umount -l "$CACHE/docker-btrfs"; } || true
  [ -n "$RUN" ] && rm -rf "$RUN"
}
trap cleanup EXIT

if [ "${SPRITZER_TEST_RUNTIME:-docker}" = podman ]; then
  # Podman here needs runc (crun rejects this hybrid cgroup host), catatonit for --init, and cgroupfs.
  IMAGE=${SPRITZER_TEST_IMAGE:-localhost/spritzer-test:bookworm-3}
  if ! command -v podman >/dev/null || ! command -v runc >/dev/null || [ ! -x /usr/libexec/podman/catatonit ] || ! command -v debootstrap >/dev/null; then
    [ "$(id -u)" = 0 ] || { echo "test:container: podman/runc/catatonit missing and not root" >&2; exit 1; }
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq podman runc catatonit debootstrap >/dev/null
  fi
  RUN=$(mktemp -d /tmp/spritzer-podman.XXXXXX)
  PODMAN=(podman --root "$CACHE/podman-root" --runroot "$RUN/runroot" --runtime runc --cgroup-manager cgroupfs)
  "${PODMAN[@]}" system service --time=0 "unix://$RUN/podman.sock" >"$RUN/podman.log" 2>&1 &
  echo $! >"$RUN/pid"
  for _ in $(seq 1 100); do [ -S "$RUN/podman.sock" ] && break; sleep 0.1; done
  export CONTAINER_HOST="unix://$RUN/podman.sock"
  unset DOCKER_HOST
  CLI=("${PODMAN[@]}")
elif [ -z "${DOCKER_HOST:-}" ]; then
  if ! command -v dockerd >/dev/null || ! command -v debootstrap >/dev/null; then
    [ "$(id -u)" = 0 ] || { echo "test:container: dockerd/debootstrap missing and not root: cannot install docker.io" >&2; exit 1; }
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq docker.io debootstrap >/dev/null
  fi
  RUN=$(mktemp -d /tmp/spritzer-dockerd.XXXXXX)
  DATA_ROOT="$CACHE/docker-root"
  if command -v mkfs.btrfs >/dev/null; then
    # A sparse image: it takes only what the images and containers use.
    [ -f "$CACHE/docker-root.btrfs" ] || { truncate -s 32G "$CACHE/docker-root.btrfs" && mkfs.btrfs -q "$CACHE/docker-root.btrfs"; }
    mkdir -p "$CACHE/docker-btrfs"
    if mountpoint -q "$CACHE/docker-btrfs" || mount -o loop "$CACHE/docker-root.btrfs" "$CACHE/docker-btrfs"; then
      # Quotas on before anything is written: turned on later, with subvolumes already there, btrfs must rescan, and
      # until that ends a container's size limit is not enforced.
      btrfs quota enable "$CACHE/docker-btrfs"
      DATA_ROOT="$CACHE/docker-btrfs/root"
    else
      echo "test:container: cannot mount a btrfs data root: the container engine's disk quota tests skip" >&2
    fi
  fi
  dockerd --host "unix://$RUN/docker.sock" --data-root "$DATA_ROOT" --exec-root "$RUN/exec" \
    --pidfile "$RUN/pid" --bridge none --iptables=false --ip-masq=false >"$RUN/dockerd.log" 2>&1 &
  for _ in $(seq 1 150); do [ -S "$RUN/docker.sock" ] && [ -f "$RUN/pid" ] && break; sleep 0.1; done
  export DOCKER_HOST="unix://$RUN/docker.sock"
  for _ in $(seq 1 100); do docker version >/dev/null 2>&1 && break; sleep 0.1; done
  docker version >/dev/null 2>&1 || { echo "test:container: dockerd did not start:" >&2; cat "$RUN/dockerd.log" >&2; exit 1; }
fi
[ -n "${CLI+x}" ] || CLI=(docker)

if ! "${CLI[@]}" image inspect "$IMAGE" >/dev/null 2>&1; then
  echo "test:container: building $IMAGE (debootstrap, once per cache)"
  ROOT="$CACHE/rootfs"
  rm -rf "$ROOT"
  MIRROR=$(grep -m1 -h '^URIs:' /etc/apt/sources.list.d/debian.sources 2>/dev/null | awk '{print $2}')
  debootstrap --variant=minbase --include=python3,procps,git bookworm "$ROOT" "${MIRROR:-http://deb.debian.org/debian}" >"$CACHE/debootstrap.log" 2>&1 \
    || { tail -20 "$CACHE/debootstrap.log" >&2; exit 1; }
  cp "$(command -v node)" "$ROOT/usr/local/bin/node"
  # The sprite user as production's image has it (useradd -u 1001 sprite; usermod -aG sudo,users sprite).
  grep -q '^sprite:' "$ROOT/etc/passwd" || {
    echo 'sprite:x:1001:1001::/home/sprite:/bin/bash' >>"$ROOT/etc/passwd"
    echo 'sprite:x:1001:' >>"$ROOT/etc/group"
    sed -i -E 's/^((sudo|users):[^:]*:[^:]*:)$/\1sprite/; t; s/^((sudo|users):[^:]*:[^:]*:.+)$/\1,sprite/' "$ROOT/etc/group"
  }
  mkdir -p "$ROOT/home/sprite" && chown 1001:1001 "$ROOT/home/sprite"
  rm -rf "$ROOT/var/cache/apt/archives"/*.deb "$ROOT/var/lib/apt/lists"/*
  tar -C "$ROOT" -c . | "${CLI[@]}" import -c 'CMD ["/bin/bash"]' - "$IMAGE" >/dev/null
  rm -rf "$ROOT"
fi
export SPRITZER_TEST_IMAGE="$IMAGE" SPRITZER_TEST_RUNTIME="${SPRITZER_TEST_RUNTIME:-docker}"
# spritzer's own setting for the image its container engine runs, for clients that start spritzer themselves.
export SPRITZER_SPRITE_IMAGE="${SPRITZER_SPRITE_IMAGE:-$IMAGE}"
# Not exec: the daemon is stopped by the EXIT trap once the command ends.
"$@"
