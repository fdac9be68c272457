// What the C API's opaque handles hold: the C++ objects, whose shared
// internals give the handles C++'s lifetimes (an operator outlives its
// device handle).
#pragma once

#include <vkscan/vkscan.h>

#include <vkscan/vkscan.hpp>

struct vkscan_device_T {
  vkscan::Device device;
};

struct vkscan_operator_T {
  vkscan::Operator op;
};
