#include <doctest/doctest.h>

#include <string>
#include <vkscan/vkscan.hpp>

TEST_CASE("version: the library's runtime version is the headers' macro") {
  CHECK(vkscan::version() == VKSCAN_VERSION);
  CHECK(VKSCAN_VERSION ==
        VKSCAN_MAKE_VERSION(VKSCAN_VERSION_MAJOR, VKSCAN_VERSION_MINOR, VKSCAN_VERSION_PATCH));
  CHECK(std::to_string(VKSCAN_VERSION_MAJOR) + "." + std::to_string(VKSCAN_VERSION_MINOR) + "." +
            std::to_string(VKSCAN_VERSION_PATCH) ==
        VKSCAN_VERSION_STRING);
}
