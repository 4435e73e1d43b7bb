#!/usr/bin/env bash
#===- scripts/setup.sh - install dependencies and build RLX-MLIR ----------===#
#
# Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
# Exceptions. See the LICENSE file for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
#===----------------------------------------------------------------------===#
#
# Installs the Debian packages RLX-MLIR needs (only those missing, without
# prompts), then configures and builds into ./build with ninja. Idempotent:
# a second run only rebuilds what changed. Both README commands and .ci/run
# call this script.
#
#===----------------------------------------------------------------------===#
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${RLX_BUILD_DIR:-$ROOT/build}"

PACKAGES=(
  cmake ninja-build g++ ccache
  libmlir-22-dev mlir-22-tools llvm-22-dev llvm-22-tools clang-22 lld-22
  python3 python3-numpy python3-pytest python3-torch python3-onnx python3-sklearn
  python3-sentencepiece python3-torchvision python3-matplotlib
  libopenblas0-pthread
  python3-pip python3-setuptools
  libclang-rt-22-dev
  rocm-device-libs
  mesa-vulkan-drivers libvulkan-dev spirv-tools spirv-cross vulkan-tools
  graphviz
)

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if [ "${#missing[@]}" -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

LLVM_PREFIX=/usr/lib/llvm-22
if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  cmake -G Ninja -S "$ROOT" -B "$BUILD_DIR" \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=gcc -DCMAKE_CXX_COMPILER=g++ \
    -DMLIR_DIR="$LLVM_PREFIX/lib/cmake/mlir" \
    -DLLVM_DIR="$LLVM_PREFIX/lib/cmake/llvm" \
    -DLLVM_EXTERNAL_LIT="$LLVM_PREFIX/bin/lit"
fi
cmake --build "$BUILD_DIR" -j "$(nproc)"
