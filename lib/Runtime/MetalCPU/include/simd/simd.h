//===- simd/simd.h - a stand-in for Apple's <simd/simd.h> ---------*- C++ -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// SPIRV-Cross's MSL (`spirv-cross --msl`) includes <simd/simd.h> after
// <metal_stdlib>, whatever the shader. Apple's header declares the
// `simd::` vector and matrix types that host code shares with shaders; the
// kernels SPIRV-Cross writes for RLX's SPIR-V use none of them, so this
// stand-in declares nothing: a kernel that used one would not compile
// here, rather than compile against a guess at Apple's declarations.
//
//===----------------------------------------------------------------------===//

#ifndef RLX_METAL_CPU_SIMD_SIMD_H
#define RLX_METAL_CPU_SIMD_SIMD_H
#endif // RLX_METAL_CPU_SIMD_SIMD_H
