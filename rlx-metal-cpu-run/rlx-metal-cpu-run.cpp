//===- rlx-metal-cpu-run.cpp - run emitted MSL kernels on the CPU ---------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Runs a function of the Metal back end (`prog.metal` from
// `rlx-translate --rlx-to-msl`, `prog.json` from `--rlx-to-metal-host`) on
// the CPU, where no Apple GPU exists:
//
//   rlx-metal-cpu-run prog.metal --host=prog.json --input=x.npy ...
//       --output=y.npy ...
//   rlx-metal-cpu-run --spirv-cross a.metal b.metal ... --host=vk.json ...
//
// It compiles the MSL as C++ with clang++ against RLX's stand-in
// <metal_stdlib> (every warning an error) together with a launcher of one
// C entry point per kernel, loads the result, and follows the host
// description: buffers for the arguments (inputs from .npy files, the
// results and temporaries filled with 0xFF bytes, a NaN in every float
// type) and the launches and copies in order. Each thread of a threadgroup
// is a fiber: threadgroup_barrier is a barrier of all of them, and each
// SIMD group of 32 lanes exchanges values through a barrier and a scratch
// area, so that simd_shuffle and simd_sum see every lane. The threadgroups
// of a launch run one after another.
//
// Each kernel is called with the buffers and builtins its signature names
// (`[[buffer(i)]]`, `[[thread_position_in_threadgroup]]`...), read from
// the MSL text. Several .metal files are compiled each in a namespace of
// its own, so that helper types of files written apart do not collide.
// With --spirv-cross they are SPIRV-Cross's MSL (`spirv-cross --msl`) of
// the Vulkan path's SPIR-V modules, entry points renamed to the host
// description's kernels (rlx-compile --target=vulkan --host-description):
// the cross-check of RLX's MSL emitter (docs/Metal.md).
//
//===----------------------------------------------------------------------===//

#include "RLX/Runtime/Common/BFloat16.h"
#include "RLX/Runtime/Common/Npy.h"
#include "RLX/Tools/CommandLine.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <xmmintrin.h>
#include <cstring>
#include <dlfcn.h>
#include <memory>
#include <vector>

using namespace llvm;
namespace npy = mlir::rlx::runtime;

static cl::list<std::string>
    metalFiles(cl::Positional, cl::OneOrMore, cl::desc("<file.metal>..."),
               cl::cat(mlir::rlx::getToolOptionCategory()));
static cl::opt<bool> spirvCross(
    "spirv-cross",
    cl::desc("The .metal files are SPIRV-Cross's MSL of the Vulkan path's "
             "SPIR-V modules, launched as the Vulkan host description says"),
    cl::cat(mlir::rlx::getToolOptionCategory()));
static cl::opt<std::string>
    hostFile("host", cl::Required,
             cl::desc("The host description (rlx-translate "
                      "--rlx-to-metal-host)"),
             cl::cat(mlir::rlx::getToolOptionCategory()));
static cl::opt<std::string>
    function("function",
             cl::desc("The host function to run (default: the only one)"),
             cl::cat(mlir::rlx::getToolOptionCategory()));
static cl::list<std::string>
    inputs("input", cl::desc("A .npy file per input argument"),
           cl::cat(mlir::rlx::getToolOptionCategory()));
static cl::list<std::string>
    outputs("output",
            cl::desc("A .npy file per result (the trailing "
                     "arguments), written after the run"),
            cl::cat(mlir::rlx::getToolOptionCategory()));
static cl::opt<std::string> clang("clang", cl::desc("The C++ compiler"),
                                  cl::init(RLX_METAL_CPU_CLANG),
                                  cl::cat(mlir::rlx::getToolOptionCategory()));
static cl::opt<std::string>
    includeDir("include-dir",
               cl::desc("The folder of the stand-in <metal_stdlib>"),
               cl::init(RLX_METAL_CPU_INCLUDE_DIR),
               cl::cat(mlir::rlx::getToolOptionCategory()));

