#!/usr/bin/env bash
# Install the Debian packages lgcheck needs, and only those that are missing.
# Uses sudo when not root; does nothing when everything is already present.
set -euo pipefail

PACKAGES=(
  build-essential cmake pkg-config
  libboost-dev libgmp-dev libmpfr-dev libmpfi-dev
  libfmt-dev catch2 nlohmann-json3-dev libcli11-dev
  clang libclang-rt-14-dev
  gnuplot-nox libbenchmark-dev
  openmpi-bin libopenmpi-dev
)

missing=()
for pkg in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$pkg")
  fi
done

if [ "${#missing[@]}" -eq 0 ]; then
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  SUDO="sudo"
fi

echo "install-deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
