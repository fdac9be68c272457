#include "npy.hpp"

#include <cstring>
#include <limits>

namespace vkscan::npy {
namespace {

constexpr char kMagic[] = "\x93NUMPY";
constexpr size_t kMagicSize = 6;
constexpr size_t kAlignment = 64;

struct DTypeInfo {
  DType type;
  char kind;
  size_t size;
  const char* descr;
};

constexpr DTypeInfo kDTypes[] = {
    {DType::Float16, 'f', 2, "<f2"}, {DType::Float32, 'f', 4, "<f4"},
    {DType::Float64, 'f', 8, "<f8"}, {DType::Int32, 'i', 4, "<i4"},
    {DType::UInt32, 'u', 4, "<u4"},  {DType::Int64, 'i', 8, "<i8"},
    {DType::UInt64, 'u', 8, "<u8"},  {DType::UInt16, 'u', 2, "<u2"},
    {DType::Void2, 'V', 2, "|V2"},
};

const DTypeInfo& info(DType type) {
  for (const DTypeInfo& i : kDTypes) {
    if (i.type == type) return i;
  }
  return kDTypes[0];
}

const char* const kSupportedList = "<f2 <f4 <f8 <i4 <u4 <i8 <u8 (and <u2 |V2 as bfloat16)";

// Whitespace as Python's tokenizer sees it.
bool isSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

[[noreturn]] void unsupportedDType(const std::string& descr, const std::string& what) {
  throw NpyError("unsupported dtype '" + descr + "' (" + what + "); vkscan reads " +
                 kSupportedList);
}

std::string kindName(char kind, size_t size) {
  switch (kind) {
    case 'b':
      return "bool";
    case 'i':
      return "int" + std::to_string(size * 8);
    case 'u':
      return "uint" + std::to_string(size * 8);
    case 'f':
      return "float" + std::to_string(size * 8);
    case 'c':
      return "complex";
    case 'O':
      return "Python objects";
    case 'S':
    case 'a':
    case 'U':
      return "strings";
    case 'V':
      return "raw bytes";
    case 'M':
    case 'm':
      return "dates and times";
    default:
      return "unknown type";
  }
}

// numpy writes every supported number type with an explicit '<'. '=' (native)
// and no prefix mean the same on the little-endian hosts vkscan runs on; '|'
// (byte order not applicable) only makes sense for 1-byte types, none of
// which is supported, and raw bytes, which numpy writes as '|V2' ('<V2' is
// read as the same).
DType parseDescr(const std::string& descr) {
  size_t pos = 0;
  char order = '=';
  if (!descr.empty() && std::string_view("<>|=").find(descr[0]) != std::string_view::npos) {
    order = descr[0];
    pos = 1;
  }
  if (pos >= descr.size()) throw NpyError("invalid dtype '" + descr + "'");
  const char kind = descr[pos++];
  const std::string digits = descr.substr(pos);
  if (digits.empty() || digits.size() > 3 ||
      digits.find_first_not_of("0123456789") != std::string::npos) {
    // Objects, strings and dates carry no size or a unit; numbers must.
    if (std::string_view("biuf").find(kind) != std::string_view::npos ||
        kindName(kind, 0) == "unknown type") {
      throw NpyError("invalid dtype '" + descr + "'");
    }
    unsupportedDType(descr, kindName(kind, 0));
  }
  const size_t size = std::stoul(digits);
  for (const DTypeInfo& i : kDTypes) {
    if (i.kind == kind && i.size == size) {
      if (order == '>') unsupportedDType(descr, "big-endian");
      if (order == '|' && kind != 'V') {
        throw NpyError("invalid dtype '" + descr +
                       "': byte order '|' is only meaningful for 1-byte types");
      }
      return i.type;
    }
  }
  unsupportedDType(descr, kindName(kind, size));
}

uint64_t readLittleEndian(std::string_view bytes, size_t offset, size_t count) {
  uint64_t value = 0;
  for (size_t i = 0; i < count; ++i) {
    value |= uint64_t(static_cast<unsigned char>(bytes[offset + i])) << (8 * i);
  }
  return value;
}

// The header is a Python literal; numpy reads it with ast.literal_eval. This
// accepts the subset a dict of those three keys can be written in.
class DictParser {
 public:
  explicit DictParser(std::string_view text) : text_(text) {}

