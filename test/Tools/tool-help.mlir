// --help lists a tool's own options and the generic ones, not the hundreds
// of LLVM's (those stay behind --help-hidden and are still accepted);
// --version names RLX-MLIR's release.

// RUN: rlx-run --help | FileCheck %s --check-prefix=HELP
// RUN: rlx-run --help | wc -l | awk '$1 >= 60 { exit 1 }'
// RUN: rlx-run --help-hidden | FileCheck %s --check-prefix=HIDDEN
// RUN: rlx-run --version | FileCheck %s --check-prefix=VERSION -DTOOL=run
// RUN: rlx-compile --help | FileCheck %s --check-prefix=COMPILE
// RUN: rlx-compile --version | FileCheck %s --check-prefix=VERSION -DTOOL=compile

// RUN: %if target-metal %{ rlx-metal-cpu-run --help | FileCheck %s --check-prefix=METAL %}
// RUN: %if target-metal %{ rlx-metal-cpu-run --version | FileCheck %s --check-prefix=VERSION -DTOOL=metal-cpu-run %}
// RUN: %if target-vulkan %{ rlx-vulkan-run --help | FileCheck %s --check-prefix=VULKAN %}
// RUN: %if target-vulkan %{ rlx-vulkan-run --version | FileCheck %s --check-prefix=VERSION -DTOOL=vulkan-run %}

// HELP-LABEL: OVERVIEW: rlx-run: compile an RLX program for the CPU and run it
// HELP: --help
// HELP: --entry=<string>
// HELP: --input=<string>
// HELP-NOT: --print-after-all
// HELP-NOT: --time-passes

// HIDDEN: --print-after-all

// VERSION: rlx-[[TOOL]] (RLX-MLIR {{[0-9]+\.[0-9]+\.[0-9]+}}

// COMPILE-LABEL: OVERVIEW: rlx-compile
// COMPILE: --target=<string>
// COMPILE-NOT: --print-after-all

// METAL: --function=<string>
// METAL-NOT: --print-after-all

// VULKAN: USAGE: rlx-vulkan-run PROGRAM.so --entry=NAME
// VULKAN: --print-cooperative-matrix
