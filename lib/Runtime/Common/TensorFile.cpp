//===- TensorFile.cpp - safetensors and GGUF weight files -----------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// safetensors: an 8-byte little-endian header length, a JSON header mapping
// each name to {dtype, shape, data_offsets: [begin, end)} (offsets into the
// data after the header; "__metadata__" is skipped), then the data.
//
// GGUF (llama.cpp's gguf.md): "GGUF", u32 version, u64 tensor count, u64
// metadata count; the metadata key/values (u64-length strings, a u32 value
// type, arrays as u32 element type + u64 count), read only to skip them and
// to find general.alignment (default 32); the tensor infos (name, u32 n_dims,
// u64 ne[n_dims] with ne[0] the innermost dim, u32 ggml type, u64 offset);
// then, at the next multiple of the alignment, the data.
//
//===----------------------------------------------------------------------===//

#include "RLX/Runtime/Common/TensorFile.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstring>
#include <limits>

using namespace mlir::rlx::runtime;

namespace {

/// A safetensors dtype, the .npy dtype it reads as and its element bytes.
struct SafetensorsType {
  const char *name, *dtype;
  int64_t bytes;
};

const SafetensorsType kSafetensorsTypes[] = {
    {"F64", "f8", 8},     {"F32", "f4", 4},     {"F16", "f2", 2},
    {"BF16", "f4", 2},    {"I64", "i8", 8},     {"I32", "i4", 4},
    {"I16", "i2", 2},     {"I8", "i1", 1},      {"U64", "u8", 8},
    {"U32", "u4", 4},     {"U16", "u2", 2},     {"U8", "u1", 1},
    {"BOOL", "b1", 1},    {"F8_E4M3", "u1", 1}, {"F8_E5M2", "u1", 1}};

/// A ggml type: its id, name, .npy dtype, weights per block and bytes per
/// block. The quantized types' layouts are llama.cpp's block_* structs, as
/// #rlx.quant decodes them (RLXAttrs.cpp holds the same sizes per scheme;
/// binding a tensor checks that both agree).
struct GgmlType {
  uint32_t id;
  const char *name, *dtype, *scheme;
  int64_t block, bytes;
};

const GgmlType kGgmlTypes[] = {
    {0, "F32", "f4", "", 1, 4},
    {1, "F16", "f2", "", 1, 2},
    {2, "Q4_0", "u1", "gguf_q4_0", 32, 18},
    {8, "Q8_0", "u1", "gguf_q8_0", 32, 34},
    {10, "Q2_K", "u1", "gguf_q2_k", 256, 84},
    {11, "Q3_K", "u1", "gguf_q3_k", 256, 110},
    {12, "Q4_K", "u1", "gguf_q4_k", 256, 144},
    {13, "Q5_K", "u1", "gguf_q5_k", 256, 176},
    {14, "Q6_K", "u1", "gguf_q6_k", 256, 210},
    {15, "Q8_K", "u1", "gguf_q8_k", 256, 292},
    {24, "I8", "i1", "", 1, 1},
    {25, "I16", "i2", "", 1, 2},
    {26, "I32", "i4", "", 1, 4},
    {27, "I64", "i8", "", 1, 8},
    {28, "F64", "f8", "", 1, 8},
    {30, "BF16", "f4", "", 1, 2}};

/// The product of `dims`, or -1 on overflow of int64.
int64_t product(const std::vector<int64_t> &dims) {
  int64_t n = 1;
  for (int64_t d : dims) {
    if (d < 0 || (d && n > std::numeric_limits<int64_t>::max() / d))
      return -1;
    n *= d;
  }
  return n;
}

/// Reads little-endian values from [pos, end), failing (once) past end.
class Reader {
public:
  Reader(const char *begin, const char *end) : pos(begin), end(end) {}

  bool fail(const std::string &what) {
    if (error.empty())
      error = "truncated: " + what + " ends past the end of the file";
    return false;
  }

  template <typename T> bool get(T &value, const std::string &what) {
    if (static_cast<size_t>(end - pos) < sizeof(T))
      return fail(what);
    std::memcpy(&value, pos, sizeof(T));
    pos += sizeof(T);
    return true;
  }

  bool skip(uint64_t bytes, const std::string &what) {
    if (static_cast<uint64_t>(end - pos) < bytes)
      return fail(what);
    pos += bytes;
    return true;
  }

