#!/usr/bin/env bash
# Regenerate the bundled paper-task cases in cases/paper/ with `lgcheck gen`.
# Usage: scripts/generate-cases.sh [path/to/lgcheck]   (default build/lgcheck)
set -euo pipefail
LGCHECK="${1:-build/lgcheck}"
OUT=cases/paper
mkdir -p "$OUT/modp" "$OUT/simple" "$OUT/induction"

for p in 2 3 5 7; do
  "$LGCHECK" gen --out "$OUT/modp/modp_p${p}_hardmax.json" \
    --check '{"precision_bits": 3, "max_length": 12, "random_inputs": 10, "seed": 1, "threshold_sharp": true}' \
    --expect '{"logit_margin": "1", "verdicts": {"S.consistency": "SAMPLED", "T4.1.threshold": "SAMPLED", "L4.L": "SAMPLED", "T4.1.sim": "SAMPLED"}}' \
    modp --p "$p" --semantics hardmax
  "$LGCHECK" gen --out "$OUT/modp/modp_p${p}_finite8.json" \
    --check '{"max_length": 10, "random_inputs": 10, "seed": 1, "threshold_sharp": true}' \
    --expect '{"logit_margin": "1", "verdicts": {"S.consistency": "SAMPLED", "T4.1.threshold": "SAMPLED", "L4.L": "SAMPLED", "T4.1.sim": "SAMPLED"}}' \
    modp --p "$p" --semantics finite:8
done

for w in 1 2 4 8; do
  for r in sin relu; do
    "$LGCHECK" gen --out "$OUT/simple/simple_w${w}_${r}.json" \
      --check '{"precision_bits": 8, "max_length": 10, "random_inputs": 5, "seed": 1}' \
      --expect '{"logit_margin": "inf", "verdicts": {"S.consistency": "VACUOUS", "T4.1.threshold": "VACUOUS", "L4.L": "SAMPLED", "T4.1.sim": "SAMPLED"}}' \
      simple --omega "$w" --readout "$r"
  done
done

# c = 1/4 in Lemma 5.3's bound: the subsampler meets it at n = 10^2 .. 10^4
# (x up to 10^5) and the rate matters (n^-1/2 fails: the mutation suite shows it).
"$LGCHECK" gen --out "$OUT/induction/induction_head_k1.json" --check '{"subsample_constant": "1/4", "subsample_length": 100000}' \
  --expect '{"verdicts": {"L5.conv": "SAMPLED", "L5.lip": "SAMPLED", "L5.3.subsample": "SAMPLED"}}' \
  induction --lambda 2 --beta 4

# Section 4: a logit gap of 1/2, so the threshold is 2^(p/gamma) = 2^12 = 4096
# (not 2^p/gamma = 128), above N_sim: z must be padded to it.
mkdir -p cases/section4
"$LGCHECK" gen --out cases/section4/modp_p3_finite6_margin1_2.json \
  --check '{"epsilon": "1/10", "max_length": 12, "random_inputs": 3, "seed": 1, "threshold_sharp": true}' \
  --expect '{"logit_margin": "1/2", "verdicts": {"S.consistency": "SAMPLED", "T4.1.threshold": "SAMPLED", "L4.L": "SAMPLED", "T4.1.sim": "SAMPLED"}}' \
  modp --p 3 --semantics finite:6 --margin 1/2

