# The consumer tests' steps, in script mode (ctest):
#   MODE=install     installs BUILD_DIR into WORK_DIR/prefix, once for all
#   MODE=cmake       configures SOURCE_DIR against the prefix (find_package)
#                    in a fresh WORK_DIR/NAME, builds and runs `consumer`
#   MODE=pkg-config  compiles SOURCE with COMPILER, FLAGS and what
#                    `pkg-config --cflags --libs vkscan` says for the prefix,
#                    in a fresh WORK_DIR/NAME, and runs it
set(prefix ${WORK_DIR}/prefix)

function(run_step)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE result OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message("${out}${err}")
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "consumer step failed (${result}): ${ARGN}")
  endif()
endfunction()

if(MODE STREQUAL "install")
  file(REMOVE_RECURSE ${WORK_DIR})
  run_step(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
  return()
endif()

set(dir ${WORK_DIR}/${NAME})
file(REMOVE_RECURSE ${dir})
file(MAKE_DIRECTORY ${dir})
if(MODE STREQUAL "cmake")
  run_step(${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${dir} -DCMAKE_PREFIX_PATH=${prefix}
           -DCMAKE_BUILD_TYPE=Release)
  run_step(${CMAKE_COMMAND} --build ${dir})
  run_step(${dir}/consumer)
elseif(MODE STREQUAL "pkg-config")
  set(ENV{PKG_CONFIG_PATH} ${prefix}/${LIBDIR}/pkgconfig)
  execute_process(COMMAND pkg-config --cflags --libs vkscan RESULT_VARIABLE result
                  OUTPUT_VARIABLE flags ERROR_VARIABLE err OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "pkg-config --cflags --libs vkscan failed: ${err}")
  endif()
  message("pkg-config --cflags --libs vkscan: ${flags}")
  separate_arguments(flags UNIX_COMMAND "${flags}")
  separate_arguments(extra UNIX_COMMAND "${FLAGS}")
  run_step(${COMPILER} ${extra} ${SOURCE} ${flags} -o ${dir}/consumer)
  # pkg-config gives no run path: the loader finds the library this way.
  run_step(${CMAKE_COMMAND} -E env LD_LIBRARY_PATH=${prefix}/${LIBDIR} ${dir}/consumer)
else()
  message(FATAL_ERROR "MODE must be install, cmake or pkg-config")
endif()
