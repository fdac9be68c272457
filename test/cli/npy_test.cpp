// The .npy reader and writer on their own: every version, dtype and order,
// and every way a header can be wrong.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include "npy.hpp"

#include <doctest/doctest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <system_error>

#include "npy_bytes.hpp"
#include "npy_reader.hpp"

using namespace vkscan;
using vkscan::test::npyDict;
using vkscan::test::npyFile;

namespace {

// What parseHeader() says about `bytes`, or "" if it accepts them.
std::string parseError(const std::string& bytes) {
  try {
    npy::parseHeader(bytes);
  } catch (const npy::NpyError& e) {
    return e.what();
  }
  return "";
}

std::string headerError(const std::string& dict) {
  return parseError(npyFile(dict));
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

#define CHECK_REJECTS(error, part) \
  do {                             \
    const std::string e_ = error;  \
    CAPTURE(e_);                   \
    CHECK(contains(e_, part));     \
  } while (false)

struct TempDir {
  TempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "vkscan-npy-XXXXXX").string();
    REQUIRE(::mkdtemp(pattern.data()) != nullptr);
    path = pattern;
  }
  ~TempDir() { std::filesystem::remove_all(path); }
  std::string write(const std::string& name, const std::string& bytes) const {
    const std::string file = (path / name).string();
    std::ofstream(file, std::ios::binary) << bytes;
    return file;
  }
  std::filesystem::path path;
};

}  // namespace

TEST_CASE("parses every dtype in every version, in C and Fortran order") {
  for (npy::DType type : npy::kAllDTypes) {
    for (int major : {1, 2, 3}) {
      for (bool fortran : {false, true}) {
        CAPTURE(npy::dtypeDescr(type));
        CAPTURE(major);
        CAPTURE(fortran);
        const std::string bytes = npyFile(npyDict(npy::dtypeDescr(type), fortran, "(2, 3, 5)"),
                                          std::string(30 * npy::dtypeSize(type), 'x'), major);
        const npy::Header h = npy::parseHeader(bytes);
        CHECK(h.dtype == type);
        CHECK(h.fortranOrder == fortran);
        CHECK(h.shape == std::vector<uint64_t>{2, 3, 5});
        CHECK(h.dataBytes() == 30 * npy::dtypeSize(type));
        CHECK(npy::dataOffset(bytes) == bytes.size() - h.dataBytes());
        CHECK(npy::dataOffset(bytes) % 64 == 0);
      }
    }
  }
}

TEST_CASE("dtype sizes and descrs") {
  CHECK(npy::dtypeSize(npy::DType::Float16) == 2);
  CHECK(npy::dtypeSize(npy::DType::Float32) == 4);
  CHECK(npy::dtypeSize(npy::DType::Float64) == 8);
  CHECK(npy::dtypeSize(npy::DType::Int32) == 4);
  CHECK(npy::dtypeSize(npy::DType::UInt32) == 4);
  CHECK(npy::dtypeSize(npy::DType::Int64) == 8);
  CHECK(npy::dtypeSize(npy::DType::UInt64) == 8);
  CHECK(std::string(npy::dtypeDescr(npy::DType::UInt64)) == "<u8");
  CHECK(std::string(npy::dtypeDescr(npy::DType::Float16)) == "<f2");
}

// bfloat16 bits, which numpy can only hold as uint16 or raw 2-byte records:
// numpy writes the latter '|V2', and '<V2' means the same.
TEST_CASE("2-byte data for bfloat16: <u2, |V2 and <V2") {
  const auto dtypeOf = [](const char* descr) {
    return npy::parseHeader(npyFile(npyDict(descr, false, "(3,)"))).dtype;
  };
  CHECK(dtypeOf("<u2") == npy::DType::UInt16);
  CHECK(dtypeOf("|V2") == npy::DType::Void2);
  CHECK(dtypeOf("<V2") == npy::DType::Void2);
  CHECK(npy::dtypeSize(npy::DType::UInt16) == 2);
  CHECK(npy::dtypeSize(npy::DType::Void2) == 2);
  CHECK(std::string(npy::dtypeDescr(npy::DType::Void2)) == "|V2");
  CHECK_REJECTS(headerError(npyDict("|u2", false, "(3,)")),
                "byte order '|' is only meaningful for 1-byte types");
  CHECK_REJECTS(headerError(npyDict(">u2", false, "(3,)")), "(big-endian)");
}