# Section 4 with a window (tau = 1) and two heads of different attention
# patterns: the construction's window interval [1, V_h] and the general
# length bound for H = 2 patterns (no generator builds it: written here).
cat > cases/section4/window_two_heads.json <<'JSON'
{
  "format": "lgcheck-case/1",
  "name": "window_two_heads",
  "description": "One layer, two hardmax heads, locality tau = 1, period 2 (T4.1.sim's window interval and its bound for two attention patterns): head 1 averages the 1-indicator over the positions of residue 0; head 2 attends to the 1-tokens, window slots included, and averages their residue-0 indicator; the readout adds the two",
  "check": {
    "precision_bits": 3,
    "epsilon": "1/4",
    "max_length": 10,
    "random_inputs": 10,
    "seed": 1,
    "threshold_sharp": true
  },
  "alphabet": ["0", "1"],
  "width": 6,
  "period": 2,
  "locality": 1,
  "semantics": "hardmax",
  "embedding": [["1", "0", "1", "0", "0", "0"], ["0", "1", "1", "0", "0", "0"]],
  "positional": [["0", "0", "0", "0", "0", "1"], ["0", "0", "0", "0", "0", "0"]],
  "layers": [
    {
      "heads": [
        {
          "phi": ["0", "0"],
          "qk": [["0", "0", "0", "0", "0", "0"], ["0", "0", "0", "0", "0", "0"], ["0", "0", "0", "0", "0", "0"], ["0", "0", "0", "0", "0", "0"], ["0", "0", "0", "0", "0", "0"], ["0", "0", "1", "0", "0", "0"]],
          "value": [["0", "0", "0", "0", "0", "0"], ["0", "0", "0", "0", "0", "0"], ["0", "0", "0", "0", "0", "0"], ["0", "1", "0", "0", "0", "0"], ["0", "0", "0", "0", "0", "0"], ["0", "0", "0", "0", "0", "0"]]
        },
        {
          "phi": ["0", "0"],
          "qk": [["0", "0", "0", "0", "0", "0"], ["0", "0", "1", "0", "0", "0"], ["0", "0", "0", "0", "0", "0"], ["0", "0", "0", "0", "0", "0"], ["0", "0", "0", "0", "0", "0"], ["0", "0", "0", "0", "0", "0"]],
          "value": [["0", "0", "0", "0", "0", "0"], ["0", "0", "0", "0", "0", "0"], ["0", "0", "0", "0", "0", "0"], ["0", "0", "0", "0", "0", "0"], ["0", "0", "0", "0", "0", "1"], ["0", "0", "0", "0", "0", "0"]]
        }
      ]
    }
  ],
  "readout": {
    "activation": "identity",
    "bias": ["0"],
    "weights": [["0", "0", "0", "1", "1", "0"]]
  },
  "expect": {
    "logit_margin": "1",
    "verdicts": {
      "S.consistency": "SAMPLED",
      "T4.1.threshold": "SAMPLED",
      "L4.L": "SAMPLED",
      "T4.1.sim": "SAMPLED"
    }
  }
}
JSON

# Section 4 with a wide window (tau = 7) whose slots share the attended
# token: the error lemma's window term (each slot costs about 2/Q in
# |w(x) - w(z)|_1 once V_h/Q > tau + 1) on the constructed hard inputs.
cat > cases/section4/window_wide.json <<'JSON'
{
  "format": "lgcheck-case/1",
  "name": "window_wide",
  "description": "One layer, one hardmax head, locality tau = 7, period 2 (T4.1.sim's window term of the error lemma): the head attends to the 1-tokens, window slots included, and averages their residue-0 indicator",
  "check": {
    "precision_bits": 3,
    "epsilon": "1/4",
    "max_length": 10,
    "random_inputs": 10,
    "seed": 1,
    "threshold_sharp": true
  },
  "alphabet": ["0", "1"],
  "width": 5,
  "period": 2,
  "locality": 7,
  "semantics": "hardmax",
  "embedding": [["1", "0", "1", "0", "0"], ["0", "1", "1", "0", "0"]],
  "positional": [["0", "0", "0", "1", "0"], ["0", "0", "0", "0", "0"]],
  "layers": [
    {
      "heads": [
        {
          "phi": ["0", "0", "0", "0", "0", "0", "0", "0"],
          "qk": [["0", "0", "0", "0", "0"], ["0", "0", "1", "0", "0"], ["0", "0", "0", "0", "0"], ["0", "0", "0", "0", "0"], ["0", "0", "0", "0", "0"]],
          "value": [["0", "0", "0", "0", "0"], ["0", "0", "0", "0", "0"], ["0", "0", "0", "0", "0"], ["0", "0", "0", "0", "0"], ["0", "0", "0", "1", "0"]]
        }
      ]
    }
  ],
  "readout": {
    "activation": "identity",
    "bias": ["0"],
    "weights": [["0", "0", "0", "0", "1"]]
  },
  "expect": {
    "logit_margin": "1",
    "verdicts": {
      "S.consistency": "SAMPLED",
      "T4.1.threshold": "SAMPLED",
      "L4.L": "SAMPLED",
      "T4.1.sim": "SAMPLED"
    }
  }
}
JSON