/// A kernel's launcher entry point: its buffers and the four builtins
/// (threadgroup position, thread position, threadgroups, threads per
/// threadgroup; three unsigned each), which it passes as the kernel's
/// signature asks.
using Launcher = void (*)(void **args, const unsigned *builtins);

static int fail(const Twine &message) {
  errs() << "rlx-metal-cpu-run: error: " << message << "\n";
  return 1;
}

//===----------------------------------------------------------------------===//
// Threads of a threadgroup, as fibers
//===----------------------------------------------------------------------===//
//
// Each thread of a threadgroup is a fiber with a stack of its own; one OS
// thread runs them, switching at barriers and SIMD-group exchanges. A
// threadgroup's threads may interleave there only, which the kernels must
// allow anyway: nothing but a barrier orders one thread's accesses before
// another's. Threadgroups run one after another (the kernels' threadgroup
// arrays are static in the stand-in).

// Saves the callee-saved registers on the current stack, stores the stack
// pointer in *from, and resumes the fiber whose stack pointer is `to`
// (System V x86-64; MXCSR and the x87 control word are the OS thread's,
// the same for every fiber).
extern "C" void rlx_metal_fiber_switch(void **from, void *to);
asm(R"(
  .text
  .globl rlx_metal_fiber_switch
  .type rlx_metal_fiber_switch, @function
rlx_metal_fiber_switch:
  pushq %rbp
  pushq %rbx
  pushq %r12
  pushq %r13
  pushq %r14
  pushq %r15
  movq %rsp, (%rdi)
  movq %rsi, %rsp
  popq %r15
  popq %r14
  popq %r13
  popq %r12
  popq %rbx
  popq %rbp
  ret
  .size rlx_metal_fiber_switch, .-rlx_metal_fiber_switch
)");

// AddressSanitizer must be told of every switch between stacks
// (RLX_ENABLE_SANITIZERS builds of the runner).
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RLX_ASAN_FIBERS 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define RLX_ASAN_FIBERS 1
#endif
#ifdef RLX_ASAN_FIBERS
extern "C" void __sanitizer_start_switch_fiber(void **fakeStackSave,
                                               const void *bottom,
                                               size_t size);
extern "C" void __sanitizer_finish_switch_fiber(void *fakeStackSave,
                                                const void **bottomOld,
                                                size_t *sizeOld);
#endif

namespace {
/// A barrier of fibers: the last to arrive releases the others; threads
/// that returned from the kernel no longer count.
struct FiberBarrier {
  unsigned alive = 0, arrived = 0;
  uint64_t generation = 0;
};

/// The lanes of one SIMD group.
struct SimdGroup {
  unsigned width = 0;
  FiberBarrier barrier;
  /// Each lane's value, 64 bytes apart (the largest MSL vector is 32).
  alignas(64) unsigned char scratch[32 * 64];
};

struct Fiber {
  static constexpr size_t kStackBytes = 256 * 1024;
  std::unique_ptr<char[]> stack{new char[kStackBytes]};
  void *sp = nullptr;
  bool done = false;
  unsigned lane = 0;
  SimdGroup *simd = nullptr;
  unsigned builtins[12];
};

/// The launch being run.
struct Scheduler {
  Launcher launcher = nullptr;
  std::vector<void *> args;
  std::vector<Fiber> fibers;
  std::vector<SimdGroup> simds;
  FiberBarrier group;
  Fiber *current = nullptr;
  void *sp = nullptr;
  /// The scheduler's (the OS thread's) stack, for AddressSanitizer.
  const void *stackBottom = nullptr;
  size_t stackSize = 0;
};
} // namespace

static Scheduler scheduler;

/// Switches from the scheduler to fiber `f` until it yields.
static void resume(Fiber &f) {
  scheduler.current = &f;
#ifdef RLX_ASAN_FIBERS
  void *fake = nullptr;
  __sanitizer_start_switch_fiber(&fake, f.stack.get(), Fiber::kStackBytes);
  rlx_metal_fiber_switch(&scheduler.sp, f.sp);
  __sanitizer_finish_switch_fiber(fake, nullptr, nullptr);
#else
  rlx_metal_fiber_switch(&scheduler.sp, f.sp);
#endif
}

