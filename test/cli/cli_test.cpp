// The built vkscan tool, run as a user runs it, on .npy files written here.
// Results are checked against reference.hpp; failures by exit code, message
// and the state of the directory afterwards.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <map>
#include <optional>
#include <sstream>

#include "npy.hpp"
#include "npy_bytes.hpp"
#include "reference.hpp"

extern char** environ;

using namespace vkscan;
using namespace vkscan::test;
namespace fs = std::filesystem;

namespace {

std::string readFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

void writeFile(const fs::path& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

struct TempDir {
  TempDir() {
    std::string pattern = (fs::temp_directory_path() / "vkscan-cli-XXXXXX").string();
    REQUIRE(::mkdtemp(pattern.data()) != nullptr);
    path = pattern;
  }
  ~TempDir() {
    std::error_code ignored;
    fs::permissions(path, fs::perms::owner_all, fs::perm_options::add, ignored);
    fs::remove_all(path, ignored);
  }
  std::string operator/(const std::string& name) const { return (path / name).string(); }
  fs::path path;
};

struct Result {
  int code = -1;
  std::string out;
  std::string err;
};

// Runs the tool with stdout and stderr captured in files outside the
// directory under test, so they never show up in its snapshot. A
// `fileSizeLimit` makes the tool's writes past it fail with EFBIG, as a full
// disk would.
Result runTool(const std::vector<std::string>& args, rlim_t fileSizeLimit = RLIM_INFINITY) {
  static const TempDir captures;
  const std::string outPath = captures / "stdout";
  const std::string errPath = captures / "stderr";
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, outPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                   0644);
  posix_spawn_file_actions_addopen(&actions, 2, errPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                   0644);
  std::vector<std::string> argvStrings = {VKSCAN_EXE};
  argvStrings.insert(argvStrings.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& s : argvStrings) argv.push_back(s.data());
  argv.push_back(nullptr);
  // The child inherits the soft limit and, since it is ignored, SIGXFSZ's
  // disposition; both are restored here right after.
  rlimit saved = {};
  ::getrlimit(RLIMIT_FSIZE, &saved);
  rlimit limited = saved;
  limited.rlim_cur = fileSizeLimit;
  const auto savedHandler = ::signal(SIGXFSZ, fileSizeLimit == RLIM_INFINITY ? SIG_DFL : SIG_IGN);
  ::setrlimit(RLIMIT_FSIZE, &limited);
  pid_t pid = 0;
  const int spawned = ::posix_spawn(&pid, VKSCAN_EXE, &actions, nullptr, argv.data(), environ);
  ::setrlimit(RLIMIT_FSIZE, &saved);
  ::signal(SIGXFSZ, savedHandler);
  posix_spawn_file_actions_destroy(&actions);
  REQUIRE(spawned == 0);
  int status = 0;
  REQUIRE(::waitpid(pid, &status, 0) == pid);
  Result result;
  result.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  result.out = readFile(outPath);
  result.err = readFile(errPath);
  return result;
}

// Every entry of `dir` (recursively) with its contents, or a symlink's target.
std::map<std::string, std::string> snapshot(const fs::path& dir) {
  std::map<std::string, std::string> entries;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    const std::string name = entry.path().lexically_relative(dir).string();
    if (entry.is_symlink()) {
      entries[name] = "-> " + fs::read_symlink(entry.path()).string();
    } else if (entry.is_regular_file() && entry.file_size() > (1 << 20)) {
      // Only the sparse test file is this large; reading it would take 16 GiB.
      struct stat status = {};
      ::stat(entry.path().c_str(), &status);
      entries[name] = "size " + std::to_string(status.st_size) + ", modified " +
                      std::to_string(status.st_mtim.tv_sec) + "." +
                      std::to_string(status.st_mtim.tv_nsec);
    } else if (entry.is_regular_file()) {
      entries[name] = readFile(entry.path());
    } else {
      entries[name] = "<dir>";
    }
  }
  return entries;
}

std::string typeName(npy::DType type) {
  return npy::dtypeDescr(type);
}

std::string npyFor(const ScanCase& c, const std::string& data, int major = 1) {
  return npyFile(npyDict(npy::dtypeDescr(c.type), c.fortranOrder, npy::formatShape(c.shape)), data,
                 major);
}

struct ScanRun {
  std::string axisArgument;  // as typed; empty for the default
  bool inPlace = false;
  int major = 1;
  bool indices = false;     // --indices: check them too
  std::string memory = "";  // --memory, if set
};

// Runs `vkscan <c.command>` on random data of case `c` and checks the output
// file against the reference, and that the input is unchanged.
void checkScan(const ScanCase& c, const ScanRun& run = {}) {
  CAPTURE(c.command);
  CAPTURE(typeName(c.type));
  CAPTURE(npy::formatShape(c.shape));
  CAPTURE(c.fortranOrder);
  CAPTURE(c.axis);
  CAPTURE(run.axisArgument);
  CAPTURE(c.exclusive);
  CAPTURE(c.reverse);
  CAPTURE(run.inPlace);
  CAPTURE(run.indices);
  CAPTURE(run.memory);
  static std::mt19937_64 rng(20261122);
  TempDir dir;
  const std::string data = randomData(c.command, c.type, elementCount(c.shape), rng);
  const std::string input = npyFor(c, data, run.major);
  writeFile(dir / "in.npy", input);

  std::vector<std::string> args = {c.command, dir / "in.npy", dir / "out.npy"};
  if (!run.axisArgument.empty()) {
    args.push_back("--axis");
    args.push_back(run.axisArgument);
  } else if (c.axis != 0) {
    args.push_back("--axis=" + std::to_string(c.axis));
  }
  if (c.exclusive) args.push_back("--exclusive");
  if (c.reverse) args.push_back("--reverse");
  if (run.inPlace) args.push_back("--in-place");
  if (run.indices) {
    args.push_back("--indices");
    args.push_back(dir / "indices.npy");
  }
  if (!run.memory.empty()) {
    args.push_back("--memory");
    args.push_back(run.memory);
  }
  const Result result = runTool(args);
  CHECK(result.err == "");
  REQUIRE(result.code == 0);

  CHECK(readFile(dir / "in.npy") == input);
  const std::string output = readFile(dir / "out.npy");
  const npy::Header header = npy::parseHeader(output);
  CHECK(header.dtype == c.type);
  CHECK(header.fortranOrder == c.fortranOrder);
  CHECK(header.shape == c.shape);
  const std::string actual = output.substr(size_t(npy::dataOffset(output)));
  const std::string expected = referenceScan(c, data);
  REQUIRE(actual.size() == expected.size());
  const size_t size = npy::dtypeSize(c.type);
  for (size_t i = 0; i < expected.size() / size; ++i) {
    const char* a = actual.data() + i * size;
    const char* e = expected.data() + i * size;
    // Bits, not values: +0 and -0 differ (the exclusive first output is +0).
    if (loadBits(c.type, a) != loadBits(c.type, e)) {
      CAPTURE(i);
      CHECK(loadFloat(c.type, a) == loadFloat(c.type, e));
      CHECK(loadBits(c.type, a) == loadBits(c.type, e));
      break;
    }
  }
  if (run.indices) {
    const std::string file = readFile(dir / "indices.npy");
    const npy::Header indexHeader = npy::parseHeader(file);
    CHECK(indexHeader.dtype == npy::DType::Int64);
    CHECK(indexHeader.fortranOrder == c.fortranOrder);
    CHECK(indexHeader.shape == c.shape);
    const std::string indices = file.substr(size_t(npy::dataOffset(file)));
    const std::string expectedIndices = referenceScan(c, data, true);
    REQUIRE(indices.size() == expectedIndices.size());
    for (size_t i = 0; i < indices.size() / 8; ++i) {
      const uint64_t index = loadBits(npy::DType::Int64, indices.data() + i * 8);
      if (index != loadBits(npy::DType::Int64, expectedIndices.data() + i * 8)) {
        CAPTURE(i);
        CHECK(index == loadBits(npy::DType::Int64, expectedIndices.data() + i * 8));
        break;
      }
    }
  }
  CHECK(snapshot(dir.path).size() == (run.indices ? 3 : 2));
}

ScanCase scanCase(npy::DType type, std::vector<uint64_t> shape, bool fortranOrder, uint32_t axis,
                  bool exclusive = false, bool reverse = false) {
  ScanCase c;
  c.type = type;
  c.shape = std::move(shape);
  c.fortranOrder = fortranOrder;
  c.axis = axis;
  c.exclusive = exclusive;
  c.reverse = reverse;
  return c;
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// Runs a command that must fail: exit code `code`, one line on stderr
// starting "vkscan: " and containing `message`, nothing on stdout, and the
// directory exactly as it was (no output, no temporary file, inputs intact).
void checkFailure(const TempDir& dir, const std::vector<std::string>& args, int code,
                  const std::string& message, rlim_t fileSizeLimit = RLIM_INFINITY) {
  CAPTURE(args);
  const auto before = snapshot(dir.path);
  const Result result = runTool(args, fileSizeLimit);
  CAPTURE(result.err);
  CHECK(result.code == code);
  CHECK(result.err.rfind("vkscan: ", 0) == 0);
  CHECK(contains(result.err, message));
  CHECK(std::count(result.err.begin(), result.err.end(), '\n') == 1);
  CHECK(result.out == "");
  CHECK(snapshot(dir.path) == before);
}

const std::string kSmallF4 = npyFile(npyDict("<f4", false, "(2, 3)"), std::string(24, '\0'));

// Sets environment variables, which the tool inherits, for its lifetime.
class ScopedEnvironment {
 public:
  ScopedEnvironment(std::initializer_list<const char*> names, const std::string& value) {
    for (const char* name : names) {
      const char* old = std::getenv(name);
      saved_[name] = old ? std::optional<std::string>(old) : std::nullopt;
      ::setenv(name, value.c_str(), 1);
    }
  }
  ~ScopedEnvironment() {
    for (const auto& [name, value] : saved_) {
      if (value) {
        ::setenv(name.c_str(), value->c_str(), 1);
      } else {
        ::unsetenv(name.c_str());
      }
    }
  }
  ScopedEnvironment(const ScopedEnvironment&) = delete;
  ScopedEnvironment& operator=(const ScopedEnvironment&) = delete;

 private:
  std::map<std::string, std::optional<std::string>> saved_;
};

}  // namespace