# Pairs: each SimpleTask sin readout against its ReLU-MLP approximation, each
# ModPTask against a copy with its value map perturbed by 1/100.
mkdir -p cases/pairs
for w in 1 2 4 8; do
  cat > "cases/pairs/simple_w${w}_sin_vs_relu.json" <<JSON
{
  "format": "lgcheck-case/1",
  "name": "simple_w${w}_sin_vs_relu",
  "description": "SimpleTask omega=${w}: sin readout against its ReLU-MLP interpolation (D_inf is the interpolation error)",
  "pair": ["../paper/simple/simple_w${w}_sin.json", "../paper/simple/simple_w${w}_relu.json"],
  "check": {"epsilon": "1/10", "max_length": 40, "seed": 1},
  "expect": {"verdicts": {"L4.L": "SAMPLED", "T4.1.sim": "SAMPLED", "T4.1.lg": "PROVED"}}
}
JSON
done
declare -A PAIR_LENGTH=([2]=24 [3]=18 [5]=13 [7]=11)
for p in 2 3 5 7; do
  "$LGCHECK" gen --out "cases/pairs/modp_p${p}_perturbed_pair.json" \
    --check "{\"epsilon\": \"1/10\", \"max_length\": ${PAIR_LENGTH[$p]}, \"seed\": 1}" \
    --expect '{"verdicts": {"L4.L": "SAMPLED", "T4.1.sim": "SAMPLED", "T4.1.lg": "PROVED"}}' \
    modp-pair --p "$p" --eta 1/100
done

# Two attention patterns (the copy attends to the 1-tokens): the general N_sim,
# exponent min(H, S*Delta) = 2 (docs/theory.md, "Lemma (length)"); the pair
# differs by up to 1, so T4.1.lg's antecedent is false (VACUOUS).
"$LGCHECK" gen --out cases/pairs/modp_p2_two_pattern_pair.json \
  --check '{"epsilon": "1/10", "max_length": 16, "seed": 1}' \
  --expect '{"verdicts": {"L4.L": "SAMPLED", "T4.1.sim": "SAMPLED", "T4.1.lg": "VACUOUS"}}' \
  modp-pair --p 2 --eta 1/100 --ones

# A pair that differs in V and in the readout (ModPTask p = 1: S = 2, Delta = 1,
# tau = 0), so neither the value-perturbation nor the readout-gap bound applies:
# D_inf = (22/21)^2 - 1 = 43/441 <= eps, and the distance curve reaches
# N_sim(eps') = 966 for eps' = 121/1764, so T4.1.lg is decided by the
# simulation bracket D(966) + 2 eps' <= 3 eps.
"$LGCHECK" gen --out cases/pairs/modp_p1_value_readout_pair.json --name modp_p1_value_readout_pair \
  --check '{"epsilon": "1/10", "max_length": 1000, "seed": 1}' \
  --expect '{"verdicts": {"L4.L": "SAMPLED", "T4.1.sim": "SAMPLED", "T4.1.lg": "PROVED"}}' \
  modp-pair --p 1 --eta 1/21 --readout-eta 1/21

# Lower-bound witnesses: Farey-hat pairs of order n.
mkdir -p cases/witnesses
for n in 4 8 16 32; do
  "$LGCHECK" gen --out "cases/witnesses/farey_hat_n${n}.json" --check '{"epsilon": "1/10", "seed": 1}' \
    --expect '{"verdicts": {"L4.L": "SAMPLED", "T4.1.sim": "SAMPLED", "T4.1.lg": "VACUOUS", "T4.1.witness": "PROVED"}}' \
    farey-hat --n "$n" --eta 1/4
done

# Theorem 4.2 (average case). The Farey-hat pair of order 4 under a
# symmetric and a skewed prior (alpha_min < 1), with real content: the
# premise holds up to N0 and the conclusion is checked at N0 .. 8 N0.
mkdir -p cases/average
"$LGCHECK" gen --out cases/average/farey_hat_n4_uniform.json --name farey_hat_n4_uniform \
  --check '{"dirichlet_alpha": ["1", "1"], "epsilon": "1/4", "seed": 1}' \
  --expect '{"verdicts": {"L4.L": "SAMPLED", "T4.1.sim": "SAMPLED", "T4.1.lg": "VACUOUS", "T4.1.witness": "PROVED", "T4.2.avg": "SAMPLED"}}' \
  farey-hat --n 4 --eta 1
