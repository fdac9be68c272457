# Warnings are set per target, never globally, so vkscan can be embedded in
# projects with their own flags.
function(vkscan_set_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic)
  if(VKSCAN_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()