TEST_CASE("demo: the documentation's examples match") {
  const Result result = runTool({"demo"});
  CAPTURE(result.out);
  CHECK(result.code == 0);
  CHECK(contains(result.out, "5 of 5 examples match"));
  CHECK(contains(result.out, "[[[[11,  9,  8,  5]"));
  CHECK(!contains(result.out, "MISMATCH"));
}

TEST_CASE("info: lists the devices and the selected one") {
  const Result result = runTool({"info"});
  CAPTURE(result.out);
  CAPTURE(result.err);
  CHECK(result.code == 0);
  CHECK(contains(result.out, "Devices:\n  0: "));
  CHECK(contains(result.out, "Selected device: "));
  CHECK(contains(result.out, "subgroup size:"));
  CHECK(contains(result.out, "FLOAT32 yes"));
  CHECK(contains(result.out, "FLOAT16 yes"));
  CHECK(contains(result.out, "BFLOAT16 yes"));
  CHECK(contains(result.out, "kernels:              native 64-bit integers, 16-bit storage\n"));
  // How vkscan plans for the device, in the library's own words.
  if (contains(result.out, "driver:               llvmpipe")) {
    CHECK(contains(result.out, "plans:                llvmpipe"));
    CHECK(contains(result.out, "subgroup sizes:       "));  // lavapipe reports them
    CHECK(contains(result.out, ": CPU-implementation plans, subgroup size "));
    CHECK(contains(result.out, ", kernels on Load64Store32 words, "));
  } else {
    CHECK(contains(result.out, "plans:                "));
  }
  CHECK(contains(result.out, "max storage buffer range"));
}

TEST_CASE("info: on lavapipe, the worker threads LP_NUM_THREADS asks for") {
  ScopedEnvironment threads({"LP_NUM_THREADS"}, "3");
  const Result result = runTool({"info"});
  CAPTURE(result.out);
  CAPTURE(result.err);
  CHECK(result.code == 0);
  if (!contains(result.out, "driver:               llvmpipe")) {
    MESSAGE("not lavapipe: no worker threads to compare");
    return;
  }
  // At once: at most the CPUs this host lets the tool use, which vary.
  CHECK(contains(result.out, ", worker threads expected: 3 ("));
  CHECK(contains(result.out, " at once) (LP_NUM_THREADS=3)\n"));
}

TEST_CASE("help: every command has it, before or after the command") {
  for (const std::vector<std::string>& args : {std::vector<std::string>{"--help"},
                                               {"-h"},
                                               {"help"},
                                               {"help", "cumsum"},
                                               {"cumsum", "--help"},
                                               {"--help", "cumsum"},
                                               {"demo", "--help"},
                                               {"info", "-h"},
                                               {"help", "cumprod"},
                                               {"cummax", "--help"},
                                               {"-h", "cummin"},
                                               {"logcumsumexp", "--help"}}) {
    CAPTURE(args);
    const Result result = runTool(args);
    CHECK(result.code == 0);
    CHECK(result.out.rfind("usage: vkscan", 0) == 0);
    CHECK(result.err == "");
  }
  CHECK(contains(runTool({"help", "cumsum"}).out, "--exclusive"));
  CHECK(contains(runTool({"help", "cumsum"}).out, "--input-dtype bfloat16"));
  // Each scan command says what its exclusive scan starts with.
  CHECK(contains(runTool({"help", "cumsum"}).out, "(the first output is 0)"));
  CHECK(contains(runTool({"help", "cumprod"}).out, "is the identity, 1)"));
  CHECK(contains(runTool({"help", "cummax"}).out,
                 "is the identity: -inf for floats, the type's least"));
  CHECK(contains(runTool({"help", "cummin"}).out,
                 "is the identity: +inf for floats, the type's greatest"));
  CHECK(contains(runTool({"help", "cummin"}).out, "PyTorch's cummin indices"));
  CHECK(contains(runTool({"help", "logcumsumexp"}).out, "output is the identity, -inf)"));
  CHECK(contains(runTool({"help", "logcumsumexp"}).out, "Float dtypes only."));
  for (const char* command : {"cumsum", "cumprod", "cummax", "cummin", "logcumsumexp"}) {
    CHECK(contains(runTool({"--help"}).out, command));
  }
  CHECK(runTool({"--version"}).out.rfind("vkscan ", 0) == 0);
  const Result none = runTool({});
  CHECK(none.code == 2);
  CHECK(none.err.rfind("usage: vkscan", 0) == 0);
}

// The flags only set the descriptor's fields, whose every combination the
// library's suites scan: here each dtype takes the four combinations of
// direction and exclusivity in turn over its six orders and axes. (All of
// them for every order and axis, 168 runs of the tool, took 140 s of CI,
// most of it starting a device.)
TEST_CASE("cumsum: every dtype, order and axis, and per dtype every direction and exclusivity") {
  unsigned combination = 0;
  for (npy::DType type : npy::kAllDTypes) {
    for (bool fortran : {false, true}) {
      for (uint32_t axis = 0; axis < 3; ++axis, ++combination) {
        bool exclusive = (combination & 1u) != 0;
        bool reverse = (combination & 2u) != 0;
        // 5 * 7 * 9 is odd, so FLOAT16 data does not fill its last 4 bytes.
        checkScan(scanCase(type, {5, 7, 9}, fortran, axis, exclusive, reverse));
      }
    }
  }
}

TEST_CASE("cumsum: long lines on a strided middle axis") {
  for (bool exclusive : {false, true}) {
    for (bool reverse : {false, true}) {
      checkScan(scanCase(npy::DType::Float32, {6, 300, 5}, false, 1, exclusive, reverse));
      checkScan(scanCase(npy::DType::Int64, {6, 300, 5}, true, 1, exclusive, reverse));
    }
  }
}

TEST_CASE("cumsum: negative axes count from the last") {
  checkScan(scanCase(npy::DType::Float64, {4, 5, 6}, false, 2), {"-1"});
  checkScan(scanCase(npy::DType::UInt32, {4, 5, 6}, true, 0, true), {"-3"});
  checkScan(scanCase(npy::DType::Int32, {4, 5, 6}, true, 1, false, true), {"-2"});
}

TEST_CASE("cumsum: in place gives the same result") {
  ScanRun inPlace;
  inPlace.inPlace = true;
  checkScan(scanCase(npy::DType::Float32, {9, 31}, false, 1, true, false), inPlace);
  checkScan(scanCase(npy::DType::UInt64, {9, 31}, true, 0, false, true), inPlace);
  checkScan(scanCase(npy::DType::Float16, {3, 5, 7}, false, 0), inPlace);
}

TEST_CASE("cumsum: long lines span several levels of the scan") {
  checkScan(scanCase(npy::DType::Int32, {3, 1500}, false, 1));
  checkScan(scanCase(npy::DType::Float32, {2000, 2}, false, 0, true, true));
  // FLOAT16 holds integers exactly only up to 2048: 8 * 250 stays below.
  checkScan(scanCase(npy::DType::Float16, {250, 3}, true, 0, false, true));
  checkScan(scanCase(npy::DType::UInt64, {5, 800}, true, 1, true));
}

TEST_CASE("cumsum: ranks 1 to 8 and axes of length 1") {
  checkScan(scanCase(npy::DType::Float32, {9}, false, 0));
  checkScan(scanCase(npy::DType::Int64, {1}, true, 0, true));
  checkScan(scanCase(npy::DType::Float32, {2, 1, 3, 1, 2, 2, 1, 3}, false, 7, false, true));
  checkScan(scanCase(npy::DType::Int32, {2, 1, 3, 1, 2, 2, 1, 3}, true, 4, true));
  checkScan(scanCase(npy::DType::UInt32, {4, 1, 5}, false, 1));
}

TEST_CASE("cumsum: reads format versions 2.0 and 3.0") {
  ScanRun v2;
  v2.major = 2;
  checkScan(scanCase(npy::DType::Float32, {3, 4}, false, 1), v2);
  ScanRun v3;
  v3.major = 3;
  checkScan(scanCase(npy::DType::Int64, {3, 4}, true, 0), v3);
}

TEST_CASE("cumsum: an empty array gives an empty array") {
  checkScan(scanCase(npy::DType::Float32, {3, 0, 2}, false, 1));
  checkScan(scanCase(npy::DType::Float16, {3, 0, 2}, true, 2, true, true));
  checkScan(scanCase(npy::DType::Int32, {0}, false, 0));
}

// cumprod, cummax and cummin are cumsum's command with another operation:
// the file handling above holds for them, so each runs on a float and an
// integer type, forward inclusive along a line that spans two groups of 16
// and then exclusive and reverse on a Fortran array.
TEST_CASE("cumprod, cummax, cummin: a float and an integer type, every direction and exclusivity") {
  const std::pair<const char*, npy::DType> cases[] = {
      {"cumprod", npy::DType::Float32}, {"cumprod", npy::DType::Int64},
      {"cummax", npy::DType::Float16},  {"cummax", npy::DType::Int32},
      {"cummin", npy::DType::Float64},  {"cummin", npy::DType::UInt32},
  };
  for (const auto& [command, type] : cases) {
    ScanCase c = scanCase(type, {3, 37, 2}, false, 1);
    c.command = command;
    checkScan(c);
    // FLOAT16 products of 13 factors of 2^-1..2^1 stay normal.
    c = scanCase(type, {13, 2, 3}, true, 0, true, true);
    c.command = command;
    checkScan(c);
  }
  ScanRun inPlace;
  inPlace.inPlace = true;
  ScanCase c = scanCase(npy::DType::UInt64, {4, 20}, false, 1, false, true);
  c.command = "cumprod";
  checkScan(c, inPlace);
  c = scanCase(npy::DType::Float32, {5, 6}, true, 1, true, false);
  c.command = "cummin";
  checkScan(c, {"-1"});
}