TEST_CASE("parses headers however Python may have written them") {
  const auto shapeOf = [](const std::string& dict) {
    return npy::parseHeader(npyFile(dict)).shape;
  };
  // Keys in any order, double quotes, no trailing comma, odd whitespace.
  CHECK(shapeOf("{\"shape\":(4,),\"fortran_order\":False,\"descr\":\"<f4\"}") ==
        std::vector<uint64_t>{4});
  CHECK(shapeOf("{ 'descr' : '<i8' ,\t'fortran_order' : True , 'shape' : ( 2 , 3 ) }") ==
        std::vector<uint64_t>{2, 3});
  CHECK(shapeOf(npyDict("<f4", false, "(2, 3,)")) == std::vector<uint64_t>{2, 3});
  // Python 2 longs.
  CHECK(shapeOf(npyDict("<f4", false, "(3L, 4L)")) == std::vector<uint64_t>{3, 4});
  CHECK(shapeOf(npyDict("<f4", false, "()")).empty());
  CHECK(shapeOf(npyDict("<f4", false, "(0, 5)")) == std::vector<uint64_t>{0, 5});
  CHECK(shapeOf(npyDict("<f4", false, "(1, 2, 3, 4, 5, 6, 7, 8, 9)")).size() == 9);
  // '=' and no prefix mean native, which is little-endian here.
  CHECK(npy::parseHeader(npyFile(npyDict("=u4", false, "(1,)"))).dtype == npy::DType::UInt32);
  CHECK(npy::parseHeader(npyFile(npyDict("f8", false, "(1,)"))).dtype == npy::DType::Float64);
  // Without padding to 64 bytes, and with a '\r\n' ending.
  std::string unpadded = "\x93NUMPY\x01";
  const std::string dict = npyDict("<f2", false, "(7,)") + "\r\n";
  unpadded += char(0);
  unpadded += char(dict.size());
  unpadded += char(0);
  unpadded += dict;
  CHECK(npy::parseHeader(unpadded).dtype == npy::DType::Float16);
  CHECK(npy::dataOffset(unpadded) == unpadded.size());
}

TEST_CASE("formatHeader writes what numpy writes") {
  npy::Header h;
  h.dtype = npy::DType::Float32;
  h.shape = {3, 4};
  const std::string bytes = npy::formatHeader(h);
  // np.save(f, np.zeros((3, 4), np.float32)): a 118-byte header ('v').
  CHECK(bytes.size() == 128);
  CHECK(bytes == npyFile("{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }"));
  CHECK(bytes.substr(0, 10) == std::string("\x93NUMPY\x01\x00v\x00", 10));
  CHECK(bytes.back() == '\n');
}

TEST_CASE("formatHeader round-trips every dtype, order and rank") {
  for (npy::DType type : npy::kAllDTypes) {
    for (bool fortran : {false, true}) {
      for (const std::vector<uint64_t>& shape :
           {std::vector<uint64_t>{}, {7}, {0, 3}, {1, 2, 3, 4, 5, 6, 7, 8}, {4294967295ull, 2}}) {
        npy::Header h;
        h.dtype = type;
        h.fortranOrder = fortran;
        h.shape = shape;
        const std::string bytes = npy::formatHeader(h);
        CAPTURE(bytes);
        CHECK(bytes.size() % 64 == 0);
        CHECK(npy::dataOffset(bytes) == bytes.size());
        const npy::Header back = npy::parseHeader(bytes);
        CHECK(back.dtype == type);
        CHECK(back.fortranOrder == fortran);
        CHECK(back.shape == shape);
      }
    }
  }
}

TEST_CASE("formatHeader switches to version 2.0 past 65535 bytes") {
  npy::Header h;
  h.shape.assign(30000, 1);
  const std::string bytes = npy::formatHeader(h);
  CHECK(bytes[6] == 2);
  CHECK(bytes.size() % 64 == 0);
  CHECK(npy::parseHeader(bytes).shape.size() == 30000);
}

