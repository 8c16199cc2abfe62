// Golden playthrough: the full log of one seeded random game of the skirmish
// test ruleset is committed (tests/data/golden/skirmish_seed7.log). A change
// that alters play or the wording of the log shows up here line by line.
// When the change is intended, regenerate the file with
//   WG_UPDATE_GOLDEN=1 build/tests/golden_test
// and say why in the commit message.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "skirmish.h"
#include "wargame/action_text.h"
#include "wargame/players.h"
#include "wargame/session.h"

namespace wg {
namespace {

std::string PlayLog(uint64_t seed) {
  auto game = LoadGame("skirmish");
  EXPECT_TRUE(game.ok());
  Session s(*game, seed);
  RandomPlayer player(seed);
  std::string log;
  size_t seen = 0;
  auto flush = [&]() {
    for (const auto& line : s.DescribeEvents(seen)) log += "  " + line + "\n";
    seen = s.events().size();
  };
  flush();
  while (!s.over()) {
    const auto legal = s.LegalActions();
    if (legal.empty()) break;
    const Action a = player.Choose(s.game(), s.state(), legal);
    log += ActionToText(s.game(), a) + "\n";
    EXPECT_TRUE(s.Apply(a).ok());
    flush();
  }
  return log;
}

TEST(Golden, SkirmishSeed7LogIsUnchanged) {
  const std::string path = std::string(WG_TEST_DATA_DIR) + "/golden/skirmish_seed7.log";
  const std::string log = PlayLog(7);
  if (std::getenv("WG_UPDATE_GOLDEN")) {
    std::ofstream(path) << log;
    GTEST_SKIP() << "wrote " << path;
  }
  std::ifstream in(path);
  ASSERT_TRUE(in) << "missing " << path;
  std::stringstream want;
  want << in.rdbuf();
  std::istringstream a(want.str()), b(log);
  std::string la, lb;
  int line = 0;
  while (true) {
    const bool ea = !std::getline(a, la), eb = !std::getline(b, lb);
    ++line;
    if (ea && eb) break;
    ASSERT_EQ(la, lb) << "first difference at line " << line << " of " << path;
  }
}

}  // namespace
}  // namespace wg
