# -*- Python -*-
# lit configuration for the RLX-MLIR tests.

import os
import shutil
import subprocess

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "RLX"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.mlir_obj_dir, "test")
config.excludes = {"CMakeLists.txt", "README.txt", "lit.cfg.py",
                   "lit.site.cfg.py", "Inputs"}

config.substitutions.append(("%rlx_src_root", config.rlx_src_root))
llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

# The compilation targets the build has (cpu and those of the
# RLX_ENABLE_<T> options that are on), in registration order: a feature
# target-<t> each, which the tests of one target require, and
# %rlx_targets, the list the registry's unknown-target error prints.
# %rlx_disabled_targets names those left out (comma-separated).
rlx_targets = config.rlx_targets.split(";")
for target in rlx_targets:
    config.available_features.add("target-" + target)
config.substitutions.append(("%rlx_targets", ", ".join(rlx_targets)))
config.substitutions.append(
    ("%rlx_disabled_targets",
     ",".join(t for t in config.rlx_disabled_targets.split(";") if t)))

tool_dirs = [config.rlx_tools_dir, config.llvm_tools_dir]
tools = ["rlx-compile", "rlx-opt", "rlx-run", "rlx-cpu-alloc-test",
         "rlx-cpu-gemm-s8-test", "rlx-cpu-threads-test",
         "rlx-lsp-server", "rlx-reduce", "rlx-capi-test"]
# The tools of one target, built with it.
target_tools = {"cuda": ["rlx-cuda-runtime-test"],
                "rocm": ["rlx-rocm-runtime-test"],
                "vulkan": ["rlx-vulkan-run"],
                "metal": ["rlx-translate", "rlx-metal-cpu-run"]}
for target, names in target_tools.items():
    if target in rlx_targets:
        tools += names

# The Metal back end's MSL compiles as C++ with clang against RLX's stand-in
# <metal_stdlib> (rlx-metal-cpu-run does the same before it runs kernels).
config.substitutions.append(("%clangxx", os.path.join(config.llvm_tools_dir,
                                                      "clang++")))
config.substitutions.append(("%metal_stdlib_dir",
                             os.path.join(config.rlx_src_root, "lib",
                                          "Runtime", "MetalCPU", "include")))

# Integration scripts run under Debian's Python (its numpy and torch) and
# find rlx-run and their helper module through the environment.
config.substitutions.append(("%python", "/usr/bin/python3"))
config.substitutions.append(("%rlx_build_dir", config.mlir_obj_dir))
config.substitutions.append(("%rlx_plugin",
                             os.path.join(config.mlir_obj_dir, "lib",
                                          "librlx-plugin.so")))
config.substitutions.append(("%rlx_lib_dir",
                             os.path.join(config.mlir_obj_dir, "lib")))
config.environment["RLX_RUN"] = os.path.join(config.rlx_tools_dir, "rlx-run")
config.environment["RLX_OPT"] = os.path.join(config.rlx_tools_dir, "rlx-opt")
config.environment["RLX_COMPILE"] = os.path.join(config.rlx_tools_dir,
                                                 "rlx-compile")
config.environment["RLX_METAL_CPU_RUN"] = os.path.join(config.rlx_tools_dir,
                                                       "rlx-metal-cpu-run")
config.environment["RLX_VULKAN_RUN"] = os.path.join(config.rlx_tools_dir,
                                                    "rlx-vulkan-run")
# librlx_cpu_runtime.so, which objects from rlx-compile link against, and
# MLIR's runtime utilities.
config.environment["RLX_LIB_DIR"] = os.path.join(config.mlir_obj_dir, "lib")
config.environment["RLX_BUILD_DIR"] = config.mlir_obj_dir
config.environment["MLIR_LIB_DIR"] = os.path.join(
    os.path.dirname(config.llvm_tools_dir), "lib")
# A failing integration test prints "rerun with RLX_TEST_SEED=N": lit
# passes that variable on so that the rerun draws the same inputs.
if "RLX_TEST_SEED" in os.environ:
    config.environment["RLX_TEST_SEED"] = os.environ["RLX_TEST_SEED"]
# The integration tests' helper module, and the `rlx` Python package the
# build assembles.
config.environment["PYTHONPATH"] = os.pathsep.join([
    os.path.join(config.rlx_src_root, "test", "Integration"),
    os.path.join(config.mlir_obj_dir, "python")])
