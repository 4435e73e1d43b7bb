//===- rlx-vulkan-run.cpp - run a compiled RLX program on Vulkan ----------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// rlx-vulkan-run PROGRAM.so --entry=NAME [--arg=TYPE=IN.npy]...
//                [--result=TYPE=OUT.npy]... [--bench=N] [--time=N]
// rlx-vulkan-run --print-device | --print-subgroup-size
//                | --print-cooperative-matrix
//
// Loads a shared library linked from `rlx-compile --target=vulkan`'s
// object and librlx_vulkan_runtime, copies each --arg (a .npy file holding
// a tensor of TYPE, e.g. 4x16xf32; bf16 travels as f32 and is rounded to
// nearest even) to a device buffer, fills each --result buffer with 0xFF
// bytes (NaN, -1) so that an element the program fails to write shows,
// calls `_mlir_ciface_NAME(args..., results...)` and writes the results.
// --bench=N then times N more calls recorded into one command buffer
// (device time with one submission) and N calls of one submission each.
// --time=N times N calls of one submission each, one by one, and prints
// rlx-run's --bench line ("bench: N runs, median X ms, min Y ms"): rlx-run
// --target=vulkan runs its programs here.
//
// --print-cooperative-matrix lists the device's cooperative matrix
// configurations (VK_KHR_cooperative_matrix), one a line, and the
// cooperative-matrix option they allow (nothing on a device without
// them): "16x16x16 f16,f16->f32/f32 subgroup" allows
// --vulkan-options=cooperative-matrix=f16,bf16-as-f16, or with
// "16x16x16 bf16,bf16->f32/f32 subgroup" (VK_KHR_shader_bfloat16) too
// cooperative-matrix=f16,bf16 (bf16 fragments, without bf16-as-f16's
// rounding to f16, which overflows beyond 65504).
//
// It links no LLVM: the Vulkan driver (lavapipe loads its own LLVM 15)
// and the compiler (LLVM 22) never share a process.
//
//===----------------------------------------------------------------------===//

#include "RLX/Config.h"
#include "RLX/Runtime/Common/BFloat16.h"
#include "RLX/Runtime/Common/Npy.h"
#include "RLX/Runtime/Vulkan/VulkanRuntime.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <dlfcn.h>
#include <string>
#include <utility>
#include <vector>

using mlir::rlx::runtime::bf16ToFloats;
using mlir::rlx::runtime::floatsToBF16;
using mlir::rlx::runtime::NpyArray;

namespace {
struct ElementType {
  const char *name;
  const char *npy;    // the .npy dtype that carries it
  int64_t bytes;      // bytes per element on the device
};

const ElementType kTypes[] = {
    {"f32", "f4", 4},  {"f64", "f8", 8},  {"f16", "f2", 2},
    {"bf16", "f4", 2}, {"i8", "i1", 1},   {"i16", "i2", 2},
    {"i32", "i4", 4},  {"i64", "i8", 8},  {"ui8", "u1", 1},
    {"ui32", "u4", 4}, {"i1", "b1", 1},
};

struct Tensor {
  const ElementType *type = nullptr;
  std::vector<int64_t> shape;
  std::string path;
  void *device = nullptr;
  std::vector<int64_t> descriptor;

  int64_t elements() const {
    int64_t n = 1;
    for (int64_t d : shape)
      n *= d;
    return n;
  }
  uint64_t bytes() const { return uint64_t(elements() * type->bytes); }
};

int fail(const std::string &message) {
  std::fprintf(stderr, "rlx-vulkan-run: error: %s\n", message.c_str());
  return 1;
}

/// Parses "4x16xf32=path" into `t`.
bool parseTensor(const std::string &spec, Tensor &t) {
  size_t eq = spec.find('=');
  if (eq == std::string::npos)
    return false;
  t.path = spec.substr(eq + 1);
  std::string type = spec.substr(0, eq);
  size_t x;
  while ((x = type.find('x')) != std::string::npos &&
         std::isdigit(static_cast<unsigned char>(type[0]))) {
    t.shape.push_back(std::stoll(type.substr(0, x)));
    type = type.substr(x + 1);
  }
  for (const ElementType &e : kTypes)
    if (type == e.name)
      t.type = &e;
  return t.type != nullptr;
}

/// Calls `fn` with the `n` pointers in `args` (C interface entry points
/// take one descriptor pointer per argument and result).
template <size_t... I>
void callWith(void *fn, void **args, std::index_sequence<I...>) {
  using Fn = void (*)(decltype((void)I, static_cast<void *>(nullptr))...);
  reinterpret_cast<Fn>(fn)(args[I]...);
}

template <size_t... N>
bool call(void *fn, std::vector<void *> &args, std::index_sequence<N...>) {
  bool called = false;
  ((args.size() == N
        ? (callWith(fn, args.data(), std::make_index_sequence<N>()),
           called = true)
        : false),
   ...);
  return called;
}

constexpr size_t kMaxArguments = 64;
} // namespace

