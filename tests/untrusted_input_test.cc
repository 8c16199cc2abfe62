// Untrusted input (issue 14): every class of file that aborted the program
// before is refused with file:line:col: key.path: message, and saves reload and
// continue identically. The inputs are the fuzz regression files
// (fuzz/regressions/), replayed here with the message each must produce.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "skirmish.h"
#include "wargame/action_text.h"
#include "wargame/players.h"
#include "wargame/session.h"

namespace wg {
namespace {

namespace fs = std::filesystem;

const fs::path kRegressions = fs::path(WG_SOURCE_DIR) / "fuzz" / "regressions";
const std::string kSkirmish = std::string(WG_TEST_DATA_DIR) + "/rulesets/skirmish";

std::string Slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// A private copy of the skirmish folder.
class Untrusted : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("wg_untrusted_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    Fresh();
  }
  void Fresh() {
    fs::remove_all(dir_);
    fs::copy(kSkirmish, dir_, fs::copy_options::recursive);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // Errors of the skirmish copy with one file replaced by a regression input
  // whose first line is "#file: skirmish/NAME".
  std::string RulesetErrors(const std::string& input) {
    const std::string text = Slurp(kRegressions / "ruleset" / input);
    const std::string prefix = "#file: skirmish/";
    EXPECT_EQ(text.rfind(prefix, 0), 0u) << input;
    const std::string name = text.substr(prefix.size(), text.find('\n') - prefix.size());
    Fresh();
    std::ofstream(dir_ / name, std::ios::binary | std::ios::trunc) << text;
    auto g = LoadGame(dir_.string());
    EXPECT_FALSE(g.ok()) << input;
    return g.ok() ? "" : g.errors().ToString();
  }
  std::string ScenarioErrors(const std::string& input) {
    Fresh();
    const fs::path file = dir_ / "scenarios" / input;
    std::ofstream(file, std::ios::binary | std::ios::trunc) << Slurp(kRegressions / "scenario" / input);
    auto g = LoadGame(GameParams{dir_.string(), file.string(), {}, {}, {}}.ToString());
    EXPECT_FALSE(g.ok()) << input;
    return g.ok() ? "" : g.errors().ToString();
  }
  fs::path dir_;
};

std::string SaveErrors(const std::string& input) {
  auto s = Session::Load(Slurp(kRegressions / "save" / input), input);
  EXPECT_FALSE(s.ok()) << input;
  return s.ok() ? "" : s.errors().ToString();
}

#define EXPECT_HAS(text, part) EXPECT_NE((text).find(part), std::string::npos) << (text)

// --- A scalar or a list where a map belongs: reported, never indexed. ---------

TEST_F(Untrusted, ShapeErrorsStopTheDescent) {
  EXPECT_HAS(RulesetErrors("stacking-is-a-scalar.yaml"), "ruleset.yaml:77:11: stacking: expected a map");
  EXPECT_HAS(RulesetErrors("sides-are-words.yaml"), "sides[0]: expected a map");
  EXPECT_HAS(RulesetErrors("units-are-words.yaml"), "units.yaml:2:9: units[0]: expected a map");
  const std::string e = RulesetErrors("sections-of-the-wrong-shape.yaml");
  EXPECT_HAS(e, "turns: expected a map");
  EXPECT_HAS(e, "sides: expected a list");
  EXPECT_HAS(SaveErrors("one-word.yaml"), "one-word.yaml:1:1: expected a map");
  EXPECT_HAS(ScenarioErrors("placements-are-words.yaml"), "place[0]: expected a map");
}

TEST(UntrustedReader, AccessorsNeverThrowWhateverTheNode) {
  YamlReader r = YamlReader::FromString("a: 3\nb: [1, 2]\n", "t.yaml");
  const YAML::Node scalar = r.root()["a"], list = r.root()["b"], missing = r.root()["zz"];
  for (const YAML::Node& n : {scalar, list, missing, YAML::Node()}) {
    EXPECT_FALSE(YamlReader::Get(n, "x"));
    EXPECT_FALSE(r.RequiredInt(n, "p", "x"));
    EXPECT_EQ(r.OptionalString(n, "p", "x", "d"), "d");
    EXPECT_FALSE(r.CheckKeys(n, "p", {"x"}) && !n.IsMap());
    EXPECT_TRUE(r.StringList(YamlReader::Get(n, "x"), "p").empty());
  }
  EXPECT_FALSE(r.ok());
}

// --- Integers: range-checked against their field, the range in the message. --

TEST_F(Untrusted, IntegersAreRangeCheckedNotNarrowed) {
  EXPECT_HAS(RulesetErrors("movement-40000.yaml"),
             "units[0].values.movement: integer 40000 is out of range (between 0 and 32767)");
  EXPECT_HAS(RulesetErrors("strength-4294967300.yaml"),
             "units[0].values.strength: integer 4294967300 is out of range (between 0 and 32767)");
}

// --- Duplicate keys, alias bombs, deep nesting. -------------------------------

TEST_F(Untrusted, DuplicateKeysAreReported) {
  EXPECT_HAS(RulesetErrors("duplicate-key.yaml"), "units.yaml:4:44: units[0].side: duplicate key (first at line 4)");
  EXPECT_HAS(SaveErrors("duplicate-game.yaml"), "duplicate-game.yaml:3:1: game: duplicate key (first at line 1)");
}

TEST_F(Untrusted, AliasBombsAndDeepNestingAreRefused) {
  EXPECT_HAS(RulesetErrors("alias-bomb.yaml"), "the document is too large");
  EXPECT_HAS(RulesetErrors("nested-too-deep.yaml"), "nested more than 64 levels deep");
}

// --- Victory-point schedules (victory.points): every entry checked, key by key. --

TEST_F(Untrusted, VictoryPointSchedulesAreCheckedEntryByEntry) {
  const std::string e = ScenarioErrors("victory-points-wrong-in-every-key.yaml");
  const std::string f = "victory-points-wrong-in-every-key.yaml:";
  EXPECT_HAS(e, f + "7:26: victory.points[0].for: unknown award \"enemy_strenght_eliminated\" (expected one of: ");
  EXPECT_HAS(e, f + "8:64: victory.points[1].attribute: unknown attribute \"morale\"");
  EXPECT_HAS(e, f + "9:53: victory.points[2].places: no place named \"Nowhere\" on the map");
  EXPECT_HAS(e, f + "10:53: victory.points[3].places: place \"Blue edge\" is of kind \"entry\", whose control is not tracked");
  EXPECT_HAS(e, f + "11:74: victory.points[4].side: unknown side \"green\"");
  EXPECT_HAS(e, f + "11:56: victory.points[4].kinds: unknown kind \"dragoons\"");
  EXPECT_HAS(e, f + "12:7: victory.points[5].rule: missing required key");
  EXPECT_HAS(e, f + "12:67: victory.points[5].points: integer 99999 is out of range (between -1000 and 1000)");
  EXPECT_HAS(e, f + "13:82: victory.points[6].bonus: unknown key");
  EXPECT_HAS(e, f + "13:57: victory.points[6].places: an elimination award names no places");
  EXPECT_HAS(e, f + "14:7: victory.points[7]: expected a map");
  EXPECT_HAS(e, f + "15:7: victory.points[8].places: missing required key");
  EXPECT_HAS(e, f + "16:27: victory.points[9].for: expected a string");
  EXPECT_HAS(e, f + "16:81: victory.points[9].points: expected an integer");
  EXPECT_HAS(e, f + "17:54: victory.points[10].places: place \"Crossroads\" is listed twice");
  EXPECT_HAS(ScenarioErrors("victory-points-is-a-map.yaml"),
             "victory-points-is-a-map.yaml:5:11: victory.points: expected a list");
}

// --- File-system errors where paths are probed. -------------------------------

TEST(UntrustedPaths, NamesTooLongAreReported) {
  const std::string longname(300, 'y');
  for (const std::string& spec : {longname, "stars_and_bars(scenario=" + longname + ")"}) {
    auto g = LoadGame(spec);
    ASSERT_FALSE(g.ok());
  }
  EXPECT_HAS(SaveErrors("game-name-too-long.yaml"), "File name too long");
}

// --- Scenario placements keep the invariants, refused with their position. ---

TEST_F(Untrusted, PlacementsThatBreakTheInvariantsAreRefused) {
  EXPECT_HAS(ScenarioErrors("both-sides-in-one-hex.yaml"), "both-sides-in-one-hex.yaml:4:5: place[0]: units of both sides start in hex 0603");
  EXPECT_HAS(ScenarioErrors("over-the-stacking-limit.yaml"),
             "place[2]: 3 units of blue start in hex 0203 (the stacking limit is 2)");
  EXPECT_HAS(ScenarioErrors("unit-off-the-map.yaml"), "place[0].hex: hex \"9999\" is not on the map");
}

// --- The CRT names only results the result handler applies. -------------------

TEST_F(Untrusted, UnknownCrtTokenIsAnError) {
  EXPECT_HAS(RulesetErrors("crt-token-d1.yaml"),
             "crt.results[0][2]: result token \"D1\" is not one the standard hex rules apply");
}

// --- The game spec. ------------------------------------------------------------

TEST(UntrustedSpec, UnknownKeysAndQuotedValues) {
  auto bad = LoadGame(Slurp(kRegressions / "game_spec" / "unknown-key.txt"));
  ASSERT_FALSE(bad.ok());
  EXPECT_HAS(bad.errors().ToString(), "unknown key \"optinal\" (expected scenario, optional or auto)");
  GameParams p{"/tmp/a,b(c)\"d", "/x/it's \"here\", (really)=yes\\", {"12.1"}, {}, {}};
  auto q = ParseGameSpec(p.ToString());
  ASSERT_TRUE(q.ok()) << p.ToString();
  EXPECT_EQ(q->ruleset, p.ruleset);
  EXPECT_EQ(q->scenario, p.scenario);
  EXPECT_EQ(q->optional, p.optional);
  EXPECT_FALSE(ParseGameSpec("x(scenario=\"open)").ok());
}

// --- Actions. ------------------------------------------------------------------

std::shared_ptr<const Game> Skirmish() {
  auto g = LoadGame("skirmish");
  EXPECT_TRUE(g.ok());
  return *g;
}

TEST(UntrustedActions, UnitsNamedTwiceAndUnusedFieldsAreRefused) {
  auto g = Skirmish();
  for (const char* text : {"{enter: [b5, b5], path: [0101]}", "{advance: [b1, b1]}", "{custom: 3, units: [b1, b1]}",
                           "{move: [b1], units: [b1], path: [0303]}"}) {
    auto a = ParseActionText(*g, text);
    ASSERT_FALSE(a.ok()) << text;
    EXPECT_HAS(a.errors().ToString(), "is named twice");
  }
  for (const char* text : {"{stand: 1, value: 5}", "{end: 1, units: [b1]}", "{loss: b1, amount: 1, value2: 4}",
                           "{move: [b1], path: [0303], target: [0304]}"}) {
    EXPECT_FALSE(ParseActionText(*g, text).ok()) << text;
  }
}

TEST(UntrustedActions, OutOfRangeIdsAreRefusedBeforeTheRuleset) {
  auto g = Skirmish();
  Session s(g, 1);
  const State before = s.state();
  const size_t events = s.events().size();
  Action a = Action::Of(ActionType::kMove);
  a.AddUnit(30000).AddHex(-5);
  Action b = Action::Of(ActionType::kMove);
  b.AddUnit(0).AddHex(0);
  b.hexes[0] = 32000;
  Action c = Action::Of(ActionType::kAttack);
  c.num_units = 200;
  Action d;
  d.type = static_cast<ActionType>(99);
  for (const Action& x : {a, b, c, d}) {
    const Status st = s.Apply(x);
    ASSERT_FALSE(st.ok());
    EXPECT_HAS(st.ToString(), "malformed action");
    EXPECT_TRUE(before.Equals(s.state()));
    EXPECT_EQ(s.events().size(), events);
  }
}

// --- Saves. --------------------------------------------------------------------

TEST(UntrustedSaves, AGameWithNoActionsSavesAndReloads) {
  Session s(Skirmish(), 5);
  auto t = Session::Load(s.Save(), "empty.yaml");
  ASSERT_TRUE(t.ok()) << s.Save() << (t.ok() ? "" : t.errors().ToString());
  EXPECT_TRUE((*t)->state().Equals(s.state()));
}

TEST(UntrustedSaves, SeedMustBeAWholeNumberAndHashIsRequired) {
  EXPECT_HAS(SaveErrors("seed-4abc.yaml"), "seed: expected an integer from 0 to 18446744073709551615, got \"4abc\"");
  Session s(Skirmish(), 5);
  std::string text = s.Save();
  text.erase(text.find("hash:"));
  auto t = Session::Load(text, "nohash.yaml");
  ASSERT_FALSE(t.ok());
  EXPECT_HAS(t.errors().ToString(), "hash: missing required key");
}

// Plays random legal actions until an attack has been resolved with `dice`.
void PlayUntilADieIsRolled(Session& s, RandomPlayer& p, const std::vector<int>& dice) {
  s.SupplyDice(dice);
  for (int i = 0; i < 400 && !s.over() && s.dice_queued() > 0; ++i) {
    ASSERT_TRUE(s.Apply(p.Choose(s.game(), s.state(), s.LegalActions())).ok());
  }
}

TEST(UntrustedSaves, DiceSuppliedMidGameAreRecordedAtTheirActionAndReplay) {
  Session s(Skirmish(), 3);
  RandomPlayer p(11);
  for (int i = 0; i < 15 && !s.over(); ++i) ASSERT_TRUE(s.Apply(p.Choose(s.game(), s.state(), s.LegalActions())).ok());
  PlayUntilADieIsRolled(s, p, {6});
  PlayUntilADieIsRolled(s, p, {1, 2});
  ASSERT_FALSE(s.supplied_used().empty());
  const std::string text = s.Save();
  EXPECT_HAS(text, "supplied_at:");
  auto t = Session::Load(text, "mid.yaml");
  ASSERT_TRUE(t.ok()) << text << (t.ok() ? "" : t.errors().ToString());
  EXPECT_TRUE((*t)->state().Equals(s.state()));
  EXPECT_EQ((*t)->supplied_used(), s.supplied_used());
  // And it continues identically.
  RandomPlayer p1(5), p2(5);
  for (int i = 0; i < 50 && !s.over(); ++i) {
    ASSERT_TRUE(s.Apply(p1.Choose(s.game(), s.state(), s.LegalActions())).ok());
    ASSERT_TRUE((*t)->Apply(p2.Choose((*t)->game(), (*t)->state(), (*t)->LegalActions())).ok());
    ASSERT_TRUE((*t)->state().Equals(s.state()));
  }
}

TEST(UntrustedSaves, AnOutOfRangeSuppliedValueIsRefusedAndDropped) {
  Session s(Skirmish(), 1, /*supplied_dice=*/true);
  RandomPlayer p(2);
  s.SupplyDice({9});
  // Play until an action needs the die: it is refused, the 9 dropped.
  bool dropped = false;
  for (int i = 0; i < 400 && !s.over() && !dropped; ++i) {
    const Action a = p.Choose(s.game(), s.state(), s.LegalActions());
    const State before = s.state();
    const Status st = s.Apply(a);
    if (st.ok()) continue;
    EXPECT_HAS(st.ToString(), "supplied die value 9 is out of range for a d6 and was dropped");
    EXPECT_TRUE(before.Equals(s.state()));
    EXPECT_EQ(s.dice_queued(), 0u);
    s.SupplyDice({3});
    ASSERT_TRUE(s.Apply(a).ok());  // a good value: the same action now plays
    dropped = true;
  }
  EXPECT_TRUE(dropped);
}

TEST_F(Untrusted, APathWithAQuoteAndACommaRoundTripsThroughSpecAndSave) {
  const fs::path odd = dir_ / "it's \"a\", (b)=c";
  fs::create_directories(odd);
  fs::copy_file(dir_ / "scenarios" / "duel.yaml", odd / "duel.yaml");
  std::ofstream(odd / "meeting.yaml") << "extends: " << (dir_ / "scenarios" / "meeting.yaml").string() << "\n";
  auto g = LoadGame(GameParams{dir_.string(), (odd / "duel.yaml").string(), {}, {}, {}}.ToString());
  ASSERT_TRUE(g.ok()) << g.errors().ToString();
  Session s(*g, 4);
  RandomPlayer p(4);
  for (int i = 0; i < 10 && !s.over(); ++i) ASSERT_TRUE(s.Apply(p.Choose(s.game(), s.state(), s.LegalActions())).ok());
  auto t = Session::Load(s.Save(), "odd.yaml");
  ASSERT_TRUE(t.ok()) << s.Save() << (t.ok() ? "" : t.errors().ToString());
  EXPECT_EQ((*t)->game().params.scenario, (odd / "duel.yaml").string());
  EXPECT_TRUE((*t)->state().Equals(s.state()));
}

// --- Issue 14: every ruleset read has its file position; rulesets with hooks ---------
// --- refuse CRT tokens their result handler does not apply. -------------------------

// Replaces the first `from` in `file` by `to` (which must be there).
void Edit(const fs::path& file, const std::string& from, const std::string& to) {
  std::string text = Slurp(file);
  const size_t at = text.find(from);
  ASSERT_NE(at, std::string::npos) << file << ": " << from;
  text.replace(at, from.size(), to);
  std::ofstream(file, std::ios::binary | std::ios::trunc) << text;
}

// Removes the top-level section `key` (its line and the indented lines under it).
void RemoveSection(const fs::path& file, const std::string& key) {
  std::istringstream in(Slurp(file));
  std::string out, line;
  bool in_section = false;
  while (std::getline(in, line)) {
    if (line.rfind(key + ":", 0) == 0) {
      in_section = true;
      continue;
    }
    if (in_section && (line.empty() || line[0] == ' ' || line[0] == '#')) continue;
    in_section = false;
    out += line + "\n";
  }
  std::ofstream(file, std::ios::binary | std::ios::trunc) << out;
}

std::string Errors(const GameParams& params) {
  auto g = LoadGame(params.ToString());
  EXPECT_FALSE(g.ok()) << params.ToString();
  return g.ok() ? "" : g.errors().ToString();
}

TEST_F(Untrusted, Issue14_MissingHexSectionIsReportedAtTheRulesetsTop) {
  RemoveSection(dir_ / "ruleset.yaml", "crt");
  EXPECT_HAS(Errors(GameParams{dir_.string(), "", {}, {}, {}}), "ruleset.yaml:4:1: crt: missing required section");
}

TEST_F(Untrusted, Issue14_UnknownDefaultScenarioIsReportedWhereItIsNamed) {
  Edit(dir_ / "ruleset.yaml", "default_scenario: meeting", "default_scenario: nowhere");
  const std::string e = Errors(GameParams{dir_.string(), "", {}, {}, {}});
  EXPECT_HAS(e, "ruleset.yaml:");
  EXPECT_HAS(e, ": default_scenario: unknown scenario \"nowhere\" (known: ");
  EXPECT_EQ(e.find(":0:0:"), std::string::npos) << e;
}

TEST_F(Untrusted, Issue14_UnknownOptionalRuleIsReportedAtTheList) {
  const std::string e = Errors(GameParams{dir_.string(), "", {"Z.9"}, {}, {}});
  EXPECT_HAS(e, ": optional: unknown optional rule \"Z.9\" (known: X.1)");
  EXPECT_EQ(e.find(":0:0:"), std::string::npos) << e;
}

TEST_F(Untrusted, Issue14_DefaultTerrainMustBeATerrainType) {
  Edit(dir_ / "ruleset.yaml", "  default: clear", "  default: swamp");
  const std::string e = Errors(GameParams{dir_.string(), "", {}, {}, {}});
  EXPECT_HAS(e, "ruleset.yaml:26:12: terrain.default: \"swamp\" is not one of terrain.types");
  EXPECT_EQ(e.find(":0:0:"), std::string::npos) << e;
}

TEST_F(Untrusted, Issue14_SetUpHexesThatBreakTheInvariantsAreReportedAtTheUnit) {
  Edit(dir_ / "units.yaml", "setup: \"0603\"", "setup: \"0203\"");
  const std::string e = Errors(GameParams{dir_.string(), "", {}, {}, {}});
  EXPECT_HAS(e, "units.yaml:3:103: units[0].setup: units of both sides start in hex 0203");
  EXPECT_EQ(e.find(":0:0:"), std::string::npos) << e;
}

TEST_F(Untrusted, Issue14_FileNamesAndScenarioNamesMustBeStrings) {
  Edit(dir_ / "ruleset.yaml", "units: units.yaml", "units: {file: units.yaml}");
  EXPECT_HAS(Errors(GameParams{dir_.string(), "", {}, {}, {}}), ": units: expected a string");
  Fresh();
  Edit(dir_ / "ruleset.yaml", "default_scenario: meeting", "default_scenario: [meeting]");
  EXPECT_HAS(Errors(GameParams{dir_.string(), "", {}, {}, {}}), ": default_scenario: expected a string");
}

// A copy of one of the project's rulesets, found first on the search path.
class UntrustedHooks : public ::testing::Test {
 protected:
  void Copy(const std::string& name) {
    root_ = fs::temp_directory_path() / ("wg_hooks_" + std::to_string(::getpid()) + "_" +
                                         ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root_);
    fs::create_directories(root_);
    fs::copy(fs::path(WG_SOURCE_DIR) / "rulesets" / name, root_ / name, fs::copy_options::recursive);
    AddRulesetSearchPath(root_.string());
    name_ = name;
  }
  // Once removed, the folder is no longer found: later tests load the real one.
  void TearDown() override { fs::remove_all(root_); }
  fs::path file(const std::string& f) const { return root_ / name_ / f; }
  std::string Errors() const {
    auto g = LoadGame(name_);
    EXPECT_FALSE(g.ok()) << name_;
    return g.ok() ? "" : g.errors().ToString();
  }
  fs::path root_;
  std::string name_;
};

TEST_F(UntrustedHooks, Issue14_BlueAndGrayRefusesACrtTokenItsHandlerDoesNotApply) {
  Copy("blue_and_gray");
  Edit(file("ruleset.yaml"), "- [AR,   AR,   DR,   DR,   DR,   DR,   DE,", "- [AR,   AR,   D1,   DR,   DR,   DR,   DE,");
  EXPECT_HAS(Errors(), "ruleset.yaml:131:20: crt.results[0][2]: result token \"D1\" is not one the Blue & Gray "
                       "rules (8.3) apply (AE, AR, DE, DR, EX): it would do nothing");
}

// Issue 11: crt.effects is for the engine's result handler; a ruleset that
// applies its results in code refuses it rather than ignore it.
TEST_F(UntrustedHooks, Issue11_BlueAndGrayRefusesDeclaredCrtEffects) {
  Copy("blue_and_gray");
  Edit(file("ruleset.yaml"), "EX,   EX,   EX,   EX]    # 6", "EX,   EX,   EX,   EX]    # 6\n  effects: {EX: {defender: eliminated}}");
  EXPECT_HAS(Errors(), "crt.effects: the Blue & Gray rules (8.3) apply their results in code: declared effects would do nothing");
}

TEST_F(UntrustedHooks, Issue14_BlueAndGrayRefusesATwoSidedCell) {
  Copy("blue_and_gray");
  Edit(file("ruleset.yaml"), "- [AR,   AR,   DR,   DR,", "- [AR,   AR,   \"AR/DR\",   DR,");
  const std::string e = Errors();
  EXPECT_HAS(e, "crt.results[0][2]: result token \"AR\" is not one the Blue & Gray rules (8.3) apply in the "
                "attacker's part");
  EXPECT_HAS(e, "crt.results[0][2]: result token \"DR\" is not one the Blue & Gray rules (8.3) apply in the "
                "defender's part");
}

TEST_F(UntrustedHooks, Issue14_BlueAndGraySectionOfTheWrongShapeIsReportedNotIndexed) {
  Copy("blue_and_gray");
  Edit(file("scenarios/chattanooga/scenario.yaml"), "  union_artillery_fixed:", "  union_artillery_fixed: 3\n  x_fixed:");
  const std::string e = Errors();
  EXPECT_HAS(e, "scenario.yaml:19:26: exclusive_rules.union_artillery_fixed: expected a map");
  EXPECT_EQ(e.find("malformed data"), std::string::npos) << e;
}

TEST_F(UntrustedHooks, Issue14_StarsAndBarsRefusesACrtTokenItsHandlerDoesNotApply) {
  Copy("stars_and_bars");
  Edit(file("ruleset.yaml"), "- [\"E2R/-\", \"E2R/-\", \"E1R/-\"", "- [\"E2R/-\", \"E2X/-\", \"E1R/AE\"");
  const std::string e = Errors();
  EXPECT_HAS(e, "crt.results[0][1]: result token \"X\" is not one the Stars and Bars rules (7.3) apply in the "
                "attacker's part (AE, En, Dn, W, R): it would do nothing");
  EXPECT_HAS(e, "crt.results[0][2]: result token \"AE\" is not one the Stars and Bars rules (7.3) apply in the "
                "defender's part");
}

TEST_F(UntrustedHooks, Issue14_StarsAndBarsMissingTableAndPlacesHavePositions) {
  Copy("stars_and_bars");
  Edit(file("ruleset.yaml"), "  union_initiative:", "  union_initiative_renamed:");
  Edit(file("scenarios/perryville/map.yaml"), "kind: objective", "kind: army_hq");
  const std::string e = Errors();
  EXPECT_HAS(e, "ruleset.yaml:194:3: tables.union_initiative: missing table union_initiative (12.4)");
  EXPECT_HAS(e, "map.yaml:");
  EXPECT_HAS(e, ": places: the two army HQ places (kind army_hq, attributes: {side: ...}) and the objective are "
                "required (11.1)");
  EXPECT_EQ(e.find(":0:0:"), std::string::npos) << e;
}

}  // namespace
}  // namespace wg
