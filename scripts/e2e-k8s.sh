#!/usr/bin/env bash
# End-to-end check of the container engine's Kubernetes runtime on a user's kind or k3d cluster.
# It needs kind or k3d, which cannot be had on this project's machines: there, as root on Linux, `npm run cluster:up`,
# `npm run cluster:deploy` and `npm run test:k8s` run the same story on a cluster built from package registries
# (scripts/cluster.sh, test/k8s/real-cluster.test.ts). Run this by hand where `kubectl` reaches a kind or k3d cluster
# and `docker` builds:
#   scripts/e2e-k8s.sh            # builds spritzer:latest, loads it, applies deploy/k8s/, runs the story, cleans up
#   KEEP=1 scripts/e2e-k8s.sh     # leaves the namespace in place afterwards
# Story: create a sprite, `uname -a` and a file written by exec, delete the spritzer pod (the Deployment starts a
# new one), the sprite is adopted with its file, delete the sprite: its pod is gone.
set -euo pipefail
cd "$(dirname "$0")/.."
NS=spritzer
IMAGE=spritzer:latest
PORT=${PORT:-14290}
TOKEN=any-token

ctx=$(kubectl config current-context)
echo "e2e-k8s: cluster context $ctx"
docker build -t "$IMAGE" .
case "$ctx" in
  kind-*) kind load docker-image "$IMAGE" --name "${ctx#kind-}" ;;
  k3d-*) k3d image import "$IMAGE" -c "${ctx#k3d-}" ;;
  *) echo "e2e-k8s: context $ctx is neither kind-* nor k3d-*: make sure the cluster has $IMAGE" >&2 ;;
esac

kubectl apply -f deploy/k8s/namespace.yaml
kubectl apply -f deploy/k8s/
PF=""
cleanup() {
  [ -n "$PF" ] && kill "$PF" 2>/dev/null || true
  [ -n "${KEEP:-}" ] || kubectl delete namespace "$NS" --wait=false >/dev/null 2>&1 || true
}
trap cleanup EXIT
forward() {
  [ -n "$PF" ] && kill "$PF" 2>/dev/null || true
  kubectl -n "$NS" rollout status deploy/spritzer --timeout=180s
  kubectl -n "$NS" port-forward svc/spritzer "$PORT:4290" >/dev/null 2>&1 &
  PF=$!
  for _ in $(seq 1 100); do curl -fsS "http://127.0.0.1:$PORT/_spritzer/health" >/dev/null 2>&1 && return; sleep 0.2; done
  echo "e2e-k8s: spritzer does not answer" >&2; exit 1
}
api() { curl -fsS -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' "$@"; }
# exec over HTTP (POST /v1/sprites/{name}/exec, operationId execHttp): the framed output ([1]stdout…[3][code]).
run() { api -X POST "http://127.0.0.1:$PORT/v1/sprites/e2e/exec?$1"; }

forward
api -X POST "http://127.0.0.1:$PORT/v1/sprites" -d '{"name":"e2e"}' >/dev/null
kubectl -n "$NS" get pod sprite-e2e
run 'cmd=uname&cmd=-a&path=uname' | grep -aq 'Linux e2e ' || { echo "e2e-k8s: uname failed" >&2; exit 1; }
run 'cmd=sh&cmd=-c&cmd=echo+kept+>+/home/sprite/note&path=sh' >/dev/null

kubectl -n "$NS" delete pod -l app=spritzer --wait=true
forward
api "http://127.0.0.1:$PORT/v1/sprites" | grep -q '"name":"e2e"' || { echo "e2e-k8s: the sprite was not adopted" >&2; exit 1; }
run 'cmd=cat&cmd=/home/sprite/note&path=cat' | grep -aq kept || { echo "e2e-k8s: the file is gone" >&2; exit 1; }

api -X DELETE "http://127.0.0.1:$PORT/v1/sprites/e2e" >/dev/null
for _ in $(seq 1 60); do kubectl -n "$NS" get pod sprite-e2e >/dev/null 2>&1 || break; sleep 1; done
if kubectl -n "$NS" get pod sprite-e2e >/dev/null 2>&1; then echo "e2e-k8s: pod sprite-e2e still there" >&2; exit 1; fi
echo "e2e-k8s: passed"
