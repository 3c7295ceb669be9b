#!/usr/bin/env bash
# Brings up a real single-node Kubernetes v1.20.2 cluster (etcd, kube-apiserver, kube-controller-manager,
# kube-scheduler, kubelet) on containerd + runc + CNI bridge, using only Debian bookworm packages and
# Debian's own `kubernetes` source package. No container registry is used: the pause, busybox and JRE
# images are built locally and imported into containerd.
#
# Everything lives under $K. The whole cluster runs in a private mount + network namespace
# (held by one `sleep` process), so its ports, iptables rules, bridge and mounts never touch the host's;
# the apiserver is reachable from the host at https://127.0.0.1:$API_HOST_PORT (socat over a unix
# socket), with kubeconfig $K/etc/admin-host.kubeconfig.
#
# Idempotent: cached builds/images under $K/cache; running daemons are left alone.
# Usage: ./up.sh            (everything)      ./down.sh   (stop everything, keep cache)
#        ./up.sh STAGE...   (single stages: packages build images config ns containerd ctrtest control_plane kubelet wait)
# The build runs `packages build images` (cached); RealCluster, the tests' JUnit resource, runs the rest with
# HOST_LINK=1 (the tests' own JVM is a program outside the cluster that its pods reach) and down.sh at the end.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/env.sh"
mkdir -p "$C" "$BIN" "$R" "$L" "$ETC" "$PKI"
T0=$(date +%s%N)
ts() { local ms=$(( ($(date +%s%N) - T0) / 1000000 )); printf '[%4d.%01ds] %s\n' $((ms / 1000)) $((ms % 1000 / 100)) "$*"; }

# ---------------------------------------------------------------- 1. packages
stage_packages() {
need=""
for p in containerd runc containernetworking-plugins iptables conntrack socat ethtool debootstrap \
         umoci skopeo etcd-server golang-1.19-go make rsync openssl curl openjdk-17-jdk-headless; do
  dpkg -s "$p" >/dev/null 2>&1 || need="$need $p"
done
if [ -n "$need" ]; then
  ts "apt-get install$need"
  export DEBIAN_FRONTEND=noninteractive
  apt-get -o DPkg::Lock::Timeout=600 update -qq
  # (no init system runs here, and /usr/sbin/policy-rc.d exits 101: no system containerd/etcd gets started;
  #  if one did, it would be on the host's network namespace and /run/containerd, not ours)
  apt-get -o DPkg::Lock::Timeout=600 install -y -qq $need >"$L/apt.log" 2>&1 || { tail -20 "$L/apt.log"; exit 1; }
fi
}

# ---------------------------------------------------------------- 2. binaries (cached)
stage_build() { ts "build (cached)"; flock "$C/build.lock" "$S/build.sh" | sed 's/^/    /'; }

