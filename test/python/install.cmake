# Installs vkscan from BUILD_DIR into a scratch prefix, then imports the
# package from a fresh directory with only that prefix's PACKAGE_DIR on
# PYTHONPATH, and scans on the device. Script mode (ctest).
set(prefix ${WORK_DIR}/prefix)
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR}/fresh)
set(check "import numpy, vkscan
assert vkscan.__file__.startswith('${prefix}/'), vkscan.__file__
assert vkscan.cumsum(numpy.arange(5, dtype=numpy.int32), dtype=numpy.int32).tolist() == [0, 1, 3, 6, 10]
print(vkscan.__file__, vkscan.info()['name'])")
foreach(step
    "${CMAKE_COMMAND};--install;${BUILD_DIR};--prefix;${prefix}"
    "${CMAKE_COMMAND};-E;env;PYTHONPATH=${prefix}/${PACKAGE_DIR};${PYTHON};-c;${check}")
  execute_process(COMMAND ${step} WORKING_DIRECTORY ${WORK_DIR}/fresh
    RESULT_VARIABLE result OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message("${out}${err}")
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "python install step failed (${result}): ${step}")
  endif()
endforeach()
