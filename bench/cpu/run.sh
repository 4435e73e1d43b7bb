#!/usr/bin/env bash
# CPU benchmark: RLX (rlx-run) against PyTorch on the CPU, same inputs, same
# run. Installs what the peer needs to be fair: Debian's PyTorch uses the
# BLAS it finds, and the reference BLAS is ~40x slower than OpenBLAS.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
missing=()
for p in libopenblas0-pthread python3-torch python3-numpy; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  apt-get update -q
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
bash "$ROOT/scripts/setup.sh" > /dev/null
exec /usr/bin/python3 "$ROOT/bench/cpu/bench.py" "$@"
