// Rule traceability (issue 11): RuleIndex joins a ruleset's RULES.md with what the
// loaded game registers under each rule number (Rules::RuleSources).
#include "wargame/rule_index.h"
#include "wargame/yaml_reader.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "wargame/registry.h"

namespace wg {
namespace {

namespace fs = std::filesystem;

TEST(RuleIndex, ReadsColumnsByTheirHeaders) {
  const fs::path dir = fs::temp_directory_path() / ("wg_rule_index_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "RULES.md") << "# x\n\nintro\n\n| rule | what it says | how | test | reading chosen |\n"
                                     "|---|---|---|---|---|\n"
                                     "| 1.1 | Move | core `a \\| b` | Rules.Rule_1_1_A, Rule_1_1_B (note Rule_X) | one |\n"
                                     "| 1.2 | Fight | hook | see 1.2.1 | |\n"
                                     "\ntext\n\n| line | test |\n|---|---|\n| T.1 | Rules.T1 |\n";
  auto rows = ReadRulesTable((dir / "RULES.md").string());
  fs::remove_all(dir);
  ASSERT_TRUE(rows.ok()) << rows.errors().ToString();
  ASSERT_EQ(rows->size(), 3u);
  const RulesRow& a = (*rows)[0];
  EXPECT_EQ(a.rule, "1.1");
  EXPECT_EQ(a.line, 7);
  EXPECT_EQ(a.what, "Move");
  EXPECT_EQ(a.how, "core `a | b`");
  EXPECT_EQ(a.reading, "one");
  EXPECT_EQ(a.tests, (std::vector<std::string>{"Rules.Rule_1_1_A", "Rule_1_1_B"}));  // not inside ( )
  EXPECT_TRUE((*rows)[1].tests.empty());
  EXPECT_EQ((*rows)[2].rule, "T.1");
  EXPECT_EQ((*rows)[2].tests, (std::vector<std::string>{"Rules.T1"}));
  EXPECT_FALSE(ReadRulesTable((dir / "none.md").string()).ok());
}

// Every rule number a loaded game cites (rule_numbers:, steps, hooks) is a row of its
// RULES.md, so `wargame rules` can say what implements it and how it is tested.
TEST(RuleIndex, EveryRuleTheEngineCitesIsInRulesMd) {
  int games = 0;
  for (const auto& info : RulesetRegistry::Get().List()) {
    auto game = LoadGame(info.name);
    ASSERT_TRUE(game.ok()) << info.name << ": " << game.errors().ToString();
    auto index = RuleIndex(**game);
    ASSERT_TRUE(index.ok()) << info.name << ": " << index.errors().ToString();
    ++games;
    size_t rows = 0;
    for (const RuleIndexEntry& e : *index) {
      if (e.row.line > 0) ++rows;
      std::string names;
      for (const RuleSource& s : e.sources) names += " " + s.kind + ":" + s.name;
      EXPECT_GT(e.row.line, 0) << info.name << ": rule " << e.rule << " is cited by" << names
                               << " but is not a row of RULES.md";
    }
    EXPECT_GT(rows, 20u) << info.name;
  }
  EXPECT_GE(games, 3);
}

TEST(RuleIndex, TheHexEngineListsTheRulesNumberedInRuleNumbers) {
  auto game = LoadGame("blue_and_gray");
  ASSERT_TRUE(game.ok()) << game.errors().ToString();
  std::vector<RuleSource> sources;
  (*game)->rules->RuleSources(&sources);
  bool zoc = false;
  for (const RuleSource& s : sources) zoc = zoc || (s.kind == "data" && s.name == "rule_numbers.zoc");
  EXPECT_TRUE(zoc);
}

}  // namespace
}  // namespace wg

namespace wg {
namespace {

// Issue 37: a data key is traced to the rules its line's comment names.
TEST(RuleIndex, ARuleCommentNamesRulesNotDieRowsOrWords) {
  using V = std::vector<std::string>;
  EXPECT_EQ(YamlReader::RulesOfComment("  retreat_hexes: 2        # 7.5.1"), V{"7.5.1"});
  EXPECT_EQ(YamlReader::RulesOfComment("  mandatory: true   # 7.1: over the whole phase"), V{"7.1"});
  EXPECT_EQ(YamlReader::RulesOfComment("  phase: x   # 8.0/7.8"), V({"8.0", "7.8"}));
  EXPECT_EQ(YamlReader::RulesOfComment("  card: 1   # T.1"), V{"T.1"});
  EXPECT_EQ(YamlReader::RulesOfComment("  stand: 1   # 7.5.2.D."), V{"7.5.2.D"});
  EXPECT_TRUE(YamlReader::RulesOfComment("  - [AE, AE, D1]   # 1").empty());  // a die roll's row
  EXPECT_TRUE(YamlReader::RulesOfComment("  x: 2   # the default").empty());
  EXPECT_TRUE(YamlReader::RulesOfComment("  name: \"Hill # 7.1\"").empty());  // inside a quoted value
  EXPECT_TRUE(YamlReader::RulesOfComment("  x: 3   # 3rd").empty());
}

}  // namespace
}  // namespace wg