  Header parse() {
    bool haveDescr = false, haveOrder = false, haveShape = false;
    Header header;
    skipSpace();
    expect('{', "header is not a Python dict");
    for (;;) {
      skipSpace();
      if (peek() == '}') break;
      const std::string key = parseString("a dict key");
      skipSpace();
      expect(':', "expected ':' after '" + key + "'");
      skipSpace();
      if (key == "descr") {
        once(haveDescr, key);
        if (peek() == '[') {
          throw NpyError("unsupported dtype: structured arrays are not supported; vkscan reads " +
                         std::string(kSupportedList));
        }
        header.dtype = parseDescr(parseString("the 'descr' value"));
      } else if (key == "fortran_order") {
        once(haveOrder, key);
        header.fortranOrder = parseBool();
      } else if (key == "shape") {
        once(haveShape, key);
        header.shape = parseShape();
      } else {
        throw NpyError("header has an unexpected key '" + key + "'");
      }
      skipSpace();
      if (peek() == ',') {
        ++pos_;
      } else if (peek() != '}') {
        throw NpyError("header: expected ',' or '}' after the value of '" + key + "'");
      }
    }
    ++pos_;
    skipSpace();
    if (pos_ != text_.size()) throw NpyError("header has text after the dict");
    if (!haveDescr) throw NpyError("header has no 'descr'");
    if (!haveOrder) throw NpyError("header has no 'fortran_order'");
    if (!haveShape) throw NpyError("header has no 'shape'");
    return header;
  }

 private:
  char peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }

  void skipSpace() {
    while (pos_ < text_.size() && isSpace(text_[pos_])) ++pos_;
  }

  void expect(char c, const std::string& message) {
    if (peek() != c) throw NpyError(message);
    ++pos_;
  }

  static void once(bool& seen, const std::string& key) {
    if (seen) throw NpyError("header has '" + key + "' twice");
    seen = true;
  }

  std::string parseString(const std::string& what) {
    const char quote = peek();
    if (quote != '\'' && quote != '"') throw NpyError("header: expected a string as " + what);
    const size_t end = text_.find(quote, pos_ + 1);
    if (end == std::string_view::npos) throw NpyError("header has an unterminated string");
    std::string s(text_.substr(pos_ + 1, end - pos_ - 1));
    if (s.find_first_of("\\\n") != std::string::npos) {
      throw NpyError("header: unsupported string " + std::string(text_.substr(pos_, end - pos_)));
    }
    pos_ = end + 1;
    return s;
  }

  bool parseBool() {
    for (const auto& [word, value] : {std::pair{"True", true}, std::pair{"False", false}}) {
      const size_t n = std::strlen(word);
      if (text_.substr(pos_, n) == word) {
        pos_ += n;
        return value;
      }
    }
    throw NpyError("header: 'fortran_order' is not True or False");
  }

  uint64_t parseDimension() {
    const size_t start = pos_;
    uint64_t value = 0;
    while (peek() >= '0' && peek() <= '9') {
      const uint64_t digit = uint64_t(peek() - '0');
      if (value > (std::numeric_limits<uint64_t>::max() - digit) / 10) {
        throw NpyError("header: a dimension of 'shape' does not fit in 64 bits");
      }
      value = value * 10 + digit;
      ++pos_;
    }
    if (pos_ == start) {
      throw NpyError(peek() == '-' ? "header: 'shape' has a negative dimension"
                                   : "header: 'shape' is not a tuple of integers");
    }
    // Python 2 wrote longs as 3L; numpy still strips the suffix when reading.
    if (peek() == 'L') ++pos_;
    return value;
  }

  std::vector<uint64_t> parseShape() {
    expect('(', "header: 'shape' is not a tuple");
    std::vector<uint64_t> shape;
    skipSpace();
    bool sawComma = false;
    while (peek() != ')') {
      shape.push_back(parseDimension());
      skipSpace();
      sawComma = peek() == ',';
      if (sawComma) {
        ++pos_;
        skipSpace();
      } else if (peek() != ')') {
        throw NpyError("header: 'shape' is not a tuple of integers");
      }
    }
    ++pos_;
    // Python reads (3) as the integer 3, not a tuple.
    if (shape.size() == 1 && !sawComma) throw NpyError("header: 'shape' is not a tuple");
    return shape;
  }

  std::string_view text_;
  size_t pos_ = 0;
};

}  // namespace

size_t dtypeSize(DType type) noexcept {
  return info(type).size;
}

