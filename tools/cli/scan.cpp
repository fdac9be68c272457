// vkscan cumsum, cumprod, cummax, cummin and logcumsumexp: one .npy in, one
// .npy out (and for cummax and cummin optionally the indices, a second),
// each read or written once; the commands differ only in the scan's
// operation.
#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <filesystem>
#include <limits>
#include <memory>
#include <new>
#include <optional>
#include <system_error>

#include "commands.hpp"
#include "failure.hpp"
#include "npy_reader.hpp"
#include "output_file.hpp"
#include "progress.hpp"
#include "stream.hpp"

namespace vkscan::cli {

namespace {

// Large enough that the syscall cost vanishes, small enough for smooth
// progress.
constexpr size_t kWriteChunk = size_t(16) << 20;

// What the help and the messages of one command say; the rest is shared.
struct ScanWords {
  const char* command;
  const char* noun;  // "the cumulative <noun> of the array"
  const char* verb;  // "the axis to <verb> along", "vkscan does not <verb> dtype"
  const char* exclusive;
  const char* bfloat16;
  const char* values;
  const char* indices;  // --indices' help; nullptr where the scan has none
};

const ScanWords& wordsFor(ScanOperation operation) {
  static const ScanWords sum = {
      "cumsum",
      "sum",
      "sum",
      "  --exclusive   leave each element out of its own sum (the first output is 0)\n",
      "                <V2 / |V2), as numpy has no bfloat16: sum them as bfloat16\n"
      "                (in FP32, rounded once to nearest even) and write OUT.npy\n"
      "                with the same dtype (|V2 for raw bytes)\n",
      "most 4294967295. Integers wrap around.\n",
      nullptr};
  static const ScanWords product = {
      "cumprod",
      "product",
      "multiply",
      "  --exclusive   leave each element out of its own product (the first output\n"
      "                is the identity, 1)\n",
      "                <V2 / |V2), as numpy has no bfloat16: multiply them as\n"
      "                bfloat16 (in FP32, rounded once to nearest even) and write\n"
      "                OUT.npy with the same dtype (|V2 for raw bytes)\n",
      "most 4294967295. Integers wrap around. Floats are multiplied in vkscan's\n"
      "canonical order (a radix-16 tree), the same bits on every device.\n",
      nullptr};
  static const ScanWords maximum = {
      "cummax",
      "maximum",
      "scan",
      "  --exclusive   leave each element out of its own maximum (the first output\n"
      "                is the identity: -inf for floats, the type's least value\n"
      "                for integers)\n",
      "                <V2 / |V2), as numpy has no bfloat16: compare them as\n"
      "                bfloat16 and write OUT.npy with the same dtype (|V2 for\n"
      "                raw bytes)\n",
      "most 4294967295. Ties go to the later element (-0.0 against +0.0 too) and\n"
      "a NaN always wins: the values of PyTorch's cummax (and with --indices its\n"
      "indices). Signed integers compare signed.\n",
      "  --indices FILE.npy\n"
      "                also write to FILE.npy, as int64 of OUT.npy's shape and\n"
      "                order, each output's index along the axis of the element\n"
      "                it was taken from: PyTorch's cummax indices (the latest\n"
      "                maximal element's, or the latest NaN's). Not with\n"
      "                --exclusive, --in-place or a wider --dtype\n"};
  static const ScanWords minimum = {
      "cummin",
      "minimum",
      "scan",
      "  --exclusive   leave each element out of its own minimum (the first output\n"
      "                is the identity: +inf for floats, the type's greatest value\n"
      "                for integers)\n",
      "                <V2 / |V2), as numpy has no bfloat16: compare them as\n"
      "                bfloat16 and write OUT.npy with the same dtype (|V2 for\n"
      "                raw bytes)\n",
      "most 4294967295. Ties go to the later element (-0.0 against +0.0 too) and\n"
      "a NaN always wins: the values of PyTorch's cummin (and with --indices its\n"
      "indices). Signed integers compare signed.\n",
      "  --indices FILE.npy\n"
      "                also write to FILE.npy, as int64 of OUT.npy's shape and\n"
      "                order, each output's index along the axis of the element\n"
      "                it was taken from: PyTorch's cummin indices (the latest\n"
      "                minimal element's, or the latest NaN's). Not with\n"
      "                --exclusive, --in-place or a wider --dtype\n"};
  static const ScanWords logSumExp = {
      "logcumsumexp",
      "log-sum-exp",
      "scan",
      "  --exclusive   leave each element out of its own log-sum-exp (the first\n"
      "                output is the identity, -inf)\n",
      "                <V2 / |V2), as numpy has no bfloat16: scan them as\n"
      "                bfloat16 (in FP32, rounded once to nearest even) and write\n"
      "                OUT.npy with the same dtype (|V2 for raw bytes)\n",
      "most 4294967295. Float dtypes only. log(exp(a) + exp(b)) is computed from\n"
      "IEEE additions and multiplications in vkscan's canonical order (a radix-16\n"
      "tree): the same bits on every device, within a few ulp of PyTorch's\n"
      "logcumsumexp.\n",
      nullptr};
  switch (operation) {
    case ScanOperation::LogSumExp:
      return logSumExp;
    case ScanOperation::Product:
      return product;
    case ScanOperation::Maximum:
      return maximum;
    case ScanOperation::Minimum:
      return minimum;
    case ScanOperation::Sum:
      break;
  }
  return sum;
}

struct ScanArgs {
  std::string input;
  std::string output;
  long long axis = 0;
  bool exclusive = false;
  bool reverse = false;
  bool inPlace = false;
  bool bfloat16 = false;                // --input-dtype bfloat16
  std::string dtype;                    // --dtype: the output's type, if not the input's
  std::string indices;                  // --indices: where to write them; empty for none
  uint64_t memory = uint64_t{1} << 30;  // --memory: past it, stream
};

bool parseInputDType(const std::string& text) {
  if (text == "bfloat16" || text == "bf16") return true;
  throw Failure(kExitUsage, "--input-dtype '" + text +
                                "' is not bfloat16, the one type read from 2-byte data (every "
                                "other type is IN.npy's own dtype)");
}

// Bytes, with an optional binary suffix: 1048576, 1024K, 512M, 2G.
uint64_t parseMemory(const std::string& text) {
  std::string digits = text;
  uint64_t unit = 1;
  if (!digits.empty()) {
    const char suffix = char(std::toupper(static_cast<unsigned char>(digits.back())));
    const std::string units = "KMGT";
    const size_t power = units.find(suffix);
    if (power != std::string::npos) {
      unit = uint64_t{1} << (10 * (power + 1));
      digits.pop_back();
    }
  }
  const long long value = parseInteger("--memory", digits);
  if (value <= 0 || uint64_t(value) > (uint64_t{1} << 50) / unit) {
    throw Failure(kExitUsage, "--memory '" + text + "' is not a size from 1 byte to 1P");
  }
  return uint64_t(value) * unit;
}

ScanArgs parseArgs(const ScanWords& words, const std::vector<std::string>& args) {
  ScanArgs parsed;
  std::vector<std::string> files;
  bool optionsEnded = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (optionsEnded || arg.size() < 2 || arg[0] != '-') {
      files.push_back(arg);
    } else if (arg == "--") {
      optionsEnded = true;
    } else if (arg == "--exclusive") {
      parsed.exclusive = true;
    } else if (arg == "--reverse") {
      parsed.reverse = true;
    } else if (arg == "--in-place") {
      parsed.inPlace = true;
    } else if (arg == "--axis") {
      if (i + 1 == args.size()) throw Failure(kExitUsage, "--axis needs an axis number");
      parsed.axis = parseInteger("--axis", args[++i]);
    } else if (arg.rfind("--axis=", 0) == 0) {
      parsed.axis = parseInteger("--axis", arg.substr(7));
    } else if (arg == "--input-dtype") {
      if (i + 1 == args.size()) throw Failure(kExitUsage, "--input-dtype needs a type (bfloat16)");
      parsed.bfloat16 = parseInputDType(args[++i]);
    } else if (arg.rfind("--input-dtype=", 0) == 0) {
      parsed.bfloat16 = parseInputDType(arg.substr(14));
    } else if (arg == "--dtype") {
      if (i + 1 == args.size()) throw Failure(kExitUsage, "--dtype needs a type");
      parsed.dtype = args[++i];
    } else if (arg.rfind("--dtype=", 0) == 0) {
      parsed.dtype = arg.substr(8);
    } else if (arg == "--memory") {
      if (i + 1 == args.size()) throw Failure(kExitUsage, "--memory needs a size, e.g. 512M");
      parsed.memory = parseMemory(args[++i]);
    } else if (arg.rfind("--memory=", 0) == 0) {
      parsed.memory = parseMemory(arg.substr(9));
    } else if (arg == "--indices" || arg.rfind("--indices=", 0) == 0) {
      if (words.indices == nullptr) {
        throw Failure(kExitUsage, std::string(words.command) +
                                      ": --indices: only cummax and cummin have indices (the "
                                      "element each output was taken from)");
      }
      if (arg == "--indices") {
        if (i + 1 == args.size()) throw Failure(kExitUsage, "--indices needs a file name");
        parsed.indices = args[++i];
      } else {
        parsed.indices = arg.substr(10);
      }
      if (parsed.indices.empty()) throw Failure(kExitUsage, "--indices needs a file name");
    } else {
      throw Failure(kExitUsage, std::string(words.command) + ": unknown option '" + arg +
                                    "' (see vkscan " + words.command + " --help)");
    }
  }
  if (files.size() != 2) {
    throw Failure(kExitUsage,
                  std::string(words.command) + " needs an input and an output file, got " +
                      std::to_string(files.size()) + " (see vkscan " + words.command + " --help)");
  }
  parsed.input = files[0];
  parsed.output = files[1];
  return parsed;
}

// Runs `step` on `path`, turning the reader's and writer's errors into a
// Failure that names the file.
template <class Step>
void onFile(const std::string& path, Step&& step) {
  try {
    step();
  } catch (const npy::NpyError& e) {
    throw Failure(kExitUsage, path + ": " + e.what());
  } catch (const std::system_error& e) {
    throw Failure(exitCodeForErrno(e.code().value()), path + ": " + e.what());
  }
}

// The sizes vkscan's API can express, or a Failure saying why not.
std::vector<uint32_t> tensorSizes(const ScanWords& words, const std::string& path,
                                  const npy::Header& header) {
  const size_t rank = header.shape.size();
  if (rank == 0) {
    throw Failure(kExitUsage, path + ": a 0-dimensional array (a scalar) has no axis to " +
                                  words.verb + " along");
  }
  if (rank > kMaxDimensions) {
    throw Failure(kExitUsage, path + ": " + std::to_string(rank) + " dimensions " +
                                  npy::formatShape(header.shape) + " are more than the " +
                                  std::to_string(kMaxDimensions) + " vkscan supports");
  }
  std::vector<uint32_t> sizes;
  for (size_t d = 0; d < rank; ++d) {
    if (header.shape[d] > std::numeric_limits<uint32_t>::max()) {
      throw Failure(kExitUsage, path + ": dimension " + std::to_string(d) + " has size " +
                                    std::to_string(header.shape[d]) +
                                    ", above vkscan's limit of 4294967295");
    }
    sizes.push_back(uint32_t(header.shape[d]));
  }
  return sizes;
}

// A Fortran-order array is the strided tensor whose first axis varies
// fastest; describing it so lets the device read the file's layout as is.
std::vector<uint32_t> fortranStrides(const std::string& path, const std::vector<uint32_t>& sizes) {
  std::vector<uint32_t> strides;
  uint64_t stride = 1;
  for (size_t d = 0; d < sizes.size(); ++d) {
    if (stride > std::numeric_limits<uint32_t>::max()) {
      throw Failure(kExitUsage, path + ": Fortran-order stride of dimension " + std::to_string(d) +
                                    " is " + std::to_string(stride) +
                                    " elements, above vkscan's limit of 4294967295");
    }
    strides.push_back(uint32_t(stride));
    stride *= sizes[d];
  }
  return strides;
}

uint32_t resolveAxis(const std::string& path, long long axis, const npy::Header& header) {
  const auto rank = static_cast<long long>(header.shape.size());
  if (axis < -rank || axis >= rank) {
    throw Failure(kExitUsage, path + ": axis " + std::to_string(axis) +
                                  " is out of range for shape " + npy::formatShape(header.shape) +
                                  " (valid: " + std::to_string(-rank) + " to " +
                                  std::to_string(rank - 1) + ")");
  }
  return uint32_t(axis < 0 ? axis + rank : axis);
}

// The type to scan IN.npy's data as: its dtype's, or bfloat16 where the
// 2-byte data holds its bits (--input-dtype bfloat16).
DataType toDataType(const ScanWords& words, const std::string& path, npy::DType type,
                    bool bfloat16) {
  bool twoBytes = type == npy::DType::UInt16 || type == npy::DType::Void2;
  if (bfloat16 && !twoBytes) {
    throw Failure(kExitUsage, path +
                                  ": --input-dtype bfloat16 reads 2-byte data (<u2 or <V2), "
                                  "not " +
                                  npy::dtypeDescr(type));
  }
  if (bfloat16) return DataType::BFloat16;
  if (twoBytes) {
    throw Failure(kExitUsage, path + ": vkscan does not " + words.verb + " dtype " +
                                  npy::dtypeDescr(type) +
                                  "; if it holds bfloat16 bits, pass --input-dtype bfloat16");
  }
  switch (type) {
    case npy::DType::Float16:
      return DataType::Float16;
    case npy::DType::Float32:
      return DataType::Float32;
    case npy::DType::Float64:
      return DataType::Float64;
    case npy::DType::Int32:
      return DataType::Int32;
    case npy::DType::UInt32:
      return DataType::UInt32;
    case npy::DType::Int64:
      return DataType::Int64;
    case npy::DType::UInt64:
      return DataType::UInt64;
    case npy::DType::UInt16:
    case npy::DType::Void2:
      break;
  }
  return DataType::Float32;
}

// The output's type: the input's, or what --dtype names, which must be the
// input's or widen it (outputTypeWidens()).
DataType outputType(const ScanArgs& parsed, DataType input) {
  if (parsed.dtype.empty()) return input;
  DataType output = parseDataType("--dtype", parsed.dtype);
  if (output != input && !outputTypeWidens(input, output)) {
    throw Failure(kExitUsage, "--dtype " + parsed.dtype + ": " + parsed.input + " holds " +
                                  dataTypeName(input) +
                                  ", which --dtype may only widen (int32 to " +
                                  "int64, uint32 to uint64, float16 and bfloat16 to float32, " +
                                  "float32 to float64)");
  }
  if (output != input && parsed.inPlace) {
    throw Failure(kExitUsage, "--in-place: the output's --dtype " + parsed.dtype +
                                  " is wider than the input's, so it cannot share its memory");
  }
  return output;
}

// What the library refuses with indices (ScanDesc::indices, run()), refused
// in the options' terms before the device starts, with the library's reasons.
void checkIndicesOptions(const ScanArgs& parsed, const ScanDesc& desc) {
  if (parsed.exclusive) {
    throw Failure(kExitUsage,
                  "--indices with --exclusive: an exclusive scan has no indices (PyTorch's have "
                  "none)");
  }
  if (desc.output.dataType != desc.input.dataType) {
    throw Failure(kExitUsage, "--indices with --dtype " + parsed.dtype +
                                  ": indices are not computed with a wider output type (" +
                                  parsed.input + " holds " + dataTypeName(desc.input.dataType) +
                                  ")");
  }
  if (parsed.inPlace) {
    throw Failure(kExitUsage,
                  "--indices with --in-place: the indices are found from the input after the "
                  "output is written, so the output cannot take the input's memory");
  }
}

// Whether two paths name one file, existing or yet to be created.
bool sameFile(const std::string& a, const std::string& b) {
  std::error_code error;
  if (std::filesystem::equivalent(a, b, error)) return true;
  const std::filesystem::path canonicalA = std::filesystem::weakly_canonical(a, error);
  if (error) return false;
  return canonicalA == std::filesystem::weakly_canonical(b, error) && !error;
}

// The .npy dtype of a wider output type (outputTypeWidens()).
npy::DType npyType(DataType type) {
  switch (type) {
    case DataType::Float64:
      return npy::DType::Float64;
    case DataType::Int64:
      return npy::DType::Int64;
    case DataType::UInt64:
      return npy::DType::UInt64;
    default:
      return npy::DType::Float32;
  }
}

// Refuses outputs that would destroy the input or something that is not a
// plain file (renaming over /dev/null as root would replace the device node).
void checkOutputPath(const std::string& output, const struct stat& input) {
  struct stat status;
  if (::stat(output.c_str(), &status) != 0) return;
  if (status.st_dev == input.st_dev && status.st_ino == input.st_ino) {
    throw Failure(kExitUsage,
                  output +
                      ": is the input file; write to another file (or use --in-place to "
                      "save memory, not files)");
  }
  if (S_ISDIR(status.st_mode)) throw Failure(kExitUsage, output + ": is a directory");
  if (!S_ISREG(status.st_mode)) {
    throw Failure(kExitUsage, output + ": not a regular file; refusing to replace it");
  }
}

// Left uninitialised up to `used` (the data overwrites it; zeroing gigabytes
// would cost a pass), zeroed past it: run() copies the padding bytes through.
std::unique_ptr<std::byte[]> allocate(uint64_t bytes, uint64_t used) {
  std::unique_ptr<std::byte[]> buffer(new (std::nothrow) std::byte[size_t(bytes)]);
  if (!buffer) {
    throw Failure(kExitFailure, "out of memory: cannot allocate " + std::to_string(bytes) +
                                    " bytes of host memory");
  }
  std::fill(buffer.get() + used, buffer.get() + bytes, std::byte{0});
  return buffer;
}

}  // namespace

