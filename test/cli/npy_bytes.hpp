// .npy files built byte by byte, independently of the code under test, so a
// mistake shared by the reader and the writer cannot hide.
#pragma once

#include <cstdint>
#include <string>

namespace vkscan::test {

// The header dict as numpy writes it, e.g. npyDict("<f4", false, "(3, 4)").
inline std::string npyDict(const std::string& descr, bool fortranOrder, const std::string& shape) {
  return "{'descr': '" + descr + "', 'fortran_order': " + (fortranOrder ? "True" : "False") +
         ", 'shape': " + shape + ", }";
}

// Magic, version `major`.0, header length, `dict` padded with spaces and a
// '\n' to a multiple of 64 bytes, then `payload`.
inline std::string npyFile(const std::string& dict, const std::string& payload = {},
                           int major = 1) {
  const size_t preamble = major == 1 ? 10 : 12;
  std::string header = dict;
  while ((preamble + header.size() + 1) % 64 != 0) header += ' ';
  header += '\n';
  std::string out = "\x93NUMPY";
  out += char(major);
  out += char(0);
  for (size_t i = 0; i < preamble - 8; ++i) out += char((header.size() >> (8 * i)) & 0xFF);
  return out + header + payload;
}

}  // namespace vkscan::test
