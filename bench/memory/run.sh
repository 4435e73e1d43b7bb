#!/usr/bin/env bash
# Memory benchmark: arena sizes of --rlx-plan-memory's planners against the
# lower bound and the naive sum, for the BERT-base layer, the Llama decoder
# layer, a 12-layer BERT and an MLP training step. Static figures (bytes),
# so any machine gives the same table. RLX_OPT picks the rlx-opt binary
# (default: build/bin/rlx-opt, built by scripts/setup.sh when missing).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
if [ -z "${RLX_OPT:-}" ] && [ ! -x "$ROOT/build/bin/rlx-opt" ]; then
  bash "$ROOT/scripts/setup.sh" > /dev/null
fi
exec /usr/bin/python3 "$ROOT/bench/memory/bench.py" "$@"
