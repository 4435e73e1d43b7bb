//===- CPUAllocTest.cpp - the CPU runtime's allocation functions ----------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// rlx-cpu-alloc-test: allocates through the entry points compiled code calls
// (_mlir_memref_to_llvm_alloc / _aligned_alloc / _free), small blocks and
// blocks of 2 MiB or more, and prints for each whether it is aligned as
// asked, whether every byte can be written and read back, and for large
// ones whether it is on a 2 MiB boundary and advised as huge-page backed
// (VmFlags `hg` of its mapping in /proc/self/smaps). Exits non-zero on the
// first failure; the lit test checks the lines with FileCheck.
//
//===----------------------------------------------------------------------===//

#include "RLX/Runtime/Common/HostMemory.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>

extern "C" {
void *_mlir_memref_to_llvm_alloc(uint64_t size);
void *_mlir_memref_to_llvm_aligned_alloc(uint64_t alignment, uint64_t size);
void _mlir_memref_to_llvm_free(void *p);
}

using mlir::rlx::runtime::kHugePageBytes;

namespace {
/// The VmFlags of the mapping holding `p`, from /proc/self/smaps.
std::string vmFlags(const void *p) {
  auto addr = reinterpret_cast<uintptr_t>(p);
  std::ifstream smaps("/proc/self/smaps");
  std::string line;
  bool inside = false;
  while (std::getline(smaps, line)) {
    uintptr_t begin, end;
    char dash;
    std::istringstream range(line);
    if (line.find(':') > line.find(' ') &&
        (range >> std::hex >> begin >> dash >> end) && dash == '-') {
      inside = begin <= addr && addr < end;
      continue;
    }
    if (inside && line.rfind("VmFlags:", 0) == 0)
      return line.substr(8);
  }
  return "(no mapping)";
}

/// Whether this kernel has transparent huge pages at all.
bool kernelHasTHP() {
  return access("/sys/kernel/mm/transparent_hugepage/enabled", R_OK) == 0;
}

/// Fills the block with a pattern, reads it back, prints the result line.
bool check(const char *what, void *p, uint64_t size, uint64_t alignment) {
  auto addr = reinterpret_cast<uintptr_t>(p);
  bool aligned = p && addr % alignment == 0;
  bool usable = p != nullptr;
  if (p) {
    auto *bytes = static_cast<unsigned char *>(p);
    for (uint64_t i = 0; i < size; ++i)
      bytes[i] = static_cast<unsigned char>(i * 131 + 7);
    for (uint64_t i = 0; i < size && usable; ++i)
      usable = bytes[i] == static_cast<unsigned char>(i * 131 + 7);
  }
  bool ok = aligned && usable;
  std::printf("%s %llu bytes: aligned to %llu %s, usable %s", what,
              static_cast<unsigned long long>(size),
              static_cast<unsigned long long>(alignment),
              aligned ? "yes" : "NO", usable ? "yes" : "NO");
  if (size >= kHugePageBytes) {
    bool huge = addr % kHugePageBytes == 0;
    bool advised = vmFlags(p).find(" hg") != std::string::npos;
    std::printf(", huge-page boundary %s, advised %s", huge ? "yes" : "NO",
                advised ? "yes" : (kernelHasTHP() ? "NO" : "no (no THP)"));
    ok = ok && huge && (advised || !kernelHasTHP());
  }
  std::printf("\n");
  return ok;
}
} // namespace

int main() {
  struct Case {
    uint64_t alignment; // 0: _mlir_memref_to_llvm_alloc
    uint64_t size;
  } cases[] = {{0, 1},       {0, 0},         {0, 4096 + 3},
               {64, 1},      {64, 1000},     {128, 4096},
               {0, kHugePageBytes},          {64, kHugePageBytes + 1},
               {64, (uint64_t(64) << 20) + 12}};
  for (const Case &c : cases) {
    void *p = c.alignment ? _mlir_memref_to_llvm_aligned_alloc(c.alignment,
                                                               c.size)
                          : _mlir_memref_to_llvm_alloc(c.size);
    bool ok = check(c.alignment ? "aligned_alloc" : "alloc", p, c.size,
                    c.alignment ? c.alignment : alignof(std::max_align_t));
    _mlir_memref_to_llvm_free(p);
    if (!ok)
      return 1;
  }
  return 0;
}
