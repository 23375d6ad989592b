#!/usr/bin/env bash
# `npm run cluster:up` / `npm run cluster:down` / `npm run cluster:deploy` / `bash scripts/cluster.sh status`: a
# Kubernetes v1.35.4 cluster on this Linux machine (root), one node or more, made from package registries only, for
# the Kubernetes runtime's real-cluster tests (test/k8s/real-cluster.test.ts; docs/container.md "Kubernetes").
#
#   up      apt installs etcd-server, containerd, runc and the CNI plugins (pinned Debian versions); builds the
#           Kubernetes binaries once from the Go module proxy (scripts/cluster/build.sh → .cache/k8s/v1.35.4/bin);
#           makes the images once (scripts/cluster/images.sh; again when the agent bundle changed); generates
#           certificates, tokens and kubeconfigs under .cache/k8s/state; starts etcd, kube-apiserver,
#           kube-controller-manager and kube-scheduler on the host, and per node (SK8S_NODES, default 1) containerd,
#           kubelet and kube-proxy inside the network namespace `sk8s-n<i>` (a veth pair: host side 10.201.<i-1>.1,
#           node side 10.201.<i-1>.2; the API server listens on 10.201.0.1; pods on a CNI bridge 10.202.<i>.0/24
#           inside the namespace, routed from the host); imports the images; waits until every node is Ready and
#           lists them; prints the admin KUBECONFIG path. A second `up` while the cluster runs is a no-op (but for
#           importing an agent image made again); `SK8S_NODES=2 … up` on a one-node cluster adds the second node.
#   deploy  spritzer inside the cluster: its image from the Dockerfile, `kubectl apply -f deploy/k8s/` (deploy()).
#   down    stops every process `up` started (pid files) and the pods' processes, unmounts what containerd and the
#           kubelet mounted, deletes the namespaces (their veth, routes, bridge and iptables rules with them), the
#           kubelet's cgroups and the host dirs it made, restores the sysctls the kubelet changes, then checks (ps,
#           findmnt, ip link, ip netns, iptables -S, cgroups, sysctls) that nothing is left, failing loudly otherwise.
#           Keeps the cache (binaries, images).
#
# Why it looks like this (each was a failure first on this kind of machine):
# - cgroup v1 host: the kubelet refuses it unless its config says `failCgroupV1: false`; `cgroupDriver: cgroupfs`.
# - containerd's CRI `restrict_oom_score_adj = true`: a sandbox's oom_score_adj of -998 is refused here, and runc
#   then fails with "can't get final child's PID from pipe: EOF".
# - a node IP cannot be loopback: containerd and the kubelet run in a network namespace entered with
#   `nsenter --net=` (`ip netns exec` remounts /sys, which hides the cgroup mounts).
# - the controller manager makes the `default` service account and `kube-root-ca.crt` that pods wait for, and lifts
#   the node's not-ready taint.
# Environment: SK8S_NODES (default 1), SK8S_NODE_WAIT (seconds, default 180).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
VERSION=v1.35.4
BIN=$ROOT/.cache/k8s/$VERSION/bin
STATE=$ROOT/.cache/k8s/state
PKI=$STATE/pki
LOGS=$STATE/logs
PIDS=$STATE/pids
# Nodes: SK8S_NODES (1 or more; unset: as many as the running cluster has, else 1); node i is sk8s-n<i> (set_node).
# The API server listens on node 1's host side.
RUNNING_NODES=$(cat "$STATE/nodes" 2>/dev/null || echo 0)
NODES=${SK8S_NODES:-$((RUNNING_NODES > 0 ? RUNNING_NODES : 1))}
API_IP=10.201.0.1
SERVICE_CIDR=10.203.0.0/24
ETCD_PORT=23790
KUBECONFIG_ADMIN=$STATE/admin.kubeconfig
# What the host had before the first up (dirs the cluster may create, sysctls the kubelet sets): down restores it,
# checks against it, then deletes it.
HOST_NOTE=$ROOT/.cache/k8s/host-before
# Debian bookworm's versions, as tried here.
APT_PINS=(etcd-server=3.4.23-4+b4 containerd=1.6.20~ds1-1+deb12u3 runc=1.1.5+ds1-1+deb12u1
  containernetworking-plugins=1.1.1+ds1-3+b5 iptables=1.8.9-2 openssl=3.0.19-1~deb12u2 curl=7.88.1-10+deb12u15)
# The host sysctls the kubelet sets when protectKernelDefaults is off (pkg/kubelet/cm setupKernelTunables).
SYSCTLS=(vm.overcommit_memory vm.panic_on_oom kernel.panic kernel.panic_on_oops kernel.keys.root_maxkeys kernel.keys.root_maxbytes)