/// Back to the scheduler, which resumes the next fiber; `exiting` where
/// the fiber never runs again.
static void yield(bool exiting = false) {
#ifdef RLX_ASAN_FIBERS
  void *fake = nullptr;
  __sanitizer_start_switch_fiber(exiting ? nullptr : &fake,
                                 scheduler.stackBottom, scheduler.stackSize);
  rlx_metal_fiber_switch(&scheduler.current->sp, scheduler.sp);
  __sanitizer_finish_switch_fiber(fake, nullptr, nullptr);
#else
  (void)exiting;
  rlx_metal_fiber_switch(&scheduler.current->sp, scheduler.sp);
#endif
}

static void wait(FiberBarrier &b) {
  uint64_t generation = b.generation;
  ++b.arrived;
  while (b.generation == generation) {
    if (b.arrived >= b.alive) {
      b.arrived = 0;
      ++b.generation;
      return;
    }
    yield();
  }
}

/// Where a fiber starts: runs the kernel for its thread, then leaves for
/// good.
static void fiberMain() {
#ifdef RLX_ASAN_FIBERS
  __sanitizer_finish_switch_fiber(nullptr, &scheduler.stackBottom,
                                  &scheduler.stackSize);
#endif
  // Nothing here may own memory: the fiber's frame is never unwound.
  Fiber &f = *scheduler.current;
  scheduler.launcher(scheduler.args.data(), f.builtins);
  f.done = true;
  --f.simd->barrier.alive;
  --scheduler.group.alive;
  yield(/*exiting=*/true);
  __builtin_unreachable();
}

static void start(Fiber &f) {
  // The first switch pops six registers and returns into fiberMain, which
  // then sees the stack of a called function (rsp = 8 modulo 16).
  auto top = reinterpret_cast<uintptr_t>(f.stack.get() + Fiber::kStackBytes) &
             ~uintptr_t(15);
  auto *slots = reinterpret_cast<void **>(top);
  slots[-1] = nullptr;
  slots[-2] = reinterpret_cast<void *>(&fiberMain);
  for (int i = 3; i <= 8; ++i)
    slots[-i] = nullptr;
  f.sp = &slots[-8];
  f.done = false;
}

extern "C" {
void rlx_metal_threadgroup_barrier() { wait(scheduler.group); }
unsigned rlx_metal_simd_lane() { return scheduler.current->lane; }
unsigned rlx_metal_simd_width() { return scheduler.current->simd->width; }
void rlx_metal_simd_exchange(const void *value, void *all, size_t bytes) {
  Fiber &f = *scheduler.current;
  SimdGroup &simd = *f.simd;
  std::memcpy(simd.scratch + 64 * f.lane, value, bytes);
  wait(simd.barrier);
  for (unsigned i = 0; i < simd.width; ++i)
    std::memcpy(static_cast<char *>(all) + i * bytes, simd.scratch + 64 * i,
                bytes);
  // No lane overwrites its slot before every lane has read it.
  wait(simd.barrier);
}
}

