/* Checks for the C API's tests, which are C11 programs: doctest is C++, and
 * the point is that the calling code is C. Each failed check prints where
 * and this thread's last vkscan error; main() returns the failure count. */
#ifndef VKSCAN_TEST_C_API_CHECK_H_
#define VKSCAN_TEST_C_API_CHECK_H_

#include <stdio.h>
#include <string.h>
#include <vkscan/vkscan.h>

static int check_failures = 0;

#define CHECK(condition)                                                                   \
  do {                                                                                     \
    if (!(condition)) {                                                                    \
      fprintf(stderr, "%s:%d: CHECK(%s) failed; last error: \"%s\"\n", __FILE__, __LINE__, \
              #condition, vkscan_last_error_message());                                    \
      ++check_failures;                                                                    \
    }                                                                                      \
  } while (0)

/* `call` returns `expected`, and on failure the message begins with
 * `prefix` ("input.sizes: " names the field). */
#define CHECK_RESULT(call, expected, prefix)                                                     \
  do {                                                                                           \
    vkscan_result check_result_ = (call);                                                        \
    const char* check_message_ = vkscan_last_error_message();                                    \
    if (check_result_ != (expected) || strncmp(check_message_, (prefix), strlen(prefix)) != 0) { \
      fprintf(stderr, "%s:%d: %s gave %s \"%s\", expected %s \"%s...\"\n", __FILE__, __LINE__,   \
              #call, vkscan_result_name(check_result_), check_message_,                          \
              vkscan_result_name(expected), (prefix));                                           \
      ++check_failures;                                                                          \
    }                                                                                            \
  } while (0)

#define CHECK_OK(call) CHECK_RESULT(call, VKSCAN_SUCCESS, "")

/* Runs the named cases, or the one argv[1] names. */
typedef struct test_case {
  const char* name;
  void (*run)(void);
} test_case;

static int run_cases(const test_case* cases, size_t count, int argc, char** argv) {
  int matched = 0;
  for (size_t i = 0; i < count; ++i) {
    if (argc > 1 && strcmp(argv[1], cases[i].name) != 0) continue;
    ++matched;
    int before = check_failures;
    cases[i].run();
    printf("%s: %s\n", cases[i].name, check_failures == before ? "ok" : "FAILED");
  }
  if (matched == 0) {
    fprintf(stderr, "no case named %s\n", argc > 1 ? argv[1] : "(none)");
    return 1;
  }
  return check_failures != 0;
}

#endif /* VKSCAN_TEST_C_API_CHECK_H_ */