"$LGCHECK" gen --out cases/average/farey_hat_n4_skewed.json --name farey_hat_n4_skewed \
  --check '{"dirichlet_alpha": ["2", "1/2"], "epsilon": "1/2", "seed": 1}' \
  --expect '{"verdicts": {"L4.L": "SAMPLED", "T4.1.sim": "SAMPLED", "T4.1.lg": "VACUOUS", "T4.1.witness": "PROVED", "T4.2.avg": "SAMPLED"}}' \
  farey-hat --n 4 --eta 1
# The presence pair under a prior that makes the marked symbol rare
# (alpha_1 = 1/2): E_t grows like 1 - O(t^(-1/2)). With N0 from alpha_min the
# premise fails before N0 (VACUOUS); N0 from alpha_max would be 5,
# and E_40 > eps^(1/2): the mutation suite shows that this is caught.
"$LGCHECK" gen --out cases/average/presence_skewed.json --name presence_skewed \
  --check '{"epsilon": "1/2", "N0_constant": "5/8", "conclusion_constant": "1"}' \
  --expect '{"verdicts": {"L4.L": "SAMPLED", "T4.1.sim": "SAMPLED", "T4.1.lg": "VACUOUS", "T4.2.avg": "VACUOUS"}}' \
  presence --vocab 2 --marked 1 --eta 1 --alpha 2,1/2
# The presence pair where Theorem 4.2's implication nearly binds: eta = eps,
# so the premise E_t <= eps holds with E_t -> eps, and E_T = (1/2)(1 - 1/(T+1))
# reaches 0.70 of eps^(1/2) at T = 8 N0 = 128 (C halved is refuted: the
# mutation suite shows it). N0 = 16 and every T in [16, 128] is computed.
"$LGCHECK" gen --out cases/average/presence_binding.json --name presence_binding \
  --check '{"epsilon": "1/2", "conclusion_constant": "1"}' \
  --expect '{"verdicts": {"L4.L": "SAMPLED", "T4.1.sim": "SAMPLED", "T4.1.lg": "PROVED", "T4.2.avg": "SAMPLED"}}' \
  presence --vocab 2 --marked 1 --eta 1/2 --alpha 1,1
# The absence pair: f = eta, so |f - g| = eta exactly when no marked symbol
# occurs and E_t = 1/(t + 1) under the uniform prior. With eps = 1/2 and
# C = 1/2 the conclusion's bound 0.354 is below eps: a computation that drops
# the multinomial multiplicities (and renormalises) puts half the mass on the
# all-unmarked string, keeps the premise (E_t <= 1/2) and breaks the
# conclusion (E_16 = 0.47): the mutation suite shows that this is caught.
"$LGCHECK" gen --out cases/average/absence_uniform.json --name absence_uniform \
  --check '{"epsilon": "1/2", "conclusion_constant": "1/2"}' \
  --expect '{"verdicts": {"L4.L": "SAMPLED", "T4.1.sim": "SAMPLED", "T4.1.lg": "VACUOUS", "T4.2.avg": "SAMPLED"}}' \
  presence --vocab 2 --marked 1 --eta 1 --alpha 1,1 --absence
# The regularity counterexample at two switch lengths, two alphabets.
"$LGCHECK" gen --out cases/average/regularity_k64.json \
  --expect '{"verdicts": {"L4.L": "SAMPLED", "T4.1.sim": "SAMPLED", "T4.1.lg": "VACUOUS", "C4.2.regularity": "PROVED"}}' \
  regularity --switch 64 --vocab 2 --short 1 --eta 1
"$LGCHECK" gen --out cases/average/regularity_k500_s3.json --name regularity_k500_s3 \
  --check '{"regularity_tail": 100}' \
  --expect '{"verdicts": {"L4.L": "SAMPLED", "T4.1.sim": "SAMPLED", "T4.1.lg": "VACUOUS", "C4.2.regularity": "PROVED"}}' \
  regularity --switch 500 --vocab 3 --short 2 --eta 1/3 --alpha 1/2,3,2

