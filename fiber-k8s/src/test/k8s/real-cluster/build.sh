#!/usr/bin/env bash
# Builds kube-apiserver, kube-controller-manager, kube-scheduler, kubelet (v1.20.2) from Debian bookworm's
# own `kubernetes` source package with Debian's Go 1.19, and extracts kubectl from Debian's kubernetes-client
# package. Idempotent: cached under $K/cache, binaries in $K/bin.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/env.sh"
C=$K/cache
BIN=$K/bin
WHAT_BINS="kube-apiserver kube-controller-manager kube-scheduler kubelet"
# Binaries built before the reflect2 fix below crash (SIGSEGV in reflect2.UnsafeIterate): rebuild them.
[ -e "$BIN/.reflect2-1.0.2" ] || for b in $WHAT_BINS; do rm -f "$BIN/$b"; done
ok=1; for b in $WHAT_BINS kubectl; do [ -x "$BIN/$b" ] || ok=0; done
if [ $ok = 1 ]; then echo "binaries cached in $BIN"; exit 0; fi
mkdir -p "$C/apt/sources.list.d" "$C/apt/lists/partial" "$C/apt/cache/archives/partial" "$C/src" "$BIN" "$K/logs"
for f in /etc/apt/sources.list.d/*.sources; do
  grep -q '^Types:.*deb' "$f" && grep -qi 'debian' "$f" || continue
  sed 's/^Types: deb$/Types: deb deb-src/' "$f" > "$C/apt/sources.list.d/$(basename "$f")"
done
[ -f /etc/apt/sources.list ] && sed -n 's/^deb \(.*\)$/deb-src \1/p' /etc/apt/sources.list > "$C/apt/sources.list.d/plain.list" || true
APTO=(-o "Dir::Etc::SourceList=/dev/null" -o "Dir::Etc::SourceParts=$C/apt/sources.list.d"
      -o "Dir::State::Lists=$C/apt/lists" -o "Dir::Cache=$C/apt/cache")
cd "$C/src"
if ! ls kubernetes_*.orig.tar.gz >/dev/null 2>&1 || ! ls kubernetes-client_*.deb >/dev/null 2>&1; then
  apt-get "${APTO[@]}" update -qq
  apt-get "${APTO[@]}" source --download-only kubernetes >/dev/null 2>&1
  apt-get "${APTO[@]}" download kubernetes-client >/dev/null 2>&1
fi
ls golang-github-modern-go-reflect2-dev_*.deb >/dev/null 2>&1 || apt-get "${APTO[@]}" download golang-github-modern-go-reflect2-dev >/dev/null 2>&1
if [ ! -x "$BIN/kubectl" ]; then
  rm -rf kc; dpkg -x kubernetes-client_*.deb kc; cp kc/usr/bin/kubectl "$BIN/kubectl"
fi
[ -d kubernetes-1.20.2 ] || { rm -rf kubernetes-1.20.*; tar xzf kubernetes_*.orig.tar.gz; }
cd kubernetes-1.20.*
# Kubernetes 1.20 vendors github.com/modern-go/reflect2 v1.0.1, which is broken with Go >= 1.18 (it links
# to reflect.mapiterinit with the pre-1.18 signature): the apiserver dies with "fatal error: fault" /
# SIGSEGV in reflect2.(*UnsafeMapType).UnsafeIterate as soon as it JSON-encodes an object with a
# non-empty map (labels). Debian's golang-github-modern-go-reflect2-dev 1.0.2 has the fix: vendor it.
V=vendor/github.com/modern-go/reflect2
if ! grep -q 'go1.18' $V/*.go 2>/dev/null; then
  rm -rf ../r2; dpkg -x ../golang-github-modern-go-reflect2-dev_*.deb ../r2
  rm -f $V/*.go $V/*.s; cp ../r2/usr/share/gocode/src/github.com/modern-go/reflect2/*.go $V/
  cp ../r2/usr/share/gocode/src/github.com/modern-go/reflect2/*.s $V/ 2>/dev/null || true
  rm -f $V/*_test.go
fi
export PATH=/usr/lib/go-1.19/bin:$PATH GOCACHE=$C/gocache GOFLAGS= GOPROXY=off HOME=$C/home TMPDIR=$C/tmp
export KUBE_GIT_VERSION=v1.20.2 KUBE_GIT_TREE_STATE=clean
mkdir -p "$HOME" "$TMPDIR"
for b in $WHAT_BINS; do
  [ -x "$BIN/$b" ] && continue
  s=$(date +%s)
  nice -n 19 make WHAT="cmd/$b" >"$K/logs/make-$b.log" 2>&1 || { tail -30 "$K/logs/make-$b.log"; exit 1; }
  cp "_output/bin/$b" "$BIN/$b"
  echo "built $b in $(( $(date +%s) - s ))s" | tee -a "$K/logs/build-times.txt"
done
touch "$BIN/.reflect2-1.0.2"
for b in $WHAT_BINS kubectl; do "$BIN/$b" --version 2>/dev/null || "$BIN/$b" version --client --short; done