# Sets the names and addresses of node $1 (1-based): its netns and veth pair (host side sk8s-h<i> 10.201.<i-1>.1,
# node side sk8s-n<i> 10.201.<i-1>.2), pod subnet, kubelet cgroup root, state dir and pid file names.
set_node() {
  local i=$1
  NODE=sk8s-n$i
  NETNS=/var/run/netns/$NODE
  HOST_VETH=sk8s-h$i
  HOST_IP=10.201.$((i - 1)).1
  NODE_IP=10.201.$((i - 1)).2
  POD_CIDR=10.202.$i.0/24
  CGROUP_ROOT=/$NODE
  NDIR=$STATE/$NODE
}

log() { echo "cluster: $*" >&2; }
die() { echo "cluster: ERROR: $*" >&2; exit 1; }
kubectl() { "$BIN/kubectl" --kubeconfig "$KUBECONFIG_ADMIN" "$@"; }
alive() { [[ -f "$PIDS/$1" ]] && kill -0 "$(cat "$PIDS/$1")" 2>/dev/null; }
CONTROL_PLANE=(etcd kube-apiserver kube-controller-manager kube-scheduler)

# Starts `name` detached (own session), output to logs/name.log, pid to pids/name. "$@" is the command.
start_daemon() {
  local name=$1; shift
  alive "$name" && return 0
  setsid "$@" >"$LOGS/$name.log" 2>&1 </dev/null &
  echo $! >"$PIDS/$name"
}

# Waits up to $2 seconds for the command "${@:3}" to succeed; on time-out prints the tail of logs/$1.log and fails.
wait_for() {
  local name=$1 secs=$2; shift 2
  for _ in $(seq 1 $((secs * 5))); do
    "$@" >/dev/null 2>&1 && return 0
    alive "$name" || { tail -30 "$LOGS/$name.log" >&2; die "$name exited"; }
    sleep 0.2
  done
  tail -30 "$LOGS/$name.log" >&2
  die "$name not ready after ${secs}s"
}

