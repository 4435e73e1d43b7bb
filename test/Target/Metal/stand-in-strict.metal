// RUN: %clangxx -std=c++20 -fsyntax-only -Xclang -verify -Xclang -verify-ignore-unexpected=note -I %metal_stdlib_dir -x c++ %s

// The stand-in <metal_stdlib> rejects what Apple's compiler rejects in the
// MSL that RLX and SPIRV-Cross write: mixed address spaces, math on types
// MSL has no overload for, SIMD-group functions on other types, vector
// constructors whose parts do not give the vector's lanes. A `threadgroup`
// pointer type cannot be spelled with it (`threadgroup` declares static
// storage, see the header); the emitter writes none.

#include <metal_stdlib>
using namespace metal;

static float first(const device float *p) { return p[0]; }
static float scaled(constant float &s) { return s; }

kernel void address_spaces(device float *out [[buffer(0)]],
                           constant float &scale [[buffer(1)]],
                           uint3 tid [[thread_position_in_threadgroup]]) {
  threadgroup float shared[32];
  shared[tid.x] = scale;
  out[0] = first(out) + scaled(scale) + shared[0];
  // expected-error@+1 {{no matching function for call to 'first'}}
  out[2] = first(shared);
  // expected-error@+1 {{no matching function for call to 'scaled'}}
  out[3] = scaled(out[0]);
  // expected-error@+1 {{cannot initialize a variable of type 'device float *'}}
  device float *p = &shared[0];
  // expected-error@+1 {{cannot initialize a variable of type 'float *'}}
  float *q = out;
  (void)p;
  (void)q;
}

kernel void math_types(device float *out [[buffer(0)]],
                       device int *ints [[buffer(1)]]) {
  out[0] = metal::exp(out[1]);
  out[1] = float(metal::exp(half(out[2])));
  // expected-error@+1 {{call to 'exp' is ambiguous}}
  out[2] = metal::exp(ints[0]);
  // expected-error@+1 {{call to 'exp' is ambiguous}}
  out[3] = metal::exp(double(out[0]));
}

kernel void simd_types(device float *out [[buffer(0)]]) {
  out[0] = simd_sum(out[0]);
  out[1] = simd_max(out[1]) + float(simd_shuffle_xor(half(out[0]), 1));
  // expected-error@*:* {{not a SIMD-group function type}}
  out[2] = float(simd_sum(double(out[2])));
}

kernel void vectors(device float *out [[buffer(0)]]) {
  float4 v = *(const device float4 *)&out[0];
  float2 w = float2{v.x, v[3]};
  out[4] = w.y;
  static_assert(sizeof(float3) == 16 && alignof(float3) == 16,
                "MSL's float3 is a float4's size");
  static_assert(sizeof(half4) == 8 && alignof(half2) == 4, "half vectors");
}

// MSL's vector constructors (SPIRV-Cross writes them): a scalar fills
// every lane, a vector of as many lanes converts, otherwise the parts give
// exactly the lanes, vectors of the same element type.
kernel void vector_constructors(device float4 *out [[buffer(0)]],
                                device int2 *ints [[buffer(1)]]) {
  float2 w = float2(out[0].x, 1.0f);
  out[1] = float4(w, out[0].zw) + float4(2.0f) + float4(int4(ints[0], 3, 4));
  out[2] = float4(w, 0.0f, 1);
  // expected-error@*:* {{the parts of a vector constructor must give its lanes}}
  out[3] = float4(w, 1.0f);
  // expected-error@*:* {{a vector part of another element type}}
  out[4] = float4(ints[0], w);
  // expected-error@*:* {{the parts of a vector constructor must give its lanes}}
  out[5] = float4(w);
  out[6].x = float(isunordered(w.x, w.y)) + precise::tanh(w.x) + abs(w.y);
  // expected-error@+1 {{call to 'isunordered' is ambiguous}}
  out[7].x = float(isunordered(ints[0].x, ints[0].y));
}
