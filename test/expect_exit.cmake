# Runs a command and passes only if it exits with EXIT_CODE and its standard
# error matches ERROR_REGEX. ctest's PASS_REGULAR_EXPRESSION alone ignores the
# exit code, so a tool that printed the right message and exited 0 would pass.
#   cmake -DCOMMAND=program|arg|... -DEXIT_CODE=2 -DERROR_REGEX=... -P expect_exit.cmake
string(REPLACE "|" ";" command "${COMMAND}")
execute_process(COMMAND ${command} RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT code STREQUAL EXIT_CODE)
  message(FATAL_ERROR "exit code ${code}, expected ${EXIT_CODE}\nstderr:\n${err}")
endif()
if(NOT err MATCHES "${ERROR_REGEX}")
  message(FATAL_ERROR "stderr does not match '${ERROR_REGEX}':\n${err}")
endif()
