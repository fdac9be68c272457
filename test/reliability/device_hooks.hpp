// Fault injection and object counting through a Device's function table
// (Device::Impl::vk, which every vkscan call goes through). One DeviceHooks
// may be active at a time; tests that use it run on a Device of their own, so
// the shared test device is never patched.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>
#include <vkscan/host.hpp>

namespace vkscan::test {

enum class ObjectKind { Buffer, Memory, Mapping, CommandPool, Fence, ShaderModule, Pipeline };
inline constexpr size_t kObjectKinds = 7;

// Objects created and not yet destroyed through hooked tables, per kind
// (a mapping counts as an object: vkMapMemory / vkUnmapMemory).
struct LiveObjects {
  std::array<int64_t, kObjectKinds> count{};
  int64_t operator[](ObjectKind kind) const { return count[static_cast<size_t>(kind)]; }
  std::string describe() const;
};
LiveObjects liveObjects();

// The functions a fault can be injected into, by name.
const std::vector<std::string>& faultableFunctions();

class DeviceHooks {
 public:
  // Patches `device`'s table: counting wrappers for the create/destroy pairs
  // (liveObjects() restarts from zero) and fault-capable wrappers for
  // faultableFunctions().
  explicit DeviceHooks(const Device& device);
  // Restores the original table (if restore() was not called).
  ~DeviceHooks();
  DeviceHooks(const DeviceHooks&) = delete;
  DeviceHooks& operator=(const DeviceHooks&) = delete;

  // Puts the original table back; counting stops.
  void restore();
  // Leaves the hooks in place and forgets the device, so that its
  // destruction (which must follow) is counted too.
  void keepThroughTeardown();

  // The `nth` call (1-based, counted from now) of `function` returns
  // `result` instead of doing its work. vkCreateComputePipelines with several
  // pipelines fails after creating all but the last (a partial failure, as
  // the spec allows); vkWaitForFences waits for real, then fails.
  void failCall(const std::string& function, uint64_t nth, VkResult result);
  void clearFaults();
  bool faultFired() const;

  // Calls of `function` since the hooks were installed.
  uint64_t calls(const std::string& function) const;

  // vkQueueSubmit drops its fence (a GPU that never signals it); the fences
  // are kept for signalDroppedFences().
  void dropSubmitFences(bool drop);
  // Signals the dropped fences with an empty submission: the "GPU" finishes.
  void signalDroppedFences();
};

}  // namespace vkscan::test
