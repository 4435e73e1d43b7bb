//===- Npy.cpp - reading and writing NumPy .npy files ---------------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "RLX/Runtime/Common/Npy.h"

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

bool mlir::rlx::runtime::readNpy(const std::string &path, NpyArray &array,
                                 std::string &error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = "cannot open '" + path + "'";
    return false;
  }
  char magic[8];
  if (!in.read(magic, 8) || std::memcmp(magic, "\x93NUMPY", 6) != 0) {
    error = "'" + path + "' is not a .npy file";
    return false;
  }
  uint32_t headerLen = 0;
  if (magic[6] == 1) {
    uint8_t b[2];
    in.read(reinterpret_cast<char *>(b), 2);
    headerLen = b[0] | (b[1] << 8);
  } else {
    uint8_t b[4];
    in.read(reinterpret_cast<char *>(b), 4);
    headerLen = b[0] | (b[1] << 8) | (b[2] << 16) | (uint32_t(b[3]) << 24);
  }
  std::string header(headerLen, '\0');
  if (!in.read(header.data(), headerLen)) {
    error = "'" + path + "' has a truncated header";
    return false;
  }
  std::string descr, order, shape;
  if (!findValue(header, "descr", descr) ||
      !findValue(header, "fortran_order", order) ||
      !findValue(header, "shape", shape)) {
    error = "'" + path + "' has an unreadable header: " + header;
    return false;
  }
  if (order.rfind("True", 0) == 0) {
    error = "'" + path + "' is in Fortran order; save it C-contiguous";
    return false;
  }
  // descr is quoted: '<f4', '|u1', ...
  descr = descr.substr(1, descr.size() - 2);
  if (descr.size() < 3 || descr[0] == '>') {
    error = "'" + path + "' has unsupported dtype '" + descr + "'";
    return false;
  }
  array.dtype = descr.substr(1);
  array.shape.clear();
  std::string dims = shape.substr(1, shape.size() - 2);
  std::stringstream ss(dims);
  std::string item;
  while (std::getline(ss, item, ','))
    if (item.find_first_not_of(" ") != std::string::npos)
      array.shape.push_back(std::atoll(item.c_str()));
  int64_t bytes = array.numElements() * array.elementSize();
  array.data.resize(bytes);
  if (!in.read(reinterpret_cast<char *>(array.data.data()), bytes)) {
    error = "'" + path + "' holds fewer bytes than its shape needs";
    return false;
  }
  return true;
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