TEST_CASE("formatShape prints Python tuples") {
  CHECK(npy::formatShape({}) == "()");
  CHECK(npy::formatShape({5}) == "(5,)");
  CHECK(npy::formatShape({1, 2, 3}) == "(1, 2, 3)");
}

TEST_CASE("reject a bad magic string") {
  CHECK_REJECTS(parseError(""), "not a .npy file");
  CHECK_REJECTS(parseError("\x93NUMP"), "not a .npy file");
  CHECK_REJECTS(parseError("PK\x03\x04 this is a zip"), "not a .npy file");
  std::string bytes = npyFile(npyDict("<f4", false, "(1,)"));
  bytes[1] = 'n';
  CHECK_REJECTS(parseError(bytes), "not a .npy file");
}

TEST_CASE("reject unsupported versions") {
  for (auto [major, minor] : {std::pair{0, 0}, {4, 0}, {1, 1}, {2, 5}, {255, 255}}) {
    std::string bytes = npyFile(npyDict("<f4", false, "(1,)"));
    bytes[6] = char(major);
    bytes[7] = char(minor);
    CHECK_REJECTS(parseError(bytes), "unsupported .npy format version " + std::to_string(major) +
                                         "." + std::to_string(minor));
  }
}

TEST_CASE("reject a truncated preamble or header") {
  const std::string v1 = npyFile(npyDict("<f4", false, "(1,)"));
  const std::string v2 = npyFile(npyDict("<f4", false, "(1,)"), "", 2);
  CHECK_REJECTS(parseError(v1.substr(0, 7)), "truncated: the file ends in the preamble");
  CHECK_REJECTS(parseError(v1.substr(0, 9)), "truncated: the file ends in the preamble");
  CHECK_REJECTS(parseError(v2.substr(0, 11)), "truncated: the file ends in the preamble");
  CHECK_REJECTS(parseError(v1.substr(0, 40)),
                "truncated: the file ends in the header (header needs 128 bytes, file has 40)");
  CHECK_REJECTS(parseError(v2.substr(0, 63)), "truncated: the file ends in the header");
}

TEST_CASE("reject a header too short to hold the dict") {
  for (const char length : {'\0', '\1'}) {
    std::string bytes = "\x93NUMPY\x01";
    bytes += std::string{'\0', length, '\0'} + "{" + std::string(50, 'A');
    CHECK_REJECTS(parseError(bytes), "header of " + std::to_string(int(length)) +
                                         " bytes cannot hold the header dict");
  }
}

TEST_CASE("reject a header too large to be a real one") {
  std::string bytes = "\x93NUMPY\x02";
  bytes += std::string("\0\xFF\xFF\xFF\xFF", 5);
  CHECK_REJECTS(parseError(bytes), "header of 4294967295 bytes is larger than");
}

TEST_CASE("reject unsupported dtypes, naming them") {
  const std::pair<const char*, const char*> cases[] = {
      {"|b1", "unsupported dtype '|b1' (bool)"},
      {"<c8", "unsupported dtype '<c8' (complex)"},
      {"<c16", "(complex)"},
      {"|O", "unsupported dtype '|O' (Python objects)"},
      {"<U5", "unsupported dtype '<U5' (strings)"},
      {"|S10", "(strings)"},
      {"|V8", "(raw bytes)"},
      {"<M8[ns]", "(dates and times)"},
      {">f4", "unsupported dtype '>f4' (big-endian)"},
      {">i8", "(big-endian)"},
      {"<i2", "unsupported dtype '<i2' (int16)"},
      {"|u1", "(uint8)"},
      {"<f16", "(float128)"},
      {"|f4", "byte order '|' is only meaningful for 1-byte types"},
      {"<", "invalid dtype '<'"},
      {"", "invalid dtype ''"},
      {"<f", "invalid dtype '<f'"},
      {"<x4", "unsupported dtype '<x4' (unknown type)"},
      {"<i4x", "invalid dtype '<i4x'"},
  };
  for (const auto& [descr, message] : cases) {
    const std::string captured = descr;
    CAPTURE(captured);
    CHECK_REJECTS(headerError(npyDict(descr, false, "(3,)")), message);
  }
  CHECK_REJECTS(headerError("{'descr': [('a', '<f4'), ('b', '<i4')], 'fortran_order': False, "
                            "'shape': (3,), }"),
                "structured arrays are not supported");
  CHECK_REJECTS(headerError(npyDict("|b1", false, "(3,)")), "vkscan reads <f2 <f4 <f8");
}

