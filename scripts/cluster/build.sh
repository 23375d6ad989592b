#!/usr/bin/env bash
# Builds the Kubernetes binaries the local cluster runs (kube-apiserver, kube-controller-manager, kube-scheduler,
# kubelet, kubectl, kube-proxy) from the Go module proxy, once, into .cache/k8s/<version>/bin. A second run is a no-op.
# Usage: scripts/cluster/build.sh   (prints the bin directory)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
version="v1.35.4"
bin="$root/.cache/k8s/$version/bin"
cmds=(kube-apiserver kube-controller-manager kube-scheduler kubelet kubectl kube-proxy)
missing=()
for c in "${cmds[@]}"; do [[ -x "$bin/$c" ]] || missing+=("$c"); done
if [[ ${#missing[@]} == 0 ]]; then echo "$bin"; exit 0; fi
command -v go >/dev/null || { echo "build.sh: go is needed to build Kubernetes $version" >&2; exit 1; }
rm -rf "$bin.tmp" && mkdir -p "$bin.tmp"
pkgs=()
for c in "${missing[@]}"; do pkgs+=("k8s.io/kubernetes/cmd/$c"); done
start=$(date +%s)
echo "build.sh: building ${missing[*]} $version (several minutes on a cold cache)" >&2
# Without the version stamp every binary reports v0.0.0-master+$Format:%H$, which kubectl cannot parse.
(cd "$here/build" && CGO_ENABLED=0 nice -n 19 go build -trimpath \
  -ldflags "-s -w -X k8s.io/component-base/version.gitVersion=$version -X k8s.io/component-base/version.gitMajor=1 -X k8s.io/component-base/version.gitMinor=35" \
  -o "$bin.tmp/" "${pkgs[@]}") >&2
# Only the missing commands, each moved in whole: a running cluster keeps the binaries it has.
mkdir -p "$bin"
for c in "${missing[@]}"; do mv "$bin.tmp/$c" "$bin/$c"; done
rmdir "$bin.tmp"
echo "build.sh: built in $(( $(date +%s) - start )) s" >&2
echo "$bin"