  bool string(std::string &s, const std::string &what) {
    uint64_t n;
    if (!get(n, what + " length"))
      return false;
    if (static_cast<uint64_t>(end - pos) < n)
      return fail(what);
    s.assign(pos, n);
    pos += n;
    return true;
  }

  const char *pos, *end;
  std::string error;
};

/// Bytes of a GGUF metadata scalar of `type`, 0 for strings and arrays, -1
/// for an unknown type.
int64_t ggufScalarBytes(uint32_t type) {
  switch (type) {
  case 0: // u8
  case 1: // i8
  case 7: // bool
    return 1;
  case 2: // u16
  case 3: // i16
    return 2;
  case 4: // u32
  case 5: // i32
  case 6: // f32
    return 4;
  case 10: // u64
  case 11: // i64
  case 12: // f64
    return 8;
  case 8: // string
  case 9: // array
    return 0;
  default:
    return -1;
  }
}

/// Skips a metadata value of `type`; an integer scalar is stored in
/// `integer` (for general.alignment).
bool skipGgufValue(Reader &in, uint32_t type, const std::string &what,
                   uint64_t *integer, bool inArray = false) {
  int64_t bytes = ggufScalarBytes(type);
  if (bytes < 0) {
    in.error = what + " has unknown value type " + std::to_string(type);
    return false;
  }
  if (bytes > 0) {
    if (integer && type != 6 && type != 12) {
      uint64_t v = 0;
      if (static_cast<int64_t>(in.end - in.pos) >= bytes)
        std::memcpy(&v, in.pos, bytes);
      *integer = v;
    }
    return in.skip(bytes, what);
  }
  if (type == 8) {
    uint64_t n;
    return in.get(n, what + " length") && in.skip(n, what);
  }
  if (inArray) {
    in.error = what + " is an array of arrays";
    return false;
  }
  uint32_t elementType;
  uint64_t count;
  if (!in.get(elementType, what + " element type") ||
      !in.get(count, what + " count"))
    return false;
  int64_t elementBytes = ggufScalarBytes(elementType);
  if (elementBytes > 0) {
    if (count > static_cast<uint64_t>(in.end - in.pos) / elementBytes)
      return in.fail(what);
    return in.skip(count * elementBytes, what);
  }
  for (uint64_t i = 0; i < count; ++i)
    if (!skipGgufValue(in, elementType, what, nullptr, /*inArray=*/true))
      return false;
  return true;
}

} // namespace

TensorFile::~TensorFile() = default;

std::unique_ptr<TensorFile> TensorFile::open(const std::string &path,
                                             std::string &error) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer) {
    error = "cannot read '" + path + "': " + buffer.getError().message();
    return nullptr;
  }
  return open(std::move(*buffer), path, error);
}

std::unique_ptr<TensorFile>
TensorFile::open(std::unique_ptr<llvm::MemoryBuffer> buffer,
                 const std::string &path, std::string &error) {
  std::unique_ptr<TensorFile> file(new TensorFile());
  file->path = path;
  file->buffer = std::move(buffer);
  llvm::StringRef bytes = file->buffer->getBuffer();
  file->gguf =
      bytes.starts_with("GGUF") || llvm::StringRef(path).ends_with(".gguf");
  bool ok = file->gguf ? file->parseGguf(error) : file->parseSafetensors(error);
  if (!ok) {
    error = "'" + path + "' (" + file->getFormat() + "): " + error;
    return nullptr;
  }
  return file;
}

