//===- CollectiveEnvironment.h - a process's place in a job -----*- C++ -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Internal to the runtime libraries that implement Collectives.h (the CPU
// runtime over shared memory, the CUDA runtime over NCCL): what both read
// from the environment (rank, world size, job id, meeting folder, timeout,
// as Collectives.h describes them), the element sizes of the ABI's types,
// the checks of a call's arguments and the waits with a deadline.
// Header-only: the CPU runtime links none of the GPU runtimes' common
// objects.
//
//===----------------------------------------------------------------------===//

#ifndef RLX_LIB_RUNTIME_COMMON_COLLECTIVEENVIRONMENT_H
#define RLX_LIB_RUNTIME_COMMON_COLLECTIVEENVIRONMENT_H

#include "RLX/Runtime/Common/Collectives.h"

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <initializer_list>
#include <sched.h>
#include <string>
#include <thread>

namespace rlx::runtime::collective {

/// The first of the variables `names` that is set to an integer, else
/// `fallback`.
inline int64_t integerFromEnvironment(std::initializer_list<const char *> names,
                                      int64_t fallback) {
  for (const char *name : names) {
    const char *value = std::getenv(name);
    if (!value || !*value)
      continue;
    char *end = nullptr;
    long long n = std::strtoll(value, &end, 10);
    if (*end == '\0')
      return n;
  }
  return fallback;
}

inline int64_t rank() {
  return integerFromEnvironment({"RLX_RANK", "RANK"}, 0);
}

inline int64_t worldSize() {
  int64_t size = integerFromEnvironment({"RLX_WORLD_SIZE", "WORLD_SIZE"}, 1);
  return size < 1 ? 1 : size;
}

/// The job's id as a file-name part: $RLX_JOB_ID, else
/// $TORCHELASTIC_RUN_ID, else $MASTER_ADDR:$MASTER_PORT, else "rlx".
/// Characters other than [A-Za-z0-9._-] become '_', and an id that had
/// some (two ids must not meet in one name: "a:b" and "a_b") or is long
/// is cut and ends in a hash of the whole id.
inline std::string jobId() {
  std::string id;
  if (const char *job = std::getenv("RLX_JOB_ID"); job && *job)
    id = job;
  else if (const char *run = std::getenv("TORCHELASTIC_RUN_ID"); run && *run)
    id = run;
  else if (const char *addr = std::getenv("MASTER_ADDR"),
           *port = std::getenv("MASTER_PORT");
           addr && *addr && port && *port)
    id = std::string(addr) + ":" + port;
  else
    id = "rlx";
  std::string safe;
  bool changed = false;
  for (char c : id) {
    bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                 (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
    // A leading dot would hide the file; dots alone could name "..".
    if (!plain || (safe.empty() && c == '.')) {
      c = '_';
      changed = true;
    }
    safe += c;
  }
  constexpr size_t kMaxLength = 64;
  if (!changed && safe.size() <= kMaxLength)
    return safe;
  uint64_t hash = 0xcbf29ce484222325ull; // FNV-1a
  for (unsigned char c : id)
    hash = (hash ^ c) * 0x100000001b3ull;
  char hex[17];
  for (int i = 15; i >= 0; --i, hash >>= 4)
    hex[i] = "0123456789abcdef"[hash & 15];
  hex[16] = '\0';
  return safe.substr(0, kMaxLength - 17) + "-" + hex;
}

/// Where the processes of a job meet: $RLX_COLLECTIVE_DIR, else /tmp.
inline std::string directory() {
  const char *dir = std::getenv("RLX_COLLECTIVE_DIR");
  return dir && *dir ? dir : "/tmp";
}

/// How long a collective waits for a peer: $RLX_COLLECTIVE_TIMEOUT
/// seconds (fractions allowed), else 300.
inline std::chrono::steady_clock::duration timeout() {
  double seconds = 300;
  if (const char *value = std::getenv("RLX_COLLECTIVE_TIMEOUT")) {
    char *end = nullptr;
    double parsed = std::strtod(value, &end);
    if (end != value && *end == '\0' && parsed > 0)
      seconds = parsed;
  }
  return std::chrono::duration_cast<std::chrono::steady_clock::duration>(
      std::chrono::duration<double>(seconds));
}

/// The timeout as the errors print it ("2 s", "0.5 s").
inline std::string timeoutText() {
  double seconds = std::chrono::duration<double>(timeout()).count();
  std::string text = std::to_string(seconds);
  // std::to_string prints six decimals; drop the trailing zeros.
  text.erase(text.find_last_not_of('0') + 1);
  if (text.back() == '.')
    text.pop_back();
  return text + " s";
}

/// Bytes of an element of RlxCollectiveType `type`, or 0 if unknown.
inline int64_t elementSize(int32_t type) {
  switch (type) {
  case RLX_COLLECTIVE_F32:
  case RLX_COLLECTIVE_I32:
    return 4;
  case RLX_COLLECTIVE_F64:
  case RLX_COLLECTIVE_I64:
    return 8;
  case RLX_COLLECTIVE_BF16:
  case RLX_COLLECTIVE_F16:
    return 2;
  }
  return 0;
}

/// What a collective call is, for the checks and the errors.
struct Call {
  const char *name; // "rlxCollectiveAllReduce"
  bool reduces;     // takes a reduction
  int64_t inBlocks; // `in` holds inBlocks * count elements
  int64_t outBlocks;
  int32_t type, reduction;
  const void *in;
  void *out;
  int64_t count, group, color, key, groupSize;
  /// May return before the collective completes (the *Async entry points):
  /// `wait(out, in)` orders what reads `out` or reuses `in` after it.
  bool async = false;

  /// " (group G, color C, key K of N)", for the errors.
  std::string where() const {
    return " (group " + std::to_string(group) + ", color " +
           std::to_string(color) + ", key " + std::to_string(key) + " of " +
           std::to_string(groupSize) + ")";
  }
};

/// Which collective a Call is.
enum class Kind { AllReduce, AllGather, ReduceScatter, AllToAll };

/// What each runtime implements under the ABI's entry points
/// (CollectiveEntryPoints.cpp): the collective, and its error record.
void run(Kind kind, const Call &call);
void wait(void *out, const void *in);
const char *lastError();
void clearError();

/// Why `call`'s arguments are wrong, or "" if they are fine.
inline std::string checkArguments(const Call &call) {
  std::string name = call.name;
  int64_t size = elementSize(call.type);
  if (!size)
    return name + ": unknown element type " + std::to_string(call.type);
  if (call.reduces && (call.reduction < RLX_COLLECTIVE_SUM ||
                       call.reduction > RLX_COLLECTIVE_MIN))
    return name + ": unknown reduction " + std::to_string(call.reduction);
  if (call.groupSize < 1 || call.key < 0 || call.key >= call.groupSize)
    return name + ": key " + std::to_string(call.key) +
           " is not in a group of " + std::to_string(call.groupSize);
  if (call.groupSize > worldSize())
    return name + ": a group of " + std::to_string(call.groupSize) +
           " in a job of " + std::to_string(worldSize()) +
           " processes (RLX_WORLD_SIZE)";
  if (call.count < 0)
    return name + ": negative count " + std::to_string(call.count);
  int64_t blocks =
      call.inBlocks > call.outBlocks ? call.inBlocks : call.outBlocks;
  if (call.count > INT64_MAX / size / blocks / call.groupSize)
    return name + ": count " + std::to_string(call.count) + " is too large";
  if (call.count > 0 && (!call.in || !call.out))
    return name + ": null buffer" + call.where();
  return "";
}

/// Waits until `ready()` or `deadline`, and says whether it became ready.
/// It spins briefly (peers usually arrive within microseconds), then
/// yields, then sleeps up to a millisecond at a time: processes may
/// outnumber cores.
template <typename Ready>
bool waitUntil(Ready ready, std::chrono::steady_clock::time_point deadline) {
  for (int round = 0;; ++round) {
    if (ready())
      return true;
    if (round < 64)
      continue;
    if (round < 256) {
      sched_yield();
      continue;
    }
    if (std::chrono::steady_clock::now() > deadline)
      return ready();
    int shift = round - 256 < 7 ? round - 256 : 7;
    std::this_thread::sleep_for(std::chrono::microseconds(8 << shift));
  }
}

} // namespace rlx::runtime::collective

#endif // RLX_LIB_RUNTIME_COMMON_COLLECTIVEENVIRONMENT_H
