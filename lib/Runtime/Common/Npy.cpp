//===- Npy.cpp - reading and writing NumPy .npy files ---------------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "RLX/Runtime/Common/Npy.h"

#include <climits>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <sstream>

using namespace mlir::rlx::runtime;

int64_t NpyArray::numElements() const {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

int64_t NpyArray::elementSize() const {
  if (dtype.size() < 2)
    return 0;
  int64_t bytes = std::atoll(dtype.c_str() + 1);
  return bytes;
}

/// The value of `key` in the header dict, e.g. 'descr': '<f4'.
static bool findValue(const std::string &header, const std::string &key,
                      std::string &value) {
  size_t k = header.find("'" + key + "'");
  if (k == std::string::npos)
    return false;
  size_t colon = header.find(':', k);
  if (colon == std::string::npos)
    return false;
  size_t start = header.find_first_not_of(" ", colon + 1);
  if (start == std::string::npos)
    return false;
  char open = header[start];
  char close = open == '(' ? ')' : open == '\'' ? '\'' : ',';
  size_t end = header.find(close, start + 1);
  if (end == std::string::npos)
    return false;
  value = header.substr(start, end - start + 1);
  return true;
}

/// The bytes per element of NumPy type code `kind` with `size` digits, or 0
/// where RLX has no such type (f2 f4 f8, i1 i2 i4 i8, u1 u2 u4 u8, b1, c8
/// c16).
static int64_t knownElementSize(char kind, const std::string &size) {
  static const char *const known[] = {"f2", "f4", "f8", "i1",  "i2", "i4",
                                      "i8", "u1", "u2", "u4",  "u8", "b1",
                                      "c8", "c16"};
  std::string code = kind + size;
  for (const char *k : known)
    if (code == k)
      return std::atoll(size.c_str());
  return 0;
}

/// A .npy header larger than this is refused (NumPy writes a few hundred
/// bytes; a length field of gigabytes is a damaged or hostile file).
static constexpr uint32_t kMaxHeaderBytes = 1 << 20;

/// Parses a .npy stream `in` named `name` in messages. Every length and
/// count in the file is checked against the bytes that follow before
/// anything is allocated for it.
static bool parseNpy(std::istream &in, const std::string &name,
                     NpyArray &array, std::string &error) {
  auto fail = [&](const std::string &why) {
    error = "'" + name + "' " + why;
    return false;
  };
  // The bytes after the current position.
  auto remaining = [&]() -> int64_t {
    std::streampos here = in.tellg();
    in.seekg(0, std::ios::end);
    std::streampos end = in.tellg();
    in.seekg(here);
    return here < 0 || end < 0 ? -1 : int64_t(end - here);
  };
  char magic[8];
  if (!in.read(magic, 8) || std::memcmp(magic, "\x93NUMPY", 6) != 0)
    return fail("is not a .npy file");
  uint8_t major = magic[6];
  if (major < 1 || major > 3)
    return fail("has .npy format version " + std::to_string(major) +
                " (1 to 3 are read)");
  uint32_t headerLen = 0;
  if (major == 1) {
    uint8_t b[2];
    if (!in.read(reinterpret_cast<char *>(b), 2))
      return fail("has a truncated header");
    headerLen = b[0] | (b[1] << 8);
  } else {
    uint8_t b[4];
    if (!in.read(reinterpret_cast<char *>(b), 4))
      return fail("has a truncated header");
    headerLen = b[0] | (b[1] << 8) | (b[2] << 16) | (uint32_t(b[3]) << 24);
  }
  if (headerLen > kMaxHeaderBytes || int64_t(headerLen) > remaining())
    return fail("has a truncated header");
  std::string header(headerLen, '\0');
  if (!in.read(header.data(), headerLen))
    return fail("has a truncated header");
  std::string descr, order, shape;
  if (!findValue(header, "descr", descr) ||
      !findValue(header, "fortran_order", order) ||
      !findValue(header, "shape", shape))
    return fail("has an unreadable header: " + header);
  if (order.rfind("True", 0) == 0)
    return fail("is in Fortran order; save it C-contiguous");
  // descr is quoted: '<f4', '|u1', ...; big-endian data is not read.
  if (descr.size() < 2 || descr.front() != '\'' || descr.back() != '\'')
    return fail("has an unreadable header: " + header);
  descr = descr.substr(1, descr.size() - 2);
  int64_t elementBytes =
      descr.size() >= 3 && (descr[0] == '<' || descr[0] == '|' ||
                            descr[0] == '=')
          ? knownElementSize(descr[1], descr.substr(2))
          : 0;
  if (elementBytes == 0)
    return fail("has unsupported dtype '" + descr + "'");
  array.dtype = descr.substr(1);
  // shape is a tuple of non-negative integers: (), (n,), (a, b), ...
  if (shape.size() < 2 || shape.front() != '(' || shape.back() != ')')
    return fail("has an unreadable shape: " + shape);
  array.shape.clear();
  std::string dims = shape.substr(1, shape.size() - 2);
  std::stringstream ss(dims);
  std::string item;
  int64_t elements = 1;
  bool overflow = false;
  while (std::getline(ss, item, ',')) {
    size_t first = item.find_first_not_of(" ");
    if (first == std::string::npos)
      continue;
    size_t last = item.find_last_not_of(" ");
    std::string digits = item.substr(first, last - first + 1);
    if (digits.empty() || digits.size() > 18 ||
        digits.find_first_not_of("0123456789") != std::string::npos)
      return fail("has an unreadable shape: " + shape);
    int64_t dim = std::atoll(digits.c_str());
    array.shape.push_back(dim);
    if (dim != 0 && elements > INT64_MAX / dim)
      overflow = true;
    else
      elements *= dim;
  }
  int64_t available = remaining();
  if (overflow || (elementBytes && elements > INT64_MAX / elementBytes) ||
      available < 0 || elements * elementBytes > available)
    return fail("holds fewer bytes than its shape needs");
  int64_t bytes = elements * elementBytes;
  array.data.resize(bytes);
  if (!in.read(reinterpret_cast<char *>(array.data.data()), bytes))
    return fail("holds fewer bytes than its shape needs");
  return true;
}

bool mlir::rlx::runtime::readNpy(const std::string &path, NpyArray &array,
                                 std::string &error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = "cannot open '" + path + "'";
    return false;
  }
  return parseNpy(in, path, array, error);
}

