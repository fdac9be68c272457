#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include "test_device.hpp"

int main(int argc, char** argv) {
  doctest::Context context(argc, argv);
  int result = context.run();
  vkscan::test::releaseTestDevices();
  return result;
}
