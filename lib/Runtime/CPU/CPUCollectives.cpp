//===- CPUCollectives.cpp - collectives between processes of one machine --===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Collectives.h for the CPU runtime: the processes of a group meet in a
// file of $RLX_COLLECTIVE_DIR, rlx-<job>-<group>-<color>, that each maps
// MAP_SHARED. It holds a header (a "ready" magic, the group's size, and
// per key the number of barriers that key has reached and its rank) and,
// after it, one slot per key, sized by each call (every member makes the
// same call, so all agree on the size; the file only grows).
//
// A call: each process copies its input into its slot, waits at a barrier
// until every key has reached it, computes its own output from all slots
// (reductions in the element type, bf16 and f16 through f32 rounded back
// to nearest even, summed in key order), and waits at a second barrier
// before its slot can be written by the next call. A barrier is lock-free:
// each key counts its own arrivals in shared memory (release) and waits
// until every key's count has reached its own (acquire), so no counter is
// ever reset. A wait gives up after $RLX_COLLECTIVE_TIMEOUT seconds and
// names the keys (and ranks) that did not arrive; the segment's counts no
// longer agree then, so its later calls fail at once.
//
// The process that creates a file (O_EXCL) initialises it and publishes
// the magic; the others wait for the magic. The creator unlinks the file
// at exit: by then every member has it open and mapped. A group of one
// copies and touches no file.
//
//===----------------------------------------------------------------------===//

#include "CollectiveEnvironment.h"
#include "ErrorRecord.h"
#include "RLX/Runtime/Common/BFloat16.h"
#include "RLX/Runtime/Common/Collectives.h"

#include <atomic>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <map>
#include <memory>
#include <mutex>
#include <sys/mman.h>
#include <sys/stat.h>
#include <type_traits>
#include <unistd.h>
#include <vector>

using namespace rlx::runtime::collective;
using Clock = std::chrono::steady_clock;

namespace {

rlx::runtime::ErrorRecord &errors() {
  static rlx::runtime::ErrorRecord record("rlx-collective");
  return record;
}

//===----------------------------------------------------------------------===//
// The shared segment
//===----------------------------------------------------------------------===//

/// "RLXCOLL1": the creator has initialised the header.
constexpr uint64_t kReady = 0x524c58434f4c4c31ull;

// The counters live in memory that other processes map: they must be
// lock-free (address-free), and zero bytes must be a zero counter (the
// file starts as zeros).
static_assert(std::atomic<uint64_t>::is_always_lock_free &&
              std::atomic<int64_t>::is_always_lock_free);

struct Header {
  std::atomic<uint64_t> magic;
  int64_t groupSize;
};

/// One key's state, a cache line each (every key spins on all of them but
/// writes only its own).
struct alignas(64) KeyState {
  /// Barriers this key has reached.
  std::atomic<uint64_t> barriers;
  /// Its process's rank + 1, once attached.
  std::atomic<int64_t> rank;
};

constexpr size_t kPage = 4096;

size_t roundUp(size_t n, size_t to) { return (n + to - 1) / to * to; }

size_t headerBytes(int64_t groupSize) {
  return roundUp(sizeof(KeyState) + groupSize * sizeof(KeyState), kPage);
}

/// This process's view of one group's segment.
struct Segment {
  std::string path;
  int fd = -1;
  char *base = nullptr;
  size_t mapped = 0;
  int64_t groupSize = 0;
  /// A wait timed out: the keys' barrier counts no longer agree.
  bool broken = false;
  /// One call at a time per segment in this process.
  std::mutex mutex;

  Header &header() { return *reinterpret_cast<Header *>(base); }
  KeyState &state(int64_t k) {
    return reinterpret_cast<KeyState *>(base)[1 + k];
  }
  char *slot(int64_t k, size_t stride) {
    return base + headerBytes(groupSize) + k * stride;
  }

