#!/usr/bin/env bash
# Regenerate the bundled paper-task cases in cases/paper/ with `lgcheck gen`.
# Usage: scripts/generate-cases.sh [path/to/lgcheck]   (default build/lgcheck)
set -euo pipefail
LGCHECK="${1:-build/lgcheck}"
OUT=cases/paper
mkdir -p "$OUT/modp" "$OUT/simple" "$OUT/induction"

for p in 2 3 5 7; do
  "$LGCHECK" gen --out "$OUT/modp/modp_p${p}_hardmax.json" \
    --check '{"precision_bits": 3, "max_length": 12, "random_inputs": 10, "seed": 1}' \
    --expect '{"logit_margin": "1", "verdicts": {"S.consistency": "PROVED"}}' \
    modp --p "$p" --semantics hardmax
  "$LGCHECK" gen --out "$OUT/modp/modp_p${p}_finite8.json" \
    --check '{"max_length": 10, "random_inputs": 10, "seed": 1}' \
    --expect '{"logit_margin": "1", "verdicts": {"S.consistency": "PROVED"}}' \
    modp --p "$p" --semantics finite:8
done

for w in 1 2 4 8; do
  for r in sin relu; do
    "$LGCHECK" gen --out "$OUT/simple/simple_w${w}_${r}.json" \
      --check '{"precision_bits": 8, "max_length": 10, "random_inputs": 5, "seed": 1}' \
      --expect '{"logit_margin": "inf", "verdicts": {"S.consistency": "PROVED"}}' \
      simple --omega "$w" --readout "$r"
  done
done

"$LGCHECK" gen --out "$OUT/induction/induction_head_k1.json" induction --lambda 2 --beta 4
