// Untrusted input, the core's part of issue 36: a referee's queued dice survive a
// save (a continued game is the game played straight through), a message or file
// holds one YAML document, a message is bounded like a file, and a ruleset whose
// hooks build no rules is refused once instead of crashing the loader.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "skirmish.h"
#include "wargame/action_text.h"
#include "wargame/players.h"
#include "wargame/session.h"
#include "wargame/yaml_reader.h"

namespace wg {
namespace {

namespace fs = std::filesystem;

#define EXPECT_HAS(text, part) EXPECT_NE((text).find(part), std::string::npos) << (text)

std::shared_ptr<const Game> Load(const std::string& spec) {
  auto g = LoadGame(spec);
  EXPECT_TRUE(g.ok()) << spec << ": " << (g.ok() ? "" : g.errors().ToString());
  return g.ok() ? *g : nullptr;
}

std::shared_ptr<const Game> Skirmish() { return Load("skirmish"); }

const char* const kSpecs[] = {"skirmish", "stars_and_bars", "blue_and_gray(scenario=chattanooga)",
                              "civil_war_miniatures"};

// Die values 1..6 (a face of every die the rulesets roll), from a fixed stream.
std::vector<int> Dice(uint64_t seed, size_t n) {
  RandomPlayer r(seed);
  std::vector<int> out;
  for (size_t i = 0; i < n; ++i) out.push_back(1 + static_cast<int>(r.ChooseIndex(6)));
  return out;
}

// One random action. In a supplied-only game an action that needs a die is
// given more (the same values in both games) and repeated. False if the game
// cannot go on (over, nothing listed).
bool Step(Session& s, RandomPlayer& p, uint64_t* dice_seed) {
  if (s.over()) return false;
  const std::vector<Action> legal = s.LegalActions();
  if (legal.empty()) return false;
  const Action a = p.Choose(s.game(), s.state(), legal);
  for (int tries = 0; tries < 64; ++tries) {
    const Status st = s.Apply(a);
    if (st.ok()) return true;
    if (!s.supplied_only()) ADD_FAILURE() << st.ToString();
    s.SupplyDice(Dice((*dice_seed)++, 4));
  }
  ADD_FAILURE() << "an action refused with 256 dice supplied";
  return false;
}

// The game played on from `a` and from `b` stays the same game.
void ExpectSameContinuation(Session& a, Session& b, int steps, const std::string& what) {
  RandomPlayer pa(77), pb(77);
  uint64_t da = 900, db = 900;
  ASSERT_EQ(a.DescribeEvents(), b.DescribeEvents()) << what;
  for (int i = 0; i < steps; ++i) {
    const size_t from = a.events().size();
    const bool on_a = Step(a, pa, &da);
    const bool on_b = Step(b, pb, &db);
    ASSERT_EQ(on_a, on_b) << what << " step " << i;
    ASSERT_TRUE(a.state().Equals(b.state())) << what << " differs after " << i << " steps";
    ASSERT_EQ(a.events().size(), b.events().size()) << what << " step " << i;
    ASSERT_EQ(a.DescribeEvents(from), b.DescribeEvents(from)) << what << " step " << i;
    if (!on_a) break;
  }
  EXPECT_EQ(a.queued_dice(), b.queued_dice()) << what;
}

// Plays `cut` actions with dice supplied part way (more than are used), saves,
// loads, and plays both on.
void CheckCut(const std::shared_ptr<const Game>& game, bool supplied_only, int cut) {
  const std::string what = game->params.ToString() + (supplied_only ? " supplied" : " seeded") + " cut " +
                           std::to_string(cut);
  Session s(game, 11, supplied_only);
  RandomPlayer p(5);
  uint64_t dice_seed = 1;
  for (int i = 0; i < cut; ++i) {
    if (i == cut / 2) s.SupplyDice(Dice(500 + static_cast<uint64_t>(cut), 40));
    if (!Step(s, p, &dice_seed)) break;
  }
  s.SupplyDice(Dice(700 + static_cast<uint64_t>(cut), 3));  // queued beyond what was used
  ASSERT_GT(s.dice_queued(), 0u) << what;
  const std::string text = s.Save();
  EXPECT_HAS(text, "\nqueued: [");
  auto t = Session::Load(text, "cut.yaml");
  ASSERT_TRUE(t.ok()) << what << "\n" << text << (t.ok() ? "" : t.errors().ToString());
  EXPECT_EQ((*t)->queued_dice(), s.queued_dice()) << what;
  EXPECT_EQ((*t)->Save(), text) << what;
  ExpectSameContinuation(s, **t, 150, what);
}

TEST(QueuedDice, AContinuedGameIsTheGamePlayedStraightThrough) {
  for (const char* spec : kSpecs) {
    const auto game = Load(spec);
    ASSERT_TRUE(game);
    for (int cut : {0, 7, 40, 120}) {
      CheckCut(game, false, cut);
      CheckCut(game, true, cut);
    }
  }
}

// Fails on the code before `queued:`: the loaded game had no dice queued and rolled
// seeded ones.
TEST(QueuedDice, TheSaveHoldsThemAndLoadQueuesThem) {
  Session s(Skirmish(), 3);
  s.SupplyDice({4, 2, 6});
  const std::string text = s.Save();
  EXPECT_HAS(text, "\nqueued: [4, 2, 6]\n");
  auto t = Session::Load(text, "q.yaml");
  ASSERT_TRUE(t.ok()) << t.errors().ToString();
  EXPECT_EQ((*t)->queued_dice(), (std::vector<int>{4, 2, 6}));
  // Without the key nothing is queued (older saves), and a bad value is refused.
  Session none(Skirmish(), 3);
  EXPECT_EQ(none.Save().find("queued"), std::string::npos);
  std::string bad = text;
  bad.replace(bad.find("[4, 2, 6]"), 9, "[4, 0]");
  auto u = Session::Load(bad, "bad.yaml");
  ASSERT_FALSE(u.ok());
  EXPECT_HAS(u.errors().ToString(), "queued[1]: integer 0 is out of range (between 1 and 1000)");
  bad.replace(bad.find("[4, 0]"), 6, "7");
  u = Session::Load(bad, "bad.yaml");
  ASSERT_FALSE(u.ok());
  EXPECT_HAS(u.errors().ToString(), "queued: expected a list");
}

// A save waiting for fair dice holds its queued values again as drawn dice, which
// the program supplies: Load does not queue them twice.
TEST(QueuedDice, NotQueuedTwiceForAFairDiceRound) {
  Session s(Skirmish(), 3, true);
  s.SupplyDice({5});
  const std::string text = s.Save() + "fair_dice_pending:\n  drawn: []\n";
  auto t = Session::Load(text, "fair.yaml");
  ASSERT_TRUE(t.ok()) << t.errors().ToString();
  EXPECT_EQ((*t)->dice_queued(), 0u);
}

TEST(QueuedDice, LoadForReplaysOnTheGameGivenAndRefusesAnother) {
  const auto game = Skirmish();
  Session s(game, 3);
  auto t = Session::LoadFor(game, s.Save(), "for.yaml");
  ASSERT_TRUE(t.ok()) << t.errors().ToString();
  EXPECT_EQ(&(*t)->game(), game.get());
  auto other = Load("skirmish(scenario=meeting)");
  if (other && other->params.ToString() != game->params.ToString()) {
    auto u = Session::LoadFor(other, s.Save(), "for.yaml");
    ASSERT_FALSE(u.ok());
    EXPECT_HAS(u.errors().ToString(), "the save is a game of");
  }
}

// --- One YAML document -----------------------------------------------------------

TEST(OneDocument, ASecondDocumentIsRefusedWhereItStarts) {
  for (const std::string& text : {std::string("a: 1\n---\nb: 2\n"), std::string("a: 1\n---\n"),
                                  std::string("a: 1\n---\n[{\n"), std::string("a: 1\n...\n\nb: 2\n")}) {
    YamlReader r = YamlReader::FromString(text, "m.yaml");
    ASSERT_FALSE(r.ok()) << text;
    // At its `---`, or (after `...`) at its first node.
    const char* at = text.find("...") == std::string::npos ? "m.yaml:2:1: " : "m.yaml:4:1: ";
    EXPECT_HAS(r.errors().ToString(), std::string(at) + "more than one YAML document");
    EXPECT_EQ(r.errors().size(), 1u) << r.errors().ToString();
  }
  // yaml-cpp reads two flow maps in a row as two documents.
  YamlReader r = YamlReader::FromString("{a: 1} {b: 2}", "m.yaml");
  ASSERT_FALSE(r.ok());
  EXPECT_HAS(r.errors().ToString(), "m.yaml:1:8: more than one YAML document");
  // One document, with or without its markers, is read as before.
  for (const std::string& text : {std::string("---\na: 1\n"), std::string("a: 1\n...\n"), std::string("# c\na: 1\n"),
                                  std::string("")}) {
    EXPECT_TRUE(YamlReader::FromString(text, "m.yaml").ok()) << text;
  }
}

TEST(OneDocument, AnActionTextWithTwoDocumentsIsRefused) {
  const auto game = Skirmish();
  auto a = ParseActionText(*game, "end\n---\n{move: [x], path: [0101]}");
  ASSERT_FALSE(a.ok());
  EXPECT_HAS(a.errors().ToString(), ":2:1: more than one YAML document");
  EXPECT_TRUE(ParseActionText(*game, "end").ok());
}

TEST(OneDocument, ASaveWithTwoDocumentsIsRefused) {
  Session s(Skirmish(), 3);
  const std::string text = s.Save();
  const int lines = static_cast<int>(std::count(text.begin(), text.end(), '\n'));
  auto t = Session::Load(text + "---\nseed: 2\n", "two.yaml");
  ASSERT_FALSE(t.ok());
  EXPECT_HAS(t.errors().ToString(), "two.yaml:" + std::to_string(lines + 1) + ":1: more than one YAML document");
}

TEST(OneDocument, ADataFileWithTwoDocumentsIsRefused) {
  const fs::path dir = fs::temp_directory_path() / ("wg_one_document_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::copy(std::string(WG_TEST_DATA_DIR) + "/rulesets/skirmish", dir, fs::copy_options::recursive);
  std::string units;
  {
    std::ifstream in(dir / "units.yaml");
    std::stringstream ss;
    ss << in.rdbuf();
    units = ss.str();
  }
  const int lines = static_cast<int>(std::count(units.begin(), units.end(), '\n'));
  std::ofstream(dir / "units.yaml", std::ios::app) << "---\nunits: []\n";
  auto g = LoadGame(dir.string());
  ASSERT_FALSE(g.ok());
  EXPECT_HAS(g.errors().ToString(), "units.yaml:" + std::to_string(lines + 1) + ":1: more than one YAML document");
  fs::remove_all(dir);
}

TEST(BoundedMessages, AMessageIsBoundedLikeAFile) {
  const std::string big(YamlReader::kMaxFileBytes + 1, ' ');
  YamlReader r = YamlReader::FromString(big, "big");
  ASSERT_FALSE(r.ok());
  EXPECT_HAS(r.errors().ToString(), "big: is larger than 64 MB");
}

// The nodes are counted before yaml-cpp builds them: 2 bytes a node would build
// 64 MB into ~32 million nodes.
TEST(BoundedMessages, NodesAreCountedBeforeTheyAreBuilt) {
  std::string many = "supplied: [";
  for (long i = 0; i < YamlReader::kMaxNodes + 10; ++i) many += "1,";
  many += "1]\n";
  YamlReader r = YamlReader::FromString(many, "many.yaml");
  ASSERT_FALSE(r.ok());
  EXPECT_HAS(r.errors().ToString(), "many.yaml:1:");
  EXPECT_HAS(r.errors().ToString(), "the document is too large (more than 250000 nodes)");
  EXPECT_EQ(r.errors().size(), 1u);
  // A long text of few nodes is read as before.
  YamlReader ok = YamlReader::FromString("a: \"" + std::string(400000, 'x') + "\"\nb: [1, 2]\n", "long.yaml");
  EXPECT_TRUE(ok.ok()) << ok.errors().ToString();
  // And a save whose `supplied` list is too long is refused, not replayed.
  auto t = Session::Load("game: skirmish\nseed: 1\ndice: supplied\n" + many.substr(0, many.size() - 1) +
                             "\nactions: []\nhash: \"0\"\n",
                         "long.yaml");
  ASSERT_FALSE(t.ok());
  EXPECT_HAS(t.errors().ToString(), "too large");
}

// --- A rules builder that returns no rules ---------------------------------------

Result<std::shared_ptr<const Game>> NullRules(const GameParams& params) {
  return LoadHexGame(std::string(WG_TEST_DATA_DIR) + "/rulesets/skirmish", params, {},
                     [](const Game&, RulesetDocument&, ErrorList*) -> std::unique_ptr<Rules> { return nullptr; });
}
Result<std::shared_ptr<const Game>> NullRulesWithError(const GameParams& params) {
  return LoadHexGame(std::string(WG_TEST_DATA_DIR) + "/rulesets/skirmish", params, {},
                     [](const Game&, RulesetDocument&, ErrorList* errors) -> std::unique_ptr<Rules> {
                       errors->Add(Error{"hooks.cc", 0, 0, "", "the hooks refuse this data", ""});
                       return nullptr;
                     });
}
Result<std::shared_ptr<const Game>> NullGame(const GameParams&) { return std::shared_ptr<const Game>(); }

WG_REGISTER_RULESET((RulesetInfo{"null_rules_test", "a builder returning no rules", "skirmish"}), NullRules);
WG_REGISTER_RULESET((RulesetInfo{"null_rules_error_test", "a builder refusing", "skirmish"}), NullRulesWithError);
WG_REGISTER_RULESET((RulesetInfo{"null_game_test", "a factory returning no game", "skirmish"}), NullGame);

TEST(NullRules, ABuilderReturningNoRulesIsRefusedOnce) {
  for (const char* name : {"null_rules_test", "null_game_test"}) {
    auto g = LoadGame(name);
    ASSERT_FALSE(g.ok()) << name;
    ASSERT_EQ(g.errors().size(), 1u) << g.errors().ToString();
    EXPECT_HAS(g.errors().ToString(), std::string(name) + ": the ruleset's hooks built no rules object");
  }
  // A builder that says why is reported as it said, once.
  auto g = LoadGame("null_rules_error_test");
  ASSERT_FALSE(g.ok());
  ASSERT_EQ(g.errors().size(), 1u) << g.errors().ToString();
  EXPECT_HAS(g.errors().ToString(), "the hooks refuse this data");
  // A save of such a game is refused, not replayed.
  Session s(Skirmish(), 1);
  std::string text = s.Save();
  text.replace(text.find("game: \"skirmish\""), 16, "game: \"null_rules_test\"");
  auto t = Session::Load(text, "null.yaml");
  ASSERT_FALSE(t.ok());
  EXPECT_HAS(t.errors().ToString(), "built no rules object");
}

}  // namespace
}  // namespace wg
