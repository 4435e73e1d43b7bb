//===- AutoMixedPrecision.cpp - run op categories in a policy's types -----===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The rewrite is one forward walk: each op learns the (possibly changed)
// types of its operands, casts them to what its category wants and, when
// it computes in a new type, changes its result types in place. Values keep
// their original types at every op that is not in a category (calls,
// rlx.grad, control flow, returns), so function signatures never change.
//
//===----------------------------------------------------------------------===//

#include "RLX/Dialect/MIR/IR/RLXOps.h"
#include "RLX/Dialect/MIR/Transforms/Passes.h"
#include "RLX/Dialect/MIR/Transforms/QuantTaps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cmath>

namespace mlir {
namespace rlx {
#define GEN_PASS_DEF_AUTOMIXEDPRECISIONPASS
#include "RLX/Dialect/MIR/Transforms/Passes.h.inc"
} // namespace rlx
} // namespace mlir

using namespace mlir;
using namespace mlir::rlx;

namespace {

enum class Category {
  Matmul,
  Conv,
  Attention,
  Softmax,
  Norm,
  Reduction,
  Loss,
  Elementwise,
  None
};

constexpr std::pair<StringLiteral, Category> kCategoryNames[] = {
    {"matmul", Category::Matmul},       {"conv", Category::Conv},
    {"attention", Category::Attention}, {"softmax", Category::Softmax},
    {"norm", Category::Norm},           {"reduction", Category::Reduction},
    {"loss", Category::Loss},           {"elementwise", Category::Elementwise},
};

/// The precision of each category: a float type, or null for `follow`.
/// `fp8Weights` (matmul=fp8) quantizes matmuls' constant weights to e4m3;
/// the category's type is then bf16, for the rest of its ops.
struct Policy {
  DenseMap<unsigned, Type> types;
  bool fp8Weights = false;

  Type get(Category c) const { return types.lookup(unsigned(c)); }
};

} // namespace

static Category categoryOf(Operation *op) {
  StringRef name = op->getName().getStringRef();
  Category c =
      llvm::StringSwitch<Category>(name)
          .Cases({"rlx.matmul", "rlx.dot_general", "rlx.dequant_matmul",
                  "rlx.fused_matmul_bias_act", "rlx.fused_swiglu"},
                 Category::Matmul)
          .Cases({"rlx.conv", "rlx.conv_transpose2d"}, Category::Conv)
          .Cases({"rlx.attention", "rlx.fused_attention_block"},
                 Category::Attention)
          .Cases({"rlx.softmax", "rlx.log_softmax"}, Category::Softmax)
          .Cases({"rlx.layer_norm", "rlx.rms_norm", "rlx.group_norm",
                  "rlx.batch_norm_inference", "rlx.fused_residual_layer_norm",
                  "rlx.fused_residual_rms_norm"},
                 Category::Norm)
          .Cases({"rlx.reduce", "rlx.cumsum"}, Category::Reduction)
          .Case("rlx.softmax_cross_entropy", Category::Loss)
          .Cases({"rlx.reshape", "rlx.transpose", "rlx.narrow", "rlx.concat",
                  "rlx.expand", "rlx.gather", "rlx.reverse",
                  "rlx.elementwise_region"},
                 Category::Elementwise)
          .Default(Category::None);
  if (c == Category::None && op->getNumRegions() == 0 &&
      (op->hasTrait<OpTrait::Elementwise>() || isBroadcastingElementwise(op)) &&
      !isa<CastOp>(op))
    return Category::Elementwise;
  return c;
}

static FailureOr<Type> parseType(MLIRContext *ctx, StringRef name,
                                 bool allowFollow) {
  Builder b(ctx);
  Type t = llvm::StringSwitch<Type>(name)
               .Case("f32", b.getF32Type())
               .Case("f16", b.getF16Type())
               .Case("bf16", b.getBF16Type())
               .Case("f64", b.getF64Type())
               .Default(Type());
  if (t || (allowFollow && name == "follow"))
    return t;
  return failure();
}

