// Preloaded (LD_PRELOAD) into the vkscan tool by a CLI test: dlopen() of the
// Vulkan loader fails, as on a machine without libvulkan1, and every other
// dlopen() goes on to the real one.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>
#include <string.h>

typedef void* (*DlopenFunction)(const char*, int);

void* dlopen(const char* file, int mode) {
  if (file != NULL && strstr(file, "libvulkan") != NULL) return NULL;
  // ISO C has no cast from dlsym's object pointer to a function pointer.
  void* symbol = dlsym(RTLD_NEXT, "dlopen");
  DlopenFunction next;
  memcpy(&next, &symbol, sizeof next);
  return next(file, mode);
}