# ---------------------------------------------------------------- 3. images (cached)
mkimage() { # name rootfs-dir umoci-config-args...
  local name=$1 rootfs=$2; shift 2
  local out=$C/images/$name.tar w=$C/images/work-$name
  [ -s "$out" ] && return 0
  rm -rf "$w"; mkdir -p "$w"
  umoci init --layout "$w/oci"
  umoci new --image "$w/oci:1"
  umoci unpack --image "$w/oci:1" "$w/bundle" >/dev/null
  cp -a "$rootfs/." "$w/bundle/rootfs/"
  umoci repack --image "$w/oci:1" "$w/bundle"
  umoci config --image "$w/oci:1" --config.env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin "$@"
  skopeo copy --quiet "oci:$w/oci:1" "docker-archive:$out.tmp:k8sreal.local/$name:1"
  mv "$out.tmp" "$out"; rm -rf "$w"
  ts "image k8sreal.local/$name:1 built ($(du -h "$out" | cut -f1))"
}
stage_images() {
mkdir -p "$C/images"
if [ ! -s "$C/images/busybox.tar" ] || [ ! -s "$C/images/pause.tar" ]; then
  mkdir -p "$C/debs"; ( cd "$C/debs"; ls busybox-static_*.deb >/dev/null 2>&1 || apt-get download busybox-static 2>/dev/null )
  rm -rf "$C/bb" "$C/rootfs-busybox"; dpkg -x "$C"/debs/busybox-static_*.deb "$C/bb"
  r=$C/rootfs-busybox; mkdir -p "$r"/{bin,etc,tmp,proc,sys,dev,root}; chmod 1777 "$r/tmp"
  cp "$C/bb/bin/busybox" "$r/bin/"
  for a in $("$r/bin/busybox" --list); do [ "$a" = busybox ] || ln -sf busybox "$r/bin/$a"; done
  echo 'root:x:0:0:root:/root:/bin/sh' >"$r/etc/passwd"; echo 'root:x:0:' >"$r/etc/group"
  mkimage busybox "$r" --config.cmd /bin/sh
  mkimage pause "$r" --config.entrypoint /bin/sleep --config.entrypoint infinity
fi
if [ ! -s "$C/images/jre.tar" ]; then
  r=$C/rootfs-jre
  if [ ! -d "$r" ]; then   # debootstrap works in $r.tmp, renamed only when complete
    ts "debootstrap minbase + openjdk-17-jre-headless"
    rm -rf "$r.tmp"
    # private mount namespace: debootstrap's /proc,/sys mounts in the chroot die with it; a private /run
    # keeps libmount from creating /run/mount on the host
    unshare -m --propagation private sh -c 'mount -n -t tmpfs k8sreal-dbs /run && exec nice -n 19 debootstrap \
      --variant=minbase --include=openjdk-17-jre-headless bookworm "$1" http://deb.debian.org/debian' sh "$r.tmp" \
      >"$L/debootstrap.log" 2>&1 || { tail -20 "$L/debootstrap.log"; exit 1; }
    rm -rf "$r.tmp"/var/cache/apt/archives/*.deb "$r.tmp"/var/lib/apt/lists/* "$r.tmp"/usr/share/doc \
           "$r.tmp"/usr/share/man "$r.tmp"/usr/share/locale
    mv "$r.tmp" "$r"
  fi
  mkimage jre "$r" --config.cmd java --config.cmd -version
fi
}

# ---------------------------------------------------------------- 4. config + PKI
stage_config() {
mkdir -p "$K/containerd" "$K/cni/net.d" "$K/cni/ipam" "$K/kubelet" "$K/etcd"
if [ ! -s "$PKI/sa.key" ]; then
  ts "PKI"
  (cd "$PKI"
   openssl genrsa -out ca.key 2048 2>/dev/null
   openssl req -x509 -new -key ca.key -subj /CN=k8sreal-ca -days 3650 -out ca.crt
   cat > apiserver.ext <<EOF2
subjectAltName=IP:127.0.0.1,IP:$NODE_IP,IP:${SVC_CIDR%.*}.1,DNS:localhost,DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc,DNS:kubernetes.default.svc.cluster.local
extendedKeyUsage=serverAuth
EOF2
   openssl genrsa -out apiserver.key 2048 2>/dev/null
   openssl req -new -key apiserver.key -subj /CN=kube-apiserver -out apiserver.csr
   openssl x509 -req -in apiserver.csr -CA ca.crt -CAkey ca.key -CAcreateserial -days 3650 -extfile apiserver.ext -out apiserver.crt 2>/dev/null
   echo extendedKeyUsage=clientAuth > client.ext
   openssl genrsa -out kubelet-client.key 2048 2>/dev/null
   openssl req -new -key kubelet-client.key -subj "/CN=kube-apiserver-kubelet-client/O=system:masters" -out kubelet-client.csr
   openssl x509 -req -in kubelet-client.csr -CA ca.crt -CAkey ca.key -CAcreateserial -days 3650 -extfile client.ext -out kubelet-client.crt 2>/dev/null
   openssl genrsa -out sa.key 2048 2>/dev/null; openssl rsa -in sa.key -pubout -out sa.pub 2>/dev/null
   tok() { head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n'; }
   { echo "$(tok),admin,admin,system:masters"
     echo "$(tok),system:node:$NODE_NAME,kubelet,system:nodes"
     echo "$(tok),system:kube-controller-manager,kube-controller-manager"
     echo "$(tok),system:kube-scheduler,kube-scheduler"; } > tokens.csv)
fi
kubeconfig() { # file user server
  local t; t=$(awk -F, -v u="$2" '$2==u{print $1}' "$PKI/tokens.csv")
  cat > "$1" <<EOF2
apiVersion: v1
kind: Config
clusters: [{name: k8sreal, cluster: {server: "$3", certificate-authority: $PKI/ca.crt}}]
users: [{name: u, user: {token: "$t"}}]
contexts: [{name: k8sreal, context: {cluster: k8sreal, user: u, namespace: default}}]
current-context: k8sreal
EOF2
}
kubeconfig "$ETC/admin.kubeconfig" admin https://127.0.0.1:6443
kubeconfig "$ETC/admin-host.kubeconfig" admin "https://127.0.0.1:$API_HOST_PORT"
kubeconfig "$ETC/kubelet.kubeconfig" "system:node:$NODE_NAME" https://127.0.0.1:6443
kubeconfig "$ETC/cm.kubeconfig" system:kube-controller-manager https://127.0.0.1:6443
kubeconfig "$ETC/sched.kubeconfig" system:kube-scheduler https://127.0.0.1:6443
echo "nameserver 127.0.0.1" > "$ETC/resolv.conf"

cat > "$K/containerd/config.toml" <<EOF2
version = 2
root = "$K/containerd/root"
state = "$K/containerd/state"
[grpc]
  address = "$SOCK"
[plugins."io.containerd.internal.v1.opt"]
  path = "$K/containerd/opt"
[plugins."io.containerd.grpc.v1.cri"]
  sandbox_image = "k8sreal.local/pause:1"
  stream_server_address = "127.0.0.1"
  enable_selinux = false
  restrict_oom_score_adj = true   # no CAP_SYS_RESOURCE here: clamp pods to containerd's own oom_score_adj
  netns_mounts_under_state_dir = true
  [plugins."io.containerd.grpc.v1.cri".containerd]
    snapshotter = "overlayfs"
    default_runtime_name = "runc"
    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
      runtime_type = "io.containerd.runc.v2"
      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
        SystemdCgroup = false
        BinaryName = "/usr/sbin/runc"
  [plugins."io.containerd.grpc.v1.cri".cni]
    bin_dir = "/usr/lib/cni"
    conf_dir = "$K/cni/net.d"
  [plugins."io.containerd.grpc.v1.cri".registry]
    config_path = ""
EOF2
cat > "$K/cni/net.d/10-k8sreal.conflist" <<EOF2
{ "cniVersion": "0.4.0", "name": "k8sreal",
  "plugins": [ { "type": "bridge", "bridge": "k8sreal0", "isGateway": true, "ipMasq": false, "hairpinMode": true,
                 "ipam": { "type": "host-local", "dataDir": "$K/cni/ipam",
                           "ranges": [[{ "subnet": "$POD_CIDR" }]], "routes": [{ "dst": "0.0.0.0/0" }] } } ] }
EOF2
cat > "$ETC/kubelet.yaml" <<EOF2
apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
address: $NODE_IP
port: 10250
readOnlyPort: 0
healthzBindAddress: 127.0.0.1
healthzPort: 10248
cgroupDriver: cgroupfs
cgroupRoot: /$CGROOT
cgroupsPerQOS: true
failSwapOn: false
authentication:
  anonymous: {enabled: false}
  webhook: {enabled: false}
  x509: {clientCAFile: $PKI/ca.crt}
authorization: {mode: AlwaysAllow}
evictionHard: {memory.available: 100Mi, nodefs.available: 1%, imagefs.available: 1%, nodefs.inodesFree: 1%}
imageGCHighThresholdPercent: 100
imageGCLowThresholdPercent: 99
resolvConf: $ETC/resolv.conf
serializeImagePulls: false
clusterDomain: cluster.local
maxPods: 110
nodeStatusUpdateFrequency: 2s   # report Ready ~2 s after registration instead of 10 s
EOF2
}

# ---------------------------------------------------------------- 5. namespaces + daemons
start() { # name cmd...  (inside the namespaces, backgrounded, pid in $R/name.pid)
  local n=$1; shift
  if alive "$(cat "$R/$n.pid" 2>/dev/null)"; then return 0; fi
  nohup nsenter -t "$(holder_pid)" -m -n -- "$@" >"$L/$n.log" 2>&1 &
  echo $! > "$R/$n.pid"
}
waitfor() { # what timeout cmd...
  local what=$1 to=$2 i; shift 2
  for ((i = 0; i < to * 5; i++)); do "$@" >/dev/null 2>&1 && { ts "$what"; return 0; }; sleep 0.2; done
  ts "TIMEOUT waiting for $what"; return 1
}
# A cluster whose namespace holder is gone was not taken down (its run was killed): what is left of it goes, so this
# one starts fresh (the old etcd would bring back that run's namespaces and pods). Its pid files may name unrelated
# processes by now: only one still running the program it names is stopped.
stage_leftovers() {
alive "$(holder_pid)" && return 0
local f n p
for f in "$R"/*.pid; do
  [ -e "$f" ] || continue
  n=$(basename "$f" .pid); p=$(cat "$f" 2>/dev/null)
  if alive "$p" && tr '\0' ' ' < "/proc/$p/cmdline" 2>/dev/null | grep -q -- "$n"; then kill -9 "$p" 2>/dev/null; fi
  rm -f "$f"
done
if [ -d "$K/etcd/member" ] && ! grep -q "$K/" /proc/mounts; then
  ts "removing the state of a cluster that was not taken down"
  rm -rf "$K/containerd/root" "$K/containerd/state" "$K/containerd/opt" "$K/etcd" "$K/kubelet" \
         "$K/cni/ipam" "$K/ns" "$K/cm-volume-plugins" "$SOCK" "$SOCK.ttrpc"
fi
}
stage_ns() {
if ! alive "$(holder_pid)"; then
  rm -f "$R/ns.ready"
  nohup unshare --mount --net --propagation slave -- "$S/ns-init.sh" >"$L/ns.log" 2>&1 &
  echo $! > "$R/holder.pid"
  waitfor "namespaces ready" 10 test -e "$R/ns.ready"
fi
if [ "$HOST_LINK" = 1 ] && ! ip link show k8sreal-h >/dev/null 2>&1; then
  ip link add k8sreal-h type veth peer name k8s-host netns "$(holder_pid)"
  ip addr add "$HOST_IP/30" dev k8sreal-h; ip link set k8sreal-h up
  inns ip addr add "$NSLINK_IP/30" dev k8s-host; inns ip link set k8s-host up
  inns ip route add default via "$HOST_IP"
  inns ip route add unreachable 169.254.0.0/16   # kubelet's AWS metadata probe: fail at once
  ip route add "$POD_CIDR" via "$NSLINK_IP"; ip route add "${NODE_IP%.*}.0/24" via "$NSLINK_IP"
  ts "host link: host $HOST_IP <-> cluster namespace $NSLINK_IP (routes to $POD_CIDR, ${NODE_IP%.*}.0/24)"
fi
# cgroup parent for all pods, in every v1 hierarchy (cpuset needs cpus/mems copied from the root)
for h in /sys/fs/cgroup/*/; do
  case $h in */unified/) continue;; esac
  mkdir -p "$h$CGROOT"
  if [ -e "$h/cpuset.cpus" ]; then
    [ -n "$(cat "$h$CGROOT/cpuset.cpus")" ] || cat "$h/cpuset.cpus" > "$h$CGROOT/cpuset.cpus"
    [ -n "$(cat "$h$CGROOT/cpuset.mems")" ] || cat "$h/cpuset.mems" > "$h$CGROOT/cpuset.mems"
  fi
