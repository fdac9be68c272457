// vkscan: cumulative sums, products, maxima and minima of .npy files on a
// Vulkan device, from the shell.
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <new>
#include <system_error>

#include "commands.hpp"
#include "failure.hpp"

namespace vkscan::cli {
namespace {

const char* const kHelp =
    "usage: vkscan [--device N] [--validation] <command> [options]\n"
    "\n"
    "Cumulative sums, products, maxima, minima and log-sum-exps (prefix scans)\n"
    "along one axis of an array, computed on a Vulkan device with the semantics\n"
    "of DirectML's cumulative summation and product.\n"
    "\n"
    "commands:\n"
    "  cumsum IN.npy OUT.npy [--axis N] [--exclusive] [--reverse] [--in-place]\n"
    "                   scan an .npy array and write the result as .npy\n"
    "  cumprod, cummax, cummin IN.npy OUT.npy [the options of cumsum]\n"
    "                   the cumulative product, maximum or minimum, likewise;\n"
    "                   cummax and cummin also write PyTorch's indices with\n"
    "                   --indices FILE.npy\n"
    "  logcumsumexp IN.npy OUT.npy [the options of cumsum]\n"
    "                   the cumulative log-sum-exp of a float array, likewise\n"
    "  demo             run the examples of the DirectML documentation\n"
    "  info             describe the Vulkan devices and what vkscan can do on them\n"
    "  plan SIZES --axis N --dtype T [--operation OP] [--profile NAME] [--json]\n"
    "                   show the dispatches and modeled bytes of a scan's plan\n"
    "  help [command]   show this help, or a command's\n"
    "\n"
    "global options (before or after the command):\n"
    "  --device N       use device N of `vkscan info` (default: $VKSCAN_DEVICE,\n"
    "                   else the first discrete GPU, else the first usable device)\n"
    "  --validation     enable the Vulkan validation layer (which must be installed);\n"
    "                   any message fails the run\n"
    "  -h, --help       show help\n"
    "  --version        show the version\n"
    "\n"
    "exit status: 0 success, 1 device or I/O failure, 2 bad usage or bad input\n";

struct Command {
  std::function<int(const std::vector<std::string>&, const GlobalOptions&)> run;
  std::string help;
};

Command scan(ScanOperation operation) {
  return {[operation](const std::vector<std::string>& args, const GlobalOptions& global) {
            return scanCommand(operation, args, global);
          },
          scanHelp(operation)};
}

const std::map<std::string, Command>& commands() {
  static const std::map<std::string, Command> table = [] {
    std::map<std::string, Command> all = {
        {"demo", {demoCommand, kDemoHelp}},
        {"info", {infoCommand, kInfoHelp}},
        {"plan", {planCommand, kPlanHelp}},
    };
    for (ScanOperation operation :
         {ScanOperation::Sum, ScanOperation::Product, ScanOperation::Maximum,
          ScanOperation::Minimum, ScanOperation::LogSumExp}) {
      all.emplace(scanCommandName(operation), scan(operation));
    }
    return all;
  }();
  return table;
}

const Command& findCommand(const std::string& name) {
  const auto it = commands().find(name);
  if (it == commands().end()) {
    throw Failure(kExitUsage, "unknown command '" + name + "' (see vkscan --help)");
  }
  return it->second;
}

// Messages from the library or the OS may span lines; the contract is one.
std::string oneLine(std::string text) {
  for (char& c : text) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  return text;
}

int report(ExitCode code, const std::string& message) {
  std::fprintf(stderr, "vkscan: %s\n", oneLine(message).c_str());
  return code;
}

int run(int argc, char** argv) {
  GlobalOptions global;
  std::string command;
  std::vector<std::string> args;
  bool help = false;
  bool optionsEnded = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (optionsEnded && command.empty()) {
      command = arg;
    } else if (optionsEnded) {
      args.push_back(arg);
    } else if (arg == "--") {
      optionsEnded = true;
      // The command's own parser ends its options there too.
      if (!command.empty()) args.push_back(arg);
    } else if (arg == "-h" || arg == "--help") {
      help = true;
    } else if (arg == "--version") {
      std::printf("vkscan %s\n", VKSCAN_VERSION_STRING);
      return kExitSuccess;
    } else if (arg == "--validation") {
      global.validation = true;
    } else if (arg == "--device" || arg.rfind("--device=", 0) == 0) {
      std::string value;
      if (arg == "--device") {
        if (++i == argc) throw Failure(kExitUsage, "--device needs a device index");
        value = argv[i];
      } else {
        value = arg.substr(std::strlen("--device="));
      }
      const long long index = parseInteger("--device", value);
      if (index < 0 || index > 0xFFFF) {
        throw Failure(kExitUsage, "--device " + value + " is not a device index (see vkscan info)");
      }
      global.deviceIndex = int(index);
    } else if (command.empty() && arg.size() > 1 && arg[0] == '-') {
      throw Failure(kExitUsage,
                    "unknown option '" + arg + "' (command options go after the command)");
    } else if (command.empty()) {
      command = arg;
    } else {
      args.push_back(arg);
    }
  }