static void runLaunch(Launcher launcher, std::vector<void *> args,
                      const unsigned grid[3], const unsigned group[3]) {
  unsigned threads = group[0] * group[1] * group[2];
  Scheduler &s = scheduler;
  s.launcher = launcher;
  s.args = std::move(args);
  if (s.fibers.size() < threads)
    s.fibers.resize(threads);
  s.simds = std::vector<SimdGroup>((threads + 31) / 32);
  for (unsigned t = 0; t < threads; ++t) {
    Fiber &f = s.fibers[t];
    f.lane = t % 32;
    f.simd = &s.simds[t / 32];
    unsigned thread[3] = {t % group[0], t / group[0] % group[1],
                          t / (group[0] * group[1])};
    for (unsigned d = 0; d < 3; ++d) {
      f.builtins[3 + d] = thread[d];
      f.builtins[6 + d] = grid[d];
      f.builtins[9 + d] = group[d];
    }
  }
  for (unsigned z = 0; z < grid[2]; ++z)
    for (unsigned y = 0; y < grid[1]; ++y)
      for (unsigned x = 0; x < grid[0]; ++x) {
        s.group = FiberBarrier{threads, 0, 0};
        for (unsigned g = 0; g < s.simds.size(); ++g) {
          s.simds[g].width = std::min(32u, threads - 32 * g);
          s.simds[g].barrier = FiberBarrier{s.simds[g].width, 0, 0};
        }
        for (unsigned t = 0; t < threads; ++t) {
          Fiber &f = s.fibers[t];
          f.builtins[0] = x;
          f.builtins[1] = y;
          f.builtins[2] = z;
          start(f);
        }
        // Round robin until every thread has returned.
        for (unsigned running = threads; running;) {
          running = 0;
          for (unsigned t = 0; t < threads; ++t) {
            Fiber &f = s.fibers[t];
            if (f.done)
              continue;
            resume(f);
            running += !f.done;
          }
        }
      }
}

//===----------------------------------------------------------------------===//
// Buffers
//===----------------------------------------------------------------------===//

/// The .npy dtype of an element type of the description ("bf16" travels as
/// f32).
static std::string npyType(StringRef type) {
  return StringSwitch<std::string>(type)
      .Case("f32", "f4")
      .Case("bf16", "f4")
      .Case("f16", "f2")
      .Case("i1", "b1")
      .Case("i8", "i1")
      .Case("i16", "i2")
      .Case("i32", "i4")
      .Case("i64", "i8")
      .Case("ui8", "u1")
      .Case("ui32", "u4")
      .Default("");
}

namespace {
struct Buffer {
  std::unique_ptr<unsigned char[]> storage;
  unsigned char *data;
  int64_t bytes;
};
} // namespace

static Buffer allocate(int64_t bytes) {
  // 64-byte aligned, as Metal buffers are at least 16.
  Buffer b;
  b.storage.reset(new unsigned char[bytes + 64]);
  b.data = b.storage.get() +
           (64 - reinterpret_cast<uintptr_t>(b.storage.get()) % 64) % 64;
  b.bytes = bytes;
  std::memset(b.data, 0xFF, bytes);
  return b;
}

/// Reads input `path` into the argument's buffer.
static bool readInput(const std::string &path, const json::Object &arg,
                      Buffer &buffer, std::string &error) {
  npy::NpyArray array;
  if (!npy::readNpy(path, array, error))
    return false;
  StringRef type = *arg.getString("type");
  if (array.dtype != npyType(type)) {
    error = path + ": dtype " + array.dtype + ", expected " +
            npyType(type) + " for " + type.str();
    return false;
  }
  std::vector<int64_t> shape;
  for (const json::Value &d : *arg.getArray("shape"))
    shape.push_back(*d.getAsInteger());
  if (array.shape != shape) {
    error = path + ": shape differs from the argument's";
    return false;
  }
  if (type == "bf16") {
    npy::floatsToBF16(array.data.data(), buffer.data, array.numElements());
    return true;
  }
  std::memcpy(buffer.data, array.data.data(), buffer.bytes);
  return true;
}

static bool writeOutput(const std::string &path, const json::Object &arg,
                        const Buffer &buffer, std::string &error) {
  npy::NpyArray array;
  StringRef type = *arg.getString("type");
  array.dtype = npyType(type);
  for (const json::Value &d : *arg.getArray("shape"))
    array.shape.push_back(*d.getAsInteger());
  array.data.resize(array.numElements() * array.elementSize());
  if (type == "bf16") {
    npy::bf16ToFloats(buffer.data, array.data.data(), array.numElements());
  } else {
    std::memcpy(array.data.data(), buffer.data, array.data.size());
  }
  return npy::writeNpy(path, array, error);
}

