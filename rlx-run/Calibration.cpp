//===- Calibration.cpp - rlx-run --calibrate ------------------------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "Calibration.h"

#include "RLX/Dialect/MIR/Transforms/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstring>
#include <set>

using namespace mlir;
using namespace mlir::rlx;

bool mlir::rlx::listCalibrationBatches(
    const std::string &dir, unsigned numInputs,
    std::vector<std::vector<std::string>> &batches, std::string &error) {
  namespace fs = llvm::sys::fs;
  fs::file_status status;
  if (std::error_code ec = fs::status(dir, status)) {
    error = "cannot read calibration data '" + dir + "': " + ec.message();
    return false;
  }
  if (!fs::is_directory(status)) {
    error = "calibration data '" + dir + "' is not a directory";
    return false;
  }
  std::vector<std::string> batchDirs;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; it != end && !ec;
       it.increment(ec))
    if (fs::is_directory(it->path()))
      batchDirs.push_back(it->path());
  if (ec) {
    error = "cannot list calibration data '" + dir + "': " + ec.message();
    return false;
  }
  if (batchDirs.empty()) {
    error = "calibration data '" + dir +
            "' holds no batch (one subdirectory per batch, each with "
            "arg0.npy, arg1.npy, ...)";
    return false;
  }
  std::sort(batchDirs.begin(), batchDirs.end());
  auto takes =
      " (the entry function takes " + std::to_string(numInputs) + " arguments)";
  for (const std::string &batch : batchDirs) {
    std::set<unsigned> present;
    for (fs::directory_iterator it(batch, ec), end; it != end && !ec;
         it.increment(ec)) {
      llvm::StringRef name = llvm::sys::path::filename(it->path());
      unsigned index;
      if (name.consume_front("arg") && name.consume_back(".npy") &&
          !name.empty() && llvm::all_of(name, llvm::isDigit) &&
          !name.getAsInteger(10, index))
        present.insert(index);
    }
    if (ec) {
      error = "cannot list calibration batch '" + batch + "': " + ec.message();
      return false;
    }
    if (!present.empty() && *present.rbegin() >= numInputs) {
      error = "calibration batch '" + batch + "' holds arg" +
              std::to_string(*present.rbegin()) + ".npy" + takes;
      return false;
    }
    std::vector<std::string> files;
    for (unsigned i = 0; i < numInputs; ++i) {
      if (!present.count(i)) {
        error = "calibration batch '" + batch + "' lacks arg" +
                std::to_string(i) + ".npy" + takes;
        return false;
      }
      llvm::SmallString<256> path(batch);
      llvm::sys::path::append(path, "arg" + std::to_string(i) + ".npy");
      files.push_back(std::string(path));
    }
    batches.push_back(std::move(files));
  }
  return true;
}

/// The elements of a float array as doubles.
static bool toDoubles(const runtime::NpyArray &a, std::vector<double> &out,
                      std::string &error) {
  int64_t n = a.numElements();
  out.resize(n);
  const uint8_t *p = a.data.data();
  if (a.dtype == "f4") {
    for (int64_t i = 0; i < n; ++i) {
      float f;
      std::memcpy(&f, p + 4 * i, 4);
      out[i] = f;
    }
  } else if (a.dtype == "f8") {
    std::memcpy(out.data(), p, 8 * n);
  } else if (a.dtype == "f2") {
    for (int64_t i = 0; i < n; ++i) {
      uint16_t h;
      std::memcpy(&h, p + 2 * i, 2);
      llvm::APFloat f(llvm::APFloat::IEEEhalf(), llvm::APInt(16, h));
      bool lost;
      f.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven,
                &lost);
      out[i] = f.convertToDouble();
    }
  } else {
    error = "it has dtype '" + a.dtype + "', not a float";
    return false;
  }
  return true;
}

Calibrator::Calibrator(ArrayRef<std::string> names, ArrayRef<int64_t> axes)
    : names(names.begin(), names.end()) {
  for (int64_t axis : axes)
    taps.emplace_back(axis);
}

bool Calibrator::observe(unsigned pass, unsigned batch, unsigned index,
                         const runtime::NpyArray &value, std::string &error) {
  if (!wants(batch, index))
    return true;
  TapStatistics &tap = taps[index];
  std::string why;
  bool ok = toDoubles(value, scratch, why);
  if (ok && pass == 0)
    ok = tap.observeExtremes(scratch, value.shape, why);
  else if (ok)
    tap.observeValues(scratch, value.shape);
  if (!ok)
    error = "quantization tap \"" + names[index] +
            "\" cannot be calibrated: " + why;
  return ok;
}