const char* scanCommandName(ScanOperation operation) {
  return wordsFor(operation).command;
}

std::string scanHelp(ScanOperation operation) {
  const ScanWords& words = wordsFor(operation);
  // The usage's second line aligns under the first's options.
  return std::string("usage: vkscan ") + words.command +
         " IN.npy OUT.npy [--axis N] [--exclusive] [--reverse] [--in-place]\n" +
         std::string(14 + std::string(words.command).size(), ' ') +
         "[--input-dtype bfloat16] [--dtype T] [--memory SIZE]" +
         (words.indices ? " [--indices FILE.npy]" : "") +
         "\n"
         "\n"
         "Writes to OUT.npy the cumulative " +
         words.noun +
         " of the array in IN.npy along one axis,\n"
         "with the same shape and memory order (C or Fortran), and the same dtype\n"
         "unless --dtype widens it.\n"
         "\n"
         "  --axis N      the axis to " +
         words.verb +
         " along (default 0); negative counts from the\n"
         "                last axis, as in numpy: -1 is the last\n" +
         words.exclusive + "  --reverse     " + words.verb +
         " from the end of the axis towards its start\n"
         "  --in-place    compute with the output in the input's memory (same result,\n"
         "                half the memory)\n"
         "  --input-dtype bfloat16\n"
         "                IN.npy holds bfloat16 bits as 2-byte data (dtype <u2, or\n" +
         words.bfloat16 +
         "  --dtype T     OUT.npy's dtype, computed in it: the input's, or wider without\n"
         "                loss (int32 to int64, uint32 to uint64, float16 and bfloat16\n"
         "                to float32, float32 to float64), as numpy's dtype=\n" +
         "  --memory SIZE host and device memory to stay near (default 1G; K, M, G\n"
         "                suffixes): a larger array streams, memory-mapped, through\n"
         "                the device in chunks, with the same bits. Every layout\n"
         "                streams whose rows along the axis (the elements inside the\n"
         "                axis in memory order) fit SIZE one at a time (indices do\n"
         "                not stream); --in-place has no effect then\n" +
         (words.indices ? words.indices : "") +
         "\n"
         "IN.npy: .npy format 1.0, 2.0 or 3.0, dtype <f2 <f4 <f8 <i4 <u4 <i8 <u8\n"
         "(<u2 and <V2 only with --input-dtype bfloat16), 1 to 8 dimensions, each at\n" +
         words.values +
         (words.indices
              ? "OUT.npy and FILE.npy are written to temporary files in their directories\n"
                "and renamed when both are complete, so neither is left partial; IN.npy\n"
                "is only read.\n"
              : "OUT.npy is written to a temporary file in its directory and renamed when\n"
                "complete, so it is never left partial; IN.npy is only read.\n");
}