/// What --help prints.
constexpr const char *kUsage =
    "OVERVIEW: rlx-vulkan-run: run an entry point of a program compiled by\n"
    "`rlx-compile --target=vulkan` (linked as a shared library) on .npy\n"
    "tensors\n\n"
    "USAGE: rlx-vulkan-run PROGRAM.so --entry=NAME [--arg=TYPE=IN.npy]...\n"
    "       [--result=TYPE=OUT.npy]... [--bench=N] [--time=N]\n\n"
    "OPTIONS:\n"
    "  --entry=NAME                the entry point (_mlir_ciface_NAME)\n"
    "  --arg=TYPE=IN.npy           the next argument, e.g. 64x256xf32=x.npy\n"
    "  --result=TYPE=OUT.npy       where the next result goes\n"
    "  --bench=N                   run N more times and print the time\n"
    "  --time=N                    time N more runs one by one and print\n"
    "                              their median and min (rlx-run's --bench)\n"
    "  --print-device              the Vulkan device's name\n"
    "  --print-subgroup-size       its subgroup size\n"
    "  --print-cooperative-matrix  its cooperative matrix configurations\n"
    "  --help, --version\n\n"
    "The device: $RLX_VULKAN_DEVICE (an index or part of a name), else the\n"
    "first discrete GPU; the loader: $RLX_VULKAN_LOADER, else "
    "libvulkan.so.1.\n";