/// Sets `category`'s type in `policy` from `value`, or explains why not.
static LogicalResult setCategory(MLIRContext *ctx, Policy &policy,
                                 StringRef category, StringRef value,
                                 std::string &error) {
  const auto *it = llvm::find_if(kCategoryNames, [&](const auto &entry) {
    return entry.first == category;
  });
  if (it == std::end(kCategoryNames)) {
    error = ("unknown op category '" + category +
             "' (expected matmul, conv, attention, softmax, norm, reduction, "
             "loss or elementwise)")
                .str();
    return failure();
  }
  bool isElementwise = it->second == Category::Elementwise;
  if (value == "fp8") {
    if (it->second != Category::Matmul) {
      error = ("category '" + category +
               "' has precision 'fp8', which only matmul takes")
                  .str();
      return failure();
    }
    policy.fp8Weights = true;
    policy.types[unsigned(it->second)] = BFloat16Type::get(ctx);
    return success();
  }
  policy.fp8Weights &= it->second != Category::Matmul;
  FailureOr<Type> type = parseType(ctx, value, isElementwise);
  if (failed(type)) {
    error = ("category '" + category + "' has precision '" + value +
             "'; expected f32, f16, bf16 or f64" +
             (isElementwise                    ? " or follow"
              : it->second == Category::Matmul ? " or fp8"
                                               : ""))
                .str();
    return failure();
  }
  policy.types[unsigned(it->second)] = *type;
  return success();
}

static Policy defaultPolicy(MLIRContext *ctx) {
  Builder b(ctx);
  Policy p;
  for (Category c : {Category::Matmul, Category::Conv, Category::Attention})
    p.types[unsigned(c)] = b.getBF16Type();
  for (Category c :
       {Category::Softmax, Category::Norm, Category::Reduction, Category::Loss})
    p.types[unsigned(c)] = b.getF32Type();
  return p;
}

namespace {

/// The forward walk over one function.
class Rewriter {
public:
  Rewriter(const Policy &policy) : policy(policy) {}

  void run(func::FuncOp fn) {
    fn.walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (isa<CastOp>(op) && created.contains(op))
        return;
      visit(op);
    });
    for (Operation *op : replaced)
      op->erase();
  }

