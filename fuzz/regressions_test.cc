// Replays every input the fuzzers found (fuzz/regressions/TARGET/*) through the
// same target functions, without libFuzzer: each must now load or be refused
// with an error, never crash or break a property.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "targets.h"

namespace fs = std::filesystem;

namespace {

void ReplayAll(const std::string& target_name) {
  const auto target = wg::fuzz::FindTarget(target_name);
  ASSERT_NE(target, nullptr);
  const fs::path dir = fs::path(WG_FUZZ_DIR) / "regressions" / target_name;
  ASSERT_TRUE(fs::is_directory(dir)) << dir;
  int n = 0;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (!e.is_regular_file() || e.path().filename() == "README.md") continue;
    std::ifstream in(e.path(), std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string data = ss.str();
    EXPECT_EQ(target(reinterpret_cast<const uint8_t*>(data.data()), data.size()), "") << e.path();
    ++n;
  }
  EXPECT_GT(n, 0) << "no regression inputs in " << dir;
}

}  // namespace

TEST(FuzzRegressions, GameSpec) { ReplayAll("game_spec"); }
TEST(FuzzRegressions, ActionText) { ReplayAll("action_text"); }
TEST(FuzzRegressions, Save) { ReplayAll("save"); }
TEST(FuzzRegressions, Ruleset) { ReplayAll("ruleset"); }
TEST(FuzzRegressions, Scenario) { ReplayAll("scenario"); }
#ifdef WG_FUZZ_NET
TEST(FuzzRegressions, Net) { ReplayAll("net"); }
#endif
