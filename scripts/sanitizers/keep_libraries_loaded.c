/* LD_PRELOAD shim for leak checking: dlclose() does nothing, so the Vulkan
 * loader cannot unload the driver (lavapipe, LLVM) and the validation layer at
 * vkDestroyInstance. LeakSanitizer reports at exit; without this, the frames
 * of allocations made inside those libraries print as "<unknown module>" and
 * no suppression can name them. Used by scripts/ci-reliability.sh only. */
int dlclose(void* handle) {
  (void)handle;
  return 0;
}
