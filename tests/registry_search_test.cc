// The ruleset search path (registry.h): folders added by the API come first,
// then WARGAME_RULESET_PATH, then the built-in roots; a data-only ruleset is
// found by name on it.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>

#include "wargame/game_loader.h"
#include "wargame/registry.h"
#include "wargame/session.h"

namespace wg {
namespace {

namespace fs = std::filesystem;

// A copy of the skirmish test ruleset under <root>/<name>.
fs::path CopySkirmish(const fs::path& root, const std::string& name) {
  const fs::path dest = root / name;
  fs::create_directories(dest);
  fs::copy(fs::path(WG_TEST_DATA_DIR) / "rulesets" / "skirmish", dest, fs::copy_options::recursive |
                                                                             fs::copy_options::overwrite_existing);
  return dest;
}

TEST(RulesetSearchPath, ApiPathsComeFirstThenTheEnvironmentThenTheBuiltInRoot) {
  const fs::path tmp = fs::temp_directory_path() / "wg_registry_search_test";
  fs::remove_all(tmp);
  const fs::path a = tmp / "a", b = tmp / "b";
  CopySkirmish(b, "outpost");
  ASSERT_EQ(setenv("WARGAME_RULESET_PATH", ((tmp / "missing").string() + ":" + b.string()).c_str(), 1), 0);
  const std::vector<std::string> before = RulesetSearchPath();
  ASSERT_GE(before.size(), 3u);
  EXPECT_EQ(before[0], (tmp / "missing").string());
  EXPECT_EQ(before[1], b.string());
  EXPECT_EQ(before.back(), RulesetsRoot());
  EXPECT_EQ(FindRulesetFolder("outpost"), (b / "outpost").string());

  // A data-only ruleset is found by name and plays.
  auto game = LoadGame("outpost");
  ASSERT_TRUE(game.ok()) << game.errors().ToString();
  Session s(*game, 1);
  EXPECT_FALSE(s.LegalActions().empty());

  // A folder added by the API wins over the environment.
  CopySkirmish(a, "outpost");
  AddRulesetSearchPath(a.string());
  EXPECT_EQ(RulesetSearchPath()[0], a.string());
  EXPECT_EQ(FindRulesetFolder("outpost"), (a / "outpost").string());
  // An absolute folder is used as it is; an unknown name falls back to the root.
  EXPECT_EQ(FindRulesetFolder(b.string()), b.string());
  EXPECT_EQ(FindRulesetFolder("no_such_ruleset"), (fs::path(RulesetsRoot()) / "no_such_ruleset").string());
  EXPECT_FALSE(LoadGame("no_such_ruleset").ok());
  unsetenv("WARGAME_RULESET_PATH");
  fs::remove_all(tmp);
}

}  // namespace
}  // namespace wg
