//===- metal_cpu_launch.h - call an MSL kernel from the CPU runner -*- C++ -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Included, after the .metal file and its <metal_stdlib> stand-in, by the
// launcher that rlx-metal-cpu-run writes for a program: one C entry point
// per kernel, which the runner calls for every thread. The kernel's
// parameter types come from the kernel itself: a buffer is the runner's
// pointer cast to the parameter's address space, a `constant` scalar the
// value that pointer points to, and each builtin (uint3) the next of the
// builtins the host description lists for the launch. No standard header
// is included: <metal_stdlib>'s address-space macros are defined by now.
//
//===----------------------------------------------------------------------===//

#ifndef RLX_METAL_CPU_LAUNCH_H
#define RLX_METAL_CPU_LAUNCH_H

namespace rlx_metal_cpu {

template <unsigned... I> struct indices {};
template <typename T, T... I> using make_indices = indices<I...>;

/// Parameter `i` of type P: a buffer (pointer), a `constant` scalar
/// (reference) or a builtin.
template <typename P> struct param;
template <typename T> struct param<T *> {
  static T *get(void **args, const metal::uint3 *, unsigned i) {
    return (T *)args[i];
  }
};
template <typename T> struct param<T &> {
  static T &get(void **args, const metal::uint3 *, unsigned i) {
    return *(T *)args[i];
  }
};
template <> struct param<metal::uint3> {
  static metal::uint3 get(void **, const metal::uint3 *builtins,
                          unsigned i) {
    return builtins[i];
  }
};

/// Calls the kernel `fn` with the buffers `args` and `builtins` (the uint3s that
/// follow the buffers, in order).
template <typename... P, unsigned... I>
void call(void (*fn)(P...), void **args, const metal::uint3 *builtins,
          indices<I...>) {
  constexpr unsigned numBuffers =
      (0u + ... + (__is_same(P, metal::uint3) ? 0u : 1u));
  fn(param<P>::get(args, builtins,
                       I < numBuffers ? I : I - numBuffers)...);
}

template <typename... P>
void call(void (*fn)(P...), void **args, const metal::uint3 *builtins) {
  call(fn, args, builtins,
       __make_integer_seq<make_indices, unsigned, sizeof...(P)>{});
}

} // namespace rlx_metal_cpu

#endif // RLX_METAL_CPU_LAUNCH_H