  if (command == "help") {
    if (args.empty()) {
      std::fputs(kHelp, stdout);
    } else {
      std::fputs(findCommand(args[0]).help.c_str(), stdout);
    }
    return kExitSuccess;
  }
  if (command.empty()) {
    if (help) {
      std::fputs(kHelp, stdout);
      return kExitSuccess;
    }
    std::fputs(kHelp, stderr);
    return kExitUsage;
  }
  const Command& selected = findCommand(command);
  if (help) {
    std::fputs(selected.help.c_str(), stdout);
    return kExitSuccess;
  }
  return selected.run(args, global);
}

}  // namespace

Device openDevice(const GlobalOptions& global) {
  DeviceOptions options;
  options.deviceIndex = global.deviceIndex;
  options.enableValidation = global.validation;
  try {
    Device device = createDevice(options);
    if (global.validation && !validationEnabled(device)) {
      throw Failure(kExitFailure,
                    "--validation: the Khronos validation layer (VK_LAYER_KHRONOS_validation) is "
                    "not installed");
    }
    return device;
  } catch (const InvalidArgument& e) {
    // The library names its own field; the user typed --device.
    if (e.field() != "options.deviceIndex") throw;
    throw Failure(kExitUsage, "--device " + std::to_string(global.deviceIndex) + ": " + e.reason() +
                                  " (see vkscan info)");
  }
}

void checkValidation(const Device& device, const GlobalOptions& global) {
  const uint64_t messages = validationMessageCount(device);
  if (global.validation && messages > 0) {
    throw Failure(kExitFailure,
                  "the validation layer reported " + std::to_string(messages) + " message(s)");
  }
}

DataType parseDataType(const std::string& option, const std::string& text) {
  static const struct {
    DataType type;
    const char* names[4];
  } kTypes[] = {
      {DataType::Float16, {"float16", "f2", "<f2", "FLOAT16"}},
      {DataType::BFloat16, {"bfloat16", "bf16", "BF16", "BFLOAT16"}},
      {DataType::Float32, {"float32", "f4", "<f4", "FLOAT32"}},
      {DataType::Float64, {"float64", "f8", "<f8", "FLOAT64"}},
      {DataType::Int32, {"int32", "i4", "<i4", "INT32"}},
      {DataType::UInt32, {"uint32", "u4", "<u4", "UINT32"}},
      {DataType::Int64, {"int64", "i8", "<i8", "INT64"}},
      {DataType::UInt64, {"uint64", "u8", "<u8", "UINT64"}},
  };
  for (const auto& entry : kTypes) {
    for (const char* name : entry.names) {
      if (text == name) return entry.type;
    }
  }
  throw Failure(kExitUsage, option + " '" + text +
                                "' is not one of float16 bfloat16 float32 float64 int32 uint32 "
                                "int64 uint64");
}

long long parseInteger(const std::string& option, const std::string& text) {
  errno = 0;
  char* end = nullptr;
  const long long value = std::strtoll(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || errno == ERANGE) {
    throw Failure(kExitUsage, option + " needs an integer, not '" + text + "'");
  }
  return value;
}

}  // namespace vkscan::cli

int main(int argc, char** argv) {
  using namespace vkscan::cli;
  try {
    return run(argc, argv);
  } catch (const Failure& e) {
    return report(e.code(), e.what());
  } catch (const vkscan::InvalidArgument& e) {
    return report(kExitUsage, e.what());
  } catch (const vkscan::Unsupported& e) {
    // What the input asks of the device is refused where it is known
    // (the scan commands); what is left is a missing loader, driver or usable device.
    return report(kExitFailure, e.what());
  } catch (const vkscan::Error& e) {
    return report(kExitFailure, e.what());
  } catch (const std::system_error& e) {
    return report(exitCodeForErrno(e.code().value()), e.what());
  } catch (const std::bad_alloc&) {
    return report(kExitFailure, "out of memory");
  } catch (const std::exception& e) {
    return report(kExitFailure, e.what());
  }
}