# `lit --param rlx_opt=plugin`: every `rlx-opt` of the tests runs as
# Debian's stock mlir-opt-22 with librlx-plugin.so loaded, the way another
# MLIR compiler embeds RLX (test/Plugin/rlx-opt-via-plugin.py).
if lit_config.params.get("rlx_opt", "rlx-opt") == "plugin":
    tools.remove("rlx-opt")
    llvm_config.add_tool_substitutions([ToolSubst(
        "rlx-opt",
        command="/usr/bin/python3",
        extra_args=[os.path.join(config.rlx_src_root, "test", "Plugin",
                                 "rlx-opt-via-plugin.py"),
                    os.path.join(config.llvm_tools_dir, "mlir-opt"),
                    os.path.join(config.mlir_obj_dir, "lib",
                                 "librlx-plugin.so"),
                    config.rlx_src_root])])
    config.available_features.add("rlx-opt-plugin")
llvm_config.add_tool_substitutions(tools, tool_dirs)

# The PTX tests compile kernels with math (exp, rsqrt) that link the CUDA
# toolkit's libdevice.
if os.path.exists("/usr/local/cuda/nvvm/libdevice/libdevice.10.bc"):
    config.available_features.add("cuda-toolkit")

# The rocm target's kernels that call math functions link the device
# libraries (rocm-device-libs) from the toolkit folder the build arranged.
if os.path.exists(os.path.join(config.mlir_obj_dir, "rocm-toolkit", "amdgcn",
                               "bitcode", "ocml.bc")):
    config.available_features.add("rocm-device-libs")

# spirv-val (Debian's spirv-tools) checks every SPIR-V module the vulkan
# target emits.
if shutil.which("spirv-val"):
    config.available_features.add("spirv-val")
# spirv-cross (Debian's) writes MSL of the vulkan target's SPIR-V, which
# the Metal cross-check runs beside RLX's own MSL.
if shutil.which("spirv-cross"):
    config.available_features.add("spirv-cross")

# Graphviz's dot (Debian's graphviz) lays out --rlx-fusion-report's
# format=svg; without it only the DOT text is tested.
if shutil.which("dot"):
    config.available_features.add("graphviz")

# A Vulkan device (lavapipe in CI): the vulkan tests run on it, compiled
# for its subgroup size, asked once here (a tree that had the vulkan
# target before may keep an old rlx-vulkan-run).
_vulkan_run = os.path.join(config.rlx_tools_dir, "rlx-vulkan-run")
if "target-vulkan" in config.available_features and \
        os.path.exists(_vulkan_run):
    _probe = subprocess.run([_vulkan_run, "--print-subgroup-size"],
                            capture_output=True, text=True)
    if _probe.returncode == 0 and _probe.stdout.strip().isdigit():
        config.available_features.add("vulkan")
        config.environment["RLX_VULKAN_SUBGROUP_SIZE"] = _probe.stdout.strip()

# librlx_cuda_runtime embeds the flash-attention kernels where the build
# found nvcc.
if "target-cuda" in config.available_features and \
        not getattr(config, "rlx_nvcc", "NOTFOUND").endswith("NOTFOUND"):
    config.available_features.add("flash-attention-kernels")

# A sanitized build (RLX_ENABLE_SANITIZERS): tests that link RLX's runtime
# libraries into programs built outside CMake, without the sanitizer
# runtime, say `UNSUPPORTED: sanitizers`. Every finding fails its test.
if getattr(config, "rlx_sanitizers", ""):
    config.available_features.add("sanitizers")
    # allow_user_poisoning=0: LLVM's BumpPtrAllocator, inlined into our
    # instrumented code, poisons slabs that the uninstrumented libMLIR.so
    # then allocates from without unpoisoning (a false use-after-poison).
    config.environment["ASAN_OPTIONS"] = "detect_leaks=1:allow_user_poisoning=0"
    config.environment["UBSAN_OPTIONS"] = "print_stacktrace=1"

# `lit --param check_bounds=1`: every rlx-run of the integration tests
# compiles with --check-bounds (runtime checks on memory accesses).
if lit_config.params.get("check_bounds", "0") not in ("", "0"):
    config.environment["RLX_RUN_CHECK_BOUNDS"] = "1"

