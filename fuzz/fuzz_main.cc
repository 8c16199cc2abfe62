// The libFuzzer entry point of one target (WG_FUZZ_TARGET names it).
#include <cstdio>
#include <cstdlib>

#include "targets.h"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  wg::fuzz::Prepare(WG_FUZZ_TARGET);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const wg::fuzz::Target target = wg::fuzz::FindTarget(WG_FUZZ_TARGET);
  const std::string problem = target(data, size);
  if (!problem.empty()) {
    std::fprintf(stderr, "fuzz_%s: %s\n", WG_FUZZ_TARGET, problem.c_str());
    std::abort();
  }
  return 0;
}
