//===- QuantTaps.cpp - quantizable operands and calibration records -------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "RLX/Dialect/MIR/Transforms/QuantTaps.h"
#include "RLX/Dialect/MIR/IR/RLXOps.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::rlx;

bool mlir::rlx::isWeight(Value v) {
  while (Operation *def = v.getDefiningOp()) {
    if (isa<ParamOp, ConstantOp>(def))
      return true;
    if (!isa<ReshapeOp, TransposeOp, CastOp, ExpandOp>(def))
      return false;
    v = def->getOperand(0);
  }
  return false;
}

SmallVector<QuantTap> mlir::rlx::collectQuantTaps(func::FuncOp fn) {
  SmallVector<QuantTap> taps;
  llvm::StringMap<unsigned> counts;
  auto add = [&](Operation *op, StringRef kind, unsigned index,
                 StringRef operandName, int64_t channelAxis) {
    Value v = op->getOperand(index);
    auto type = dyn_cast<RankedTensorType>(v.getType());
    if (!type || !isa<FloatType>(type.getElementType()))
      return;
    QuantTap tap;
    tap.name =
        (fn.getName() + "/" + kind + Twine(counts[kind]) + "/" + operandName)
            .str();
    tap.op = op;
    tap.operandIndex = index;
    if (isWeight(v))
      tap.axis = channelAxis;
    taps.push_back(std::move(tap));
  };
  fn.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (auto mm = dyn_cast<MatmulOp>(op)) {
      int64_t rankA = mm.getLhs().getType().getRank();
      int64_t rankB = mm.getRhs().getType().getRank();
      // A weight's channel is the output dim it feeds: M of the lhs, N of
      // the rhs.
      add(op, "matmul", 0, "lhs", mm.getTransposeA() ? rankA - 1 : rankA - 2);
      add(op, "matmul", 1, "rhs", mm.getTransposeB() ? rankB - 2 : rankB - 1);
      ++counts["matmul"];
    } else if (isa<ConvOp>(op)) {
      add(op, "conv", 0, "input", /*channelAxis=*/1);
      add(op, "conv", 1, "weight", /*channelAxis=*/0);
      ++counts["conv"];
    }
  });
  return taps;
}

//===----------------------------------------------------------------------===//
// The JSON record
//===----------------------------------------------------------------------===//

static bool readNumbers(const llvm::json::Object &obj, StringRef key,
                        SmallVectorImpl<double> &out, std::string &error,
                        StringRef where) {
  const llvm::json::Array *array = obj.getArray(key);
  if (!array) {
    error = (where + ": \"" + key + "\" must be an array of numbers").str();
    return false;
  }
  for (const llvm::json::Value &v : *array) {
    std::optional<double> d = v.getAsNumber();
    if (!d) {
      error = (where + ": \"" + key + "\" holds a non-number").str();
      return false;
    }
    out.push_back(*d);
  }
  return true;
}

static bool readRange(const llvm::json::Object &obj, TapRange &range,
                      std::string &error, StringRef where) {
  if (!readNumbers(obj, "min", range.min, error, where) ||
      !readNumbers(obj, "max", range.max, error, where))
    return false;
  if (range.min.empty() || range.min.size() != range.max.size()) {
    error = (where + ": \"min\" and \"max\" must be non-empty and of one "
                     "length")
                .str();
    return false;
  }
  for (size_t i = 0; i < range.min.size(); ++i) {
    if (!(range.min[i] <= range.max[i])) {
      error = llvm::formatv("{0}: min {1:e} exceeds max {2:e} at channel {3}",
                            where, range.min[i], range.max[i], i)
                  .str();
      return false;
    }
  }
  return true;
}