bool mlir::rlx::runtime::parseNpyBytes(const char *data, size_t size,
                                       const std::string &name,
                                       NpyArray &array, std::string &error) {
  std::istringstream in(std::string(data, size), std::ios::binary);
  return parseNpy(in, name, array, error);
}

bool mlir::rlx::runtime::writeNpy(const std::string &path,
                                  const NpyArray &array, std::string &error) {
  std::string order = array.dtype.size() && (array.dtype[1] == '1') ? "|" : "<";
  std::string header = "{'descr': '" + order + array.dtype +
                       "', 'fortran_order': False, 'shape': (";
  for (int64_t d : array.shape)
    header += std::to_string(d) + ", ";
  if (array.shape.size() > 1)
    header.erase(header.size() - 2); // "(a, b)" rather than "(a, b, )"
  else if (array.shape.size() == 1)
    header.erase(header.size() - 1); // "(a,)"
  header += "), }";
  // Pad with spaces to a multiple of 64 bytes, ending in a newline.
  size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::ofstream out(path, std::ios::binary);
  if (!out) {
    error = "cannot write '" + path + "'";
    return false;
  }
  out.write("\x93NUMPY\x01\x00", 8);
  uint16_t len = header.size();
  char lenBytes[2] = {char(len & 0xff), char(len >> 8)};
  out.write(lenBytes, 2);
  out.write(header.data(), header.size());
  out.write(reinterpret_cast<const char *>(array.data.data()),
            array.data.size());
  if (!out) {
    error = "failed writing '" + path + "'";
    return false;
  }
  return true;
}
