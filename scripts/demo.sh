#!/usr/bin/env bash
# Installs vkscan's dependencies (Debian 12), builds the command-line tool and
# runs the DirectML reference page's examples on the Vulkan device.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-/tmp}"
build="${VKSCAN_BUILD_DIR:-build}"
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release
cmake --build "$build" -j"$(nproc)" --target vkscan_cli
"$build/bin/vkscan" demo
