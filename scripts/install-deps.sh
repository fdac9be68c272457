#!/usr/bin/env bash
# Installs vkscan's build and test dependencies from Debian 12 packages.
# Idempotent: packages already present are left alone and apt is not touched.
set -euo pipefail

packages=(
  build-essential cmake
  libvulkan-dev libvulkan-volk-dev glslang-tools doctest-dev
  # the consumer tests build against the installed vkscan.pc
  pkgconf
  # the kernels are embedded zstd-compressed: the command at build time, the
  # library at run time
  zstd libzstd-dev
  mesa-vulkan-drivers vulkan-validationlayers vulkan-tools
  # scripts/ci-reliability.sh: libFuzzer and TSan (clang), symbolized reports
  clang libclang-rt-14-dev llvm
  # the Python module (python/) and its suites: pytest, and the PyTorch, ONNX
  # and Dask they take tensors, conformance cases and clusters from
  pybind11-dev python3-dev python3-numpy python3-pytest python3-torch python3-onnx
  python3-dask python3-distributed
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ "${#missing[@]}" -eq 0 ]; then
  echo "install-deps: all packages present"
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -q
"${sudo_cmd[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