//===----------------------------------------------------------------------===//
// Compiling the kernels
//===----------------------------------------------------------------------===//

static const unsigned kBuiltinCount = 4;
static const char *const kBuiltinNames[kBuiltinCount] = {
    "threadgroup_position_in_grid", "thread_position_in_threadgroup",
    "threadgroups_per_grid", "threads_per_threadgroup"};

namespace {
/// A kernel's parameters, from its MSL signature: for each, its slot in
/// the launcher (metal_cpu_launch.h), the buffer index of `[[buffer(i)]]`
/// or a builtin's index in kBuiltinNames after kBuiltinBase; and the
/// builtins' names in order.
struct Signature {
  std::vector<std::string> slots;
  std::vector<std::string> builtins;
};
} // namespace

/// Reads the signature of `kernel void <kernel>(...)` in `text` into `sig`;
/// returns false where the kernel is not there, and sets `error` where the
/// runner cannot call it.
static bool readSignature(StringRef text, StringRef kernel, Signature &sig,
                          std::string &error) {
  std::string head = ("kernel void " + kernel + "(").str();
  size_t at = text.find(head);
  if (at == StringRef::npos)
    return false;
  StringRef rest = text.drop_front(at + head.size());
  // The parameters end at the parenthesis that closes the list.
  int depth = 0;
  size_t end = 0;
  for (; end < rest.size() && (depth || rest[end] != ')'); ++end) {
    if (rest[end] == '(')
      ++depth;
    else if (rest[end] == ')')
      --depth;
  }
  SmallVector<StringRef> params;
  SplitString(rest.take_front(end), params, ",");
  for (StringRef param : params) {
    size_t open = param.find("[["), close = param.find("]]");
    if (open == StringRef::npos || close == StringRef::npos) {
      // A comma inside a parameter's type (none in the signatures here).
      error = ("kernel " + kernel +
               ": a parameter without an attribute: " + param.trim())
                  .str();
      return true;
    }
    StringRef attr = param.slice(open + 2, close).trim();
    unsigned index;
    if (attr.consume_front("buffer(") && attr.consume_back(")") &&
        !attr.trim().getAsInteger(10, index)) {
      sig.slots.push_back(std::to_string(index) + "u");
      continue;
    }
    unsigned which = 0;
    while (which < kBuiltinCount && attr != kBuiltinNames[which])
      ++which;
    if (which == kBuiltinCount) {
      error =
          ("kernel " + kernel + ": the runner has no builtin [[" + attr + "]]")
              .str();
      return true;
    }
    sig.slots.push_back("rlx_metal_cpu::kBuiltinBase + " +
                        std::to_string(which) + "u");
    sig.builtins.push_back(kBuiltinNames[which]);
  }
  return true;
}