private:
  /// `v` as a tensor of element type `element`: `v` itself, or one cast
  /// made right after its definition and shared by every user.
  Value castTo(Value v, Type element, Location loc) {
    auto type = cast<RankedTensorType>(v.getType());
    if (type.getElementType() == element)
      return v;
    auto key = std::make_pair(v, element);
    if (Value cached = casts.lookup(key))
      return cached;
    OpBuilder b(v.getContext());
    if (Operation *def = v.getDefiningOp())
      b.setInsertionPointAfter(def);
    else
      b.setInsertionPointToStart(cast<BlockArgument>(v).getOwner());
    auto castOp = CastOp::create(b, loc, type.clone(element), v);
    created.insert(castOp);
    casts[key] = castOp;
    return castOp;
  }

  static bool isFloatTensor(Value v) {
    auto t = dyn_cast<RankedTensorType>(v.getType());
    return t && isa<FloatType>(t.getElementType());
  }

  /// Casts every changed float operand of `op` back to its original type.
  void restore(Operation *op) {
    for (OpOperand &use : op->getOpOperands()) {
      auto it = original.find(use.get());
      if (it != original.end())
        use.set(castTo(use.get(), it->second, op->getLoc()));
    }
  }

  /// Runs `op` in `element`: its float operands cast to it, and each float
  /// result that had an operand's original element type retyped.
  void runIn(Operation *op, Type element, ArrayRef<unsigned> operands) {
    SmallVector<Type> before;
    for (unsigned i : operands) {
      Value v = op->getOperand(i);
      if (!isFloatTensor(v))
        continue;
      auto it = original.find(v);
      before.push_back(it != original.end()
                           ? it->second
                           : getElementTypeOrSelf(v.getType()));
      op->setOperand(i, castTo(v, element, op->getLoc()));
    }
    for (Value r : op->getResults()) {
      if (!isFloatTensor(r))
        continue;
      Type old = getElementTypeOrSelf(r.getType());
      if (old == element || !llvm::is_contained(before, old))
        continue;
      original[r] = old;
      r.setType(cast<RankedTensorType>(r.getType()).clone(element));
    }
  }

  /// `x W` with a constant 2-D weight as `rlx.dequant_matmul` of the
  /// weight quantized to e4m3 per output channel (scale = amax / 448), x
  /// in bf16; fails (the matmul stays for the bf16 path) for other
  /// matmuls and for weights with a NaN or infinity.
  LogicalResult quantizeWeightToFp8(MatmulOp mm) {
    DenseElementsAttr weight;
    auto rhsType = cast<RankedTensorType>(mm.getRhs().getType());
    if (mm.getTransposeA() || rhsType.getRank() != 2 ||
        !isa<FloatType>(rhsType.getElementType()) ||
        !matchPattern(mm.getRhs(), m_Constant(&weight)))
      return failure();
    bool transposed = mm.getTransposeB();
    int64_t n = rhsType.getDimSize(transposed ? 0 : 1);
    int64_t k = rhsType.getDimSize(transposed ? 1 : 0);
    SmallVector<double> w;
    for (APFloat v : weight.getValues<APFloat>())
      w.push_back(v.convertToDouble());
    auto at = [&](int64_t row, int64_t col) {
      return w[transposed ? row * k + col : col * n + row];
    };
    SmallVector<float> scales(n);
    SmallVector<APInt> codes;
    codes.reserve(n * k);
    for (int64_t row = 0; row < n; ++row) {
      double amax = 0;
      for (int64_t col = 0; col < k; ++col) {
        if (!std::isfinite(at(row, col)))
          return failure();
        amax = std::max(amax, std::abs(at(row, col)));
      }
      // e4m3's largest finite value is 448.
      scales[row] = amax > 0 ? float(amax / 448.0) : 1.0f;
      for (int64_t col = 0; col < k; ++col) {
        APFloat q(float(at(row, col) / scales[row]));
        bool lost;
        q.convert(APFloat::Float8E4M3FN(), APFloat::rmNearestTiesToEven, &lost);
        codes.push_back(q.bitcastToAPInt());
      }
    }
    OpBuilder b(mm);
    MLIRContext *ctx = mm.getContext();
    Location loc = mm.getLoc();
    auto codeType = RankedTensorType::get(
        {n, k}, IntegerType::get(ctx, 8, IntegerType::Unsigned));
    Value codeConst =
        ConstantOp::create(b, loc, DenseElementsAttr::get(codeType, codes));
    Value scaleConst = ConstantOp::create(
        b, loc,
        DenseElementsAttr::get(RankedTensorType::get({n}, b.getF32Type()),
                               ArrayRef<float>(scales)));
    Type bf16 = b.getBF16Type();
    Value x = castTo(mm.getLhs(), bf16, loc);
    auto dequant = DequantMatmulOp::create(
        b, loc, x, codeConst, ValueRange{scaleConst},
        QuantSchemeAttr::get(ctx, QuantKind::Fp8E4M3, 0));
    Type old = getElementTypeOrSelf(mm.getResult().getType());
    if (old != bf16)
      original[dequant.getResult()] = old;
    mm.getResult().replaceAllUsesWith(dequant.getResult());
    replaced.push_back(mm);
    return success();
  }

  void visit(Operation *op) {
    Category c = categoryOf(op);
    if (c == Category::None) {
      restore(op);
      return;
    }
    if (auto mm = dyn_cast<MatmulOp>(op);
        mm && policy.fp8Weights && succeeded(quantizeWeightToFp8(mm)))
      return;
    SmallVector<unsigned> operands =
        llvm::to_vector(llvm::seq<unsigned>(0, op->getNumOperands()));
    // dequant_matmul's scales stay in their own type; only x computes.
    if (isa<DequantMatmulOp>(op))
      operands = {0};
    Type element = policy.get(c);
    if (!element) {
      // follow: the common type of the float operands, or the widest.
      // Weights (a bias, a norm's gain) follow the activations they meet,
      // as torch.autocast casts a linear layer's bias with its input.
      bool allWeights = llvm::all_of(operands, [&](unsigned i) {
        return !isFloatTensor(op->getOperand(i)) || isWeight(op->getOperand(i));
      });
      for (unsigned i : operands) {
        Value v = op->getOperand(i);
        if (!isFloatTensor(v) || (!allWeights && isWeight(v)))
          continue;
        Type t = getElementTypeOrSelf(v.getType());
        if (!element ||
            cast<FloatType>(t).getWidth() > cast<FloatType>(element).getWidth())
          element = t;
      }
      if (!element)
        return;
    }
    // Operands that do not compute (dequant_matmul's scales) keep their
    // original types.
    for (OpOperand &use : op->getOpOperands()) {
      auto it = original.find(use.get());
      if (it != original.end() &&
          !llvm::is_contained(operands, use.getOperandNumber()))
        use.set(castTo(use.get(), it->second, op->getLoc()));
    }
    runIn(op, element, operands);
  }

  const Policy &policy;
  /// The original element type of each value whose type changed.
  DenseMap<Value, Type> original;
  DenseMap<std::pair<Value, Type>, Value> casts;
  DenseSet<Operation *> created;
  /// Matmuls replaced by fp8 dequant_matmuls, erased after the walk.
  SmallVector<Operation *> replaced;
};

