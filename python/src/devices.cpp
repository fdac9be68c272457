// Devices for Python: vkscan.Device (a device of vkscan's own), devices()
// and info(). Creating a device compiles nothing; pipelines come at first use.
#include <pybind11/stl.h>

#include <memory>
#include <string>
#include <utility>
#include <vkscan/host.hpp>

#include "bindings.hpp"

namespace py = pybind11;

namespace vkscan::python {
namespace {

const char* typeName(VkPhysicalDeviceType type) {
  switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU:
      return "integrated-gpu";
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU:
      return "discrete-gpu";
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU:
      return "virtual-gpu";
    case VK_PHYSICAL_DEVICE_TYPE_CPU:
      return "cpu";
    default:
      return "other";
  }
}

std::string versionText(uint32_t v) {
  return std::to_string(VK_API_VERSION_MAJOR(v)) + "." + std::to_string(VK_API_VERSION_MINOR(v)) +
         "." + std::to_string(VK_API_VERSION_PATCH(v));
}

// A missing loader or device is the machine's state, not a bad argument:
// RuntimeError, where the translator would say ValueError for Unsupported.
template <typename F>
auto machineCall(F&& f) {
  try {
    return f();
  } catch (const Unsupported& e) {
    throw std::runtime_error(e.what());
  }
}

std::unique_ptr<Device> makeDevice(int index, const std::string& name, bool validation) {
  DeviceOptions options;
  options.deviceIndex = index;
  options.deviceName = name;
  options.enableValidation = validation;
  py::gil_scoped_release release;
  return machineCall([&] { return std::make_unique<Device>(createDevice(options)); });
}

py::list listDevices() {
  std::vector<PhysicalDeviceSummary> found = machineCall([] { return enumerateDevices(); });
  py::list list;
  for (const PhysicalDeviceSummary& d : found) {
    py::dict entry;
    entry["index"] = d.index;
    entry["name"] = d.name;
    entry["type"] = typeName(d.type);
    entry["api_version"] = versionText(d.apiVersion);
    entry["usable"] = d.usable;
    list.append(entry);
  }
  return list;
}

py::dict deviceInfo(const Device& device) {
  const DeviceCapabilities& c = capabilities(device);
  py::dict info;
  info["name"] = c.deviceName;
  info["type"] = typeName(c.deviceType);
  info["driver"] = c.driverName;
  info["driver_info"] = c.driverInfo;
  info["api_version"] = versionText(c.apiVersion);
  info["subgroup_size"] = c.subgroupSize;
  info["shader_int64"] = c.shaderInt64;
  info["shader_float64"] = c.shaderFloat64;
  info["storage_buffer_16bit_access"] = c.storageBuffer16BitAccess;
  info["push_descriptor"] = c.pushDescriptor;
  info["compute_full_subgroups"] = c.computeFullSubgroups;
  info["max_storage_buffer_range"] = c.maxStorageBufferRange;
  info["plans"] = describe(device);
  info["validation_enabled"] = validationEnabled(device);
  info["validation_messages"] = validationMessageCount(device);
  return info;
}

}  // namespace

void bindDevices(py::module_& m) {
  py::class_<Device>(m, "Device", R"(A Vulkan device of vkscan's own.

Device(index=-1, name="", validation=False): index into devices(); -1 picks
$VKSCAN_DEVICE if set, else the first usable discrete GPU, else the first
usable device (lavapipe on a machine without a GPU). name picks the first
usable device whose name contains it. validation loads the Khronos
validation layer and counts its messages (info()["validation_messages"]).
Raises ValueError for an index or name no device matches, RuntimeError when
no Vulkan driver or usable device is installed.)")
      .def(py::init(&makeDevice), py::arg("index") = -1, py::arg("name") = "",
           py::arg("validation") = false)
      .def(
          "supports",
          [](const Device& d, const std::string& type) {
            for (DataType t :
                 {DataType::Float32, DataType::Float16, DataType::Int32, DataType::UInt32,
                  DataType::Int64, DataType::UInt64, DataType::Float64, DataType::BFloat16}) {
              if (type == dataTypeName(t)) return d.supports(t);
            }
            throw InvalidArgument("type", "\"" + type + "\" is no vkscan data type");
          },
          py::arg("type"), "True when the device can scan the type (\"FLOAT64\", ...).")
      .def("info", &deviceInfo, "The device's properties, features and plans (a dict).");
  m.def("devices", &listDevices,
        "The physical devices the Vulkan loader lists: dicts of index, name, type, "
        "api_version and usable (Vulkan 1.2+, compute, bufferDeviceAddress).");
}

}  // namespace vkscan::python