  /// Maps at least `bytes` of the file, growing it if it is shorter.
  /// Growth is safe while peers read: it only appends zeros, and peers of
  /// one call ask for the same size.
  bool reserve(size_t bytes, std::string &error) {
    struct stat st;
    if (fstat(fd, &st) != 0) {
      error = "fstat " + path + ": " + std::strerror(errno);
      return false;
    }
    if (size_t(st.st_size) < bytes && ftruncate(fd, off_t(bytes)) != 0) {
      error = "cannot grow " + path + " to " + std::to_string(bytes) +
              " bytes: " + std::strerror(errno);
      return false;
    }
    if (bytes <= mapped)
      return true;
    void *address =
        mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (address == MAP_FAILED) {
      error = "mmap " + path + ": " + std::strerror(errno);
      return false;
    }
    if (base)
      munmap(base, mapped);
    base = static_cast<char *>(address);
    mapped = bytes;
    return true;
  }
};

/// The files this process created, unlinked at exit. Never destroyed:
/// the atexit handler may run after static destructors.
std::mutex createdMutex;
std::vector<std::string> *created = nullptr;

void unlinkCreated() {
  std::lock_guard<std::mutex> lock(createdMutex);
  for (const std::string &path : *created)
    unlink(path.c_str());
}

void rememberCreated(const std::string &path) {
  std::lock_guard<std::mutex> lock(createdMutex);
  if (!created) {
    created = new std::vector<std::string>();
    std::atexit(unlinkCreated);
  }
  created->push_back(path);
}

/// Opens (creating it if no peer has) and maps the header of `call`'s
/// segment; false with `error` set if that fails or times out.
bool attach(Segment &s, const Call &call, std::string &error) {
  s.path = directory() + "/rlx-" + jobId() + "-" + std::to_string(call.group) +
           "-" + std::to_string(call.color);
  s.groupSize = call.groupSize;
  size_t bytes = headerBytes(call.groupSize);
  Clock::time_point deadline = Clock::now() + timeout();

  s.fd = open(s.path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (s.fd >= 0) {
    rememberCreated(s.path);
    if (!s.reserve(bytes, error))
      return false;
    s.header().groupSize = call.groupSize;
    s.header().magic.store(kReady, std::memory_order_release);
  } else if (errno == EEXIST) {
    s.fd = open(s.path.c_str(), O_RDWR | O_CLOEXEC);
    if (s.fd < 0) {
      error = "cannot open " + s.path + ": " + std::strerror(errno);
      return false;
    }
    // The creator may still be between open and ftruncate: mapping a
    // shorter file would fault, so wait for its size first.
    auto sized = [&] {
      struct stat st;
      return fstat(s.fd, &st) == 0 && size_t(st.st_size) >= bytes;
    };
    auto initialised = [&] {
      return s.header().magic.load(std::memory_order_acquire) == kReady;
    };
    if (!waitUntil(sized, deadline) || !s.reserve(bytes, error) ||
        !waitUntil(initialised, deadline)) {
      if (error.empty())
        error = "its creator did not initialise " + s.path + " within " +
                timeoutText();
      return false;
    }
    if (s.header().groupSize != call.groupSize) {
      error = s.path + " is a group of " +
              std::to_string(s.header().groupSize) +
              " (a stale file of an earlier job with the same RLX_JOB_ID?)";
      return false;
    }
  } else {
    error = "cannot create " + s.path + ": " + std::strerror(errno);
    return false;
  }
  return true;
}

/// Waits until every key of `s` has reached the next barrier of `call`'s
/// key.
bool barrier(Segment &s, const Call &call, std::string &error) {
  KeyState &mine = s.state(call.key);
  uint64_t n = mine.barriers.load(std::memory_order_relaxed) + 1;
  mine.barriers.store(n, std::memory_order_release);
  Clock::time_point deadline = Clock::now() + timeout();
  bool arrived = true;
  for (int64_t k = 0; k < s.groupSize && arrived; ++k)
    arrived = waitUntil(
        [&] {
          return s.state(k).barriers.load(std::memory_order_acquire) >= n;
        },
        deadline);
  if (arrived)
    return true;
  s.broken = true;
  std::string missing;
  for (int64_t k = 0; k < s.groupSize; ++k) {
    if (s.state(k).barriers.load(std::memory_order_acquire) >= n)
      continue;
    int64_t peer = s.state(k).rank.load(std::memory_order_relaxed);
    missing += (missing.empty() ? "" : ", ") + std::to_string(k) +
               (peer ? " (rank " + std::to_string(peer - 1) + ")"
                     : std::string(" (no process seen yet)"));
  }
  error = "timed out after " + timeoutText() + " waiting for key" +
          (missing.find(',') == std::string::npos ? " " : "s ") + missing;
  return false;
}

std::mutex segmentsMutex;
std::map<std::pair<int64_t, int64_t>, std::unique_ptr<Segment>> segments;

/// `call`'s segment (group, color), attached at its first call; null with
/// `error` set if it cannot be.
Segment *segmentFor(const Call &call, std::string &error) {
  std::lock_guard<std::mutex> lock(segmentsMutex);
  auto &segment = segments[{call.group, call.color}];
  if (segment)
    return segment.get();
  segment = std::make_unique<Segment>();
  if (!attach(*segment, call, error)) {
    // Kept, broken: a retry would only wait again.
    segment->broken = true;
    return nullptr;
  }
  return segment.get();
}

//===----------------------------------------------------------------------===//
// Element types and reductions
//===----------------------------------------------------------------------===//

/// f16 bits to float (exact).
float halfToFloat(uint16_t h) {
  uint32_t sign = uint32_t(h & 0x8000) << 16;
  uint32_t exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ff;
  uint32_t bits;
  if (exponent == 0) {
    // Zero or subnormal: mantissa * 2^-24, exact in float.
    float f = float(mantissa) * (1.0f / 16777216.0f);
    std::memcpy(&bits, &f, 4);
    bits |= sign;
  } else if (exponent == 31) {
    bits = sign | 0x7f800000 | (mantissa << 13);
  } else {
    bits = sign | ((exponent + 112) << 23) | (mantissa << 13);
  }
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

/// float to f16 bits, rounded to nearest even (NaN stays a quiet NaN;
/// beyond f16's range the infinity of its sign).
uint16_t floatToHalf(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  uint16_t sign = uint16_t((bits >> 16) & 0x8000);
  uint32_t magnitude = bits & 0x7fffffff;
  if (magnitude > 0x7f800000)
    return sign | 0x7e00 | uint16_t((magnitude >> 13) & 0x3ff);
  // 65520 is the tie between f16's largest finite value and 2^16.
  if (magnitude >= 0x477ff000)
    return sign | 0x7c00;
  if (magnitude < 0x38800000) {
    // Below 2^-14, f16 is subnormal, in steps of 2^-24: adding 0.5 (whose
    // ulp is 2^-24) rounds to that step to nearest even, and the sum's low
    // mantissa bits are the steps.
    float a, half = 0.5f;
    std::memcpy(&a, &magnitude, 4);
    a += half;
    uint32_t sum, halfBits;
    std::memcpy(&sum, &a, 4);
    std::memcpy(&halfBits, &half, 4);
    return sign | uint16_t(sum - halfBits);
  }
  // Normal: rebias the exponent and add just under half an f16 ulp, one
  // more where the kept bits are odd (ties to even); a carry rounds into
  // the exponent as it should.
  uint32_t odd = (magnitude >> 13) & 1;
  magnitude += (uint32_t(15 - 127) << 23) + 0xfff + odd;
  return sign | uint16_t(magnitude >> 13);
}

/// How elements of each type load into the type they reduce in, and store
/// back. Integers sum and multiply modulo 2^bits (in unsigned arithmetic).
template <typename T> struct Plain {
  using Acc = T;
  static Acc load(const char *p, int64_t i) {
    T v;
    std::memcpy(&v, p + i * sizeof(T), sizeof(T));
    return v;
  }
  static void store(char *p, int64_t i, Acc v) {
    std::memcpy(p + i * sizeof(T), &v, sizeof(T));
  }
};

template <float (*Widen)(uint16_t), uint16_t (*Narrow)(float)>
struct Through32 {
  using Acc = float;
  static Acc load(const char *p, int64_t i) {
    uint16_t h;
    std::memcpy(&h, p + 2 * i, 2);
    return Widen(h);
  }
  static void store(char *p, int64_t i, Acc v) {
    uint16_t h = Narrow(v);
    std::memcpy(p + 2 * i, &h, 2);
  }
};

using BF16 =
    Through32<mlir::rlx::runtime::bf16ToFloat, mlir::rlx::runtime::floatToBF16>;
using F16 = Through32<halfToFloat, floatToHalf>;

template <typename T> T add(T a, T b) {
  if constexpr (std::is_integral_v<T>)
    return T(std::make_unsigned_t<T>(a) + std::make_unsigned_t<T>(b));
  else
    return a + b;
}
template <typename T> T multiply(T a, T b) {
  if constexpr (std::is_integral_v<T>)
    return T(std::make_unsigned_t<T>(a) * std::make_unsigned_t<T>(b));
  else
    return a * b;
}

/// out[i] = blocks[0][i] op blocks[1][i] op ... (key order), i < n.
template <typename E, typename Op>
void reduceWith(Op op, const char *const *blocks, int64_t groupSize, int64_t n,
                char *out) {
  for (int64_t i = 0; i < n; ++i) {
    typename E::Acc acc = E::load(blocks[0], i);
    for (int64_t k = 1; k < groupSize; ++k)
      acc = op(acc, E::load(blocks[k], i));
    E::store(out, i, acc);
  }
}

template <typename E>
void reduceAs(int32_t reduction, const char *const *blocks, int64_t groupSize,
              int64_t n, char *out) {
  using A = typename E::Acc;
  switch (reduction) {
  case RLX_COLLECTIVE_SUM:
    return reduceWith<E>(add<A>, blocks, groupSize, n, out);
  case RLX_COLLECTIVE_PRODUCT:
    return reduceWith<E>(multiply<A>, blocks, groupSize, n, out);
  case RLX_COLLECTIVE_MAX:
    return reduceWith<E>([](A a, A b) { return b > a ? b : a; }, blocks,
                         groupSize, n, out);
  case RLX_COLLECTIVE_MIN:
    return reduceWith<E>([](A a, A b) { return b < a ? b : a; }, blocks,
                         groupSize, n, out);
  }
}

void reduce(int32_t type, int32_t reduction, const char *const *blocks,
            int64_t groupSize, int64_t n, char *out) {
  switch (type) {
  case RLX_COLLECTIVE_F32:
    return reduceAs<Plain<float>>(reduction, blocks, groupSize, n, out);
  case RLX_COLLECTIVE_F64:
    return reduceAs<Plain<double>>(reduction, blocks, groupSize, n, out);
  case RLX_COLLECTIVE_BF16:
    return reduceAs<BF16>(reduction, blocks, groupSize, n, out);
  case RLX_COLLECTIVE_F16:
    return reduceAs<F16>(reduction, blocks, groupSize, n, out);
  case RLX_COLLECTIVE_I32:
    return reduceAs<Plain<int32_t>>(reduction, blocks, groupSize, n, out);
  case RLX_COLLECTIVE_I64:
    return reduceAs<Plain<int64_t>>(reduction, blocks, groupSize, n, out);
  }
}

//===----------------------------------------------------------------------===//
// The calls
//===----------------------------------------------------------------------===//

} // namespace

void rlx::runtime::collective::run(Kind kind, const Call &call) {
  if (std::string wrong = checkArguments(call); !wrong.empty()) {
    errors().record(wrong);
    return;
  }
  if (call.count == 0)
    return;
  int64_t block = call.count * elementSize(call.type);
  auto *out = static_cast<char *>(call.out);
  auto *in = static_cast<const char *>(call.in);
  if (call.groupSize == 1) {
    // Every kind is a copy of the one block; `in` may be `out`.
    std::memmove(out, in, block);
    return;
  }

  std::string error;
  auto fail = [&] {
    errors().record(std::string(call.name) + call.where() + ": " + error);
  };
  Segment *s = segmentFor(call, error);
  if (!s)
    return fail();
  std::lock_guard<std::mutex> lock(s->mutex);
  if (s->broken) {
    error = "an earlier collective of the group failed (" + s->path + ")";
    return fail();
  }
  if (s->groupSize != call.groupSize) {
    error = "the group had " + std::to_string(s->groupSize) +
            " processes at its first call";
    return fail();
  }
  // A process's key may change between calls (the same axes in another
  // order): after a call, every key has passed as many barriers. The rank
  // is for the errors of peers that wait for this key.
  s->state(call.key).rank.store(rank() + 1, std::memory_order_relaxed);
  size_t slotBytes = call.inBlocks * block;
  size_t stride = roundUp(slotBytes, 64);
  if (!s->reserve(headerBytes(call.groupSize) + call.groupSize * stride, error))
    return fail();
  std::memcpy(s->slot(call.key, stride), in, slotBytes);
  if (!barrier(*s, call, error))
    return fail();

  std::vector<const char *> blocks(call.groupSize);
  for (int64_t k = 0; k < call.groupSize; ++k)
    blocks[k] = s->slot(k, stride);
  switch (kind) {
  case Kind::AllReduce:
    reduce(call.type, call.reduction, blocks.data(), call.groupSize, call.count,
           out);
    break;
  case Kind::ReduceScatter:
    for (const char *&b : blocks)
      b += call.key * block;
    reduce(call.type, call.reduction, blocks.data(), call.groupSize, call.count,
           out);
    break;
  case Kind::AllGather:
    for (int64_t k = 0; k < call.groupSize; ++k)
      std::memcpy(out + k * block, blocks[k], block);
    break;
  case Kind::AllToAll:
    for (int64_t k = 0; k < call.groupSize; ++k)
      std::memcpy(out + k * block, blocks[k] + call.key * block, block);
    break;
  }
  // No peer writes its slot again until every key is done reading.
  if (!barrier(*s, call, error))
    return fail();
}

// Every call completes before it returns, the *Async ones too.
void rlx::runtime::collective::wait(void *, const void *) {}

const char *rlx::runtime::collective::lastError() { return errors().first(); }

void rlx::runtime::collective::clearError() { errors().clear(); }