// Written out by hand: ties go to the later element, so -0.0 and +0.0
// alternate, and a NaN always wins, the latest one propagating (PyTorch's
// cummax and cummin values).
TEST_CASE("cummax, cummin: ties and NaNs, bit for bit") {
  const uint32_t kNaN = 0x7FC00000, kNegativeNaN = 0xFFC00000;
  // -0.0, +0.0, -1, -0.0, NaN, 7, -NaN, 9
  const std::vector<uint32_t> input = {0x80000000, 0x00000000, 0xBF800000,   0x80000000,
                                       kNaN,       0x40E00000, kNegativeNaN, 0x41100000};
  struct Run {
    std::vector<std::string> command;
    std::vector<uint32_t> expected;
  };
  const Run runs[] = {
      {{"cummax"},
       {0x80000000, 0x00000000, 0x00000000, 0x80000000, kNaN, kNaN, kNegativeNaN, kNegativeNaN}},
      {{"cummin"},
       {0x80000000, 0x00000000, 0xBF800000, 0xBF800000, kNaN, kNaN, kNegativeNaN, kNegativeNaN}},
      // From 9 down, each output leaving its element out: -inf first.
      {{"cummax", "--exclusive", "--reverse"},
       {kNaN, kNaN, kNaN, kNaN, kNegativeNaN, kNegativeNaN, 0x41100000, 0xFF800000}},
  };
  TempDir dir;
  std::string data(input.size() * 4, '\0');
  std::memcpy(data.data(), input.data(), data.size());
  writeFile(dir / "in.npy", npyFile(npyDict("<f4", false, "(8,)"), data));
  for (const Run& run : runs) {
    CAPTURE(run.command);
    std::vector<std::string> args = {run.command[0], dir / "in.npy", dir / "out.npy"};
    args.insert(args.end(), run.command.begin() + 1, run.command.end());
    const Result result = runTool(args);
    CHECK(result.err == "");
    REQUIRE(result.code == 0);
    const std::string output = readFile(dir / "out.npy");
    std::vector<uint32_t> actual(input.size());
    REQUIRE(output.size() - size_t(npy::dataOffset(output)) == actual.size() * 4);
    std::memcpy(actual.data(), output.data() + npy::dataOffset(output), actual.size() * 4);
    CHECK(actual == run.expected);
  }
}

TEST_CASE("cummax --input-dtype bfloat16: NaNs and ties as FLOAT32's") {
  TempDir dir;
  // -0.0, +0.0, 2, NaN, -NaN, 3 as bfloat16 bits.
  const uint16_t input[] = {0x8000, 0x0000, 0x4000, 0x7FC0, 0xFFC0, 0x4040};
  const uint16_t expected[] = {0x8000, 0x0000, 0x4000, 0x7FC0, 0xFFC0, 0xFFC0};
  writeFile(dir / "in.npy", npyFile(npyDict("<u2", false, "(6,)"),
                                    std::string(reinterpret_cast<const char*>(input), 12)));
  const Result result =
      runTool({"cummax", dir / "in.npy", dir / "out.npy", "--input-dtype", "bfloat16"});
  CHECK(result.err == "");
  REQUIRE(result.code == 0);
  const std::string output = readFile(dir / "out.npy");
  CHECK(output.substr(size_t(npy::dataOffset(output))) ==
        std::string(reinterpret_cast<const char*>(expected), 12));
}

// PyTorch's cummax and cummin indices, written out by hand (torch 1.13
// gives these): ties to the later element, -0.0 against +0.0 too, and the
// latest NaN; reversed, the index of the element in the array as it is.
TEST_CASE("cummax, cummin --indices: ties and NaNs as PyTorch's") {
  const uint32_t kNaN = 0x7FC00000, kNegativeNaN = 0xFFC00000;
  // -0.0, +0.0, -1, -0.0, NaN, 7, -NaN, 9
  const std::vector<uint32_t> floats = {0x80000000, 0x00000000, 0xBF800000,   0x80000000,
                                        kNaN,       0x40E00000, kNegativeNaN, 0x41100000};
  const std::vector<int32_t> integers = {3, 1, 3, -5, 3, 7, 7, -9};
  struct Run {
    std::vector<std::string> command;
    const char* dtype;
    std::vector<int64_t> expected;
  };
  const Run runs[] = {
      {{"cummax"}, "<f4", {0, 1, 1, 3, 4, 4, 6, 6}},
      {{"cummin"}, "<f4", {0, 1, 2, 2, 4, 4, 6, 6}},
      // From 9 down: 9, then the NaN at 6 wins until the NaN at 4 does.
      {{"cummax", "--reverse"}, "<f4", {4, 4, 4, 4, 4, 6, 6, 7}},
      {{"cummax"}, "<i4", {0, 0, 2, 2, 4, 5, 6, 6}},
      {{"cummin"}, "<i4", {0, 1, 1, 3, 3, 3, 3, 7}},
      {{"cummin", "--reverse"}, "<i4", {7, 7, 7, 7, 7, 7, 7, 7}},
  };
  TempDir dir;
  std::string floatData(32, '\0'), integerData(32, '\0');
  std::memcpy(floatData.data(), floats.data(), 32);
  std::memcpy(integerData.data(), integers.data(), 32);
  writeFile(dir / "f4.npy", npyFile(npyDict("<f4", false, "(8,)"), floatData));
  writeFile(dir / "i4.npy", npyFile(npyDict("<i4", false, "(8,)"), integerData));
  for (const Run& run : runs) {
    CAPTURE(run.command);
    CAPTURE(run.dtype);
    const std::string input = dir / (std::string(run.dtype).substr(1) + ".npy");
    std::vector<std::string> args = {run.command[0], input, dir / "out.npy", "--indices",
                                     dir / "indices.npy"};
    args.insert(args.end(), run.command.begin() + 1, run.command.end());
    const Result result = runTool(args);
    CHECK(result.err == "");
    REQUIRE(result.code == 0);
    const std::string output = readFile(dir / "indices.npy");
    CHECK(npy::parseHeader(output).dtype == npy::DType::Int64);
    std::vector<int64_t> actual(8);
    REQUIRE(output.size() - size_t(npy::dataOffset(output)) == 64);
    std::memcpy(actual.data(), output.data() + npy::dataOffset(output), 64);
    CHECK(actual == run.expected);
  }
}

TEST_CASE("cummax, cummin --indices: every type, order, axis and direction") {
  ScanRun indices;
  indices.indices = true;
  // Each type once (every run compiles its pipelines), C order forwards
  // and Fortran order reversed in turn.
  const std::pair<const char*, npy::DType> cases[] = {
      {"cummax", npy::DType::Float16}, {"cummax", npy::DType::Int32},
      {"cummax", npy::DType::UInt64},  {"cummax", npy::DType::Float64},
      {"cummin", npy::DType::Float32}, {"cummin", npy::DType::Int64},
      {"cummin", npy::DType::UInt32},
  };
  bool fortran = false;
  for (const auto& [command, type] : cases) {
    ScanCase c = fortran ? scanCase(type, {70, 3}, true, 0, false, true)
                         : scanCase(type, {3, 37, 2}, false, 1);
    c.command = command;
    checkScan(c, indices);
    fortran = !fortran;
  }
  // Lines across several levels of the scan, and a negative axis.
  ScanCase c = scanCase(npy::DType::Float32, {2, 5000}, false, 1, false, true);
  c.command = "cummax";
  checkScan(c, indices);
  c = scanCase(npy::DType::Int64, {3, 4, 300}, true, 2);
  c.command = "cummin";
  ScanRun negative = indices;
  negative.axisArgument = "-1";
  checkScan(c, negative);
}

TEST_CASE("cummax --indices: bfloat16 input, an empty array, the --indices= form") {
  TempDir dir;
  // -0.0, +0.0, 2, NaN, -NaN, 3 as bfloat16 bits.
  const uint16_t input[] = {0x8000, 0x0000, 0x4000, 0x7FC0, 0xFFC0, 0x4040};
  const int64_t expected[] = {0, 1, 2, 3, 4, 4};
  writeFile(dir / "in.npy", npyFile(npyDict("<u2", false, "(6,)"),
                                    std::string(reinterpret_cast<const char*>(input), 12)));
  Result result = runTool({"cummax", dir / "in.npy", dir / "out.npy", "--input-dtype", "bfloat16",
                           "--indices=" + dir / "indices.npy"});
  CHECK(result.err == "");
  REQUIRE(result.code == 0);
  std::string output = readFile(dir / "indices.npy");
  CHECK(output.substr(size_t(npy::dataOffset(output))) ==
        std::string(reinterpret_cast<const char*>(expected), 48));

  writeFile(dir / "empty.npy", npyFile(npyDict("<f4", false, "(3, 0)"), ""));
  result = runTool({"cummin", dir / "empty.npy", dir / "out.npy", "--axis", "1", "--indices",
                    dir / "indices.npy"});
  CHECK(result.err == "");
  REQUIRE(result.code == 0);
  output = readFile(dir / "indices.npy");
  const npy::Header header = npy::parseHeader(output);
  CHECK(header.dtype == npy::DType::Int64);
  CHECK(header.shape == std::vector<uint64_t>{3, 0});
  CHECK(output.size() == size_t(npy::dataOffset(output)));
}

