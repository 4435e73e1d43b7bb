// REQUIRES: spirv-val
// The BERT encoder layer (f32 and bf16) and the Llama layers of examples/
// through rlx-compile --target=vulkan for NVIDIA's 32-lane subgroups:
// spirv-val accepts every module; the row kernels reduce with subgroup
// shuffles; bf16 is stored as 16-bit words (Int16, 16-bit storage), never
// as a float type the device lacks.
// RUN: rm -rf %t && mkdir %t
// RUN: rlx-compile --target=vulkan %rlx_src_root/examples/bert_encoder_layer.mlir -o %t/bert.o --gpu-binaries=%t/bert
// RUN: sed 's/xf32>/xbf16>/g' %rlx_src_root/examples/bert_encoder_layer.mlir > %t/bert_bf16.mlir
// RUN: rlx-compile --target=vulkan %t/bert_bf16.mlir -o %t/bert_bf16.o --gpu-binaries=%t/bert_bf16
// RUN: rlx-compile --target=vulkan %rlx_src_root/examples/llama_layer_hir.mlir -o %t/llama.o --gpu-binaries=%t/llama
// RUN: for m in %t/*/*.spv; do spirv-val --target-env vulkan1.2 $m || echo "INVALID $m"; done | count 0
// RUN: for m in %t/bert/*.spv; do spirv-dis $m; done | FileCheck %s --check-prefix=F32
// RUN: for m in %t/bert_bf16/*.spv; do spirv-dis $m; done | FileCheck %s --check-prefix=BF16

// F32: OpCapability Shader
// F32: OpCapability GroupNonUniformShuffle
// F32: OpExecutionMode %{{.+}} LocalSize {{32|64|128|256}} 1 1
// F32: OpGroupNonUniformShuffleXor %float %uint_3 %{{.+}} %uint_16
// F32-NOT: OpCapability Float64

// BF16-NOT: OpTypeFloat 16
// BF16: OpCapability StorageBuffer16BitAccess
// BF16: %ushort = OpTypeInt 16 0
// BF16: OpShiftLeftLogical
