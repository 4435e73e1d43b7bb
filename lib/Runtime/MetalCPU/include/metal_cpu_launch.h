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
// parameter types come from the kernel itself, and which buffer or builtin
// each is from its signature's attributes (the launcher's slots): a buffer
// is the runner's pointer cast to the parameter's address space, a
// `constant` scalar or a `device` struct what that pointer points to, a
// builtin (uint3) the runner's value of it. No standard header is
// included: <metal_stdlib>'s address-space macros are defined by now.
//
//===----------------------------------------------------------------------===//

#ifndef RLX_METAL_CPU_LAUNCH_H
#define RLX_METAL_CPU_LAUNCH_H

namespace rlx_metal_cpu {

template <unsigned... I> struct indices {};
template <typename T, T... I> using make_indices = indices<I...>;

/// A launcher's slots from this one on are builtins (its index in the
/// runner's builtins, 3 unsigned each); those below are buffer indices.
constexpr unsigned kBuiltinBase = 1u << 16;

/// Parameter P from its slot: a buffer (pointer), a `constant` scalar or a
/// SPIRV-Cross `device` struct (reference), or a builtin (uint3).
template <typename P> struct param;
template <typename T> struct param<T *> {
  static T *get(void **args, const unsigned *, unsigned slot) {
    return (T *)args[slot];
  }
};
template <typename T> struct param<T &> {
  static T &get(void **args, const unsigned *, unsigned slot) {
    return *(T *)args[slot];
  }
};
template <> struct param<metal::uint3> {
  static metal::uint3 get(void **, const unsigned *builtins, unsigned slot) {
    const unsigned *b = builtins + 3 * (slot - kBuiltinBase);
    return metal::uint3{b[0], b[1], b[2]};
  }
};

/// Calls the kernel `fn` with parameter I from slots[I].
template <typename... P, unsigned... I>
void call(void (*fn)(P...), void **args, const unsigned *builtins,
          const unsigned *slots, indices<I...>) {
  fn(param<P>::get(args, builtins, slots[I])...);
}

template <typename... P>
void call(void (*fn)(P...), void **args, const unsigned *builtins,
          const unsigned *slots) {
  call(fn, args, builtins, slots,
       __make_integer_seq<make_indices, unsigned, sizeof...(P)>{});
}

} // namespace rlx_metal_cpu

#endif // RLX_METAL_CPU_LAUNCH_H