# Section 5: two-layer softmax models, one per regime of the first head
# (positional margin 1/2, 1, 1/2), content logit 2 on key 1.
mkdir -p cases/section5
for regime in token:1/2 balanced:1 position:3/2; do
  name="${regime%%:*}"; phi="${regime#*:}"
  # The second layer of token and balanced has M = 0: Lemma 5.3's rate bound
  # is above the statistic error's range there, but the drift form's
  # Lipschitz premises are below it (SAMPLED).
  "$LGCHECK" gen --out "cases/section5/regime_${name}.json" \
    --check '{"max_length": 12, "random_inputs": 3, "seed": 1}' \
    --expect '{"verdicts": {"L5.conv": "SAMPLED", "L5.lip": "SAMPLED", "L5.3.subsample": "SAMPLED"}}' \
    regime --phi1 "$phi" --content 2
done

# Section 5: the in-context k-gram construction for (k, S, rho) = (1, 2, 1/2),
# (2, 3, 1/4), (3, 4, 1/4) at eps = 1/2, beta and lambda from the rule of
# docs/theory.md (a high match fraction needs repetitive inputs, rarer as k grows).
for ksr in 1:2:1/2 2:3:1/4 3:4:1/4; do
  k="${ksr%%:*}"; rest="${ksr#*:}"; s="${rest%%:*}"; rho="${rest#*:}"
  "$LGCHECK" gen --out "cases/section5/kgram_k${k}_s${s}.json" \
    --check '{"seed": 1}' \
    --expect '{"verdicts": {"L5.conv": "SAMPLED", "L5.lip": "SAMPLED", "D5.4.kgram": "SAMPLED", "L5.3.subsample": "SAMPLED"}}' \
    kgram --k "$k" --vocab "$s" --epsilon 1/2 --rho "$rho"
done

# Section 5, Theorem 5.2's simulation check: two pairs with small norms (the
# bound is below the outputs' a-priori range from n = 10^2 or 10^3 on, so
# the check can fail) and a sharp one (scores +-3: the output's sensitivity
# is e^6 when 1s are rare, which the bound's exponential factor must carry;
# every bound is above the range: VACUOUS, but the mutation dropping e^A
# is REFUTED there), and a rare one (VACUOUS likewise).
"$LGCHECK" gen --out cases/section5/attention_pair_smooth.json --name attention_pair_smooth \
  --check '{"simulation_length": 30000, "seed": 1}' \
  --expect '{"verdicts": {"T5.2.sim": "SAMPLED"}}' \
  attention-pair --a 1/2 --copy 1/10 --eta 1/20
"$LGCHECK" gen --out cases/section5/attention_pair_flat.json --name attention_pair_flat \
  --check '{"seed": 1}' \
  --expect '{"verdicts": {"T5.2.sim": "SAMPLED"}}' \
  attention-pair --a 1/4 --copy 1/10 --eta 1/20
"$LGCHECK" gen --out cases/section5/attention_pair_sharp.json --name attention_pair_sharp \
  --check '{"seed": 1}' \
  --expect '{"verdicts": {"T5.2.sim": "VACUOUS"}}' \
  attention-pair --a 3 --copy 0 --eta 1/20
# A rare pair (scores +-15/2, one 1 among 10^5 0s): whether z keeps the 1
# moves the output by ~0.97, which C(f) carries through e^(A_g); C(f)
# without its exponential factor is REFUTED there.
"$LGCHECK" gen --out cases/section5/attention_pair_rare.json --name attention_pair_rare \
  --check '{"simulation_length": 100000, "simulation_inputs": ["single"], "seed": 1}' \
  --expect '{"verdicts": {"T5.2.sim": "VACUOUS"}}' \
  attention-pair --a 15/2 --copy 0 --eta 1/20
# The flat pair with a window (tau = 1) and a first layer that attends
# (score 1/2 on a 1-key), one pair per first-layer regime: phi = 0 on slot 1
# (token-dominant, gamma = 1), 1 (balanced) and 2 (position-dominant,
# gamma = 1): the simulation-error bound with tau >= 1 and a non-zero first
# layer, each below the outputs' range.
for spec in token:0 balanced:1 position:2; do
  regime=${spec%%:*}; phi=${spec#*:}
  "$LGCHECK" gen --out cases/section5/attention_pair_window_$regime.json --name attention_pair_window_$regime \
    --check '{"seed": 1}' \
    --expect '{"verdicts": {"T5.2.sim": "SAMPLED"}}' \
    attention-pair --a 1/4 --copy 1/10 --eta 1/20 --locality 1 --first-score 1/2 --first-phi $phi
done