/// Writes the launcher: the .metal files (`texts`, at `paths`), then per
/// kernel a C entry point passing the buffers and builtins its signature
/// names. A launch's "builtins", where the description lists them, must be
/// the signature's.
static bool writeLauncher(const json::Array &steps, StringRef path,
                          ArrayRef<std::string> paths,
                          ArrayRef<std::unique_ptr<MemoryBuffer>> texts,
                          std::string &error) {
  std::error_code ec;
  raw_fd_ostream os(path, ec);
  if (ec) {
    error = ec.message();
    return false;
  }
  // Included here, at file scope, they are not again in the namespaces.
  os << "#include <metal_stdlib>\n#include <simd/simd.h>\n";
  if (spirvCross) {
    // SPIRV-Cross declares threadgroup variables of struct types, which no
    // clang address space can hold (C++ constructs no class object in
    // one): there they are plain static storage. Its kernels keep the
    // Vulkan path's subgroup-size marker, an unused variable by design
    // (docs/Vulkan.md), and, for the tiled matmul, copies of values it
    // sets and never reads (SPIRV-Cross's spelling of SSA values the
    // prefetch carries across the loop).
    os << "#pragma push_macro(\"threadgroup\")\n#undef threadgroup\n"
       << "#define threadgroup static\n#pragma clang diagnostic push\n"
       << "#pragma clang diagnostic ignored \"-Wunused-variable\"\n"
       << "#pragma clang diagnostic ignored "
          "\"-Wunused-but-set-variable\"\n";
  }
  for (auto [i, file] : llvm::enumerate(paths))
    os << "namespace rlx_msl_" << i << " {\n#include \"" << file
       << "\"\n}\nusing namespace rlx_msl_" << i << ";\n";
  if (spirvCross)
    os << "#pragma clang diagnostic pop\n#pragma pop_macro(\"threadgroup\")\n";
  os << "#include <metal_cpu_launch.h>\n";
  StringSet<> written;
  for (const json::Value &step : steps) {
    const json::Object &s = *step.getAsObject();
    if (*s.getString("kind") != "launch")
      continue;
    StringRef kernel = *s.getString("kernel");
    if (!written.insert(kernel).second)
      continue;
    Signature sig;
    bool found = false;
    for (const std::unique_ptr<MemoryBuffer> &text : texts)
      if (!found)
        found = readSignature(text->getBuffer(), kernel, sig, error);
    if (!error.empty())
      return false;
    if (!found) {
      error = ("no kernel " + kernel + " in the .metal files").str();
      return false;
    }
    if (const json::Array *listed = s.getArray("builtins")) {
      std::vector<std::string> names;
      for (const json::Value &b : *listed)
        names.push_back(b.getAsString().value_or("").str());
      if (names != sig.builtins) {
        error = ("the host description's builtins of " + kernel +
                 " are not its signature's")
                    .str();
        return false;
      }
    }
    os << "extern \"C\" void rlx_launch_" << kernel
       << "(void **args, const unsigned *all) {\n"
       << "  static const unsigned slots[] = {";
    for (const std::string &slot : sig.slots)
      os << slot << ", ";
    // (One more: no array is empty.)
    os << "0u};\n  rlx_metal_cpu::call(" << kernel
       << ", args, all, slots);\n}\n";
  }
  return true;
}