const char* dtypeDescr(DType type) noexcept {
  return info(type).descr;
}

uint64_t Header::elementCount() const {
  uint64_t count = 1;
  for (uint64_t d : shape) {
    if (d != 0 && count > std::numeric_limits<uint64_t>::max() / d) {
      throw NpyError("shape " + formatShape(shape) + " has more than 2^64 elements");
    }
    count *= d;
  }
  return count;
}

uint64_t Header::dataBytes() const {
  const uint64_t count = elementCount();
  const uint64_t size = dtypeSize(dtype);
  if (count > std::numeric_limits<uint64_t>::max() / size) {
    throw NpyError("shape " + formatShape(shape) + " needs more than 2^64 bytes");
  }
  return count * size;
}

uint64_t dataOffset(std::string_view prefix) {
  if (prefix.size() < kMagicSize || prefix.substr(0, kMagicSize) != kMagic) {
    throw NpyError("not a .npy file (no \\x93NUMPY magic string)");
  }
  if (prefix.size() < kMagicSize + 2) throw NpyError("truncated: the file ends in the preamble");
  const int major = static_cast<unsigned char>(prefix[6]);
  const int minor = static_cast<unsigned char>(prefix[7]);
  if (major < 1 || major > 3 || minor != 0) {
    throw NpyError("unsupported .npy format version " + std::to_string(major) + "." +
                   std::to_string(minor) + " (vkscan reads 1.0, 2.0 and 3.0)");
  }
  const size_t lengthSize = major == 1 ? 2 : 4;
  const size_t preamble = kMagicSize + 2 + lengthSize;
  if (prefix.size() < preamble) throw NpyError("truncated: the file ends in the preamble");
  const uint64_t headerSize = readLittleEndian(prefix, kMagicSize + 2, lengthSize);
  if (preamble + headerSize < kMaxPreambleSize) {
    throw NpyError("header of " + std::to_string(headerSize) +
                   " bytes cannot hold the header dict");
  }
  if (headerSize > kMaxHeaderSize) {
    throw NpyError("header of " + std::to_string(headerSize) + " bytes is larger than the " +
                   std::to_string(kMaxHeaderSize) + " bytes vkscan accepts");
  }
  return preamble + headerSize;
}

Header parseHeader(std::string_view bytes) {
  const uint64_t end = dataOffset(bytes);
  if (bytes.size() < end) {
    throw NpyError("truncated: the file ends in the header (header needs " + std::to_string(end) +
                   " bytes, file has " + std::to_string(bytes.size()) + ")");
  }
  const size_t preamble = bytes[6] == 1 ? 10 : 12;
  const std::string_view text = bytes.substr(preamble, end - preamble);
  // Versions 1.0 and 2.0 are latin-1, 3.0 UTF-8; both are ASCII in every
  // header vkscan can accept, so a NUL or other control byte means damage.
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 && !isSpace(c)) {
      throw NpyError("header contains a control character (byte " + std::to_string(u) + ")");
    }
  }
  return DictParser(text).parse();
}

std::string formatShape(const std::vector<uint64_t>& shape) {
  std::string s = "(";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i > 0) s += ", ";
    s += std::to_string(shape[i]);
  }
  if (shape.size() == 1) s += ",";
  return s + ")";
}

std::string formatHeader(const Header& header) {
  std::string dict = std::string("{'descr': '") + dtypeDescr(header.dtype) +
                     "', 'fortran_order': " + (header.fortranOrder ? "True" : "False") +
                     ", 'shape': " + formatShape(header.shape) + ", }";
  // +1 for the final '\n'.
  const size_t v1Size = 10 + dict.size() + 1;
  const bool v1 = ((v1Size + kAlignment - 1) / kAlignment) * kAlignment - 10 <= 0xFFFF;
  const size_t preamble = v1 ? 10 : 12;
  const size_t unpadded = preamble + dict.size() + 1;
  const size_t total = ((unpadded + kAlignment - 1) / kAlignment) * kAlignment;
  const size_t headerSize = total - preamble;
  dict.append(total - unpadded, ' ');
  dict += '\n';

  std::string out(kMagic, kMagicSize);
  out += char(v1 ? 1 : 2);
  out += char(0);
  for (size_t i = 0; i < preamble - 8; ++i) out += char((headerSize >> (8 * i)) & 0xFF);
  return out + dict;
}

}  // namespace vkscan::npy
