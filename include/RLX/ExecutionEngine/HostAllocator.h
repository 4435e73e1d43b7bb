//===- HostAllocator.h - the allocator of JIT-compiled programs -*- C++ -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Programs that CPUProgram JIT-compiles allocate through these functions
// (finalize-memref-to-llvm's generic allocation functions are bound to
// them). They remember every live buffer, so that a caller frees exactly
// the results a program hands over (a result may also be an argument's
// buffer); they can fill each new buffer with 0xFF (NaN for floats, -1 for
// integers), so that an element a program never writes shows up; and they
// keep freed large buffers for reuse, as a framework's caching allocator
// does: a fresh 64 MiB buffer costs a page fault per page, which on some
// machines takes longer than the kernel that fills it. The state is one
// per process, as the JIT'd code's allocation symbols are.
//
//===----------------------------------------------------------------------===//

#ifndef RLX_EXECUTIONENGINE_HOSTALLOCATOR_H
#define RLX_EXECUTIONENGINE_HOSTALLOCATOR_H

#include <cstdint>
#include <vector>

namespace mlir {
namespace rlx {
namespace host_allocator {

/// The allocation entry points that compiled code calls.
void *allocate(uint64_t size);
void *allocateAligned(uint64_t alignment, uint64_t size);
void deallocate(void *p);

/// Whether `p` is a live buffer that compiled code allocated.
bool isLiveAllocation(void *p);

/// Fill each new buffer with 0xFF bytes (on by default), and log the
/// requested sizes while on.
void setPoison(bool poison);

/// The requested sizes of the allocations made while poisoning was on,
/// in order; the log is emptied.
std::vector<uint64_t> takeAllocationLog();

} // namespace host_allocator
} // namespace rlx
} // namespace mlir

#endif // RLX_EXECUTIONENGINE_HOSTALLOCATOR_H
