# wg_set_warnings(target): the project's warning set (-Wall -Wextra -Wpedantic, clean).
function(wg_set_warnings target)
  if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic)
  endif()
endfunction()