bool TensorFile::parseSafetensors(std::string &error) {
  llvm::StringRef bytes = buffer->getBuffer();
  uint64_t headerSize;
  if (bytes.size() < 8) {
    error = "truncated: no 8-byte header length";
    return false;
  }
  std::memcpy(&headerSize, bytes.data(), 8);
  if (headerSize > bytes.size() - 8) {
    error = "truncated: the header length " + std::to_string(headerSize) +
            " exceeds the " + std::to_string(bytes.size() - 8) +
            " bytes after it";
    return false;
  }
  llvm::Expected<llvm::json::Value> header =
      llvm::json::parse(bytes.substr(8, headerSize));
  if (!header) {
    error = "bad JSON header: " + llvm::toString(header.takeError());
    return false;
  }
  const llvm::json::Object *tensors = header->getAsObject();
  if (!tensors) {
    error = "the JSON header is not an object";
    return false;
  }
  uint64_t dataStart = 8 + headerSize, dataSize = bytes.size() - dataStart;
  for (const auto &[key, value] : *tensors) {
    if (key == "__metadata__")
      continue;
    std::string name = key.str(), what = "tensor \"" + name + "\"";
    const llvm::json::Object *info = value.getAsObject();
    const llvm::json::Array *shape = info ? info->getArray("shape") : nullptr;
    const llvm::json::Array *offsets =
        info ? info->getArray("data_offsets") : nullptr;
    std::optional<llvm::StringRef> dtype =
        info ? info->getString("dtype") : std::nullopt;
    if (!shape || !offsets || !dtype || offsets->size() != 2) {
      error = what + " needs \"dtype\", \"shape\" and two \"data_offsets\"";
      return false;
    }
    TensorEntry entry;
    entry.name = name;
    entry.fileType = dtype->str();
    int64_t elementBytes = 0;
    for (const SafetensorsType &t : kSafetensorsTypes)
      if (*dtype == t.name) {
        entry.dtype = t.dtype;
        elementBytes = t.bytes;
      }
    for (const llvm::json::Value &d : *shape) {
      std::optional<int64_t> dim = d.getAsInteger();
      if (!dim || *dim < 0) {
        error = what + " has a shape entry that is not a size";
        return false;
      }
      entry.shape.push_back(*dim);
    }
    entry.arrayShape = entry.shape;
    std::optional<int64_t> begin = (*offsets)[0].getAsInteger(),
                           end = (*offsets)[1].getAsInteger();
    if (!begin || !end || *begin < 0 || *end < *begin ||
        static_cast<uint64_t>(*end) > dataSize) {
      error = "truncated: " + what + "'s data_offsets do not lie within the " +
              std::to_string(dataSize) + " data bytes";
      return false;
    }
    int64_t count = product(entry.shape);
    if (elementBytes &&
        (count < 0 || count > (*end - *begin) / elementBytes ||
         count * elementBytes != *end - *begin)) {
      error = what + " of dtype " + entry.fileType + " and " +
              std::to_string(count) + " elements needs " +
              std::to_string(count * elementBytes) + " bytes, but its " +
              "data_offsets span " + std::to_string(*end - *begin);
      return false;
    }
    entry.offset = dataStart + *begin;
    entry.size = *end - *begin;
    entries.emplace(name, std::move(entry));
  }
  return true;
}