int main(int argc, char **argv) {
  InitLLVM y(argc, argv);
  mlir::rlx::parseToolCommandLine(argc, argv,
                                  "Runs the MSL kernels of a Metal program on "
                                  "the CPU\n");

  auto text = MemoryBuffer::getFile(hostFile);
  if (!text)
    return fail(hostFile + ": " + text.getError().message());
  Expected<json::Value> host = json::parse((*text)->getBuffer());
  if (!host)
    return fail(hostFile + ": " + toString(host.takeError()));
  const json::Array *functions =
      host->getAsObject() ? host->getAsObject()->getArray("functions")
                          : nullptr;
  if (!functions || functions->empty())
    return fail(hostFile + ": no functions");
  const json::Object *fn = nullptr;
  for (const json::Value &f : *functions)
    if (function.empty() ? functions->size() == 1
                         : *f.getAsObject()->getString("name") == function)
      fn = f.getAsObject();
  if (!fn)
    return fail("name the function with --function");

  const json::Array &args = *fn->getArray("arguments");
  if (inputs.size() + outputs.size() != args.size())
    return fail(Twine(args.size()) + " arguments, but " +
                Twine(inputs.size()) + " inputs and " +
                Twine(outputs.size()) + " outputs");

  // Compile the kernels and the launcher into a shared library.
  SmallString<128> dir;
  if (std::error_code ec =
          sys::fs::createUniqueDirectory("rlx-metal-cpu", dir))
    return fail("temporary folder: " + ec.message());
  SmallString<128> launcherPath(dir), library(dir);
  sys::path::append(launcherPath, "launcher.cpp");
  sys::path::append(library, "kernels.so");
  std::vector<std::string> paths;
  std::vector<std::unique_ptr<MemoryBuffer>> texts;
  for (const std::string &file : metalFiles) {
    SmallString<128> path(file);
    sys::fs::make_absolute(path);
    auto text = MemoryBuffer::getFile(path);
    if (!text)
      return fail(file + ": " + text.getError().message());
    paths.push_back(path.str().str());
    texts.push_back(std::move(*text));
  }
  std::string error;
  if (!writeLauncher(*fn->getArray("steps"), launcherPath, paths, texts, error))
    return fail(error);
  std::string include = "-I" + includeDir;
  SmallVector<StringRef> command = {
      clang, "-std=c++20", "-O1", "-fPIC", "-shared", "-Wall", "-Wextra",
      "-Werror", include,
      // MSL has no double: its unsuffixed floating literals are float.
      "-cl-single-precision-constant", "-x", "c++", launcherPath, "-o", library,
      // half and bfloat conversions call compiler-rt's builtins.
      "-rtlib=compiler-rt"};
  std::string message;
  if (sys::ExecuteAndWait(clang, command, std::nullopt, {}, 0, 0, &message) !=
      0)
    return fail("compiling " + join(metalFiles, ", ") + " failed " + message);
  void *handle = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle)
    return fail(Twine("loading the kernels: ") + dlerror());

  // Buffers: the arguments, then the temporaries.
  std::vector<Buffer> buffers;
  for (auto [i, a] : llvm::enumerate(args)) {
    const json::Object &arg = *a.getAsObject();
    buffers.push_back(allocate(*arg.getInteger("bytes")));
    if (i < inputs.size() &&
        !readInput(inputs[i], arg, buffers.back(), error))
      return fail(error);
  }
  for (const json::Value &t : *fn->getArray("temporaries"))
    buffers.push_back(allocate(*t.getAsObject()->getInteger("bytes")));

  // Apple GPUs flush float subnormals to zero (MSL 3.1, section 7.4).
  _mm_setcsr(_mm_getcsr() | 0x8040);
  // Scalars bound as `constant` values live as long as the run.
  std::vector<std::unique_ptr<int64_t>> scalars;
  for (const json::Value &step : *fn->getArray("steps")) {
    const json::Object &s = *step.getAsObject();
    if (*s.getString("kind") == "copy") {
      std::memcpy(buffers[*s.getInteger("to")].data,
                  buffers[*s.getInteger("from")].data, *s.getInteger("bytes"));
      continue;
    }
    std::string symbol = "rlx_launch_" + s.getString("kernel")->str();
    auto launcher = reinterpret_cast<Launcher>(dlsym(handle, symbol.c_str()));
    if (!launcher)
      return fail("no kernel " + symbol);
    std::vector<void *> bound;
    for (const json::Value &b : *s.getArray("buffers")) {
      const json::Object &binding = *b.getAsObject();
      if (auto buffer = binding.getInteger("buffer")) {
        bound.push_back(buffers[*buffer].data);
        continue;
      }
      auto value = std::make_unique<int64_t>(0);
      StringRef type = *binding.getString("type");
      if (auto f = binding.getNumber("float"); f && type == "f32") {
        float v = float(*f);
        std::memcpy(value.get(), &v, 4);
      } else if (auto n = binding.getInteger("int"); n && type == "i32") {
        int32_t v = int32_t(*n);
        std::memcpy(value.get(), &v, 4);
      } else if (n && type == "i64") {
        *value = *n;
      } else {
        return fail("a scalar of type " + type + " is not supported");
      }
      bound.push_back(value.get());
      scalars.push_back(std::move(value));
    }
    unsigned grid[3], group[3];
    for (unsigned d = 0; d < 3; ++d) {
      grid[d] = unsigned(*(*s.getArray("grid"))[d].getAsInteger());
      group[d] = unsigned(*(*s.getArray("threadgroup"))[d].getAsInteger());
    }
    runLaunch(launcher, bound, grid, group);
  }

  for (auto [i, path] : llvm::enumerate(outputs)) {
    size_t arg = inputs.size() + i;
    if (!writeOutput(path, *args[arg].getAsObject(), buffers[arg], error))
      return fail(error);
  }
  sys::fs::remove_directories(dir);
  return 0;
}
