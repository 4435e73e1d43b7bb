// REQUIRES: rocm-device-libs
// The BERT encoder layer and the Llama decoder layer of examples/ compiled
// for CDNA3 (gfx942) and RDNA3 (gfx1100). Every code object is for its chip
// and wavefront size, spills no register and uses no scratch, calls
// nothing (the device libraries' functions are inlined) and leaves nothing
// undefined; the row kernels (layer and RMS norms, softmax) reduce across
// the wavefront.
// RUN: rm -rf %t && mkdir %t
// RUN: rlx-compile --target=rocm --chip=gfx942 --dispatch-report %rlx_src_root/examples/bert_encoder_layer.mlir -o %t/bert942.o --gpu-binaries=%t/bert942 2>&1 | FileCheck %s --check-prefix=BERT-REPORT
// RUN: rlx-compile --target=rocm --chip=gfx1100 %rlx_src_root/examples/bert_encoder_layer.mlir -o %t/bert1100.o --gpu-binaries=%t/bert1100
// RUN: rlx-compile --target=rocm --chip=gfx942 --dispatch-report %rlx_src_root/examples/llama_layer_hir.mlir -o %t/llama942.o --gpu-binaries=%t/llama942 2>&1 | FileCheck %s --check-prefix=LLAMA-REPORT
// RUN: rlx-compile --target=rocm --chip=gfx1100 %rlx_src_root/examples/llama_layer_hir.mlir -o %t/llama1100.o --gpu-binaries=%t/llama1100
// RUN: for k in %t/*/*.hsaco; do llvm-nm -u $k; done | count 0
// RUN: for k in %t/bert942/*.hsaco %t/llama942/*.hsaco; do llvm-readelf --notes $k; done | grep -E 'amdhsa.target|wavefront_size|spill_count|private_segment_fixed_size' | sed 's/^ *//' | sort -u | FileCheck %s --check-prefix=NOTES -DCHIP=gfx942 -DWAVE=64
// RUN: for k in %t/bert1100/*.hsaco %t/llama1100/*.hsaco; do llvm-readelf --notes $k; done | grep -E 'amdhsa.target|wavefront_size|spill_count|private_segment_fixed_size' | sed 's/^ *//' | sort -u | FileCheck %s --check-prefix=NOTES -DCHIP=gfx1100 -DWAVE=32
// RUN: for k in %t/bert942/*.hsaco %t/llama942/*.hsaco; do llvm-objdump -d --mcpu=gfx942 $k; done | FileCheck %s --check-prefix=ISA64
// RUN: for k in %t/bert1100/*.hsaco %t/llama1100/*.hsaco; do llvm-objdump -d --mcpu=gfx1100 $k; done | FileCheck %s --check-prefix=ISA32

// BERT: the four projections in the library with their bias (the FFN's
// first with the exact GELU after it as a generated kernel), and the
// attention, for which there is no flash kernel, as its two products.
// BERT-REPORT: remark: attention: no flash kernel
// BERT-REPORT-COUNT-6: remark: matmul: library 'f32'
// BERT-REPORT-NOT: remark: matmul
// Llama, in both spellings: qkv, output, gate, up and down projections and
// the two products of the grouped-query attention, each a library call.
// LLAMA-REPORT-COUNT-2: remark: attention: no flash kernel
// LLAMA-REPORT-COUNT-14: remark: matmul: library 'f32'
// LLAMA-REPORT-NOT: remark: matmul

// Sorted and unique over all the code objects of a chip: one value each.
// NOTES:      .private_segment_fixed_size: 0
// NOTES-NEXT: .sgpr_spill_count: 0
// NOTES-NEXT: .vgpr_spill_count: 0
// NOTES-NEXT: .wavefront_size: [[WAVE]]
// NOTES-NEXT: amdhsa.target: amdgcn-amd-amdhsa--[[CHIP]]
// NOTES-NOT:  {{.}}

// ISA64-NOT: s_swappc
// ISA64:     ds_bpermute_b32
// ISA64:     ds_swizzle_b32 {{.*}}swizzle(SWAP,16)
// ISA64:     ds_swizzle_b32 {{.*}}swizzle(SWAP,1)
// ISA64:     v_exp_f32
// ISA64-NOT: s_swappc
// ISA32-NOT: s_swappc
// ISA32:     ds_bpermute_b32
// ISA32:     v_exp_f32
// ISA32-NOT: s_swappc