int main(int argc, char **argv) {
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--help") == 0 ||
        std::strcmp(argv[i], "-help") == 0) {
      std::printf("%s", kUsage);
      return 0;
    }
    if (std::strcmp(argv[i], "--version") == 0) {
      std::printf("rlx-vulkan-run (RLX-MLIR " RLX_VERSION ")\n");
      return 0;
    }
  }
  std::string library, entry;
  std::vector<Tensor> args, results;
  long bench = 0, timed = 0;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&](const char *flag) -> const char * {
      size_t n = std::strlen(flag);
      return a.compare(0, n, flag) == 0 ? argv[i] + n : nullptr;
    };
    if (a == "--print-device" || a == "--print-subgroup-size" ||
        a == "--print-cooperative-matrix") {
      const char *name = rlxVulkanDeviceName();
      if (!name)
        return fail(std::string("no Vulkan device: ") +
                    (rlxVulkanGetLastError() ? rlxVulkanGetLastError() : ""));
      if (a == "--print-device") {
        std::printf("%s\n", name);
      } else if (a == "--print-subgroup-size") {
        std::printf("%d\n", rlxVulkanSubgroupSize());
      } else {
        std::string configurations = rlxVulkanCooperativeMatrices();
        std::printf("%s", configurations.c_str());
        // The configurations the generated matmuls use.
        auto has = [&](const char *configuration) {
          return configurations.find(configuration) != std::string::npos;
        };
        if (has("16x16x16 f16,f16->f32/f32 subgroup"))
          std::printf("--vulkan-options=cooperative-matrix=f16,%s\n",
                      has("16x16x16 bf16,bf16->f32/f32 subgroup")
                          ? "bf16"
                          : "bf16-as-f16");
      }
      return 0;
    }
    if (const char *v = value("--entry="))
      entry = v;
    else if (const char *v = value("--bench="))
      bench = std::stol(v);
    else if (const char *v = value("--time="))
      timed = std::stol(v);
    else if (const char *v = value("--arg=")) {
      args.emplace_back();
      if (!parseTensor(v, args.back()))
        return fail("bad --arg=" + std::string(v) + " (TYPE=FILE.npy)");
    } else if (const char *v = value("--result=")) {
      results.emplace_back();
      if (!parseTensor(v, results.back()))
        return fail("bad --result=" + std::string(v) + " (TYPE=FILE.npy)");
    } else if (a.rfind("--", 0) == 0)
      return fail("unknown option " + a);
    else if (library.empty())
      library = a;
    else
      return fail("more than one program: " + a);
  }
  if (library.empty() || entry.empty())
    return fail("usage: rlx-vulkan-run PROGRAM.so --entry=NAME "
                "[--arg=TYPE=IN.npy]... [--result=TYPE=OUT.npy]...");
  if (args.size() + results.size() > kMaxArguments)
    return fail("more than 64 arguments and results");

  void *program = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!program)
    return fail(dlerror());
  std::string symbol = "_mlir_ciface_" + entry;
  void *fn = dlsym(program, symbol.c_str());
  if (!fn)
    return fail(library + " has no " + symbol);
  // Loading the program loaded its SPIR-V modules.
  if (const char *error = rlxVulkanGetLastError())
    return fail(error);

  std::vector<void *> pointers;
  auto bind = [&](Tensor &t) -> bool {
    t.device = rlxVulkanAlloc(t.bytes());
    if (!t.device)
      return false;
    auto address = reinterpret_cast<int64_t>(t.device);
    t.descriptor = {address, address, 0};
    t.descriptor.insert(t.descriptor.end(), t.shape.begin(), t.shape.end());
    int64_t stride = 1;
    std::vector<int64_t> strides(t.shape.size());
    for (size_t d = t.shape.size(); d-- > 0;) {
      strides[d] = stride;
      stride *= t.shape[d];
    }
    t.descriptor.insert(t.descriptor.end(), strides.begin(), strides.end());
    pointers.push_back(t.descriptor.data());
    return true;
  };
  for (Tensor &t : args) {
    NpyArray array;
    std::string error;
    if (!mlir::rlx::runtime::readNpy(t.path, array, error))
      return fail(error);
    if (array.dtype != t.type->npy || array.shape != t.shape)
      return fail(t.path + " does not hold a tensor of the argument's type "
                           "(dtype " + array.dtype + ")");
    std::vector<uint8_t> bytes = array.data;
    if (std::string(t.type->name) == "bf16") {
      bytes.resize(t.bytes());
      floatsToBF16(array.data.data(), bytes.data(), t.elements());
    }
    if (!bind(t) || rlxVulkanCopyToDevice(t.device, bytes.data(), t.bytes()))
      return fail(rlxVulkanGetLastError());
  }
  for (Tensor &t : results) {
    std::vector<uint8_t> poison(t.bytes(), 0xFF);
    if (!bind(t) || rlxVulkanCopyToDevice(t.device, poison.data(), t.bytes()))
      return fail(rlxVulkanGetLastError());
  }

  if (!call(fn, pointers, std::make_index_sequence<kMaxArguments + 1>()))
    return fail("cannot call with " + std::to_string(pointers.size()) +
                " arguments");
  if (const char *error = rlxVulkanGetLastError())
    return fail(error);

  for (Tensor &t : results) {
    NpyArray array;
    array.dtype = t.type->npy;
    array.shape = t.shape;
    std::vector<uint8_t> bytes(t.bytes());
    if (rlxVulkanCopyToHost(bytes.data(), t.device, t.bytes()))
      return fail(rlxVulkanGetLastError());
    if (std::string(t.type->name) == "bf16") {
      array.data.resize(4 * t.elements());
      bf16ToFloats(bytes.data(), array.data.data(), t.elements());
    } else {
      array.data = std::move(bytes);
    }
    std::string error;
    if (!mlir::rlx::runtime::writeNpy(t.path, array, error))
      return fail(error);
  }

  if (timed > 0) {
    using Clock = std::chrono::steady_clock;
    std::vector<double> ms;
    for (long k = 0; k < timed; ++k) {
      auto start = Clock::now();
      call(fn, pointers, std::make_index_sequence<kMaxArguments + 1>());
      ms.push_back(
          std::chrono::duration<double, std::milli>(Clock::now() - start)
              .count());
    }
    if (const char *error = rlxVulkanGetLastError())
      return fail(error);
    std::sort(ms.begin(), ms.end());
    std::printf("bench: %ld runs, median %.3f ms, min %.3f ms\n", timed,
                ms[ms.size() / 2], ms.front());
  }
  if (bench > 0) {
    using Clock = std::chrono::steady_clock;
    void *stream = rlxVulkanStreamCreate();
    rlxVulkanSetStream(stream);
    auto start = Clock::now();
    for (long k = 0; k < bench; ++k)
      call(fn, pointers, std::make_index_sequence<kMaxArguments + 1>());
    rlxVulkanStreamSynchronize(stream);
    double recorded =
        std::chrono::duration<double, std::micro>(Clock::now() - start)
            .count();
    rlxVulkanSetStream(nullptr);
    rlxVulkanStreamDestroy(stream);
    start = Clock::now();
    for (long k = 0; k < bench; ++k)
      call(fn, pointers, std::make_index_sequence<kMaxArguments + 1>());
    double fenced =
        std::chrono::duration<double, std::micro>(Clock::now() - start)
            .count();
    if (const char *error = rlxVulkanGetLastError())
      return fail(error);
    std::printf("bench %s: %.2f us per call in one submission, %.2f us per "
                "call with a fence each (%ld calls, %s)\n",
                entry.c_str(), recorded / bench, fenced / bench, bench,
                rlxVulkanDeviceName());
  }
  for (Tensor &t : args)
    rlxVulkanFree(t.device);
  for (Tensor &t : results)
    rlxVulkanFree(t.device);
  return 0;
}