bool TensorFile::parseGguf(std::string &error) {
  llvm::StringRef bytes = buffer->getBuffer();
  if (!bytes.starts_with("GGUF")) {
    error = "bad magic: the file does not start with \"GGUF\"";
    return false;
  }
  Reader in(bytes.data() + 4, bytes.data() + bytes.size());
  uint32_t version = 0;
  uint64_t tensorCount = 0, kvCount = 0;
  auto done = [&](bool ok) {
    if (!ok)
      error = in.error;
    return ok;
  };
  if (!in.get(version, "the version"))
    return done(false);
  if (version != 2 && version != 3) {
    error = "unsupported GGUF version " + std::to_string(version) +
            " (2 and 3 are read)";
    return false;
  }
  if (!in.get(tensorCount, "the tensor count") ||
      !in.get(kvCount, "the metadata count"))
    return done(false);
  uint64_t alignment = 32;
  for (uint64_t i = 0; i < kvCount; ++i) {
    std::string key, what = "metadata #" + std::to_string(i);
    uint32_t type;
    if (!in.string(key, what + " key") || !in.get(type, what + " type"))
      return done(false);
    what = "metadata \"" + key + "\"";
    uint64_t integer = 0;
    if (!skipGgufValue(in, type, what, &integer))
      return done(false);
    if (key == "general.alignment") {
      if (integer == 0 || (integer & (integer - 1)) ||
          ggufScalarBytes(type) <= 0 || type == 6 || type == 12) {
        error = "general.alignment must be a power of two integer";
        return false;
      }
      alignment = integer;
    }
  }
  std::vector<std::pair<TensorEntry, const GgmlType *>> infos;
  for (uint64_t i = 0; i < tensorCount; ++i) {
    TensorEntry entry;
    std::string what = "tensor info #" + std::to_string(i);
    uint32_t nDims = 0, type = 0;
    if (!in.string(entry.name, what + " name") ||
        !in.get(nDims, what + " n_dims"))
      return done(false);
    what = "tensor info \"" + entry.name + "\"";
    if (nDims > 8) {
      error = what + " has " + std::to_string(nDims) + " dims (at most 8)";
      return false;
    }
    std::vector<int64_t> ne(nDims);
    for (int64_t &d : ne) {
      uint64_t v;
      if (!in.get(v, what + " dims"))
        return done(false);
      if (v > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
        error = what + " has a dim too large";
        return false;
      }
      d = static_cast<int64_t>(v);
    }
    if (!in.get(type, what + " type") || !in.get(entry.offset, what + " offset"))
      return done(false);
    entry.shape.assign(ne.rbegin(), ne.rend());
    const GgmlType *ggml = nullptr;
    for (const GgmlType &t : kGgmlTypes)
      if (t.id == type)
        ggml = &t;
    entry.fileType = ggml ? ggml->name : "type " + std::to_string(type);
    infos.emplace_back(std::move(entry), ggml);
  }
  uint64_t headerEnd = in.pos - bytes.data();
  uint64_t dataStart = (headerEnd + alignment - 1) / alignment * alignment;
  if (dataStart > bytes.size()) {
    error = "truncated: no data section after the header";
    return false;
  }
  uint64_t dataSize = bytes.size() - dataStart;
  for (auto &[entry, ggml] : infos) {
    std::string what = "tensor \"" + entry.name + "\"";
    if (entry.offset % alignment) {
      error = what + "'s offset " + std::to_string(entry.offset) +
              " is not a multiple of the alignment " +
              std::to_string(alignment);
      return false;
    }
    if (ggml) {
      entry.dtype = ggml->dtype;
      entry.scheme = ggml->scheme;
      entry.arrayShape = entry.shape;
      int64_t inner = entry.shape.empty() ? 1 : entry.shape.back();
      if (inner % ggml->block) {
        error = what + " of type " + entry.fileType + " has ne[0] = " +
                std::to_string(inner) + ", not a multiple of its block of " +
                std::to_string(ggml->block);
        return false;
      }
      if (!entry.scheme.empty() && !entry.shape.empty())
        entry.arrayShape.back() = inner / ggml->block * ggml->bytes;
      int64_t count = product(entry.arrayShape);
      // Plain types: count elements of `bytes`; quantized: count bytes.
      int64_t unit = entry.scheme.empty() ? ggml->bytes : 1;
      if (count < 0 || count > std::numeric_limits<int64_t>::max() / unit) {
        error = what + " is too large";
        return false;
      }
      entry.size = count * unit;
      if (entry.offset > dataSize || entry.size > dataSize - entry.offset) {
        error = "truncated: " + what + " (" + std::to_string(entry.size) +
                " bytes at offset " + std::to_string(entry.offset) +
                ") ends past the " + std::to_string(dataSize) +
                " data bytes";
        return false;
      }
    }
    entry.offset += dataStart;
    if (!entries.emplace(entry.name, entry).second) {
      error = what + " appears twice";
      return false;
    }
  }
  return true;
}

const TensorEntry *TensorFile::find(const std::string &name) const {
  auto it = entries.find(name);
  return it == entries.end() ? nullptr : &it->second;
}

bool TensorFile::read(const TensorEntry &entry, NpyArray &array,
                      std::string &error) const {
  if (entry.dtype.empty()) {
    error = "tensor \"" + entry.name + "\" of '" + path + "' has type " +
            entry.fileType + ", which RLX cannot read";
    return false;
  }
  array.dtype = entry.dtype;
  array.shape = entry.arrayShape;
  const char *data = buffer->getBufferStart() + entry.offset;
  if (entry.fileType != "BF16") {
    array.data.assign(data, data + entry.size);
    return true;
  }
  // bf16 widens to f32 exactly: its bits are the f32's high half.
  uint64_t n = entry.size / 2;
  array.data.resize(4 * n);
  for (uint64_t i = 0; i < n; ++i) {
    uint32_t bits = 0;
    std::memcpy(reinterpret_cast<char *>(&bits) + 2, data + 2 * i, 2);
    std::memcpy(array.data.data() + 4 * i, &bits, 4);
  }
  return true;
}
