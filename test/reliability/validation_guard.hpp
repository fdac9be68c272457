// Fails a test executable when the Khronos validation layer reports anything
// during any test case, or while devices are torn down at exit (where the
// layer reports objects that were never destroyed). Linked into the lib suite
// and the reliability tests; see validation_guard.cpp.
#pragma once

#include <cstdint>

namespace vkscan::test {

// Declares that the running test provoked `count` messages on purpose (the
// guard's own self-test); they are not held against it.
void expectValidationMessages(uint64_t count);

// True when the environment sets VKSCAN_REQUIRE_VALIDATION=1 (CI does):
// then a missing layer is a failure rather than a skipped check.
bool validationRequired();

}  // namespace vkscan::test
