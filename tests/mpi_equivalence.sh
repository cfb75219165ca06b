#!/usr/bin/env bash
# lgcheck-mpi under mpirun -np 2 prints exactly what one lgcheck process
# prints, on the pair and witness cases (JSON, byte for byte).
# Usage: mpi_equivalence.sh LGCHECK LGCHECK_MPI MPIEXEC CASES_DIR
set -euo pipefail
lgcheck=$1 mpi=$2 mpiexec=$3 cases=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
args=("$cases/pairs" "$cases/witnesses" --claims 'T4.1.*')
"$lgcheck" check "${args[@]}" --json > "$tmp/one.json"
"$mpiexec" --allow-run-as-root --oversubscribe -np 2 "$mpi" check "${args[@]}" --json > "$tmp/mpi.json"
if ! cmp -s "$tmp/one.json" "$tmp/mpi.json"; then
  echo "lgcheck-mpi -np 2 differs from one process:" >&2
  diff "$tmp/one.json" "$tmp/mpi.json" | head -20 >&2
  exit 1
fi
echo "lgcheck-mpi -np 2: identical to one process ($(grep -c '"verdict"' "$tmp/one.json") claims)"
