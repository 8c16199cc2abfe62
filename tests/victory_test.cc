// Victory-point schedules as data (victory.points, libwargame/include/wargame/victory.h)
// on the data-only skirmish ruleset's scored scenarios: each kind of award through
// play, the once-per-side memory, the thresholds and the levels judging the totals,
// the schedule beside a ruleset's own C++ award, and random games that end with
// winners whose totals a recount from the event log and the final State confirms.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>

#include "skirmish.h"
#include "wargame/action_text.h"
#include "wargame/conformance.h"
#include "wargame/hex_rules.h"
#include "wargame/players.h"
#include "wargame/session.h"

namespace wg {
namespace {

namespace fs = std::filesystem;

const std::string kSkirmish = std::string(WG_TEST_DATA_DIR) + "/rulesets/skirmish";

std::string ScenarioFile(const std::string& name) { return kSkirmish + "/scenarios/" + name + ".yaml"; }

std::string Spec(const std::string& scenario_file) {
  return GameParams{"skirmish", scenario_file, {}, {}, {}}.ToString();
}

std::shared_ptr<const Game> Load(const std::string& scenario_file) {
  auto g = LoadGame(Spec(scenario_file));
  EXPECT_TRUE(g.ok()) << (g.ok() ? "" : g.errors().ToString());
  return g.ok() ? *g : nullptr;
}

// A scenario written for one test, extending one of the scored scenarios.
class TempScenario {
 public:
  TempScenario(const std::string& base, const std::string& body) {
    path_ = fs::temp_directory_path() /
            ("wg_victory_" + std::to_string(::getpid()) + "_" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".yaml");
    std::ofstream(path_) << "extends: " << ScenarioFile(base) << "\n" << body;
  }
  ~TempScenario() { fs::remove(path_); }
  std::string path() const { return path_.string(); }

