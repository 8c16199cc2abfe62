// Loading ruleset folders: every error names file:line:col and the key path,
// unknown keys are refused, scenarios override sections and extend each other.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "skirmish.h"
#include "wargame/session.h"

namespace wg {
namespace {

namespace fs = std::filesystem;

// Copies the skirmish folder to a temporary place and lets a test break a file.
class BrokenRuleset : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("wg_broken_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::copy(std::string(WG_TEST_DATA_DIR) + "/rulesets/skirmish", dir_, fs::copy_options::recursive);
  }
  void TearDown() override { fs::remove_all(dir_); }
  void Replace(const std::string& file, const std::string& from, const std::string& to) {
    const fs::path p = dir_ / file;
    std::ifstream in(p);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const size_t at = text.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    text.replace(at, from.size(), to);
    std::ofstream(p) << text;
  }
  std::string Errors() {
    auto g = LoadGame(dir_.string());
    EXPECT_FALSE(g.ok());
    return g.ok() ? "" : g.errors().ToString();
  }
  fs::path dir_;
};

TEST_F(BrokenRuleset, UnknownSectionIsATypo) {
  Replace("ruleset.yaml", "stacking: {limit: 2}", "stackin: {limit: 2}");
  const std::string e = Errors();
  EXPECT_NE(e.find((dir_ / "ruleset.yaml").string() + ":"), std::string::npos) << e;
  EXPECT_NE(e.find("stackin: unknown section"), std::string::npos) << e;
}

TEST_F(BrokenRuleset, BadUnitValueNamesFileLineColumnAndPath) {
  Replace("units.yaml", "values: {strength: 4, movement: 4}, setup: \"0203\"",
          "values: {strength: x, movement: 4}, setup: \"0203\"");
  const std::string e = Errors();
  EXPECT_NE(e.find("units.yaml:3:79: units[0].values.strength"), std::string::npos) << e;
  EXPECT_NE(e.find("units[0].values.strength: expected an integer, got \"x\""), std::string::npos) << e;
}

TEST_F(BrokenRuleset, SetupHexOffTheMap) {
  Replace("units.yaml", "setup: \"0203\"", "setup: \"0909\"");
  EXPECT_NE(Errors().find("units[0].setup: hex \"0909\" is not on the map"), std::string::npos);
}

TEST_F(BrokenRuleset, UnknownSideKindAndEntry) {
  Replace("units.yaml", "side: blue, kind: infantry, values: {strength: 4", "side: green, kind: dragoon, values: {strength: 4");
  Replace("units.yaml", "entry: Blue edge", "entry: Nowhere");
  const std::string e = Errors();
  EXPECT_NE(e.find("units[0].side: unknown side \"green\""), std::string::npos) << e;
  EXPECT_NE(e.find("units[0].kind: unknown kind \"dragoon\""), std::string::npos) << e;
  EXPECT_NE(e.find("units[4].reinforcement.entry: no place named \"Nowhere\" on the map"), std::string::npos) << e;
}

TEST_F(BrokenRuleset, MapErrorsComeFromTheMapFile) {
  Replace("map.yaml", "woods: [0302, 0303, 0603]", "wods: [0302, 0303, 0603]");
  const std::string e = Errors();
  EXPECT_NE(e.find("map.yaml:5:3: terrain.wods: unknown terrain \"wods\""), std::string::npos) << e;
  EXPECT_NE(e.find("wods"), std::string::npos) << e;
}

TEST_F(BrokenRuleset, CrtRowWithTooFewCells) {
  Replace("ruleset.yaml", "- [AR, AR, DR, DR, DR, DR, DE, DE, DE, DE]", "- [AR, AR, DR]");
  Replace("ruleset.yaml", "    clear: 1\n", "    clear: x\n");
  const std::string e = Errors();
  // Each error is reported once, whichever section loader found it.
  const std::string crt = "crt.results[0]: expected 10 cells (one per column), got 3";
  const std::string mv = "movement.terrain_cost.clear: expected a number, got \"x\"";
  ASSERT_NE(e.find(crt), std::string::npos) << e;
  EXPECT_EQ(e.find(crt), e.rfind(crt)) << e;
  ASSERT_NE(e.find(mv), std::string::npos) << e;
  EXPECT_EQ(e.find(mv), e.rfind(mv)) << e;
}

TEST_F(BrokenRuleset, UnknownRuleNumberKey) {
  Replace("ruleset.yaml", "stacking: {limit: 2}", "stacking: {limit: 2}\nrule_numbers: {movment: \"5.1\"}");
  EXPECT_NE(Errors().find("rule_numbers.movment: unknown rule key"), std::string::npos);
}

TEST_F(BrokenRuleset, ThresholdVictoryPicksTheLeaderOnlyAboveItsMinimum) {
  Replace("ruleset.yaml",
          "victory:\n  kind: differential\n  levels:\n    - {name: \"Blue victory\", min: 3, winner: blue}\n"
          "    - {name: \"Draw\", min: -2, max: 2}\n    - {name: \"Red victory\", max: -3, winner: red}\n",
          "victory:\n  kind: thresholds\n  thresholds: {blue: 1, red: 100}\n");
  auto g = LoadGame(dir_.string());
  ASSERT_TRUE(g.ok()) << g.errors().ToString();
  EXPECT_EQ((*g)->victory.kind, VictoryRules::Kind::kThresholds);
  EXPECT_EQ((*g)->victory.thresholds[1], 100);
}

TEST(ScenarioFiles, ExtendsAndOverrides) {
  auto g = LoadGame("skirmish(scenario=" + std::string(WG_TEST_DATA_DIR) +
                    "/rulesets/skirmish/scenarios/duel.yaml)");
  ASSERT_TRUE(g.ok()) << g.errors().ToString();
  // duel.yaml extends meeting.yaml (title) and adds a start and placements.
  EXPECT_EQ((*g)->title, "Skirmish - meeting engagement");
  EXPECT_EQ((*g)->start.turn, 2);
  EXPECT_TRUE((*g)->start.only_placed);
  EXPECT_EQ((*g)->start.placements.size(), 2u);
}

TEST(Events, DescribeCitesTheRuleNumber) {
  auto g = LoadGame("skirmish");
  ASSERT_TRUE(g.ok());
  Event e;
  e.type = EventType::kLoss;
  e.unit = 0;
  e.hex = static_cast<int16_t>((*g)->hex_board().map.Index("0203"));
  e.a = 2;
  e.rule = "7.5.2";
  e.text = "extra disruption";
  EXPECT_EQ(Describe(**g, e), "7.5.2: 1st Blue (0203) takes 2 extra disruption");
  Event t;
  t.type = EventType::kTurnStart;
  t.a = 5;
  EXPECT_EQ(Describe(**g, t), "Turn 5 (dusk), night");
}

}  // namespace
}  // namespace wg
