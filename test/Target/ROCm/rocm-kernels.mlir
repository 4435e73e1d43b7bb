// REQUIRES: rocm-device-libs
// The code objects of --target=rocm for CDNA (64-lane wavefronts) and RDNA3
// (32-lane wavefronts): the instructions of elementwise and row kernels,
// the kernels' notes, and nothing left to resolve at load time.
// RUN: rm -rf %t && mkdir %t
// RUN: rlx-compile --target=rocm --chip=gfx942 %s -o %t/gfx942.o --gpu-binaries=%t/gfx942
// RUN: rlx-compile --target=rocm --chip=gfx90a %s -o %t/gfx90a.o --gpu-binaries=%t/gfx90a
// RUN: rlx-compile --target=rocm --chip=gfx1100 %s -o %t/gfx1100.o --gpu-binaries=%t/gfx1100
// RUN: llvm-objdump -d --mcpu=gfx942 %t/gfx942/add_kernel.hsaco | FileCheck %s --check-prefix=ADD-CDNA
// RUN: llvm-objdump -d --mcpu=gfx1100 %t/gfx1100/add_kernel.hsaco | FileCheck %s --check-prefix=ADD-RDNA
// RUN: llvm-readelf --notes %t/gfx942/add_kernel.hsaco | FileCheck %s --check-prefix=ADD-NOTES -DCHIP=gfx942 -DWAVE=64
// RUN: llvm-readelf --notes %t/gfx90a/add_kernel.hsaco | FileCheck %s --check-prefix=ADD-NOTES -DCHIP=gfx90a -DWAVE=64
// RUN: llvm-readelf --notes %t/gfx1100/add_kernel.hsaco | FileCheck %s --check-prefix=ADD-NOTES -DCHIP=gfx1100 -DWAVE=32
// RUN: llvm-objdump -d --mcpu=gfx942 %t/gfx942/softmax_kernel.hsaco | FileCheck %s --check-prefix=SOFTMAX-W64
// RUN: llvm-objdump -d --mcpu=gfx90a %t/gfx90a/softmax_kernel.hsaco | FileCheck %s --check-prefix=SOFTMAX-W64
// RUN: llvm-objdump -d --mcpu=gfx1100 %t/gfx1100/softmax_kernel.hsaco | FileCheck %s --check-prefix=SOFTMAX-W32
// RUN: llvm-readelf --notes %t/gfx942/softmax_wide_kernel.hsaco | FileCheck %s --check-prefix=WIDE-NOTES -DWAVE=64 -DLDS=32
// RUN: llvm-readelf --notes %t/gfx1100/softmax_wide_kernel.hsaco | FileCheck %s --check-prefix=WIDE-NOTES -DWAVE=32 -DLDS=64
// RUN: llvm-objdump -d --mcpu=gfx942 %t/gfx942/softmax_wide_kernel.hsaco | FileCheck %s --check-prefix=WIDE-ISA
// RUN: llvm-objdump -d --mcpu=gfx1100 %t/gfx1100/softmax_wide_kernel.hsaco | FileCheck %s --check-prefix=WIDE-ISA
// RUN: llvm-objdump -d --mcpu=gfx942 %t/gfx942/rms_norm_kernel.hsaco | FileCheck %s --check-prefix=RMS-W64
// RUN: llvm-objdump -d --mcpu=gfx1100 %t/gfx1100/rms_norm_kernel.hsaco | FileCheck %s --check-prefix=RMS-W32
// RUN: for c in gfx942 gfx90a gfx1100; do for k in %t/$c/*.hsaco; do llvm-nm -u $k; done; done | count 0

// An elementwise op: 16-byte loads and stores (4 x f32 per thread), one
// workgroup of 256 threads, no LDS. Its arguments are the three memref
// descriptors (allocated and aligned pointers, offset, two sizes, two
// strides: 7 words of 8 bytes each), the last at byte 160.
// ADD-CDNA-LABEL: <add_kernel>:
// ADD-CDNA:         global_load_dwordx4
// ADD-CDNA:         global_load_dwordx4
// ADD-CDNA:         v_{{(pk_)?}}add_f32
// ADD-CDNA:         global_store_dwordx4
// ADD-CDNA:         s_endpgm
// ADD-RDNA-LABEL: <add_kernel>:
// ADD-RDNA:         global_load_b128
// ADD-RDNA:         global_load_b128
// ADD-RDNA:         v_dual_add_f32
// ADD-RDNA:         global_store_b128
// ADD-RDNA:         s_endpgm
// ADD-NOTES:      NT_AMDGPU_METADATA
// ADD-NOTES:      amdhsa.kernels:
// ADD-NOTES:        .args:
// ADD-NOTES-NEXT:     - .address_space:  generic
// ADD-NOTES-NEXT:       .offset:         0
// ADD-NOTES-NEXT:       .size:           8
// ADD-NOTES-NEXT:       .value_kind:     global_buffer
// ADD-NOTES:          - .offset:         160
// ADD-NOTES-NEXT:       .size:           8
// ADD-NOTES-NEXT:       .value_kind:     by_value
// ADD-NOTES-NOT:        .value_kind:     {{global_buffer|by_value}}
// ADD-NOTES:        .group_segment_fixed_size: 0
// ADD-NOTES:        .max_flat_workgroup_size: 256
// ADD-NOTES:        .name:           add_kernel
// ADD-NOTES:        .private_segment_fixed_size: 0
// ADD-NOTES:        .sgpr_spill_count: 0
// ADD-NOTES:        .vgpr_spill_count: 0
// ADD-NOTES:        .wavefront_size: [[WAVE]]
// ADD-NOTES:      amdhsa.target:   amdgcn-amd-amdhsa--[[CHIP]]
func.func @add(%x: tensor<64x256xf32>, %y: tensor<64x256xf32>) -> tensor<64x256xf32> {
  %z = rlx.add %x, %y : tensor<64x256xf32>, tensor<64x256xf32>
  return %z : tensor<64x256xf32>
}