 private:
  fs::path path_;
};

void Do(Session& s, const std::string& text) {
  auto a = ParseActionText(s.game(), text);
  ASSERT_TRUE(a.ok()) << text;
  const Status st = s.Apply(*a);
  ASSERT_TRUE(st.ok()) << text << ": " << st.ToString();
}

std::vector<Event> VpEvents(const Session& s, size_t from = 0) {
  std::vector<Event> out;
  for (size_t i = from; i < s.events().size(); ++i) {
    if (s.events()[i].type == EventType::kVictoryPoints) out.push_back(s.events()[i]);
  }
  return out;
}

int PlaceIndex(const Game& g, const std::string& name) {
  const Place* p = g.hex_board().map.FindPlace(name);
  return p ? static_cast<int>(p - g.hex_board().map.places.data()) : -1;
}

// Every phase ends (no unit near an enemy: nothing is owed) until the game is over.
void EndPhasesToTheEnd(Session& s) {
  for (int guard = 0; guard < 100 && !s.over(); ++guard) ASSERT_TRUE(s.Apply(Action::EndPhase()).ok());
  ASSERT_TRUE(s.over());
}

// --- Eliminations ---------------------------------------------------------------------

TEST(Victory, EnemyStrengthAndUnitEliminatedScoreForTheEliminatingSide) {
  auto g = Load(ScenarioFile("scored_duel"));
  ASSERT_TRUE(g);
  Session s(g, 1);
  const size_t before = s.events().size();
  s.SupplyDice({1});  // 1st Blue (4) against 1st Red (4 - 3 hits = 1): 4-1, roll 1: DE
  Do(s, "{attack: [b1], target: [0503]}");
  const UnitId r1 = static_cast<UnitId>(g->UnitIndex("r1"));
  ASSERT_EQ(s.state().unit(r1).hex, kEliminated);
  const std::vector<Event> vp = VpEvents(s, before);
  ASSERT_EQ(vp.size(), 2u);
  // S.1: its printed strength (4), not what the hits left of it; S.2: one unit. Not
  // the artillery award (S.2, kinds: [artillery]): 1st Red is infantry.
  EXPECT_STREQ(vp[0].rule, "S.1");
  EXPECT_EQ(vp[0].a, 4);
  EXPECT_STREQ(vp[0].text, "enemy strength eliminated");
  EXPECT_STREQ(vp[1].rule, "S.2");
  EXPECT_EQ(vp[1].a, 1);
  for (const Event& e : vp) {
    EXPECT_EQ(e.side, 0);
    EXPECT_EQ(e.unit, r1);
  }
  EXPECT_EQ(s.state().vp[0], 5);
  EXPECT_EQ(s.state().vp[1], 0);
  EXPECT_EQ(s.state().vp_by_turn[0][1], 5);  // game-turn 2
}

TEST(Victory, EnemyUnitEliminatedCountsOnlyItsKinds) {
  TempScenario guns("scored_duel", "place:\n  - {unit: b1, hex: \"0403\", released: true}\n"
                                   "  - {unit: r4, hex: \"0503\", markers: {hit: 1}}\n");
  auto g = Load(guns.path());
  ASSERT_TRUE(g);
  Session s(g, 1);
  const size_t before = s.events().size();
  s.SupplyDice({1});  // 4 against Red Guns (2 - 1 hit): 4-1, roll 1: DE
  Do(s, "{attack: [b1], target: [0503]}");
  const std::vector<Event> vp = VpEvents(s, before);
  ASSERT_EQ(vp.size(), 3u);
  EXPECT_EQ(vp[0].a, 2);  // S.1: printed strength 2
  EXPECT_EQ(vp[1].a, 1);  // S.2: any unit
  EXPECT_EQ(vp[2].a, 2);  // S.2: artillery
  EXPECT_STREQ(vp[2].text, "enemy unit eliminated (artillery)");
  EXPECT_EQ(s.state().vp[0], 5);
}

// --- Places ---------------------------------------------------------------------------

TEST(Victory, PlaceFirstControlledScoresOncePerSide) {
  auto g = Load(ScenarioFile("scored"));
  ASSERT_TRUE(g);
  Session s(g, 1);
  Do(s, "{move: [b2], path: [0304, 0404]}");  // Blue moves through the crossroads
  std::vector<Event> vp = VpEvents(s);
  ASSERT_EQ(vp.size(), 1u);
  EXPECT_STREQ(vp[0].rule, "S.3");
  EXPECT_STREQ(vp[0].text, "controls Crossroads for the first time");
  EXPECT_EQ(vp[0].side, 0);
  EXPECT_EQ(vp[0].a, 1);
  EXPECT_EQ(g->hex_board().map.Label(vp[0].hex), "0404");
  // Control changing hands again and again scores each side once, and the memory
  // uses only the schedule's bits of once_awarded (32 and up).
  const auto* rules = dynamic_cast<const HexRules*>(g->rules.get());
  ASSERT_NE(rules, nullptr);
  State st = s.state();
  auto scratch = rules->NewScratch();
  EventLog log;
  Context ctx(*g, nullptr, &log, scratch.get());
  const int cross = g->hex_board().map.Index("0404");
  for (int side : {1, 0, 1, 0, 1}) rules->TouchHex(st, ctx, cross, side);
  EXPECT_EQ(st.place_control[PlaceIndex(*g, "Crossroads")], 2);
  int red = 0;
  for (const Event& e : log.events) {
    if (e.type == EventType::kVictoryPoints) red += e.side == 1 ? e.a : 100;
  }
  EXPECT_EQ(red, 1);  // Red's first control only; Blue's retakings score nothing
  EXPECT_EQ(st.vp[0], 1);
  EXPECT_EQ(st.vp[1], 1);
  EXPECT_EQ(st.once_awarded & 0xFFFFFFFFull, 0u);
  EXPECT_EQ(__builtin_popcountll(st.once_awarded), 2);
}

// 1st Red takes the crossroads in turn 4: S.3 once, S.4 at the end of turns 4
// and 5, S.5 at the end; Blue, who never holds it, scores nothing.
void RedTakesTheCrossroads(Session& s) {
  ASSERT_TRUE(s.Apply(Action::EndPhase()).ok());  // Blue movement
  ASSERT_TRUE(s.Apply(Action::EndPhase()).ok());  // Blue combat
  Do(s, "{move: [r1], path: [0404]}");
  EndPhasesToTheEnd(s);
}

TEST(Victory, PlaceHeldEachTurnAndAtTheEnd) {
  auto g = Load(ScenarioFile("scored_hold"));
  ASSERT_TRUE(g);
  Session s(g, 1);
  RedTakesTheCrossroads(s);
  std::vector<std::pair<std::string, int>> seen;  // (rule, game-turn)
  int turn = 4;
  for (const Event& e : s.events()) {
    if (e.type == EventType::kTurnStart) turn = e.a;
    if (e.type != EventType::kVictoryPoints) continue;
    EXPECT_EQ(e.side, 1);
    seen.emplace_back(e.rule, turn);
  }
  // S.4 of turn 4 comes before game-turn 5 starts; the last S.4 and S.5 before the end.
  const std::vector<std::pair<std::string, int>> want = {{"S.3", 4}, {"S.4", 4}, {"S.4", 5}, {"S.5", 5}};
  EXPECT_EQ(seen, want);
  EXPECT_EQ(s.events().back().type, EventType::kGameEnd);
  EXPECT_EQ(s.state().vp[1], 1 + 1 + 1 + 3);
  EXPECT_EQ(s.state().vp[0], 0);
  EXPECT_EQ(s.state().vp_by_turn[1][3], 2);
  EXPECT_EQ(s.state().vp_by_turn[1][4], 4);
  EXPECT_EQ(s.state().winner, 1);  // differential -6: "Red victory"
  EXPECT_EQ(g->victory.levels[s.state().level].name, "Red victory");
}

TEST(Victory, ThresholdsJudgeTheScheduleTotals) {
  const std::string points =
      "  points:\n"
      "    - {rule: \"S.3\", for: place_first_controlled, places: [Crossroads], points: 1}\n"
      "    - {rule: \"S.4\", for: place_held_each_turn, places: [Crossroads], points: 1}\n"
      "    - {rule: \"S.5\", for: place_held_at_end, places: [Crossroads], points: 3}\n";
  for (const auto& [threshold, winner] : {std::pair{7, -1}, std::pair{6, 1}}) {
    TempScenario t("scored_hold", "victory:\n  kind: thresholds\n  thresholds: {red: " + std::to_string(threshold) +
                                      "}\n" + points);
    auto g = Load(t.path());
    ASSERT_TRUE(g);
    Session s(g, 1);
    RedTakesTheCrossroads(s);
    EXPECT_EQ(s.state().vp[1], 6);
    EXPECT_EQ(s.state().winner, winner) << "Red needs " << threshold;
  }
}

// A ruleset's own award (a handler of the turn procedure when the game ends, as Stars and
// Bars and Blue & Gray have) and the schedule add to the same totals and ledger.
class HookedSkirmish : public HexRules {
 public:
  explicit HookedSkirmish(const Game& g) : HexRules(g) {
    procedure_.At(ProcedureAt::kGameEnd, "", "T.1", "the hook's award",
                  [this](State& s, Context& ctx) { AwardVp(s, ctx, 0, 2, "T.1", "the hook's award"); });
  }
};

TEST(Victory, ScheduleComposesWithARulesetsOwnAwards) {
  auto g = LoadHexGame(kSkirmish, GameParams{"skirmish", ScenarioFile("scored_hold"), {}, {}, {}}, {},
                       [](const Game& game, RulesetDocument&, ErrorList*) -> std::unique_ptr<Rules> {
                         return std::make_unique<HookedSkirmish>(game);
                       });
  ASSERT_TRUE(g.ok()) << g.errors().ToString();
  Session s(*g, 1);
  RedTakesTheCrossroads(s);
  std::vector<std::string> rules;
  for (const Event& e : VpEvents(s)) rules.emplace_back(e.rule);
  EXPECT_EQ(rules, (std::vector<std::string>{"S.3", "S.4", "S.4", "T.1", "S.5"}));
  EXPECT_EQ(s.state().vp[0], 2);
  EXPECT_EQ(s.state().vp[1], 6);
  EXPECT_EQ(s.state().vp_by_turn[0][4], 2);
  EXPECT_EQ(s.state().winner, 1);  // -4
}

// --- Random games: winners, and totals a referee recounts ------------------------------

// The scored scenario's schedule recounted from the log alone (eliminations,
// control changes, turn starts, the end) and the order of battle: what each side
// should have, independently of victory.cc.
std::array<int, 2> Recount(const Game& g, const std::vector<Event>& log) {
  const int cross = PlaceIndex(g, "Crossroads");
  const int strength = g.AttributeIndex("strength");
  const int artillery = g.KindIndex("artillery");
  std::array<int, 2> vp = {0, 0};
  int holder = -1;
  bool first[2] = {false, false};
  for (const Event& e : log) {
    if (e.type == EventType::kEliminated) {
      const UnitDef& u = g.units[static_cast<size_t>(e.unit)];
      EXPECT_FALSE(u.has_back);  // the recount reads the front of the counter
      const int scorer = 1 - e.side;
      vp[scorer] += u.front[strength] + 1 + (u.kind == artillery ? 2 : 0);  // S.1, S.2
    } else if (e.type == EventType::kControl && e.a == cross) {
      holder = e.side;
      if (!first[holder]) vp[holder] += 1;  // S.3
      first[holder] = true;
    } else if ((e.type == EventType::kTurnStart && e.a > 1) || e.type == EventType::kGameEnd) {
      if (holder == 1) vp[1] += 1;  // S.4: the game-turn before this one ended
      if (e.type == EventType::kGameEnd && holder >= 0) vp[holder] += 3;  // S.5
    }
  }
  return vp;
}

TEST(Victory, DataOnlyGamesEndWithWinnersAndTotalsMatchARecount) {
  auto g = Load(ScenarioFile("scored"));
  ASSERT_TRUE(g);
  const std::set<std::string> schedule_rules = {"S.1", "S.2", "S.3", "S.4", "S.5"};
  int wins[2] = {0, 0};
  const int games = std::max(12, ScaledGameCount(100));
  for (int seed = 1; seed <= games; ++seed) {
    Session s(g, static_cast<uint64_t>(seed));
    RandomPlayer blue(static_cast<uint64_t>(seed) * 2), red(static_cast<uint64_t>(seed) * 2 + 1);
    for (int guard = 0; guard < 5000 && !s.over(); ++guard) {
      const std::vector<Action> legal = s.LegalActions();
      ASSERT_FALSE(legal.empty()) << "seed " << seed;
      Player& p = s.state().decision_side == 0 ? static_cast<Player&>(blue) : red;
      ASSERT_TRUE(s.Apply(p.Choose(*g, s.state(), legal)).ok()) << "seed " << seed;
    }
    ASSERT_TRUE(s.over()) << "seed " << seed;
    const State& st = s.state();
    const std::array<int, 2> want = Recount(*g, s.events());
    EXPECT_EQ(st.vp[0], want[0]) << "seed " << seed;
    EXPECT_EQ(st.vp[1], want[1]) << "seed " << seed;
    int logged[2] = {0, 0}, ledger[2] = {0, 0};
    for (const Event& e : VpEvents(s)) {
      logged[e.side] += e.a;
      EXPECT_TRUE(schedule_rules.count(e.rule)) << e.rule;
    }
    for (int side = 0; side < 2; ++side) {
      for (int t = 0; t < kMaxTurns; ++t) ledger[side] += st.vp_by_turn[side][t];
      EXPECT_EQ(logged[side], st.vp[side]) << "seed " << seed;
      EXPECT_EQ(ledger[side], st.vp[side]) << "seed " << seed;
    }
    // The levels: Blue by 1 or more, Red by 1 or more, else a draw.
    const int diff = st.vp[0] - st.vp[1];
    EXPECT_EQ(st.winner, diff > 0 ? 0 : (diff < 0 ? 1 : -1)) << "seed " << seed;
    if (st.winner >= 0) ++wins[st.winner];
  }
  EXPECT_GT(wins[0], 0);
  EXPECT_GT(wins[1], 0);
}

// --- Loading ------------------------------------------------------------------------------

TEST(Victory, ScheduleLoadsIntoTheGame) {
  auto g = Load(ScenarioFile("scored"));
  ASSERT_TRUE(g);
  const auto& p = g->victory.points;
  ASSERT_EQ(p.size(), 6u);
  EXPECT_EQ(p[0].what, VpScheduleEntry::For::kEnemyStrengthEliminated);
  EXPECT_EQ(p[0].attribute, g->AttributeIndex("strength"));
  EXPECT_EQ(p[2].kinds, std::vector<int>{g->KindIndex("artillery")});
  EXPECT_EQ(p[3].what, VpScheduleEntry::For::kPlaceFirstControlled);
  EXPECT_EQ(p[3].first_bit, kVpScheduleFirstBit);
  EXPECT_EQ(p[4].side, g->SideIndex("red"));
  EXPECT_EQ(p[5].places, std::vector<int>{PlaceIndex(*g, "Crossroads")});
  // The meeting engagement itself has no schedule: its games stay draws.
  auto plain = Load(ScenarioFile("meeting"));
  ASSERT_TRUE(plain);
  EXPECT_TRUE(plain->victory.points.empty());
}

TEST(Victory, FirstControlledMemoryIsBounded) {
  std::string body = "victory:\n  kind: thresholds\n  points:\n";
  for (int i = 0; i < 17; ++i) {
    body += "    - {rule: \"S.3\", for: place_first_controlled, places: [Crossroads], points: 1}\n";
  }
  TempScenario t("scored", body);
  auto g = LoadGame(Spec(t.path()));
  ASSERT_FALSE(g.ok());
  EXPECT_NE(g.errors().ToString().find(
                ":21:7: victory.points[16]: place_first_controlled awards remember at most 32 place-and-side pairs"),
            std::string::npos)
      << g.errors().ToString();
}

}  // namespace
}  // namespace wg
