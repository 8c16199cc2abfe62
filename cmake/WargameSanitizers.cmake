# WG_SANITIZE=ON builds everything with AddressSanitizer and UndefinedBehaviorSanitizer.
if(WG_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
  # -O1, as the AddressSanitizer documentation advises: at -O0 the random and
  # AI games of the test suite run ten times slower, and CI runs this build.
  # Asserts stay on (a Debug build keeps NDEBUG undefined).
  add_compile_options(-O1)
endif()

# WG_FUZZ=ON instruments everything for libFuzzer (coverage) with ASan and
# UBSan; the fuzz_* programs link libFuzzer's main (fuzz/CMakeLists.txt).
if(WG_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "WG_FUZZ needs clang: -DCMAKE_CXX_COMPILER=clang++-14")
  endif()
  add_compile_options(-fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer
                      -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
endif()