TEST_CASE("reject a header that is not the dict numpy writes") {
  const std::pair<std::string, const char*> cases[] = {
      {"", "header is not a Python dict"},
      {"['descr', '<f4']", "header is not a Python dict"},
      {"{'descr': '<f4', 'fortran_order': False}", "header has no 'shape'"},
      {"{'descr': '<f4', 'shape': (1,)}", "header has no 'fortran_order'"},
      {"{'fortran_order': False, 'shape': (1,)}", "header has no 'descr'"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (1,), 'extra': 1}",
       "unexpected key 'extra'"},
      {"{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (1,)}",
       "has 'descr' twice"},
      {"{'descr': <f4, 'fortran_order': False, 'shape': (1,)}", "expected a string"},
      {"{descr: '<f4'}", "expected a string as a dict key"},
      {"{'descr' '<f4'}", "expected ':' after 'descr'"},
      {"{'descr': '<f4' 'fortran_order': False}", "expected ',' or '}'"},
      {"{'descr': '<f4, 'fortran_order': False, 'shape': (1,)}", "invalid dtype '<f4, '"},
      {"{'descr: '<f4'}", "expected ':' after 'descr: '"},
      {"{'descr", "unterminated string"},
      {"{'descr': 'a\\'b'}", "unsupported string"},
      {"{'descr': '<f4', 'fortran_order': 0, 'shape': (1,)}", "'fortran_order' is not True"},
      {"{'descr': '<f4', 'fortran_order': false, 'shape': (1,)}", "'fortran_order' is not True"},
      {npyDict("<f4", false, "(1,)") + " x", "header has text after the dict"},
      {npyDict("<f4", false, "(1,)") + "}", "header has text after the dict"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (1,)", "expected ',' or '}'"},
  };
  for (const auto& [dict, message] : cases) {
    const std::string captured = dict;
    CAPTURE(captured);
    CHECK_REJECTS(headerError(dict), message);
  }
}

TEST_CASE("reject a shape that is not a tuple of dimensions") {
  const std::pair<const char*, const char*> cases[] = {
      {"[3, 4]", "'shape' is not a tuple"},
      {"3", "'shape' is not a tuple"},
      {"(3)", "'shape' is not a tuple"},
      {"(3, -4)", "'shape' has a negative dimension"},
      {"(3.5,)", "'shape' is not a tuple of integers"},
      {"('3',)", "'shape' is not a tuple of integers"},
      {"(3 4)", "'shape' is not a tuple of integers"},
      {"(3,,)", "'shape' is not a tuple of integers"},
      {"(,)", "'shape' is not a tuple of integers"},
      {"(18446744073709551616,)", "does not fit in 64 bits"},
  };
  for (const auto& [shape, message] : cases) {
    const std::string captured = shape;
    CAPTURE(captured);
    CHECK_REJECTS(headerError(npyDict("<f4", false, shape)), message);
  }
  CHECK(headerError(npyDict("<f4", false, "(18446744073709551615,)")).empty());
}

TEST_CASE("reject control characters in the header") {
  std::string bytes = npyFile(npyDict("<f4", false, "(1,)"));
  bytes[20] = '\0';
  CHECK_REJECTS(parseError(bytes), "control character (byte 0)");
}

TEST_CASE("reject shapes whose size overflows") {
  npy::Header h;
  h.shape = {1ull << 32, 1ull << 32};
  CHECK_REJECTS(
      [&] {
        try {
          h.elementCount();
        } catch (const npy::NpyError& e) {
          return std::string(e.what());
        }
        return std::string();
      }(),
      "has more than 2^64 elements");
  h.shape = {1ull << 31, 1ull << 31};
  h.dtype = npy::DType::Float64;
  CHECK(h.elementCount() == 1ull << 62);
  CHECK_THROWS_WITH_AS(h.dataBytes(), doctest::Contains("needs more than 2^64 bytes"),
                       npy::NpyError);
  h.shape = {0, 1ull << 40, 1ull << 40};
  CHECK(h.dataBytes() == 0);
}