static TapRange toRange(const ChannelRanges &r) {
  TapRange range;
  range.min.assign(r.min.begin(), r.min.end());
  range.max.assign(r.max.begin(), r.max.end());
  return range;
}

CalibrationRecord Calibrator::record(double q, int64_t batches) const {
  CalibrationRecord record;
  record.batches = batches;
  for (auto [name, tap] : llvm::zip(names, taps)) {
    CalibrationEntry entry;
    if (tap.isPerChannel())
      entry.axis = tap.getAxis();
    entry.minMax = toRange(tap.minMax());
    entry.percentile = toRange(tap.percentile(q));
    entry.mse = toRange(tap.mse());
    record.taps[name] = std::move(entry);
  }
  return record;
}

FailureOr<ExposedTaps>
mlir::rlx::exposeQuantTaps(ModuleOp module, func::FuncOp entry,
                           llvm::function_ref<void(const Twine &)> error) {
  PassManager pm(module.getContext());
  pm.addPass(createExposeQuantTapsPass());
  if (failed(pm.run(module)))
    return failure();
  auto names = entry->getAttrOfType<ArrayAttr>("rlx.quant_taps");
  auto axes = entry->getAttrOfType<DenseI64ArrayAttr>("rlx.quant_tap_axes");
  if (!names || names.empty() || !axes) {
    error("--calibrate: @" + entry.getName() +
          " has no quantization tap (a float operand of rlx.matmul or "
          "rlx.conv outside nested regions, in a public function)");
    return failure();
  }
  ExposedTaps taps;
  for (Attribute name : names)
    taps.names.push_back(cast<StringAttr>(name).str());
  taps.axes.assign(axes.asArrayRef().begin(), axes.asArrayRef().end());
  return taps;
}

LogicalResult
mlir::rlx::runCalibration(CPUProgram &program, MutableArrayRef<HostTensor> args,
                          const ExposedTaps &taps, StringRef dataDir, double q,
                          StringRef recordPath,
                          llvm::function_ref<void(const Twine &)> error) {
  unsigned numOrdinary = args.size() - program.getParamNames().size();
  std::vector<std::vector<std::string>> batches;
  std::string message;
  if (!listCalibrationBatches(dataDir.str(), numOrdinary, batches, message)) {
    error(message);
    return failure();
  }
  ArrayRef<RankedTensorType> argTypes = program.getArgumentTypes();
  ArrayRef<RankedTensorType> resultTypes = program.getResultTypes();
  unsigned firstTap = resultTypes.size() - taps.names.size();
  Calibrator calibrator(taps.names, taps.axes);
  std::vector<HostTensor> values(taps.names.size());
  unsigned batchIndex = 0;
  auto intoValues = [&](unsigned i, ArrayRef<int64_t> shape) -> void * {
    if (i < firstTap || !calibrator.wants(batchIndex, i - firstTap))
      return nullptr;
    return values[i - firstTap].reshape(resultTypes[i].getElementType(), shape);
  };
  for (unsigned pass = 0; pass < 2; ++pass) {
    for (auto [index, batch] : llvm::enumerate(batches)) {
      batchIndex = index;
      for (unsigned i = 0; i < numOrdinary; ++i) {
        runtime::NpyArray array;
        if (!runtime::readNpy(batch[i], array, message)) {
          error(message);
          return failure();
        }
        if (failed(fromNpy(array, argTypes[i], "argument #" + Twine(i),
                           batch[i], args[i], error)))
          return failure();
      }
      if (llvm::Error err = program.run(viewTensors(args), intoValues)) {
        error(toString(std::move(err)));
        return failure();
      }
      for (unsigned k = 0; k < values.size(); ++k) {
        if (!calibrator.observe(pass, index, k, toNpy(values[k]), message)) {
          error(message + " (batch of '" + batch.front() + "')");
          return failure();
        }
      }
    }
  }
  if (!writeCalibrationRecord(calibrator.record(q, batches.size()), recordPath,
                              message)) {
    error(message);
    return failure();
  }
  llvm::outs() << "calibrated " << taps.names.size() << " taps on "
               << batches.size() << " batches into '" << recordPath << "'\n";
  return success();
}