install_packages() {
  local missing=()
  command -v etcd >/dev/null || missing+=(etcd-server)
  command -v containerd >/dev/null || missing+=(containerd)
  command -v runc >/dev/null || missing+=(runc)
  [[ -x /usr/lib/cni/bridge ]] || missing+=(containernetworking-plugins)
  command -v iptables >/dev/null || missing+=(iptables)
  command -v openssl >/dev/null || missing+=(openssl)
  command -v curl >/dev/null || missing+=(curl)
  [[ ${#missing[@]} == 0 ]] && return 0
  local pins=()
  for p in "${APT_PINS[@]}"; do for m in "${missing[@]}"; do [[ ${p%%=*} == "$m" ]] && pins+=("$p"); done; done
  log "apt-get install ${pins[*]}"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive nice -n 19 apt-get install -y -qq --no-install-recommends "${pins[@]}" >/dev/null
}

# A key and a certificate signed by the cluster CA: cert NAME CN [O] [SANs].
cert() {
  local name=$1 cn=$2 org=${3:-} sans=${4:-}
  [[ -f "$PKI/$name.crt" ]] && return 0
  local subj="/CN=$cn"
  [[ -n $org ]] && subj="/O=$org$subj"
  openssl genrsa -out "$PKI/$name.key" 2048 2>/dev/null
  openssl req -new -key "$PKI/$name.key" -subj "$subj" -out "$PKI/$name.csr" 2>/dev/null
  {
    echo "basicConstraints=CA:FALSE"
    echo "keyUsage=critical,digitalSignature,keyEncipherment"
    if [[ -n $sans ]]; then echo "extendedKeyUsage=serverAuth,clientAuth"; echo "subjectAltName=$sans"; else echo "extendedKeyUsage=clientAuth"; fi
  } >"$PKI/$name.ext"
  openssl x509 -req -in "$PKI/$name.csr" -CA "$PKI/ca.crt" -CAkey "$PKI/ca.key" -CAcreateserial -days 365 \
    -extfile "$PKI/$name.ext" -out "$PKI/$name.crt" 2>/dev/null
  rm -f "$PKI/$name.csr" "$PKI/$name.ext"
}

# A kubeconfig with embedded credentials: kubeconfig FILE CERTNAME.
kubeconfig() {
  local file=$1 name=$2
  [[ -f $file ]] && return 0
  "$BIN/kubectl" config --kubeconfig "$file.tmp" set-cluster local --server "https://$API_IP:6443" \
    --certificate-authority "$PKI/ca.crt" --embed-certs >/dev/null
  "$BIN/kubectl" config --kubeconfig "$file.tmp" set-credentials "$name" --client-certificate "$PKI/$name.crt" \
    --client-key "$PKI/$name.key" --embed-certs >/dev/null
  "$BIN/kubectl" config --kubeconfig "$file.tmp" set-context local --cluster local --user "$name" >/dev/null
  "$BIN/kubectl" config --kubeconfig "$file.tmp" use-context local >/dev/null
  mv "$file.tmp" "$file"
}

make_pki() {
  mkdir -p "$PKI" && chmod 700 "$PKI"
  if [[ ! -f "$PKI/ca.crt" ]]; then
    openssl genrsa -out "$PKI/ca.key" 2048 2>/dev/null
    openssl req -x509 -new -key "$PKI/ca.key" -subj "/CN=spritzer-local-ca" -days 365 -out "$PKI/ca.crt" 2>/dev/null
  fi
  cert apiserver kube-apiserver "" "IP:$API_IP,IP:127.0.0.1,IP:10.203.0.1,DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc,DNS:kubernetes.default.svc.cluster.local,DNS:localhost"
  cert apiserver-kubelet-client kube-apiserver-kubelet-client system:masters
  cert admin spritzer-admin system:masters
  cert controller-manager system:kube-controller-manager
  cert scheduler system:kube-scheduler
  cert kube-proxy system:kube-proxy
  [[ -f "$PKI/sa.key" ]] || { openssl genrsa -out "$PKI/sa.key" 2048 2>/dev/null; openssl rsa -in "$PKI/sa.key" -pubout -out "$PKI/sa.pub" 2>/dev/null; }
  # A bearer token for tools that prefer one to a client certificate (system:masters).
  [[ -f "$STATE/token" ]] || { openssl rand -hex 24 >"$STATE/token"; echo "$(cat "$STATE/token"),spritzer-token,spritzer-token,system:masters" >"$PKI/tokens.csv"; }
  kubeconfig "$KUBECONFIG_ADMIN" admin
  kubeconfig "$STATE/controller-manager.kubeconfig" controller-manager
  kubeconfig "$STATE/scheduler.kubeconfig" scheduler
  kubeconfig "$STATE/kube-proxy.kubeconfig" kube-proxy
}

node_pki() {
  cert "node-$NODE" "system:node:$NODE" system:nodes
  kubeconfig "$NDIR/kubelet.kubeconfig" "node-$NODE"
}

make_netns() {
  [[ -e $NETNS ]] && return 0
  ip netns add "$NODE"
  ip link add "$HOST_VETH" type veth peer name "$NODE" netns "$NODE"
  ip addr add "$HOST_IP/24" dev "$HOST_VETH"
  ip link set "$HOST_VETH" up
  nsenter --net="$NETNS" ip addr add "$NODE_IP/24" dev "$NODE"
  nsenter --net="$NETNS" ip link set "$NODE" up
  nsenter --net="$NETNS" ip link set lo up
  nsenter --net="$NETNS" ip route add default via "$HOST_IP"
  # The host reaches the node's pods (and their answers to the API server come back) through the veth; the route
  # goes with the link.
  ip route add "$POD_CIDR" via "$NODE_IP" dev "$HOST_VETH"
}

node_config() {
  local dir=$NDIR
  mkdir -p "$dir/cni/net.d" "$dir/cni/ipam" "$dir/kubelet" "$dir/pod-logs" "$dir/containerd"
  cat >"$dir/containerd.toml" <<EOF
version = 2
disabled_plugins = ["io.containerd.snapshotter.v1.btrfs", "io.containerd.snapshotter.v1.zfs", "io.containerd.snapshotter.v1.devmapper", "io.containerd.snapshotter.v1.aufs"]
root = "$dir/containerd/root"
state = "$dir/containerd/state"
[grpc]
  address = "$dir/containerd.sock"
[debug]
  address = ""
[metrics]
  address = ""
[plugins."io.containerd.internal.v1.opt"]
  path = "$dir/containerd/opt"
[plugins."io.containerd.grpc.v1.cri"]
  sandbox_image = "docker.io/local/pause:1"
  restrict_oom_score_adj = true
  netns_mounts_under_state_dir = true
  enable_selinux = false
  [plugins."io.containerd.grpc.v1.cri".containerd]
    snapshotter = "overlayfs"
    default_runtime_name = "runc"
    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
      runtime_type = "io.containerd.runc.v2"
      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
        SystemdCgroup = false
  [plugins."io.containerd.grpc.v1.cri".cni]
    bin_dir = "/usr/lib/cni"
    conf_dir = "$dir/cni/net.d"
EOF
  cat >"$dir/cni/net.d/10-sk8s.conflist" <<EOF
{"cniVersion": "0.4.0", "name": "sk8s", "plugins": [
  {"type": "bridge", "bridge": "sk8s-br0", "isGateway": true, "ipMasq": false, "hairpinMode": true,
   "ipam": {"type": "host-local", "ranges": [[{"subnet": "$POD_CIDR"}]], "routes": [{"dst": "0.0.0.0/0"}], "dataDir": "$dir/cni/ipam"}}
]}
EOF
  cat >"$dir/kubelet.yaml" <<EOF
apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
failCgroupV1: false
cgroupDriver: cgroupfs
cgroupRoot: $CGROUP_ROOT
containerRuntimeEndpoint: unix://$dir/containerd.sock
address: $NODE_IP
port: 10250
readOnlyPort: 0
healthzBindAddress: 127.0.0.1
healthzPort: 10248
podLogsDir: $dir/pod-logs
authentication:
  anonymous: {enabled: false}
  webhook: {enabled: false}
  x509: {clientCAFile: $PKI/ca.crt}
authorization:
  mode: AlwaysAllow
failSwapOn: false
serializeImagePulls: false
imageGCHighThresholdPercent: 100
evictionHard: {memory.available: "50Mi", nodefs.available: "1%", imagefs.available: "1%", nodefs.inodesFree: "1%"}
podPidsLimit: 4096
registerNode: true
EOF
  # kube-proxy (iptables mode) inside the node's netns, so its rules live and die with it; conntrack sysctls are
  # host-wide here: 0 leaves them as they are.
  cat >"$dir/kube-proxy.yaml" <<EOF
apiVersion: kubeproxy.config.k8s.io/v1alpha1
kind: KubeProxyConfiguration
clientConnection: {kubeconfig: $STATE/kube-proxy.kubeconfig}
mode: iptables
clusterCIDR: 10.202.0.0/16
hostnameOverride: $NODE
healthzBindAddress: 127.0.0.1:10256
metricsBindAddress: 127.0.0.1:10249
conntrack: {maxPerCore: 0, min: 0, tcpEstablishedTimeout: 0s, tcpCloseWaitTimeout: 0s, udpTimeout: 0s, udpStreamTimeout: 0s}
EOF
}

# Host paths the cluster writes whatever its state dir: the kubelet's container log links (/var/log/containers) and
# its device-plugin socket (/var/lib/kubelet, a path it hardcodes), the CNI library's cache (/var/lib/cni), `ip
# netns`'s dir, runc's state of containerd's k8s.io namespace and containerd 1.6's shim sockets (/run/containerd/…,
# also hardcoded). Children before parents: down removes them in this order. `up` notes which were there, so that
# down removes only what up made (a dir marked `=empty` only when empty: another containerd's shims may use it).
HOST_DIRS=(/var/log/containers /var/lib/cni /var/run/netns /var/lib/kubelet /run/containerd/runc/k8s.io
  /run/containerd/runc=empty /run/containerd/s=empty /run/containerd=empty)
note_host_dirs() {
  [[ -f $HOST_NOTE/dirs ]] && return 0
  mkdir -p "$HOST_NOTE"
  : >"$HOST_NOTE/dirs"
  local d
  for d in "${HOST_DIRS[@]}"; do d=${d%=empty}; [[ -e $d ]] && echo "$d" >>"$HOST_NOTE/dirs"; done
  for s in "${SYSCTLS[@]}"; do echo "$s=$(sysctl -n "$s")"; done >"$HOST_NOTE/sysctl"
}

# The kubelet's cgroup root must exist (one per node, so that two kubelets never share kubepods): made in every
# v1 hierarchy, cpuset given its parent's cpus and mems (an empty cpuset takes no task).
make_cgroups() {
  local ctl
  for ctl in /sys/fs/cgroup/*; do
    mountpoint -q "$ctl" || continue
    mkdir -p "$ctl$CGROUP_ROOT"
  done
  if [[ -f /sys/fs/cgroup/cpuset$CGROUP_ROOT/cpuset.cpus ]]; then
    cat /sys/fs/cgroup/cpuset/cpuset.cpus >"/sys/fs/cgroup/cpuset$CGROUP_ROOT/cpuset.cpus"
    cat /sys/fs/cgroup/cpuset/cpuset.mems >"/sys/fs/cgroup/cpuset$CGROUP_ROOT/cpuset.mems"
  fi
}

# Imports the images tar $1 into node $NODE's containerd unless this very tar (mtime, size) is in already.
import_images() {
  local key mark
  key=$(stat -c '%Y %s' "$1")
  mark=$NDIR/$(basename "$1").key
  [[ -f $mark && $(cat "$mark") == "$key" ]] && return 0
  log "$NODE: importing $(basename "$1")"
  # Importing over an image of the same name may race containerd's garbage collection of the old one's snapshots
  # ("parent snapshot … does not exist"): tried again.
  local try
  for try in 1 2 3; do
    nice -n 19 ctr --address "$NDIR/containerd.sock" -n k8s.io images import "$1" >/dev/null && break
    [[ $try == 3 ]] && die "$NODE: cannot import $1"
    log "$NODE: import failed (above); again"
    sleep 2
  done
  echo "$key" >"$mark"
}

# Whether every node's kubelet and containerd run, the API server answers and every node is Ready.
all_up() {
  alive kube-apiserver || return 1
  local i n
  n=$(cat "$STATE/nodes" 2>/dev/null || echo 0)
  [[ $n == "$NODES" ]] || return 1
  for i in $(seq 1 "$NODES"); do
    set_node "$i"
    alive "kubelet-$NODE" && alive "containerd-$NODE" && alive "kube-proxy-$NODE" && node_ready || return 1
  done
}

node_has_images() {
  kubectl get node "$NODE" -o 'jsonpath={.status.images[*].names}' 2>/dev/null | grep -q 'docker.io/local/spritzer-agent:1'
}

node_ready() {
  [[ $(kubectl get node "$NODE" -o 'jsonpath={.status.conditions[?(@.type=="Ready")].status}' 2>/dev/null) == True ]]
}

up() {
  [[ $(id -u) == 0 ]] || die "needs root (network namespaces, mounts, cgroups)"
  local t0=$SECONDS images i
  [[ $NODES =~ ^[1-9][0-9]*$ ]] || die "SK8S_NODES is the number of nodes (1 or more), not '$NODES'"
  if alive kube-apiserver && (( RUNNING_NODES > NODES )); then
    die "the cluster runs $RUNNING_NODES nodes; SK8S_NODES=$NODES cannot take nodes away: npm run cluster:down first"
  fi
  if all_up; then
    # Only the agent image may be new (the code changed): imported again when it is.
    images=$(bash scripts/cluster/images.sh)
    for i in $(seq 1 "$NODES"); do set_node "$i"; import_images "$images"; done
    log "already up ($NODES node(s) Ready)"
    echo "$KUBECONFIG_ADMIN"
    return 0
  fi
  install_packages
  bash scripts/cluster/build.sh >/dev/null
  images=$(bash scripts/cluster/images.sh)
  mkdir -p "$LOGS" "$PIDS"
  note_host_dirs
  make_pki
  # Node 1's veth carries the API server's address: it exists before the API server starts.
  set_node 1
  make_netns

  start_daemon etcd etcd --name sk8s --data-dir "$STATE/etcd" --listen-client-urls "http://127.0.0.1:$ETCD_PORT" \
    --advertise-client-urls "http://127.0.0.1:$ETCD_PORT" --listen-peer-urls http://127.0.0.1:23800 \
    --initial-advertise-peer-urls http://127.0.0.1:23800 --initial-cluster sk8s=http://127.0.0.1:23800
  wait_for etcd 30 curl -fsS "http://127.0.0.1:$ETCD_PORT/health"

  start_daemon kube-apiserver "$BIN/kube-apiserver" --etcd-servers "http://127.0.0.1:$ETCD_PORT" \
    --bind-address "$HOST_IP" --advertise-address "$HOST_IP" --secure-port 6443 \
    --tls-cert-file "$PKI/apiserver.crt" --tls-private-key-file "$PKI/apiserver.key" --client-ca-file "$PKI/ca.crt" \
    --token-auth-file "$PKI/tokens.csv" --authorization-mode Node,RBAC --enable-admission-plugins NodeRestriction \
    --service-account-issuer https://kubernetes.default.svc.cluster.local --service-account-key-file "$PKI/sa.pub" \
    --service-account-signing-key-file "$PKI/sa.key" --service-cluster-ip-range "$SERVICE_CIDR" \
    --kubelet-client-certificate "$PKI/apiserver-kubelet-client.crt" --kubelet-client-key "$PKI/apiserver-kubelet-client.key" \
    --kubelet-preferred-address-types InternalIP --allow-privileged=true --profiling=false
  wait_for kube-apiserver 120 kubectl get --raw /readyz

  start_daemon kube-controller-manager "$BIN/kube-controller-manager" --kubeconfig "$STATE/controller-manager.kubeconfig" \
    --authentication-kubeconfig "$STATE/controller-manager.kubeconfig" --authorization-kubeconfig "$STATE/controller-manager.kubeconfig" \
    --bind-address 127.0.0.1 --secure-port 10257 --leader-elect=false --use-service-account-credentials \
    --service-account-private-key-file "$PKI/sa.key" --root-ca-file "$PKI/ca.crt" --cluster-signing-cert-file "$PKI/ca.crt" \
    --cluster-signing-key-file "$PKI/ca.key" --service-cluster-ip-range "$SERVICE_CIDR" --profiling=false
  start_daemon kube-scheduler "$BIN/kube-scheduler" --kubeconfig "$STATE/scheduler.kubeconfig" \
    --authentication-kubeconfig "$STATE/scheduler.kubeconfig" --authorization-kubeconfig "$STATE/scheduler.kubeconfig" \
    --bind-address 127.0.0.1 --secure-port 10259 --leader-elect=false --profiling=false

  for i in $(seq 1 "$NODES"); do
    set_node "$i"
    mkdir -p "$NDIR"
    node_pki
    make_netns
    make_cgroups
    node_config
    start_daemon "containerd-$NODE" nsenter --net="$NETNS" containerd --config "$NDIR/containerd.toml"
    wait_for "containerd-$NODE" 30 ctr --address "$NDIR/containerd.sock" version
    import_images "$images"
    start_daemon "kubelet-$NODE" nsenter --net="$NETNS" "$BIN/kubelet" --config "$NDIR/kubelet.yaml" \
      --kubeconfig "$NDIR/kubelet.kubeconfig" --root-dir "$NDIR/kubelet" --cert-dir "$NDIR/kubelet/pki" \
      --hostname-override "$NODE" --node-ip "$NODE_IP"
    start_daemon "kube-proxy-$NODE" nsenter --net="$NETNS" "$BIN/kube-proxy" --config "$NDIR/kube-proxy.yaml"
  done
  for i in $(seq 1 "$NODES"); do
    set_node "$i"
    wait_for "kubelet-$NODE" "${SK8S_NODE_WAIT:-180}" node_ready
    # The scheduler scores nodes by the images their status lists (ImageLocality): until a new node's status names
    # them, every pod would go to the nodes that do.
    wait_for "kubelet-$NODE" 60 node_has_images
  done
  # Pods wait for the namespace's `default` service account (the controller manager makes it).
  wait_for kube-controller-manager 60 kubectl -n default get serviceaccount default
  echo "$NODES" >"$STATE/nodes"
  kubectl get nodes -o wide >&2
  log "up in $((SECONDS - t0)) s: $NODES node(s) Ready; export KUBECONFIG=$KUBECONFIG_ADMIN"
  echo "$KUBECONFIG_ADMIN"
}

# Stops the process of pid file `name`: SIGTERM, then SIGKILL after 10 s.
stop_daemon() {
  local name=$1 pid
  [[ -f "$PIDS/$name" ]] || return 0
  pid=$(cat "$PIDS/$name")
  if kill -0 "$pid" 2>/dev/null; then
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -0 "$pid" 2>/dev/null && { log "$name ($pid) ignored SIGTERM: SIGKILL"; kill -9 "$pid" 2>/dev/null || true; sleep 0.2; }
  fi
  rm -f "$PIDS/$name"
}

# The nodes down must clear: every sk8s-n<i> (i ≤ 8) with a state dir, pid file, netns, veth or cgroup.
known_nodes() {
  local i
  for i in $(seq 1 8); do
    set_node "$i"
    if [[ -d $NDIR || -f $PIDS/kubelet-$NODE || -f $PIDS/kube-proxy-$NODE || -f $PIDS/containerd-$NODE || -e $NETNS ]] \
      || ip link show "$HOST_VETH" >/dev/null 2>&1 || ls -d /sys/fs/cgroup/*"$CGROUP_ROOT" >/dev/null 2>&1; then echo "$i"; fi
  done
}

# The pids of processes started by node $NODE's containerd: its shims (their command line names its socket) and
# everything inside their containers (their cgroups are under the node's cgroup root).
cluster_pids() {
  local sock=$NDIR/containerd.sock p
  for p in /proc/[0-9]*; do
    tr '\0' ' ' 2>/dev/null <"$p/cmdline" | grep -qF -- "$sock" && echo "${p#/proc/}"
  done
  [[ -d /sys/fs/cgroup/pids$CGROUP_ROOT ]] && find "/sys/fs/cgroup/pids$CGROUP_ROOT" -name cgroup.procs -exec cat {} + 2>/dev/null
  return 0
}

# Stops node $NODE: its kubelet first (it would restart what is killed), then the pods' tasks through containerd.
stop_node() {
  stop_daemon "kube-proxy-$NODE"
  stop_daemon "kubelet-$NODE"
  local ctr=(ctr --address "$NDIR/containerd.sock" -n k8s.io) c
  if alive "containerd-$NODE"; then
    for c in $("${ctr[@]}" tasks ls -q 2>/dev/null); do "${ctr[@]}" tasks kill -s SIGKILL "$c" >/dev/null 2>&1 || true; done
    sleep 0.5
    for c in $("${ctr[@]}" tasks ls -q 2>/dev/null); do "${ctr[@]}" tasks rm -f "$c" >/dev/null 2>&1 || true; done
  fi
  stop_daemon "containerd-$NODE"
}

# Clears what node $NODE left after its processes stopped: shims and container processes, the netns and veth
# (the CNI bridge lives in the netns), the kubelet's cgroups.
clear_node() {
  # Shims outlive containerd by design; they and any container process left are the node's by socket and cgroup.
  local pids ctl
  pids=$(cluster_pids | sort -u)
  [[ -n $pids ]] && { log "$NODE: killing leftover container processes: $(echo $pids)"; kill -9 $pids 2>/dev/null || true; sleep 0.5; }
  [[ -e $NETNS ]] && ip netns del "$NODE"
  ip link show "$HOST_VETH" >/dev/null 2>&1 && ip link del "$HOST_VETH"
  # The kubelet's cgroups (cgroupfs driver, one root per node), deepest first.
  for ctl in /sys/fs/cgroup/*; do
    [[ -d $ctl$CGROUP_ROOT ]] && find "$ctl$CGROUP_ROOT" -depth -type d -exec rmdir {} + 2>/dev/null || true
  done
}

down() {
  [[ $(id -u) == 0 ]] || die "needs root"
  local nodes i d m
  nodes=$(known_nodes)
  for i in $nodes; do set_node "$i"; stop_node; done
  for d in kube-scheduler kube-controller-manager kube-apiserver etcd; do stop_daemon "$d"; done
  # Mounts under the state dir (kubelet volumes and its bind-mounted root, pod netns, overlay rootfs, shm), deepest
  # first; before the netns go, as the pods' netns files are bind mounts there.
  for _ in 1 2 3; do
    for m in $(findmnt -rn -o TARGET | grep -F "$STATE/" | sort -r); do umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null || true; done
  done
  for i in $nodes; do set_node "$i"; clear_node; done
  # Host dirs made by up (HOST_DIRS, when up made them).
  if [[ -f $HOST_NOTE/dirs ]]; then
    for d in "${HOST_DIRS[@]}"; do
      grep -qx "${d%=empty}" "$HOST_NOTE/dirs" && continue
      # `ip netns add` made /var/run/netns a bind mount of itself (shared): unmounted when it is empty.
      if [[ $d == /var/run/netns ]]; then
        [[ -z $(ls -A "$d" 2>/dev/null) ]] && { mountpoint -q "$d" && umount "$d"; rmdir "$d" 2>/dev/null || true; }
      elif [[ $d == *=empty ]]; then rmdir "${d%=empty}" 2>/dev/null || true
      else rm -rf "$d"; fi
    done
  fi
  find /var/log/containers -maxdepth 1 -lname "$STATE/*" -delete 2>/dev/null || true
  if [[ -f $HOST_NOTE/sysctl ]]; then
    local kv
    while read -r kv; do sysctl -qw "$kv" >/dev/null; done <"$HOST_NOTE/sysctl"
  fi
  # A fresh cluster each up: the state (PKI, etcd, containerd's store) goes; the cache (binaries, images) stays.
  if findmnt -rn -o TARGET | grep -qF "$STATE/"; then check_clean; fi
  rm -rf --one-file-system "$STATE"
  check_clean final
}

# Fails loudly when anything of the cluster is left on the machine.
check_clean() {
  local bad=0 out i
  out=$(ps -eo pid=,args= | grep -E "$BIN/|containerd --config $STATE|etcd --name sk8s|containerd-shim.*$STATE" | grep -v grep || true)
  [[ -n $out ]] && { echo "cluster: left processes:" >&2; echo "$out" >&2; bad=1; }
  for i in $(seq 1 8); do
    set_node "$i"
    out=$(cluster_pids)
    [[ -n $out ]] && { echo "cluster: $NODE: left container processes: $out" >&2; bad=1; }
  done
  out=$(findmnt -rn -o TARGET | grep -F "$ROOT/.cache/k8s/" || true)
  [[ -n $out ]] && { echo "cluster: left mounts:" >&2; echo "$out" >&2; bad=1; }
  if [[ -f $HOST_NOTE/dirs ]]; then
    # A shared dir (=empty) counts only while no containerd runs (another one, e.g. Docker's, may keep it).
    local others
    others=$(pgrep -x containerd || true)
    out=$(for d in "${HOST_DIRS[@]}"; do [[ $d == *=empty && -n $others ]] && continue; d=${d%=empty}; grep -qx "$d" "$HOST_NOTE/dirs" || { [[ -e $d ]] && echo "$d"; }; done || true)
    [[ -n $out ]] && { echo "cluster: left host dirs:" $out >&2; bad=1; }
    out=$(while IFS== read -r k v; do [[ $(sysctl -n "$k") == "$v" ]] || echo "$k=$(sysctl -n "$k") (was $v)"; done <"$HOST_NOTE/sysctl" || true)
    [[ -n $out ]] && { echo "cluster: sysctls not restored: $out" >&2; bad=1; }
  fi
  out=$(ip -br link | grep -E '^sk8s-' || true)
  [[ -n $out ]] && { echo "cluster: left links: $out" >&2; bad=1; }
  out=$(ip netns list 2>/dev/null | grep -E '^sk8s-' || true)
  [[ -n $out ]] && { echo "cluster: left netns: $out" >&2; bad=1; }
  out=$( (iptables -S; ip6tables -S) 2>/dev/null | grep -E 'KUBE-|CNI-|10\.20[123]\.' || true)
  [[ -n $out ]] && { echo "cluster: left iptables rules:" >&2; echo "$out" >&2; bad=1; }
  out=$(ls -d /sys/fs/cgroup/*/sk8s-* 2>/dev/null || true)
  [[ -n $out ]] && { echo "cluster: left cgroups: $out" >&2; bad=1; }
  [[ $bad == 0 ]] || die "down left the machine unclean (above)"
  [[ ${1:-} == final ]] && rm -rf "$HOST_NOTE"
  log "down: clean (no process, mount, link, netns, iptables rule or cgroup of the cluster left)"
}

# spritzer inside the cluster: its image from this checkout's Dockerfile (scripts/cluster/spritzer-image.sh;
# `deploy --rebuild` makes it again) imported into every node, then `kubectl apply -f deploy/k8s/` as a user does,
# with the sprites' image set to the local one (deploy/k8s names node:20-bookworm, which no registry serves here).
# Prints spritzer's URL (its pod's IP: the host routes to the nodes' pods).
deploy() {
  NODES=$(cat "$STATE/nodes" 2>/dev/null || echo 0)
  all_up || die "the cluster is not up: npm run cluster:up"
  local tar i ip
  tar=$(bash scripts/cluster/spritzer-image.sh "$@")
  for i in $(seq 1 "$NODES"); do set_node "$i"; import_images "$tar"; done
  kubectl apply -f deploy/k8s/namespace.yaml >&2
  kubectl apply -f deploy/k8s/ >&2
  kubectl -n spritzer set env deploy/spritzer SPRITZER_SPRITE_IMAGE=docker.io/local/sprite:1 >&2
  # A new pod, so that an image imported again (same tag) is the one that runs.
  kubectl -n spritzer rollout restart deploy/spritzer >&2
  kubectl -n spritzer rollout status deploy/spritzer --timeout=180s >&2
  ip=$(kubectl -n spritzer get pods -l app=spritzer --field-selector=status.phase=Running -o 'jsonpath={.items[0].status.podIP}')
  log "spritzer runs in the cluster at http://$ip:4290"
  echo "http://$ip:4290"
}

status() {
  local d
  for d in "${CONTROL_PLANE[@]}" $(ls "$PIDS" 2>/dev/null | grep -E '^(containerd|kubelet|kube-proxy)-'); do
    if alive "$d"; then echo "$d: running ($(cat "$PIDS/$d"))"; else echo "$d: stopped"; fi
  done
  alive kube-apiserver && kubectl get nodes -o wide
  return 0
}

case "${1:-}" in
  up) up ;;
  down) down ;;
  status) status ;;
  check) check_clean ;;
  deploy) shift; deploy "$@" ;;
  undeploy) kubectl delete namespace spritzer --ignore-not-found --wait=true ;;
  # The admin kubeconfig's path while the cluster runs; nothing (and exit 0) otherwise.
  kubeconfig) alive kube-apiserver && [[ -f $KUBECONFIG_ADMIN ]] && echo "$KUBECONFIG_ADMIN" || true ;;
  *) echo "usage: $0 up|down|status|check|kubeconfig|deploy [--rebuild]|undeploy" >&2; exit 2 ;;
esac