done
}
stage_containerd() {
start containerd containerd --config "$K/containerd/config.toml"
waitfor "containerd up" 30 inns ctr --address "$SOCK" version
for i in pause busybox jre; do
  kctr images ls -q | grep -qx "k8sreal.local/$i:1" || { kctr images import "$C/images/$i.tar" >/dev/null; ts "imported $i"; }
done
}
stage_ctrtest() { # plain containerd + runc, no Kubernetes: run the local images with ctr
  kctr run --rm --cgroup "/$CGROOT/ctr-bb" k8sreal.local/busybox:1 ctr-bb sh -c 'echo "busybox ok: $(uname -r)"' \
    | sed 's/^/    /'
  kctr run --rm --cgroup "/$CGROOT/ctr-jre" --memory-limit 268435456 k8sreal.local/jre:1 ctr-jre java -version 2>&1 \
    | sed 's/^/    /'
  ts "ctr run busybox + jre ok"
}
stage_control_plane() {
start etcd etcd --name k8sreal --data-dir "$K/etcd" --listen-client-urls http://127.0.0.1:2379 \
  --advertise-client-urls http://127.0.0.1:2379 --listen-peer-urls http://127.0.0.1:2380 \
  --initial-advertise-peer-urls http://127.0.0.1:2380 --initial-cluster k8sreal=http://127.0.0.1:2380
waitfor "etcd healthy" 60 inns curl -sf http://127.0.0.1:2379/health

start kube-apiserver kube-apiserver --etcd-servers=http://127.0.0.1:2379 \
  --bind-address=0.0.0.0 --secure-port=6443 --advertise-address="$NODE_IP" --insecure-port=0 \
  --tls-cert-file="$PKI/apiserver.crt" --tls-private-key-file="$PKI/apiserver.key" --client-ca-file="$PKI/ca.crt" \
  --token-auth-file="$PKI/tokens.csv" --authorization-mode=Node,RBAC --enable-admission-plugins=NodeRestriction \
  --service-cluster-ip-range="$SVC_CIDR" --allow-privileged=true \
  --service-account-issuer=https://kubernetes.default.svc.cluster.local \
  --service-account-key-file="$PKI/sa.pub" --service-account-signing-key-file="$PKI/sa.key" \
  --kubelet-client-certificate="$PKI/kubelet-client.crt" --kubelet-client-key="$PKI/kubelet-client.key" \
  --kubelet-preferred-address-types=InternalIP --profiling=false
waitfor "kube-apiserver ready" 120 inns kubectl --kubeconfig "$ETC/admin.kubeconfig" get --raw /readyz

start kube-controller-manager kube-controller-manager --kubeconfig="$ETC/cm.kubeconfig" \
  --authentication-kubeconfig="$ETC/cm.kubeconfig" --authorization-kubeconfig="$ETC/cm.kubeconfig" \
  --bind-address=127.0.0.1 --port=0 --leader-elect=false --use-service-account-credentials=true \
  --service-account-private-key-file="$PKI/sa.key" --root-ca-file="$PKI/ca.crt" \
  --cluster-signing-cert-file="$PKI/ca.crt" --cluster-signing-key-file="$PKI/ca.key" \
  --allocate-node-cidrs=false --profiling=false --flex-volume-plugin-dir="$K/cm-volume-plugins"
start kube-scheduler kube-scheduler --kubeconfig="$ETC/sched.kubeconfig" \
  --authentication-kubeconfig="$ETC/sched.kubeconfig" --authorization-kubeconfig="$ETC/sched.kubeconfig" \
  --bind-address=127.0.0.1 --port=0 --leader-elect=false --profiling=false
}
stage_kubelet() {
start kubelet kubelet --config="$ETC/kubelet.yaml" --kubeconfig="$ETC/kubelet.kubeconfig" \
  --container-runtime=remote --container-runtime-endpoint="unix://$SOCK" --image-service-endpoint="unix://$SOCK" \
  --runtime-request-timeout=5m --root-dir="$K/kubelet" --cert-dir="$K/kubelet/pki" \
  --volume-plugin-dir="$K/kubelet/volume-plugins" --hostname-override="$NODE_NAME" --node-ip="$NODE_IP" \
  --pod-infra-container-image=k8sreal.local/pause:1 --v=1

}
stage_wait() {
# host access: 127.0.0.1:$API_HOST_PORT (host netns) -> unix socket -> 127.0.0.1:6443 (cluster netns)
start api-bridge-in socat "UNIX-LISTEN:$R/apiserver.sock,fork,unlink-early" TCP:127.0.0.1:6443
if ! alive "$(cat "$R/api-bridge-out.pid" 2>/dev/null)"; then
  nohup socat "TCP-LISTEN:$API_HOST_PORT,bind=127.0.0.1,fork,reuseaddr" "UNIX-CONNECT:$R/apiserver.sock" \
    >"$L/api-bridge-out.log" 2>&1 &
  echo $! > "$R/api-bridge-out.pid"
fi

waitfor "node $NODE_NAME Ready" 180 sh -c "kubectl --kubeconfig $ETC/admin-host.kubeconfig get node $NODE_NAME \
  -o jsonpath='{.status.conditions[?(@.type==\"Ready\")].status}' | grep -qx True"
# no kube-proxy runs: what it would do for the API server's own Service, pods reach it at its ClusterIP
# (the in-cluster address every client library reads from KUBERNETES_SERVICE_HOST), is one DNAT rule here
KUBE_SVC_IP=${SVC_CIDR%.*}.1
inns iptables -t nat -C PREROUTING -d "$KUBE_SVC_IP" -p tcp --dport 443 -j DNAT --to-destination "$NODE_IP:6443" 2>/dev/null \
  || inns iptables -t nat -A PREROUTING -d "$KUBE_SVC_IP" -p tcp --dport 443 -j DNAT --to-destination "$NODE_IP:6443"
waitfor "default service account" 60 kubectl --kubeconfig "$ETC/admin-host.kubeconfig" get sa default
ts "cluster up; kubectl: $BIN/kubectl --kubeconfig $ETC/admin-host.kubeconfig"
}
if [ $# -gt 0 ]; then for s in "$@"; do "stage_$s"; done; exit 0; fi
stage_leftovers; stage_packages; stage_build; stage_images; stage_config; stage_ns; stage_containerd; stage_ctrtest; stage_control_plane
stage_kubelet; stage_wait