FailureOr<CalibrationRecord>
mlir::rlx::readCalibrationRecord(StringRef path, std::string &error) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
      llvm::MemoryBuffer::getFile(path);
  if (!file) {
    error = ("cannot read calibration record '" + path +
             "': " + file.getError().message())
                .str();
    return failure();
  }
  llvm::Expected<llvm::json::Value> json =
      llvm::json::parse((*file)->getBuffer());
  if (!json) {
    error = ("calibration record '" + path +
             "' is not JSON: " + llvm::toString(json.takeError()))
                .str();
    return failure();
  }
  const llvm::json::Object *root = json->getAsObject();
  if (!root || root->getString("format") != "rlx-calibration") {
    error = ("'" + path +
             "' is not an rlx calibration record (no "
             "\"format\": \"rlx-calibration\")")
                .str();
    return failure();
  }
  if (root->getInteger("version") != 1) {
    error =
        ("calibration record '" + path + "' has a version other than 1").str();
    return failure();
  }
  CalibrationRecord record;
  record.batches = root->getInteger("batches").value_or(0);
  const llvm::json::Object *taps = root->getObject("taps");
  if (!taps) {
    error = ("calibration record '" + path + "' has no \"taps\" object").str();
    return failure();
  }
  for (const auto &[key, value] : *taps) {
    std::string where = ("tap \"" + key.str() + "\" of '" + path + "'").str();
    const llvm::json::Object *obj = value.getAsObject();
    if (!obj) {
      error = where + ": not an object";
      return failure();
    }
    CalibrationEntry entry;
    if (const llvm::json::Value *axis = obj->get("axis");
        axis && axis->kind() != llvm::json::Value::Null) {
      std::optional<int64_t> a = axis->getAsInteger();
      if (!a || *a < 0) {
        error = where + ": \"axis\" must be null or a non-negative integer";
        return failure();
      }
      entry.axis = *a;
    }
    if (!readRange(*obj, entry.minMax, error, where))
      return failure();
    if (!entry.axis && entry.minMax.min.size() != 1) {
      error = where + ": a per-tensor tap (axis null) has one min and max";
      return failure();
    }
    for (auto [method, slot] : {std::pair<StringRef, std::optional<TapRange> *>{
                                    "percentile", &entry.percentile},
                                {"mse", &entry.mse}}) {
      const llvm::json::Object *m = obj->getObject(method);
      if (!m)
        continue;
      TapRange range;
      if (!readRange(*m, range, error, where + " (" + method.str() + ")"))
        return failure();
      if (range.min.size() != entry.minMax.min.size()) {
        error = where + ": \"" + method.str() +
                "\" has another channel count than \"min\"";
        return failure();
      }
      *slot = std::move(range);
    }
    record.taps[key] = std::move(entry);
  }
  return record;
}

static llvm::json::Array toJson(ArrayRef<double> values) {
  llvm::json::Array array;
  for (double v : values)
    array.push_back(v);
  return array;
}

static llvm::json::Object toJson(const TapRange &range) {
  return llvm::json::Object{{"min", toJson(range.min)},
                            {"max", toJson(range.max)}};
}

bool mlir::rlx::writeCalibrationRecord(const CalibrationRecord &record,
                                       StringRef path, std::string &error) {
  llvm::json::Object taps;
  for (const auto &entry : record.taps) {
    const CalibrationEntry &e = entry.getValue();
    llvm::json::Object obj = toJson(e.minMax);
    obj["axis"] =
        e.axis ? llvm::json::Value(*e.axis) : llvm::json::Value(nullptr);
    if (e.percentile)
      obj["percentile"] = toJson(*e.percentile);
    if (e.mse)
      obj["mse"] = toJson(*e.mse);
    taps[entry.getKey()] = std::move(obj);
  }
  llvm::json::Object root{{"format", "rlx-calibration"},
                          {"version", 1},
                          {"batches", record.batches},
                          {"taps", std::move(taps)}};
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec, llvm::sys::fs::OF_Text);
  if (ec) {
    error = ("cannot write calibration record '" + path + "': " + ec.message())
                .str();
    return false;
  }
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(root))) << "\n";
  return true;
}
