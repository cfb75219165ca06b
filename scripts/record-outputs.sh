#!/usr/bin/env bash
# Records every output of one lgcheck build on the bundled cases into DIR, so
# that two builds can be compared byte for byte (diff -r DIR_A DIR_B): a
# change meant to leave behaviour alone (a refactoring, a move of files) must
# leave every file identical.
#   check.out, check.rc   lgcheck check cases/ (verdicts, details, expectations)
#   certificates/         every certificate it wrote
#   replay.out, replay.rc lgcheck replay of those certificates
#   tables/               every table in every format and every plot (as make
#                         tables writes docs/tables/, so tables/ may also be
#                         compared with it)
# Usage: scripts/record-outputs.sh LGCHECK DIR   (from the repository root)
set -euo pipefail
if [ $# -ne 2 ]; then
  echo "usage: $0 LGCHECK DIR" >&2
  exit 2
fi
lgcheck=$(realpath "$1")
out=$2
cases=$(realpath cases)
rm -rf "$out"
mkdir -p "$out/tables"
cd "$out"
set +e
"$lgcheck" check "$cases" --certificates certificates > check.out 2> check.err
echo $? > check.rc
"$lgcheck" replay certificates > replay.out 2> replay.err
echo $? > replay.rc
set -e
for t in t41 threshold margin t42 t52 scaling sim_lengths teeth; do
  for f in md csv tex json; do
    "$lgcheck" table "$t" --cases "$cases" --quiet --format "$f" --out "tables/$t.$f"
  done
done
for p in n_vs_omega n_vs_delta n_vs_k n_vs_farey n_vs_inverse_margin subsample distance; do
  "$lgcheck" plot "$p" --cases "$cases" --out "tables/$p.svg"
done
echo "recorded in $out"
