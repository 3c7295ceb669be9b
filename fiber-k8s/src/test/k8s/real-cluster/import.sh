#!/usr/bin/env bash
# Imports image tarballs (docker-archive, as `docker save` and Jib's buildTar write them) into the running
# cluster's containerd, where its kubelet finds them: no registry is involved.
# Usage: ./import.sh IMAGE.tar...
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/env.sh"
alive "$(holder_pid)" || { echo "no cluster is up (run up.sh first)" >&2; exit 1; }
for f in "$@"; do
  kctr images import "$(realpath "$f")" >/dev/null
  echo "imported $f"
done