TEST_CASE("--indices: refused on other commands and with what has no indices") {
  TempDir dir;
  writeFile(dir / "f4.npy", kSmallF4);
  writeFile(dir / "i4.npy", npyFile(npyDict("<i4", false, "(2, 3)"), std::string(24, '\0')));
  const std::string in = dir / "f4.npy", out = dir / "out.npy", indices = dir / "indices.npy";
  for (const char* command : {"cumsum", "cumprod", "logcumsumexp"}) {
    checkFailure(dir, {command, in, out, "--indices", indices}, 2,
                 std::string(command) + ": --indices: only cummax and cummin have indices");
  }
  checkFailure(dir, {"cummax", in, out, "--indices", indices, "--exclusive"}, 2,
               "--indices with --exclusive: an exclusive scan has no indices (PyTorch's have "
               "none)");
  checkFailure(dir, {"cummin", dir / "i4.npy", out, "--dtype", "int64", "--indices", indices}, 2,
               "--indices with --dtype int64: indices are not computed with a wider output type (" +
                   dir / "i4.npy" + " holds INT32)");
  checkFailure(dir, {"cummax", in, out, "--in-place", "--indices", indices}, 2,
               "--indices with --in-place: the indices are found from the input after the output "
               "is written");
  checkFailure(dir, {"cummax", in, out, "--indices"}, 2, "--indices needs a file name");
  checkFailure(dir, {"cummax", in, out, "--indices="}, 2, "--indices needs a file name");
  checkFailure(dir, {"cummax", in, out, "--indices", out}, 2,
               out + ": --indices names the output file");
  checkFailure(dir, {"cummax", in, out, "--indices", dir / "./out.npy"}, 2,
               "--indices names the output file");
  checkFailure(dir, {"cummax", in, out, "--indices", in}, 2, in + ": is the input file");
  checkFailure(dir, {"cummax", in, out, "--indices", dir.path.string()}, 2, ": is a directory");
  checkFailure(dir, {"cummax", in, out, "--indices", dir / "missing/indices.npy"}, 2,
               "cannot create a file in the output directory");
  CHECK(contains(runTool({"help", "cummax"}).out, "--indices FILE.npy"));
  CHECK(!contains(runTool({"help", "cumsum"}).out, "--indices"));
}

TEST_CASE("--indices: a failed write of either file leaves neither") {
  TempDir dir;
  // The values take 8,320 bytes, the indices 16,512.
  writeFile(dir / "in.npy", npyFile(npyDict("<f4", false, "(2048,)"), std::string(8192, '\0')));
  const std::vector<std::string> args = {"cummax", dir / "in.npy", dir / "out.npy", "--indices",
                                         dir / "indices.npy"};
  checkFailure(dir, args, 1, "indices.npy: write failed: File too large", 12000);
  checkFailure(dir, args, 1, "out.npy: write failed: File too large", 4096);
  writeFile(dir / "out.npy", "precious");
  writeFile(dir / "indices.npy", "precious too");
  checkFailure(dir, args, 1, "indices.npy: write failed: File too large", 12000);
}

// Log-sum-exp's results by its exact rules, bit for bit: -inf is the
// identity, equal operands give x + ln 2 (2.6931472: 0x402C5C86, as FLOAT16
// 0x4163), a gap past the cutoff gives the larger operand, +inf wins and a
// NaN gives the positive quiet NaN. Integers are refused before any work.
TEST_CASE("logcumsumexp: exact cases bit for bit, float dtypes only") {
  const uint32_t kNaN = 0x7FC00000, kInf = 0x7F800000, kNegativeInf = 0xFF800000;
  // -inf, 2, 2, -1000, +inf, -NaN, 1
  const std::vector<uint32_t> input = {kNegativeInf, 0x40000000, 0x40000000, 0xC47A0000,
                                       kInf,         0xFFC00000, 0x3F800000};
  struct Run {
    std::vector<std::string> options;
    std::vector<uint32_t> expected;
  };
  const Run runs[] = {
      {{}, {kNegativeInf, 0x40000000, 0x402C5C86, 0x402C5C86, kInf, kNaN, kNaN}},
      {{"--exclusive"},
       {kNegativeInf, kNegativeInf, 0x40000000, 0x402C5C86, 0x402C5C86, kInf, kNaN}},
  };
  TempDir dir;
  std::string data(input.size() * 4, '\0');
  std::memcpy(data.data(), input.data(), data.size());
  writeFile(dir / "in.npy", npyFile(npyDict("<f4", false, "(7,)"), data));
  for (const Run& run : runs) {
    CAPTURE(run.options);
    std::vector<std::string> args = {"logcumsumexp", dir / "in.npy", dir / "out.npy"};
    args.insert(args.end(), run.options.begin(), run.options.end());
    const Result result = runTool(args);
    CHECK(result.err == "");
    REQUIRE(result.code == 0);
    const std::string output = readFile(dir / "out.npy");
    std::vector<uint32_t> actual(input.size());
    REQUIRE(output.size() - size_t(npy::dataOffset(output)) == actual.size() * 4);
    std::memcpy(actual.data(), output.data() + npy::dataOffset(output), actual.size() * 4);
    CHECK(actual == run.expected);
  }
  // FLOAT16: -inf, 2, 2, -1000.
  const uint16_t halves[] = {0xFC00, 0x4000, 0x4000, 0xE3D0};
  const uint16_t expected[] = {0xFC00, 0x4000, 0x4163, 0x4163};
  writeFile(dir / "half.npy", npyFile(npyDict("<f2", false, "(4,)"),
                                      std::string(reinterpret_cast<const char*>(halves), 8)));
  const Result result = runTool({"logcumsumexp", dir / "half.npy", dir / "out.npy"});
  CHECK(result.err == "");
  REQUIRE(result.code == 0);
  const std::string output = readFile(dir / "out.npy");
  CHECK(output.substr(size_t(npy::dataOffset(output))) ==
        std::string(reinterpret_cast<const char*>(expected), 8));

  writeFile(dir / "int.npy", npyFile(npyDict("<i4", false, "(3,)"), std::string(12, '\0')));
  checkFailure(dir, {"logcumsumexp", dir / "int.npy", dir / "int_out.npy"}, 2,
               "int.npy: vkscan logcumsumexp takes float dtypes (<f2 <f4 <f8, or bfloat16), "
               "not <i4");
}