int scanCommand(ScanOperation operation, const std::vector<std::string>& args,
                const GlobalOptions& global) {
  const ScanWords& words = wordsFor(operation);
  const ScanArgs parsed = parseArgs(words, args);

  // Everything that can be checked cheaply is, before the device starts and
  // before the data is read.
  std::optional<npy::NpyReader> reader;
  onFile(parsed.input, [&] { reader.emplace(parsed.input); });
  const npy::Header& header = reader->header();
  uint64_t dataBytes = 0;
  onFile(parsed.input, [&] { dataBytes = header.dataBytes(); });

  ScanDesc desc;
  desc.operation = operation;
  desc.input.dataType = toDataType(words, parsed.input, header.dtype, parsed.bfloat16);
  const DataType type = desc.input.dataType;
  if (operation == ScanOperation::LogSumExp && type != DataType::Float16 &&
      type != DataType::Float32 && type != DataType::Float64 && type != DataType::BFloat16) {
    throw Failure(kExitUsage, parsed.input + ": vkscan " + words.command +
                                  " takes float dtypes (<f2 <f4 <f8, or bfloat16), not " +
                                  npy::dtypeDescr(header.dtype));
  }
  desc.input.sizes = tensorSizes(words, parsed.input, header);
  // Layout is irrelevant without elements, and strides past a 0 dimension
  // would be 0 or, past huge ones, overflow for nothing.
  if (header.fortranOrder && header.elementCount() > 0) {
    desc.input.strides = fortranStrides(parsed.input, desc.input.sizes);
  }
  desc.output = desc.input;
  desc.output.dataType = outputType(parsed, desc.input.dataType);
  desc.axis = resolveAxis(parsed.input, parsed.axis, header);
  desc.axisDirection = parsed.reverse ? AxisDirection::Decreasing : AxisDirection::Increasing;
  desc.exclusive = parsed.exclusive;
  const bool hasIndices = !parsed.indices.empty();
  if (hasIndices) {
    checkIndicesOptions(parsed, desc);
    // The output's element strides, as the library requires.
    desc.indices = {DataType::Int64, desc.input.sizes, desc.output.strides};
  }

  checkOutputPath(parsed.output, reader->fileStatus());
  if (hasIndices) {
    checkOutputPath(parsed.indices, reader->fileStatus());
    if (sameFile(parsed.indices, parsed.output)) {
      throw Failure(kExitUsage, parsed.indices +
                                    ": --indices names the output file; write the "
                                    "indices to another file");
    }
  }
  std::optional<OutputFile> output;
  onFile(parsed.output, [&] { output.emplace(parsed.output); });
  std::optional<OutputFile> indicesOutput;
  if (hasIndices) onFile(parsed.indices, [&] { indicesOutput.emplace(parsed.indices); });

  Progress progress;
  progress.phase("starting the device", 0);
  const Device device = openDevice(global);
  for (DataType type : {desc.input.dataType, desc.output.dataType}) {
    if (!device.supports(type)) {
      throw Failure(kExitUsage, parsed.input + ": " + dataTypeName(type) + " is not supported by " +
                                    capabilities(device).deviceName);
    }
  }

  if (inMemoryBytes(desc) > parsed.memory) {
    if (hasIndices) {
      throw Failure(kExitUsage, "--indices: " + parsed.input + " needs " +
                                    std::to_string(inMemoryBytes(desc)) +
                                    " bytes in memory, more than --memory, and indices do not "
                                    "stream; raise --memory");
    }
    const npy::DType outputDType =
        desc.output.dataType == desc.input.dataType ? header.dtype : npyType(desc.output.dataType);
    npy::Header written = header;
    written.dtype = outputDType;
    try {
      onFile(parsed.output, [&] {
        streamScan(device, desc, *reader, *output, npy::formatHeader(written), parsed.memory,
                   progress);
      });
    } catch (const InvalidArgument& e) {
      throw Failure(kExitUsage, parsed.input + ": " + e.what());
    } catch (const Unsupported& e) {
      throw Failure(kExitUsage, parsed.input + ": " + e.what());
    }
    checkValidation(device, global);
    onFile(parsed.output, [&] { output->commit(); });
    return kExitSuccess;
  }

  // totalBytes() rounds up to 4 bytes, which an odd count of 2-byte elements
  // exceeds.
  const uint64_t bufferBytes = std::max(desc.input.totalBytes(), dataBytes);
  const auto input = allocate(bufferBytes, dataBytes);
  const uint64_t outputDataBytes =
      dataBytes / dataTypeSize(desc.input.dataType) * dataTypeSize(desc.output.dataType);
  std::unique_ptr<std::byte[]> separateOutput;
  if (!parsed.inPlace) {
    separateOutput = allocate(std::max(desc.output.totalBytes(), outputDataBytes), outputDataBytes);
  }
  std::byte* const result = parsed.inPlace ? input.get() : separateOutput.get();
  const uint64_t indexBytes = hasIndices ? header.elementCount() * sizeof(int64_t) : 0;
  std::unique_ptr<std::byte[]> indices;
  if (hasIndices) indices = allocate(std::max(desc.indices.totalBytes(), indexBytes), indexBytes);

  progress.phase("reading " + parsed.input, dataBytes);
  onFile(parsed.input,
         [&] { reader->readData(input.get(), [&](uint64_t done) { progress.advance(done); }); });

  progress.phase("computing", 0);
  try {
    run(device, desc, input.get(), result, indices.get());
  } catch (const InvalidArgument& e) {
    throw Failure(kExitUsage, parsed.input + ": " + e.what());
  } catch (const Unsupported& e) {
    throw Failure(kExitUsage, parsed.input + ": " + e.what());
  }
  checkValidation(device, global);

  const auto write = [&](OutputFile& file, const std::string& path, npy::DType type,
                         const std::byte* data, uint64_t bytes) {
    progress.phase("writing " + path, bytes);
    onFile(path, [&] {
      npy::Header written = header;
      written.dtype = type;
      const std::string fileHeader = npy::formatHeader(written);
      file.write(fileHeader.data(), fileHeader.size());
      for (uint64_t done = 0; done < bytes;) {
        const size_t chunk = size_t(std::min<uint64_t>(kWriteChunk, bytes - done));
        file.write(data + done, chunk);
        done += chunk;
        progress.advance(done);
      }
    });
  };
  write(*output, parsed.output,
        desc.output.dataType == desc.input.dataType ? header.dtype : npyType(desc.output.dataType),
        result, outputDataBytes);
  // Both files are complete before either is renamed into place, so a
  // failed write (a full disk) leaves neither.
  if (hasIndices) {
    write(*indicesOutput, parsed.indices, npy::DType::Int64, indices.get(), indexBytes);
  }
  onFile(parsed.output, [&] { output->commit(); });
  if (hasIndices) onFile(parsed.indices, [&] { indicesOutput->commit(); });
  return kExitSuccess;
}

}  // namespace vkscan::cli
