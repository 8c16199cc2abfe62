# WG_SANITIZE=ON builds everything with AddressSanitizer and UndefinedBehaviorSanitizer.
if(WG_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
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
