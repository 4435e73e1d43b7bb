//===- RLXLIRAttrs.td - rlx_lir plan attributes ------------*- tablegen -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef RLX_DIALECT_LIR_IR_RLXLIRATTRS_TD
#define RLX_DIALECT_LIR_IR_RLXLIRATTRS_TD

include "RLX/Dialect/LIR/IR/RLXLIRDialect.td"
include "mlir/IR/AttrTypeBase.td"

class RLXLIR_Attr<string name, string attrMnemonic>
    : AttrDef<RLXLIR_Dialect, name> {
  let mnemonic = attrMnemonic;
  let assemblyFormat = "`<` struct(params) `>`";
}

//===----------------------------------------------------------------------===//
// BufferAttr
//===----------------------------------------------------------------------===//

def RLXLIR_BufferAttr : RLXLIR_Attr<"Buffer", "buffer"> {
  let summary = "One planned buffer: its bytes in the arena and its lifetime";
  let description = [{
    Buffer `id` occupies bytes `[offset, offset + size)` of the arena and is
    live from kernel `start` (the kernel that writes it) to kernel `end` (the
    last kernel that reads it or one of its aliases), both inclusive;
    kernels are numbered in program order from 0. A buffer with `root` is an
    alias: a view of buffer `root` (reshape, same-width cast, axis-0 narrow)
    or the result of an elementwise kernel that overwrote it in place; it
    costs no bytes, its `offset` is absolute in the arena and its bytes and
    lifetime lie within the root's.

    ```mlir
    #rlx_lir.buffer<id = 2, offset = 0, size = 512, start = 1, end = 3>
    #rlx_lir.buffer<id = 3, offset = 128, size = 128, start = 2, end = 2, root = 2>
    ```
  }];
  let parameters = (ins "int64_t":$id, "int64_t":$offset, "int64_t":$size,
                    "int64_t":$start, "int64_t":$end,
                    OptionalParameter<"std::optional<int64_t>">:$root);
  let extraClassDeclaration = [{
    bool isAlias() const { return getRoot().has_value(); }
  }];
}

//===----------------------------------------------------------------------===//
// PlanAttr
//===----------------------------------------------------------------------===//

def RLXLIR_PlanAttr : RLXLIR_Attr<"Plan", "plan"> {
  let summary = "A function's arena plan: arena size and every assignment";
  let description = [{
    The arena is one allocation of `arena_size` bytes, aligned to
    `alignment` (a power of two). `buffers` lists every planned buffer as a
    `#rlx_lir.buffer`. A plan is valid when no two root buffers whose
    lifetimes intersect share a byte, every buffer ends within the arena,
    every root starts at a multiple of `alignment`, and every alias lies
    within its root in bytes and in time; the verifier rejects any other.

    ```mlir
    #rlx_lir.plan<arena_size = 1024, alignment = 64, buffers = [
      #rlx_lir.buffer<id = 0, offset = 0, size = 512, start = 0, end = 1>,
      #rlx_lir.buffer<id = 1, offset = 512, size = 512, start = 1, end = 2>,
      #rlx_lir.buffer<id = 2, offset = 0, size = 512, start = 2, end = 3>]>
    ```
  }];
  let parameters = (ins "int64_t":$arena_size, "int64_t":$alignment,
                    "ArrayAttr":$buffers);
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The buffer with this id, or null.
    BufferAttr lookup(int64_t id) const;
  }];
}

//===----------------------------------------------------------------------===//
// WeightSlotAttr, WeightLayoutAttr
//===----------------------------------------------------------------------===//

def RLXLIR_WeightSlotAttr : RLXLIR_Attr<"WeightSlot", "slot"> {
  let summary = "One named parameter and its bytes in the weight region";
  let description = [{
    Parameter `name` (an `rlx.param` of MIR) occupies bytes
    `[offset, offset + size)` of the weight region.

    ```mlir
    #rlx_lir.slot<name = "w1", offset = 0, size = 802816>
    ```
  }];
  let parameters = (ins StringRefParameter<>:$name, "int64_t":$offset,
                    "int64_t":$size);
}

def RLXLIR_WeightLayoutAttr : RLXLIR_Attr<"WeightLayout", "weights"> {
  let summary = "The module's weight region: one slot per named parameter";
  let description = [{
    The persistent region that holds the parameters of every function of the
    module (the seeds' SharedWeightLayout): a forward and its backward that
    name the same parameter read the same slot. Slots are disjoint, start at
    multiples of `alignment` and end within `size` bytes; names are unique.

    ```mlir
    module attributes {rlx_lir.weights = #rlx_lir.weights<size = 1088,
        alignment = 64, slots = [#rlx_lir.slot<name = "w", offset = 0, size = 1024>,
                                 #rlx_lir.slot<name = "b", offset = 1024, size = 64>]>} {}
    ```
  }];
  let parameters = (ins "int64_t":$size, "int64_t":$alignment,
                    "ArrayAttr":$slots);
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The slot of parameter `name`, or null.
    WeightSlotAttr lookup(::llvm::StringRef name) const;
  }];
}

#endif // RLX_DIALECT_LIR_IR_RLXLIRATTRS_TD