struct AutoMixedPrecisionPass
    : rlx::impl::AutoMixedPrecisionPassBase<AutoMixedPrecisionPass> {
  using Base::Base;

  LogicalResult readPolicy(Policy &p) {
    MLIRContext *ctx = &getContext();
    std::string error;
    auto fail = [&] {
      emitError(UnknownLoc::get(&getContext()), "rlx-auto-mixed-precision: ")
          << error;
      return failure();
    };
    if (!policyFile.empty()) {
      auto file = llvm::MemoryBuffer::getFile(policyFile);
      if (!file) {
        error = "cannot read policy file '" + policyFile +
                "': " + file.getError().message();
        return fail();
      }
      llvm::Expected<llvm::json::Value> json =
          llvm::json::parse((*file)->getBuffer());
      if (!json) {
        error = "policy file '" + policyFile +
                "' is not JSON: " + llvm::toString(json.takeError());
        return fail();
      }
      const llvm::json::Object *obj = json->getAsObject();
      if (!obj) {
        error = "policy file '" + policyFile +
                "' must hold an object of category: precision";
        return fail();
      }
      for (const auto &[key, value] : *obj) {
        std::optional<StringRef> s = value.getAsString();
        if (!s) {
          error = "policy file '" + policyFile + "': the precision of '" +
                  key.str() + "' must be a string";
          return fail();
        }
        if (failed(setCategory(ctx, p, key, *s, error)))
          return fail();
      }
    }
    SmallVector<StringRef> pairs;
    StringRef(policy).split(pairs, ',', -1, /*KeepEmpty=*/false);
    for (StringRef pair : pairs) {
      auto [key, value] = pair.split('=');
      if (value.empty()) {
        error = ("policy entry '" + pair.trim() +
                 "' is not of the form category=precision")
                    .str();
        return fail();
      }
      if (failed(setCategory(ctx, p, key.trim(), value.trim(), error)))
        return fail();
    }
    return success();
  }

  /// Makes `grad` differentiate `lossScale` times its callee's loss and
  /// divides the loss and gradients it returns by the same factor.
  void scaleLoss(GradOp grad, SymbolTable &symbols) {
    auto callee = symbols.lookup<func::FuncOp>(grad.getCallee());
    if (!callee)
      return;
    std::string name = (callee.getName() + "_loss_scaled").str();
    auto scaled = symbols.lookup<func::FuncOp>(name);
    if (!scaled) {
      scaled = callee.clone();
      scaled.setName(name);
      scaled.setPrivate();
      symbols.insert(scaled);
      auto ret = cast<func::ReturnOp>(scaled.getBody().back().getTerminator());
      OpBuilder b(ret);
      Value loss = ret.getOperand(0);
      auto type = cast<RankedTensorType>(loss.getType());
      Value factor = ConstantOp::create(
          b, ret.getLoc(),
          DenseElementsAttr::get(
              type, b.getFloatAttr(type.getElementType(), lossScale)));
      ret.setOperand(0, MulOp::create(b, ret.getLoc(), loss, factor));
    }
    grad.setCallee(scaled.getName());
    OpBuilder b(grad->getContext());
    b.setInsertionPointAfter(grad);
    for (Value r : grad.getResults()) {
      auto type = cast<RankedTensorType>(r.getType());
      if (!isa<FloatType>(type.getElementType()))
        continue;
      Value inverse = ConstantOp::create(
          b, grad.getLoc(),
          DenseElementsAttr::get(
              RankedTensorType::get({}, type.getElementType()),
              b.getFloatAttr(type.getElementType(), 1.0 / lossScale)));
      Value unscaled = MulOp::create(b, grad.getLoc(), r, inverse);
      r.replaceAllUsesExcept(unscaled, unscaled.getDefiningOp());
    }
  }

  void runOnOperation() override {
    Policy p = defaultPolicy(&getContext());
    if (failed(readPolicy(p)))
      return signalPassFailure();
    if (!(lossScale > 0.0)) {
      emitError(UnknownLoc::get(&getContext()),
                "rlx-auto-mixed-precision: loss-scale must be "
                "positive, got ")
          << static_cast<double>(lossScale);
      return signalPassFailure();
    }
    ModuleOp module = getOperation();
    if (lossScale != 1.0) {
      SymbolTable symbols(module);
      SmallVector<GradOp> grads;
      module.walk([&](GradOp g) { grads.push_back(g); });
      for (GradOp g : grads)
        scaleLoss(g, symbols);
    }
    for (auto fn : module.getOps<func::FuncOp>()) {
      if (fn.isExternal())
        continue;
      Rewriter(p).run(fn);
    }
    // Fold cast pairs that widened exactly and drop the casts left unused.
    RewritePatternSet patterns(&getContext());
    CastOp::getCanonicalizationPatterns(patterns, &getContext());
    if (failed(applyPatternsGreedily(module, std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