TEST_CASE("NpyReader streams the data and checks the file's length") {
  TempDir dir;
  const std::string payload = "0123456789abcdefghijklmnopqrstuv";  // 8 x <f4
  const std::string good = npyFile(npyDict("<f4", true, "(2, 4)"), payload, 3);

  npy::NpyReader reader(dir.write("good.npy", good));
  CHECK(reader.header().fortranOrder);
  CHECK(reader.header().shape == std::vector<uint64_t>{2, 4});
  std::string data(payload.size(), '\0');
  std::vector<uint64_t> progress;
  reader.readData(data.data(), [&](uint64_t done) { progress.push_back(done); });
  CHECK(data == payload);
  CHECK(progress == std::vector<uint64_t>{32});

  CHECK_THROWS_WITH_AS(npy::NpyReader(dir.write("short.npy", good.substr(0, good.size() - 4))),
                       "truncated: header says 32 bytes of data, file has 28", npy::NpyError);
  CHECK_THROWS_WITH_AS(npy::NpyReader(dir.write("long.npy", good + "xyz")),
                       "header says 32 bytes of data, file has 35 (3 bytes too many)",
                       npy::NpyError);
  CHECK_THROWS_WITH_AS(npy::NpyReader(dir.write("head.npy", good.substr(0, 50))),
                       doctest::Contains("truncated: the file ends in the header"), npy::NpyError);
  // The data would start inside the bytes read before the header's length
  // is known.
  CHECK_THROWS_WITH_AS(
      npy::NpyReader(dir.write("short-header.npy", std::string("\x93NUMPY\x01\0\1\0{AAAA", 14))),
      "header of 1 bytes cannot hold the header dict", npy::NpyError);
  CHECK_THROWS_WITH_AS(npy::NpyReader(dir.write("tiny.npy", "\x93N")),
                       doctest::Contains("not a .npy file"), npy::NpyError);

  const npy::NpyReader empty(dir.write("empty.npy", npyFile(npyDict("<u8", false, "(3, 0)"))));
  CHECK(empty.header().dataBytes() == 0);
}

TEST_CASE("NpyReader reports what the system says about the path") {
  TempDir dir;
  const auto errnoOf = [](const std::string& path) {
    try {
      npy::NpyReader reader(path);
    } catch (const std::system_error& e) {
      return e.code().value();
    }
    return 0;
  };
  CHECK(errnoOf((dir.path / "missing.npy").string()) == ENOENT);
  CHECK(errnoOf(dir.path.string()) == EISDIR);
  CHECK(errnoOf((dir.path / "missing" / "x.npy").string()) == ENOENT);
}

TEST_CASE("NpyReader reads a pipe, whose length it learns only at the end") {
  TempDir dir;
  const std::string fifo = (dir.path / "fifo").string();
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  const std::string bytes = npyFile(npyDict("<i4", false, "(3,)"), "abcdefghijkl");
  for (const std::string& content : {bytes, bytes.substr(0, bytes.size() - 2), bytes + "!"}) {
    const pid_t child = ::fork();
    REQUIRE(child >= 0);
    if (child == 0) {
      std::ofstream(fifo, std::ios::binary) << content;
      std::_Exit(0);
    }
    std::string error;
    try {
      npy::NpyReader reader(fifo);
      std::string data(12, '\0');
      reader.readData(data.data(), [](uint64_t) {});
      CHECK(data == "abcdefghijkl");
    } catch (const npy::NpyError& e) {
      error = e.what();
    }
    int status = 0;
    ::waitpid(child, &status, 0);
    if (content.size() < bytes.size()) {
      CHECK(error == "truncated: header says 12 bytes of data, file has 10");
    } else if (content.size() > bytes.size()) {
      CHECK(error == "header says 12 bytes of data, file has more after them");
    } else {
      CHECK(error.empty());
    }
  }
}