TEST_CASE("cumsum: replaces an existing output, keeping its permissions and links") {
  TempDir dir;
  writeFile(dir / "in.npy",
            npyFile(npyDict("<i4", false, "(3,)"), std::string("\1\0\0\0\2\0\0\0\3\0\0\0", 12)));
  const std::string expected =
      npyFile(npyDict("<i4", false, "(3,)"), std::string("\1\0\0\0\3\0\0\0\6\0\0\0", 12));
  writeFile(dir / "out.npy", "old contents");
  fs::permissions(dir / "out.npy",
                  fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
  CHECK(runTool({"cumsum", dir / "in.npy", dir / "out.npy"}).code == 0);
  CHECK(readFile(dir / "out.npy") == expected);
  CHECK(fs::status(dir / "out.npy").permissions() ==
        (fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read));

  fs::create_directory(dir / "sub");
  writeFile(dir / "sub/target.npy", "old");
  fs::create_symlink("sub/target.npy", dir / "link.npy");
  CHECK(runTool({"cumsum", dir / "in.npy", dir / "link.npy"}).code == 0);
  CHECK(fs::is_symlink(dir / "link.npy"));
  CHECK(readFile(dir / "sub/target.npy") == expected);
  CHECK(snapshot(dir.path).size() == 5);
}

TEST_CASE("cumsum: a dangling link's target is created, as numpy's save does") {
  TempDir dir;
  writeFile(dir / "in.npy",
            npyFile(npyDict("<i4", false, "(3,)"), std::string("\1\0\0\0\2\0\0\0\3\0\0\0", 12)));
  const std::string expected =
      npyFile(npyDict("<i4", false, "(3,)"), std::string("\1\0\0\0\3\0\0\0\6\0\0\0", 12));
  fs::create_directory(dir / "sub");
  fs::create_symlink("new.npy", dir / "sub/inner.npy");
  fs::create_symlink("sub/inner.npy", dir / "link.npy");
  CHECK(runTool({"cumsum", dir / "in.npy", dir / "link.npy"}).code == 0);
  CHECK(fs::is_symlink(dir / "link.npy"));
  CHECK(fs::is_symlink(dir / "sub/inner.npy"));
  CHECK(readFile(dir / "sub/new.npy") == expected);
  CHECK(snapshot(dir.path).size() == 5);

  fs::create_symlink("loop_b.npy", dir / "loop_a.npy");
  fs::create_symlink("loop_a.npy", dir / "loop_b.npy");
  checkFailure(
      dir, {"cumsum", dir / "in.npy", dir / "loop_a.npy"}, 2,
      dir / "loop_a.npy" + ": cannot resolve symbolic link: Too many levels of symbolic links");
}

TEST_CASE("reject a missing or unreadable input") {
  TempDir dir;
  checkFailure(dir, {"cumsum", dir / "missing.npy", dir / "out.npy"}, 2,
               dir / "missing.npy" + ": cannot open: No such file or directory");
  checkFailure(dir, {"cumsum", dir.path.string(), dir / "out.npy"}, 2,
               dir.path.string() + ": Is a directory");
}

TEST_CASE("reject a truncated file, naming the sizes") {
  TempDir dir;
  writeFile(dir / "in.npy", npyFile(npyDict("<f4", false, "(250,)"), std::string(996, '\0')));
  checkFailure(dir, {"cumsum", dir / "in.npy", dir / "out.npy"}, 2,
               dir / "in.npy" + ": truncated: header says 1000 bytes of data, file has 996");
  writeFile(dir / "head.npy", npyFile(npyDict("<f4", false, "(250,)")).substr(0, 30));
  checkFailure(dir, {"cumsum", dir / "head.npy", dir / "out.npy"}, 2,
               "head.npy: truncated: the file ends in the header");
}

TEST_CASE("reject a bad magic string or header") {
  TempDir dir;
  writeFile(dir / "text.npy", "hello, world\n");
  checkFailure(dir, {"cumsum", dir / "text.npy", dir / "out.npy"}, 2, "text.npy: not a .npy file");
  writeFile(dir / "empty.npy", "");
  checkFailure(dir, {"cumsum", dir / "empty.npy", dir / "out.npy"}, 2,
               "empty.npy: not a .npy file");
  writeFile(dir / "noshape.npy", npyFile("{'descr': '<f4', 'fortran_order': False, }"));
  checkFailure(dir, {"cumsum", dir / "noshape.npy", dir / "out.npy"}, 2,
               "noshape.npy: header has no 'shape'");
  writeFile(dir / "short.npy", std::string("\x93NUMPY\x01\0\1\0{", 11) + std::string(50, 'A'));
  checkFailure(dir, {"cumsum", dir / "short.npy", dir / "out.npy"}, 2,
               "short.npy: header of 1 bytes cannot hold the header dict");
  std::string version = kSmallF4;
  version[6] = 9;
  writeFile(dir / "version.npy", version);
  checkFailure(dir, {"cumsum", dir / "version.npy", dir / "out.npy"}, 2,
               "version.npy: unsupported .npy format version 9.0");
}

TEST_CASE("reject unsupported dtypes") {
  TempDir dir;
  const std::pair<const char*, const char*> cases[] = {
      {"|b1", "(bool)"},       {"<c8", "(complex)"}, {"|O", "(Python objects)"},
      {">f4", "(big-endian)"}, {"<U3", "(strings)"}, {"|S4", "(strings)"},
      {"<i2", "(int16)"},
  };
  for (const auto& [descr, what] : cases) {
    writeFile(dir / "in.npy", npyFile(npyDict(descr, false, "(3,)"), std::string(48, '\0')));
    checkFailure(dir, {"cumsum", dir / "in.npy", dir / "out.npy"}, 2,
                 "in.npy: unsupported dtype '" + std::string(descr) + "' " + what);
  }
}

// numpy has no bfloat16: its bits come as <u2 or raw 2-byte (V2) data, and
// the output keeps the input's dtype. Small integers are exact in bfloat16
// (8 significant bits), so the sums are the exact ones.
TEST_CASE("cumsum --input-dtype bfloat16: <u2 and V2 data, every mode, in place") {
  auto bfloat16 = [](double value) {
    const auto f = float(value);
    uint32_t bits;
    std::memcpy(&bits, &f, 4);
    return uint16_t(bits >> 16);
  };
  std::mt19937_64 rng(48);
  const uint64_t lines = 5, length = 40;
  std::vector<double> values(lines * length);
  std::string data(values.size() * 2, '\0');
  for (size_t i = 0; i < values.size(); ++i) {
    values[i] = double(int(rng() % 9) - 4);
    const uint16_t bits = bfloat16(values[i]);
    std::memcpy(&data[i * 2], &bits, 2);
  }
  struct Run {
    const char* descr;
    const char* written;
    bool exclusive, reverse, inPlace;
  };
  for (const Run& run :
       {Run{"<u2", "<u2", false, false, false}, Run{"|V2", "|V2", true, true, false},
        Run{"<V2", "|V2", false, true, true}}) {
    CAPTURE(run.descr);
    TempDir dir;
    writeFile(dir / "in.npy", npyFile(npyDict(run.descr, false, "(5, 40)"), data));
    std::vector<std::string> args = {"cumsum", dir / "in.npy",  dir / "out.npy", "--axis",
                                     "1",      "--input-dtype", "bfloat16"};
    if (run.exclusive) args.push_back("--exclusive");
    if (run.reverse) args.push_back("--reverse");
    if (run.inPlace) args.push_back("--in-place");
    const Result result = runTool(args);
    CHECK(result.err == "");
    REQUIRE(result.code == 0);
    const std::string output = readFile(dir / "out.npy");
    CHECK(contains(output, std::string("'descr': '") + run.written + "'"));
    const npy::Header header = npy::parseHeader(output);
    CHECK(header.shape == std::vector<uint64_t>{lines, length});
    std::string expected(data.size(), '\0');
    for (uint64_t line = 0; line < lines; ++line) {
      double sum = 0;
      for (uint64_t k = 0; k < length; ++k) {
        const uint64_t i = line * length + (run.reverse ? length - 1 - k : k);
        if (!run.exclusive) sum += values[i];
        const uint16_t bits = bfloat16(sum);
        std::memcpy(&expected[i * 2], &bits, 2);
        if (run.exclusive) sum += values[i];
      }
    }
    CHECK(output.substr(size_t(npy::dataOffset(output))) == expected);
  }
}

TEST_CASE("cumsum --input-dtype bfloat16: refused on other data, and 2-byte data without it") {
  TempDir dir;
  writeFile(dir / "u2.npy", npyFile(npyDict("<u2", false, "(3,)"), std::string(6, '\0')));
  writeFile(dir / "f4.npy", kSmallF4);
  checkFailure(dir, {"cumsum", dir / "u2.npy", dir / "out.npy"}, 2,
               "u2.npy: vkscan does not sum dtype <u2; if it holds bfloat16 bits, pass "
               "--input-dtype bfloat16");
  checkFailure(dir, {"cumprod", dir / "u2.npy", dir / "out.npy"}, 2,
               "u2.npy: vkscan does not multiply dtype <u2; if it holds bfloat16 bits");
  checkFailure(dir, {"cumsum", dir / "f4.npy", dir / "out.npy", "--input-dtype", "bfloat16"}, 2,
               "f4.npy: --input-dtype bfloat16 reads 2-byte data (<u2 or <V2), not <f4");
  checkFailure(dir, {"cumsum", dir / "u2.npy", dir / "out.npy", "--input-dtype=float16"}, 2,
               "--input-dtype 'float16' is not bfloat16");
  checkFailure(dir, {"cumsum", dir / "u2.npy", dir / "out.npy", "--input-dtype"}, 2,
               "--input-dtype needs a type");
}

// --memory below the array's needs streams it through the device in chunks
// (16^k rows along the axis chained by their carries, or whole blocks of
// lines), with the reference's bits: C and Fortran order, both directions,
// exclusive, a widening --dtype, and each operation.
TEST_CASE("streaming: arrays larger than --memory give the in-memory bits") {
  using npy::DType;
  struct Streamed {
    ScanCase c;
    const char* memory;
  };
  auto withCommand = [](ScanCase c, const char* command) {
    c.command = command;
    return c;
  };
  const Streamed cases[] = {
      // 1-D: chunks of 4096, the last shorter; forwards, backwards, exclusive.
      {scanCase(DType::Float32, {70001}, false, 0), "64K"},
      {scanCase(DType::Float32, {70001}, false, 0, true, true), "64K"},
      {scanCase(DType::Float16, {5000}, false, 0, true), "1K"},
      {scanCase(DType::Int64, {40000}, false, 0, false, true), "100K"},
      // Rows of 700 along axis 0 (chunks of 16 rows); Fortran order's rows.
      {scanCase(DType::Float32, {300, 700}, false, 0, false, true), "200K"},
      {scanCase(DType::Float64, {30, 3000}, true, 1, true), "200K"},
      // Blocks of whole lines (axis 1 of [3, 20000] fits one at a time).
      {scanCase(DType::UInt32, {3, 20000}, false, 1), "200K"},
      // A block per line too long: chunks within each block.
      {scanCase(DType::Int32, {4, 9000, 3}, false, 1, true), "100K"},
      {withCommand(scanCase(DType::Float32, {20000}, false, 0), "cumprod"), "64K"},
      {withCommand(scanCase(DType::Float32, {3, 20000}, true, 1, false, true), "cummax"), "64K"},
      {withCommand(scanCase(DType::Int64, {20000, 2}, false, 0), "cummin"), "64K"},
  };
  for (const Streamed& s : cases) {
    ScanRun run;
    run.memory = s.memory;
    checkScan(s.c, run);
  }
}

TEST_CASE("streaming: a widening --dtype streams exactly, and refusals name --memory") {
  TempDir dir;
  const uint64_t length = 50000;
  std::string ints(length * 4, '\0');
  for (uint64_t i = 0; i < length; ++i) {
    const int32_t value = (1 << 30) + int32_t(i % 7);
    std::memcpy(&ints[i * 4], &value, 4);
  }
  writeFile(dir / "i4.npy", npyFile(npyDict("<i4", false, "(50000,)"), ints));
  Result result =
      runTool({"cumsum", dir / "i4.npy", dir / "i8.npy", "--dtype", "int64", "--memory", "100K"});
  CHECK(result.err == "");
  REQUIRE(result.code == 0);
  const std::string output = readFile(dir / "i8.npy");
  std::string expected(length * 8, '\0');
  int64_t sum = 0;
  for (uint64_t i = 0; i < length; ++i) {
    sum += (1 << 30) + int64_t(i % 7);
    std::memcpy(&expected[i * 8], &sum, 8);
  }
  CHECK(output.substr(size_t(npy::dataOffset(output))) == expected);

  // One row of 100000 elements inside the axis needs 1.6 MB.
  writeFile(dir / "rows.npy",
            npyFile(npyDict("<f4", false, "(2, 100000)"), std::string(800000, '\0')));
  checkFailure(dir, {"cumsum", dir / "rows.npy", dir / "out.npy", "--memory", "1M"}, 2,
               "raise --memory");
  checkFailure(
      dir,
      {"cummax", dir / "i4.npy", dir / "out.npy", "--memory", "1K", "--indices", dir / "idx.npy"},
      2, "indices do not stream");
  for (const char* bad : {"0", "-5", "12X", "K", "2P"}) {
    checkFailure(dir, {"cumsum", dir / "i4.npy", dir / "out.npy", "--memory", bad}, 2, "--memory");
  }
}

// --dtype widens: the sums are computed in the output's type, so an INT32
// line whose sum wraps comes out exact in int64, and FLOAT16 ones counted
// past 2048 exact in float32; a Fortran array keeps its order.
TEST_CASE("cumsum --dtype: a wider output holds what the input's type wraps or rounds") {
  TempDir dir;
  const uint64_t lines = 3, length = 3000;
  std::string ints(lines * length * 4, '\0');
  for (uint64_t i = 0; i < lines * length; ++i) {
    const int32_t value = (1 << 30) + int32_t(i % 7);
    std::memcpy(&ints[i * 4], &value, 4);
  }
  writeFile(dir / "i4.npy", npyFile(npyDict("<i4", true, "(3000, 3)"), ints));
  Result result =
      runTool({"cumsum", dir / "i4.npy", dir / "i8.npy", "--axis", "0", "--dtype", "int64"});
  CHECK(result.err == "");
  REQUIRE(result.code == 0);
  std::string output = readFile(dir / "i8.npy");
  CHECK(contains(output, "'descr': '<i8'"));
  CHECK(contains(output, "'fortran_order': True"));
  CHECK(npy::parseHeader(output).shape == std::vector<uint64_t>{length, lines});
  std::string expected(lines * length * 8, '\0');
  for (uint64_t line = 0; line < lines; ++line) {
    int64_t sum = 0;
    for (uint64_t k = 0; k < length; ++k) {
      const uint64_t i = line * length + k;  // Fortran order: axis 0 is contiguous
      sum += (1 << 30) + int64_t(i % 7);
      std::memcpy(&expected[i * 8], &sum, 8);
    }
  }
  CHECK(output.substr(size_t(npy::dataOffset(output))) == expected);

  std::string ones(5000 * 2, '\0');
  for (size_t i = 0; i < 5000; ++i) ones[i * 2 + 1] = '\x3C';  // 1.0 as <f2
  writeFile(dir / "f2.npy", npyFile(npyDict("<f2", false, "(5000,)"), ones));
  result = runTool({"cumsum", dir / "f2.npy", dir / "f4.npy", "--dtype=float32", "--reverse"});
  REQUIRE(result.code == 0);
  output = readFile(dir / "f4.npy");
  CHECK(contains(output, "'descr': '<f4'"));
  std::string counts(5000 * 4, '\0');
  for (size_t i = 0; i < 5000; ++i) {
    const float count = float(5000 - i);
    std::memcpy(&counts[i * 4], &count, 4);
  }
  CHECK(output.substr(size_t(npy::dataOffset(output))) == counts);
}

TEST_CASE("cumsum --dtype: refused where it narrows, converts, or cannot be in place") {
  TempDir dir;
  writeFile(dir / "f4.npy", kSmallF4);
  checkFailure(
      dir, {"cumsum", dir / "f4.npy", dir / "out.npy", "--dtype", "float16"}, 2,
      "--dtype float16: " + dir / "f4.npy" + " holds FLOAT32, which --dtype may only widen");
  checkFailure(dir, {"cummax", dir / "f4.npy", dir / "out.npy", "--dtype", "int64"}, 2,
               "which --dtype may only widen (int32 to int64");
  checkFailure(dir, {"cumsum", dir / "f4.npy", dir / "out.npy", "--dtype", "float64", "--in-place"},
               2, "--in-place: the output's --dtype float64 is wider than the input's");
  checkFailure(dir, {"cumsum", dir / "f4.npy", dir / "out.npy", "--dtype", "int16"}, 2,
               "--dtype 'int16' is not one of");
  checkFailure(dir, {"cumsum", dir / "f4.npy", dir / "out.npy", "--dtype"}, 2,
               "--dtype needs a type");
  // The input's own type is no change.
  const Result same = runTool({"cumsum", dir / "f4.npy", dir / "out.npy", "--dtype", "float32"});
  CHECK(same.code == 0);
}

TEST_CASE("reject ranks outside 1 to 8 and dimensions above 2^32-1") {
  TempDir dir;
  writeFile(dir / "scalar.npy", npyFile(npyDict("<f4", false, "()"), std::string(4, '\0')));
  checkFailure(dir, {"cumsum", dir / "scalar.npy", dir / "out.npy"}, 2,
               "scalar.npy: a 0-dimensional array (a scalar) has no axis");
  writeFile(dir / "rank9.npy",
            npyFile(npyDict("<f4", false, "(1, 1, 1, 1, 1, 1, 1, 1, 2)"), std::string(8, '\0')));
  checkFailure(dir, {"cumsum", dir / "rank9.npy", dir / "out.npy"}, 2,
               "rank9.npy: 9 dimensions (1, 1, 1, 1, 1, 1, 1, 1, 2) are more than the 8");
  writeFile(dir / "huge.npy", npyFile(npyDict("<f4", false, "(0, 4294967296)")));
  checkFailure(dir, {"cumsum", dir / "huge.npy", dir / "out.npy"}, 2,
               "huge.npy: dimension 1 has size 4294967296, above vkscan's limit of 4294967295");
}

TEST_CASE("reject a Fortran array whose strides exceed 2^32-1") {
  TempDir dir;
  // 16 GiB of data, as a sparse file: only the header is stored.
  const std::string header = npyFile(npyDict("<f2", true, "(65536, 65536, 2)"));
  writeFile(dir / "big.npy", header);
  if (::truncate((dir / "big.npy").c_str(), off_t(header.size() + (off_t(1) << 34))) != 0) {
    MESSAGE("no sparse files here; skipped");
    return;
  }
  checkFailure(dir, {"cumsum", dir / "big.npy", dir / "out.npy"}, 2,
               "big.npy: Fortran-order stride of dimension 2 is 4294967296 elements");
}

TEST_CASE("reject an axis out of range") {
  TempDir dir;
  writeFile(dir / "in.npy", npyFile(npyDict("<f4", false, "(2, 3, 4)"), std::string(96, '\0')));
  checkFailure(dir, {"cumsum", dir / "in.npy", dir / "out.npy", "--axis", "3"}, 2,
               "in.npy: axis 3 is out of range for shape (2, 3, 4) (valid: -3 to 2)");
  checkFailure(dir, {"cumsum", dir / "in.npy", dir / "out.npy", "--axis=-4"}, 2,
               "in.npy: axis -4 is out of range");
  checkFailure(dir, {"cumsum", dir / "in.npy", dir / "out.npy", "--axis", "x"}, 2,
               "--axis needs an integer, not 'x'");
  checkFailure(dir, {"cumsum", dir / "in.npy", dir / "out.npy", "--axis"}, 2,
               "--axis needs an axis number");
}

TEST_CASE("reject an output directory that does not exist or is not writable") {
  TempDir dir;
  writeFile(dir / "in.npy", kSmallF4);
  checkFailure(dir, {"cumsum", dir / "in.npy", dir / "nowhere/out.npy"}, 2,
               "nowhere/out.npy: cannot create a file in the output directory: No such file");
  checkFailure(dir, {"cumsum", dir / "in.npy", dir / "in.npy/out.npy"}, 2,
               "in.npy/out.npy: cannot create a file in the output directory: Not a directory");
  fs::create_directory(dir / "outdir");
  checkFailure(dir, {"cumsum", dir / "in.npy", dir / "outdir"}, 2, "outdir: is a directory");

  fs::create_directory(dir / "locked");
  fs::permissions(dir / "locked", fs::perms::owner_read | fs::perms::owner_exec);
  std::string lockedOutput = dir / "locked/out.npy";
  if (std::ofstream(lockedOutput)) {
    // root writes anywhere; /sys is read-only even for root.
    fs::remove(lockedOutput);
    lockedOutput = "/sys/vkscan-test-out.npy";
    if (std::ofstream(lockedOutput)) {
      MESSAGE("no unwritable directory available; skipped");
      return;
    }
  }
  checkFailure(dir, {"cumsum", dir / "in.npy", lockedOutput}, 2,
               lockedOutput + ": cannot create a file in the output directory:");
}

TEST_CASE("reject an output that is the input, by any path") {
  TempDir dir;
  writeFile(dir / "in.npy", kSmallF4);
  fs::create_directory(dir / "sub");
  fs::create_hard_link(dir / "in.npy", dir / "hardlink.npy");
  fs::create_symlink(dir / "in.npy", dir / "symlink.npy");
  for (const std::string& output : {dir / "in.npy", dir / "sub/../in.npy", dir / "hardlink.npy",
                                    dir / "symlink.npy", dir / "sub/.././in.npy"}) {
    checkFailure(dir, {"cumsum", dir / "in.npy", output}, 2, output + ": is the input file");
    checkFailure(dir, {"cumsum", dir / "in.npy", output, "--in-place"}, 2, "is the input file");
  }
}

TEST_CASE("reject replacing something that is not a regular file") {
  TempDir dir;
  writeFile(dir / "in.npy", kSmallF4);
  REQUIRE(::mkfifo((dir / "fifo").c_str(), 0600) == 0);
  checkFailure(dir, {"cumsum", dir / "in.npy", dir / "fifo"}, 2,
               "fifo: not a regular file; refusing to replace it");
}

TEST_CASE("a failure leaves an existing output byte-for-byte as it was") {
  TempDir dir;
  writeFile(dir / "out.npy", "precious");
  writeFile(dir / "in.npy", kSmallF4.substr(0, kSmallF4.size() - 1));
  checkFailure(dir, {"cumsum", dir / "in.npy", dir / "out.npy"}, 2, "truncated");
  writeFile(dir / "in.npy", kSmallF4);
  checkFailure(dir, {"cumsum", dir / "in.npy", dir / "out.npy", "--axis", "2"}, 2, "out of range");
  checkFailure(dir, {"--device", "99", "cumsum", dir / "in.npy", dir / "out.npy"}, 2, "99");
}

TEST_CASE("a failed write exits with 1 and leaves no partial output") {
  TempDir dir;
  const std::string input = npyFile(npyDict("<f4", false, "(2048,)"), std::string(8192, '\0'));
  writeFile(dir / "in.npy", input);
  const std::vector<std::string> args = {"cumsum", dir / "in.npy", dir / "out.npy"};
  checkFailure(dir, args, 1, "out.npy: write failed: File too large", 4096);
  writeFile(dir / "out.npy", "precious");
  checkFailure(dir, args, 1, "out.npy: write failed: File too large", 4096);
}

TEST_CASE("a device failure exits with 1 and writes nothing") {
  TempDir dir;
  writeFile(dir / "in.npy", kSmallF4);
  writeFile(dir / "out.npy", "precious");
  // Loaders before 1.3.207 read the first name, later ones the second.
  const ScopedEnvironment noDriver({"VK_ICD_FILENAMES", "VK_DRIVER_FILES"},
                                   dir / "no-such-driver.json");
  checkFailure(dir, {"cumsum", dir / "in.npy", dir / "out.npy"}, 1,
               "VK_ERROR_INCOMPATIBLE_DRIVER (-9) (no Vulkan driver is installed");
}

TEST_CASE("no Vulkan loader: every command exits with 1 and writes nothing") {
  // It exited with 2, "bad usage or input", for what is the machine's fault.
  TempDir dir;
  writeFile(dir / "in.npy", kSmallF4);
  writeFile(dir / "out.npy", "precious");
  const ScopedEnvironment noLoader({"LD_PRELOAD"}, VKSCAN_NO_VULKAN_LOADER);
  const std::string message = "the Vulkan loader (libvulkan.so.1) could not be loaded";
  checkFailure(dir, {"cumsum", dir / "in.npy", dir / "out.npy"}, 1, message);
  checkFailure(dir, {"demo"}, 1, message);
  const Result info = runTool({"info"});
  CHECK(info.code == 1);
  CHECK(contains(info.err, message));
}

TEST_CASE("--validation without the layer installed fails before any work") {
  TempDir dir;
  writeFile(dir / "in.npy", kSmallF4);
  writeFile(dir / "out.npy", "precious");
  // The loader then looks for explicit layers in this missing directory only.
  const ScopedEnvironment noLayers({"VK_LAYER_PATH"}, dir / "no-layers");
  const std::string message =
      "--validation: the Khronos validation layer (VK_LAYER_KHRONOS_validation) is not installed";
  checkFailure(dir, {"--validation", "cumsum", dir / "in.npy", dir / "out.npy"}, 1, message);
  checkFailure(dir, {"--validation", "demo"}, 1, message);
  // info lists the devices before it opens one.
  const Result info = runTool({"info", "--validation"});
  CHECK(info.code == 1);
  CHECK(contains(info.err, message));
}

TEST_CASE("reject bad usage") {
  TempDir dir;
  writeFile(dir / "in.npy", kSmallF4);
  checkFailure(dir, {"cumsum"}, 2, "cumsum needs an input and an output file, got 0");
  checkFailure(dir, {"cumsum", dir / "in.npy"}, 2, "got 1");
  checkFailure(dir, {"cumsum", dir / "in.npy", dir / "a.npy", dir / "b.npy"}, 2, "got 3");
  checkFailure(dir, {"cumsum", dir / "in.npy", dir / "out.npy", "--inclusive"}, 2,
               "cumsum: unknown option '--inclusive'");
  checkFailure(dir, {"cumprod", dir / "in.npy"}, 2,
               "cumprod needs an input and an output file, got 1 (see vkscan cumprod --help)");
  checkFailure(dir, {"cummax", dir / "in.npy", dir / "out.npy", "--inclusive"}, 2,
               "cummax: unknown option '--inclusive' (see vkscan cummax --help)");
  checkFailure(dir, {"cummin", dir / "in.npy", dir / "out.npy", "--axis", "2"}, 2,
               "in.npy: axis 2 is out of range for shape (2, 3) (valid: -2 to 1)");
  checkFailure(dir, {"frobnicate"}, 2, "unknown command 'frobnicate'");
  // "--" before the command used to swallow it: the help, and no error line.
  checkFailure(dir, {"--", "frobnicate"}, 2, "unknown command 'frobnicate'");
  checkFailure(dir, {"--", "cumsum", dir / "in.npy"}, 2, "got 1");
  checkFailure(dir, {"--axis", "1", "cumsum"}, 2, "unknown option '--axis'");
  checkFailure(dir, {"demo", "extra"}, 2, "demo takes no arguments");
  checkFailure(dir, {"info", "--device"}, 2, "--device needs a device index");
  checkFailure(dir, {"info", "--device", "-1"}, 2, "--device -1 is not a device index");
  checkFailure(dir, {"help", "nothing"}, 2, "unknown command 'nothing'");
}

TEST_CASE("--validation runs clean") {
  TempDir dir;
  const std::string input = npyFile(npyDict("<f4", true, "(3, 4)"), std::string(48, '\0'));
  writeFile(dir / "in.npy", input);
  const Result demo = runTool({"--validation", "demo"});
  CAPTURE(demo.err);
  CHECK(demo.code == 0);
  const Result cumsum =
      runTool({"cumsum", dir / "in.npy", dir / "out.npy", "--validation", "--axis", "1"});
  CAPTURE(cumsum.err);
  CHECK(cumsum.code == 0);
}

TEST_CASE("--device selects a device, before or after the command") {
  CHECK(runTool({"--device", "0", "demo"}).code == 0);
  CHECK(runTool({"demo", "--device=0"}).code == 0);
  // The message names the option, not the library's options.deviceIndex.
  TempDir dir;
  checkFailure(dir, {"demo", "--device", "99"}, 2,
               "--device 99: device index 99 is out of range (");
  const Result info = runTool({"info", "--device", "99"});
  CHECK(info.code == 2);
  CHECK(contains(info.err, "--device 99: device index 99 is out of range ("));
  writeFile(dir / "in.npy", kSmallF4);
  checkFailure(dir, {"cumsum", dir / "in.npy", dir / "out.npy", "--device=99"}, 2,
               "--device 99: device index 99 is out of range (");
}

TEST_CASE("plan: --json prints one object with the plan's keys") {
  const Result result = runTool({"plan", "16384x16384", "--axis", "1", "--dtype", "float32",
                                 "--profile", "nvidia", "--json"});
  CAPTURE(result.err);
  REQUIRE(result.code == 0);
  CHECK(result.out.rfind(
            "{\"profile\":\"nvidia\",\"operation\":\"SUM\",\"dispatches\":[{\"kernel\":", 0) == 0);
  CHECK(std::count(result.out.begin(), result.out.end(), '\n') == 1);
  for (const char* key :
       {"\"workgroups\":[", "\"workgroup_size\":", "\"staged_tiles\":true,",
        "\"scalar_lanes\":false,", "\"bytes_read\":", "\"bytes_written\":", "\"scratch_bytes\":",
        "\"bytes_moved\":", "\"tensor_bytes\":1073741824,", "\"traffic_ratio\":"}) {
    CAPTURE(key);
    CHECK(contains(result.out, key));
  }
}

TEST_CASE("plan: a profile's plan in words, and on the real device") {
  const Result lavapipe = runTool(
      {"plan", "65536", "--axis", "-1", "--dtype", "<f4", "--exclusive", "--profile", "lavapipe"});
  CAPTURE(lavapipe.err);
  CHECK(lavapipe.code == 0);
  CHECK(lavapipe.out ==
        "profile: lavapipe\n"
        "operation: SUM\n"
        "1 dispatch, scratch 256 bytes\n"
        "  chunk_lookback FLOAT32: workgroups 2x1x1 of 8, reads 524,348 B (input 524,288, scratch "
        "60), writes 262,528 B (output 262,144, scratch 384, of which filled 256)\n"
        "bytes moved: 786,876, tensor bytes: 262,144, traffic ratio: 1.5008\n");
  const Result device = runTool({"plan", "3x1000", "--axis", "1", "--dtype", "int64", "--reverse"});
  CAPTURE(device.err);
  CHECK(device.code == 0);
  CHECK(contains(device.out, "traffic ratio: 1.0000\n"));
  CHECK(runTool({"help", "plan"}).out.rfind("usage: vkscan plan SIZES", 0) == 0);
}

// The one pass reads each carry-in and writes each total where it lies,
// through the header of 64 bytes in scratch.
TEST_CASE("plan: --carry-in and --totals keep a GPU's one pass, one dispatch") {
  using Lines = std::vector<std::string>;
  const std::pair<Lines, Lines> plans[] = {
      {{"16777216", "--axis", "0", "--carry-in", "--totals"},
       {"1 dispatch,", "  rows_onepass FLOAT32: workgroups 4096x1x1 of 256, tiles staged, reads",
        "(input 67,108,864, carry-in 4, scratch 431,168)",
        "(output 67,108,864, totals 4, scratch 119,108, of which filled 67,716)",
        "traffic ratio: 1.0041\n"}},
      // A strided axis of few long lines: the columns one pass.
      {{"4096x4096", "--axis", "0", "--totals"},
       {"1 dispatch,", "  columns_onepass FLOAT32: workgroups 1024x1x1 of 256, reads",
        "(output 67,108,864, totals 16,384, scratch 1,835,076", "traffic ratio: 1.0176\n"}},
      // Lines off vectors: lanes built element by element.
      {{"4096x4095", "--axis", "0"},
       {"1 dispatch,",
        "  columns_onepass FLOAT32: workgroups 1024x1x1 of 256, lanes element by element, reads"}},
      // A short step of a stream, one dispatch where it was three.
      {{"8x1", "--axis", "1", "--carry-in", "--totals"},
       {"1 dispatch, scratch 64 bytes", "  rows_scan FLOAT32: workgroups 1x1x1 of 256",
        "reads 128 B (input 32, carry-in 32, scratch 64)"}},
  };
  for (const auto& [given, expected] : plans) {
    Lines args = {"plan", "--dtype", "float32", "--profile", "nvidia"};
    args.insert(args.end(), given.begin(), given.end());
    const Result result = runTool(args);
    CAPTURE(result.out);
    REQUIRE(result.code == 0);
    for (const std::string& line : expected) {
      CAPTURE(line);
      CHECK(contains(result.out, line));
    }
  }
  CHECK(contains(runTool({"help", "plan"}).out, "--carry-in"));
}

// A layout plans as its own strides say: a Fortran-order array along one
// axis is the row-major array along the other, on every profile.
TEST_CASE("plan: --strides and --output-strides plan the layout given") {
  auto json = [](std::vector<std::string> args) {
    args.insert(args.begin(), "plan");
    args.push_back("--json");
    const Result result = runTool(args);
    CAPTURE(result.err);
    CHECK(result.code == 0);
    return result.out;
  };
  for (const char* profile : {"nvidia", "lavapipe", "mali"}) {
    CAPTURE(profile);
    for (int axis = 0; axis < 2; ++axis) {
      CAPTURE(axis);
      const std::string fortran = json({"4096x4096", "--axis", std::to_string(axis), "--dtype",
                                        "f4", "--strides", "1x4096", "--profile", profile});
      const std::string rowMajor = json(
          {"4096x4096", "--axis", std::to_string(1 - axis), "--dtype", "f4", "--profile", profile});
      CHECK(fortran == rowMajor);
    }
  }
  // The input's strides are the output's by default, so a strided axis on
  // both stays the columns one pass; an output of its own layout takes the
  // rows kernel on the input's contiguous axis, unstaged.
  const std::vector<std::string> fortranAxis0 = {"plan",      "4096x4096", "--axis",    "0",
                                                 "--dtype",   "f4",        "--strides", "1x4096",
                                                 "--profile", "nvidia"};
  std::vector<std::string> rowMajorOutput = fortranAxis0;
  rowMajorOutput.insert(rowMajorOutput.end(), {"--output-strides", "4096x1"});
  const Result mixed = runTool(rowMajorOutput);
  CAPTURE(mixed.err);
  REQUIRE(mixed.code == 0);
  CHECK(contains(mixed.out, "  rows_scan FLOAT32: workgroups 4096x1x1 of 256, reads"));
  CHECK(contains(runTool(fortranAxis0).out,
                 "rows_scan FLOAT32: workgroups 4096x1x1 of 256, "
                 "tiles staged, reads"));
  // A broadcast input writes a packed output unless told otherwise.
  const Result broadcast = runTool({"plan", "4096x4096", "--axis", "0", "--dtype", "f4",
                                    "--strides", "0x1", "--profile", "nvidia"});
  CAPTURE(broadcast.err);
  CHECK(broadcast.code == 0);
  CHECK(contains(broadcast.out, "columns_onepass FLOAT32"));
  CHECK(contains(runTool({"help", "plan"}).out, "--output-strides S"));
}

TEST_CASE("plan: --output-dtype adds the widening pass, --indices the index scan") {
  const Result widened = runTool({"plan", "4096x4096", "--axis", "0", "--dtype", "int32",
                                  "--output-dtype", "int64", "--profile", "nvidia"});
  CAPTURE(widened.err);
  REQUIRE(widened.code == 0);
  CHECK(contains(widened.out, "2 dispatches,"));
  CHECK(contains(widened.out, "  widen INT32: workgroups"));
  CHECK(contains(widened.out, "  columns_onepass INT64: workgroups 2048x1x1 of 256"));
  const Result indices = runTool({"plan", "4096x4096", "--axis", "1", "--dtype", "f4",
                                  "--operation", "max", "--indices", "--profile", "nvidia"});
  CAPTURE(indices.err);
  REQUIRE(indices.code == 0);
  CHECK(contains(indices.out, "3 dispatches,"));
  CHECK(contains(indices.out, "  records FLOAT32: workgroups"));
  CHECK(contains(indices.out, "writes 134,217,728 B (output 0, indices 134,217,728, scratch 0)"));
  CHECK(contains(indices.out, "  rows_scan INT64: workgroups"));
}

TEST_CASE("plan: --operation plans every operation, by any of its names") {
  const std::pair<const char*, std::vector<const char*>> operations[] = {
      {"SUM", {"sum", "cumsum", "SUM"}},
      {"PRODUCT", {"product", "prod", "cumprod", "PRODUCT"}},
      {"MAXIMUM", {"maximum", "max", "cummax", "MAXIMUM"}},
      {"MINIMUM", {"minimum", "min", "cummin", "MINIMUM"}},
      {"LOG_SUM_EXP", {"log-sum-exp", "logsumexp", "logcumsumexp", "LOG_SUM_EXP"}},
  };
  for (const auto& [canonical, names] : operations) {
    for (const char* name : names) {
      CAPTURE(name);
      const Result json = runTool({"plan", "4096x4096", "--axis", "0", "--dtype", "float32",
                                   "--profile", "nvidia", "--json", "--operation", name});
      CAPTURE(json.err);
      REQUIRE(json.code == 0);
      CHECK(contains(json.out, "{\"profile\":\"nvidia\",\"operation\":\"" + std::string(canonical) +
                                   "\",\"dispatches\":["));
      const Result words = runTool({"plan", "100000", "--axis", "0", "--dtype", "int32",
                                    std::string("--operation=") + name, "--profile", "lavapipe"});
      if (std::string(canonical) == "LOG_SUM_EXP") {
        // Float types only.
        CHECK(words.code == 2);
        CHECK(contains(words.err, std::string("--operation ") + name +
                                      " takes float dtypes (float16 bfloat16 float32 float64), "
                                      "not int32"));
        continue;
      }
      CAPTURE(words.err);
      REQUIRE(words.code == 0);
      CHECK(words.out.rfind("profile: lavapipe\noperation: " + std::string(canonical) + "\n", 0) ==
            0);
    }
  }
  // The default is the sum; the real device plans every operation too.
  CHECK(contains(
      runTool({"plan", "64", "--axis", "0", "--dtype", "f4", "--profile", "amd", "--json"}).out,
      "\"operation\":\"SUM\""));
  const Result device =
      runTool({"plan", "3x1000", "--axis", "1", "--dtype", "f8", "--operation", "logsumexp"});
  CAPTURE(device.err);
  CHECK(device.code == 0);
  CHECK(contains(device.out, "operation: LOG_SUM_EXP\n"));
  CHECK(contains(runTool({"help", "plan"}).out, "--operation OP"));
}

TEST_CASE("plan: reject bad arguments with exit code 2") {
  TempDir dir;
  auto args = [&](std::vector<std::string> given) {
    given.insert(given.begin(), "plan");
    return given;
  };
  checkFailure(dir, args({"4x4", "--axis", "0", "--dtype", "f4", "--profile", "voodoo"}), 2,
               "--profile 'voodoo' is no device profile (nvidia, amd,");
  checkFailure(dir, args({"4x-4", "--axis", "0", "--dtype", "f4"}), 2, "SIZES '4x-4' is not sizes");
  checkFailure(dir, args({"4294967296", "--axis", "0", "--dtype", "f4"}), 2,
               "SIZES '4294967296' is not sizes");
  checkFailure(dir, args({"1x1x1x1x1x1x1x1x1", "--axis", "0", "--dtype", "f4"}), 2,
               "has 9 dimensions");
  checkFailure(dir, args({"4x4", "--axis", "2", "--dtype", "f4"}), 2,
               "--axis 2 is out of range for 2 dimensions");
  checkFailure(dir, args({"4x4", "--axis", "-3", "--dtype", "f4"}), 2, "--axis -3 is out of range");
  checkFailure(dir, args({"4x4", "--axis", "0", "--dtype", "complex64"}), 2,
               "--dtype 'complex64' is not one of");
  checkFailure(dir, args({"4x4", "--dtype", "f4"}), 2, "plan needs --axis");
  checkFailure(dir, args({"4x4", "--axis", "0"}), 2, "plan needs --dtype");
  checkFailure(dir, args({"--axis", "0", "--dtype", "f4"}), 2, "plan needs one SIZES argument");
  checkFailure(dir, args({"4x4", "--axis", "0", "--dtype", "f4", "--strides", "1"}), 2,
               "--strides '1' has 1 stride for 2 dimensions");
  checkFailure(dir, args({"4x4", "--axis", "0", "--dtype", "f4", "--output-strides", "4x1x1"}), 2,
               "--output-strides '4x1x1' has 3 strides for 2 dimensions");
  checkFailure(dir, args({"4x4", "--axis", "0", "--dtype", "f4", "--strides", "1x-1"}), 2,
               "--strides '1x-1' is not strides such as 1x4096");
  checkFailure(dir, args({"4x4", "--axis", "0", "--dtype", "f4", "--strides="}), 2,
               "--strides '' is not strides");
  // What the library refuses, named by its field.
  checkFailure(dir,
               args({"4x4", "--axis", "0", "--dtype", "f4", "--output-strides", "0x1", "--profile",
                     "nvidia"}),
               2, "output.strides: strides {0,1} for sizes {4,4} make output elements overlap");
  checkFailure(
      dir,
      args({"4x4", "--axis", "0", "--dtype", "f4", "--output-dtype", "f2", "--profile", "nvidia"}),
      2, "output.dataType: FLOAT16 differs from the input's FLOAT32");
  checkFailure(dir, args({"4x4", "--axis", "0", "--dtype", "f4", "--indices", "--profile", "amd"}),
               2, "indices: only MAXIMUM and MINIMUM scans have indices, not SUM");
  checkFailure(dir, args({"4x4", "--axis", "0", "--dtype", "f4", "--fast"}), 2,
               "plan: unknown option '--fast'");
  checkFailure(dir, args({"16", "--axis", "0", "--dtype", "float64", "--profile", "apple"}), 2,
               "FLOAT64 is not supported by profile apple");
  checkFailure(dir, args({"4x4", "--axis", "0", "--dtype", "f4", "--operation", "mean"}), 2,
               "--operation 'mean' is not one of sum product maximum minimum log-sum-exp");
  checkFailure(dir, args({"4x4", "--axis", "0", "--dtype", "f4", "--operation="}), 2,
               "--operation '' is not one of");
  checkFailure(dir, args({"4x4", "--axis", "0", "--dtype", "f4", "--operation"}), 2,
               "--operation needs a value");
  checkFailure(dir,
               args({"4x4", "--axis", "0", "--dtype", "i4", "--operation", "log-sum-exp",
                     "--profile", "nvidia"}),
               2, "--operation log-sum-exp takes float dtypes");
}