// A row of 256 f32 fits one wavefront's registers: one wavefront per row,
// its max and its sum each a butterfly over every lane of the wavefront,
// log2(lanes) exchanges from the farthest lane in: on CDNA lane ^ 32 by
// ds_bpermute, then 16 .. 1 by ds_swizzle; on RDNA3 16 .. 1 by
// ds_bpermute. No LDS, no barrier.
// SOFTMAX-W64-LABEL: <softmax_kernel>:
// SOFTMAX-W64-NOT:     s_barrier
// SOFTMAX-W64:         global_load_dwordx4
// SOFTMAX-W64:         ds_bpermute_b32
// SOFTMAX-W64-NEXT:    s_waitcnt
// SOFTMAX-W64-NEXT:    v_max_f32
// SOFTMAX-W64-NEXT:    v_max_f32
// SOFTMAX-W64-NEXT:    ds_swizzle_b32 {{.*}}swizzle(SWAP,16)
// SOFTMAX-W64:         ds_swizzle_b32 {{.*}}swizzle(SWAP,8)
// SOFTMAX-W64:         ds_swizzle_b32 {{.*}}swizzle(SWAP,4)
// SOFTMAX-W64:         ds_swizzle_b32 {{.*}}swizzle(SWAP,2)
// SOFTMAX-W64:         ds_swizzle_b32 {{.*}}swizzle(SWAP,1)
// SOFTMAX-W64:         v_exp_f32
// SOFTMAX-W64:         ds_bpermute_b32
// SOFTMAX-W64-NEXT:    s_waitcnt
// SOFTMAX-W64-NEXT:    v_add_f32
// SOFTMAX-W64-NEXT:    ds_swizzle_b32 {{.*}}swizzle(SWAP,16)
// SOFTMAX-W64:         ds_swizzle_b32 {{.*}}swizzle(SWAP,1)
// SOFTMAX-W64-NOT:     ds_
// SOFTMAX-W64:         global_store_dwordx4
// SOFTMAX-W64-NOT:     s_barrier
// SOFTMAX-W64:         s_endpgm
// SOFTMAX-W32-LABEL: <softmax_kernel>:
// SOFTMAX-W32-NOT:     ds_swizzle
// SOFTMAX-W32-NOT:     s_barrier
// SOFTMAX-W32:         global_load_b128
// SOFTMAX-W32-COUNT-5: ds_bpermute_b32
// SOFTMAX-W32-NOT:     ds_bpermute_b32
// SOFTMAX-W32:         v_exp_f32
// SOFTMAX-W32-COUNT-5: ds_bpermute_b32
// SOFTMAX-W32-NOT:     ds_
// SOFTMAX-W32:         global_store_b128
// SOFTMAX-W32-NOT:     s_barrier
// SOFTMAX-W32:         s_endpgm
func.func @softmax(%x: tensor<64x256xf32>) -> tensor<64x256xf32> {
  %y = rlx.softmax %x axis = -1 : tensor<64x256xf32>
  return %y : tensor<64x256xf32>
}

// A row of 4096 f32 takes the whole workgroup of 256 threads: each
// wavefront reduces in registers, then the wavefronts' partials meet in
// LDS, one f32 per wavefront for the max and one for the sum:
// 2 x 4 bytes x (256 / 64) = 32 bytes on CDNA, 2 x 4 x (256 / 32) = 64 on
// RDNA3.
// WIDE-NOTES:      .group_segment_fixed_size: [[LDS]]
// WIDE-NOTES:      .name:           softmax_wide_kernel
// WIDE-NOTES:      .vgpr_spill_count: 0
// WIDE-NOTES:      .wavefront_size: [[WAVE]]
// WIDE-ISA-LABEL: <softmax_wide_kernel>:
// WIDE-ISA:         ds_bpermute_b32
// WIDE-ISA:         ds_{{write|store}}_b32
// WIDE-ISA:         s_barrier
// WIDE-ISA:         ds_{{read|load}}_b32
// WIDE-ISA:         v_exp_f32
// WIDE-ISA:         ds_{{write|store}}_b32
// WIDE-ISA:         s_barrier
// WIDE-ISA:         ds_{{read|load}}_b32
// WIDE-ISA:         s_endpgm
func.func @softmax_wide(%x: tensor<64x4096xf32>) -> tensor<64x4096xf32> {
  %y = rlx.softmax %x axis = -1 : tensor<64x4096xf32>
  return %y : tensor<64x4096xf32>
}

// RMS norm: one wavefront per row, the sum of squares over all its lanes,
// then the hardware reciprocal square root (the device library's rsqrt,
// linked and inlined).
// RMS-W64-LABEL: <rms_norm_kernel>:
// RMS-W64:         ds_bpermute_b32
// RMS-W64-COUNT-5: ds_swizzle_b32
// RMS-W64:         v_rsq_f32
// RMS-W64-NOT:     s_swappc
// RMS-W64:         s_endpgm
// RMS-W32-LABEL: <rms_norm_kernel>:
// RMS-W32-COUNT-5: ds_bpermute_b32
// RMS-W32-NOT:     ds_bpermute_b32
// RMS-W32:         v_rsq_f32
// RMS-W32-NOT:     s_swappc
// RMS-W32:         s_endpgm
func.func @rms_norm(%x: tensor<64x256xf32>, %w: tensor<256xf32>) -> tensor<64x256xf32> {
  %y = rlx.rms_norm %x, %w : tensor<64x256xf32>, tensor<256xf32>
  return %y : tensor<64x256xf32>
}
