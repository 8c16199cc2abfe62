// The game flow through the public API, on the tiny "skirmish" ruleset:
// loading, the sequence of play, movement, combat, retreats, advance,
// reinforcements, victory, save/load/replay and undo, scripts.
#include <gtest/gtest.h>

#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

#include "skirmish.h"
#include "wargame/action_text.h"
#include "wargame/session.h"
#include "wargame/hex_rules.h"

namespace wg {
namespace {

std::shared_ptr<const Game> Skirmish(const std::string& spec = "skirmish") {
  auto g = LoadGame(spec);
  EXPECT_TRUE(g.ok()) << (g.ok() ? "" : g.errors().ToString());
  return g.ok() ? *g : nullptr;
}

Action Parse(const Game& g, const std::string& text) {
  auto a = ParseActionText(g, text);
  EXPECT_TRUE(a.ok()) << text << ": " << (a.ok() ? "" : a.errors().ToString());
  return a.ok() ? *a : Action{};
}

// The State-keyed memos' compare (state.h SameLiveState) sees every byte a rule
// reads and nothing of the unit slots past num_units; CopyLiveState copies that much.
TEST(State, SameLiveStateIgnoresOnlyTheSlotsPastNumUnits) {
  State a;
  a.num_units = 3;
  a.units[2].hex = 7;
  State b = a;
  EXPECT_TRUE(SameLiveState(a, b));
  b.units[3].hex = 9;  // past num_units
  b.units[kMaxUnits - 1].flags = 1;
  EXPECT_TRUE(SameLiveState(a, b));
  EXPECT_FALSE(a.Equals(b));
  b.units[2].face = 1;  // the last live unit
  EXPECT_FALSE(SameLiveState(a, b));
  b = a;
  b.ext[kStateExtBytes - 1] = 1;
  EXPECT_FALSE(SameLiveState(a, b));
  b = a;
  b.steps.depth = 2;
  EXPECT_FALSE(SameLiveState(a, b));
  b = a;
  b.action_count = 5;
  EXPECT_FALSE(SameLiveState(a, b));
  b = a;
  b.num_units = 2;  // the slot count itself
  EXPECT_FALSE(SameLiveState(a, b));
  State c;
  c.units[3].hex = 11;
  CopyLiveState(&c, a);
  EXPECT_TRUE(SameLiveState(a, c));
  EXPECT_EQ(c.units[2].hex, 7);
  EXPECT_EQ(c.units[3].hex, 11);  // not copied
}

TEST(GameSpec, ParsesNameScenarioAndOptions) {
  auto p = ParseGameSpec("stars_and_bars(scenario=perryville,optional=12.1+12.6)");
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->ruleset, "stars_and_bars");
  EXPECT_EQ(p->scenario, "perryville");
  EXPECT_EQ(p->optional, (std::vector<std::string>{"12.1", "12.6"}));
  EXPECT_EQ(p->ToString(), "stars_and_bars(scenario=perryville,optional=12.1+12.6)");
  // An unknown key (a typo) is an error, not silently the default game.
  EXPECT_FALSE(ParseGameSpec("stars_and_bars(optinal=12.1)").ok());
  EXPECT_FALSE(ParseGameSpec("stars_and_bars(scenario=a,scenario=b)").ok());
  EXPECT_FALSE(ParseGameSpec("x(scenario").ok());
  EXPECT_FALSE(ParseGameSpec("x(novalue)").ok());
  // auto=: the players' choices the program makes, printed after optional.
  auto a = ParseGameSpec("stars_and_bars(auto=setup+capture,optional=12.1)");
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->automated, (std::vector<std::string>{"setup", "capture"}));
  EXPECT_EQ(a->ToString(), "stars_and_bars(optional=12.1,auto=setup+capture)");
  EXPECT_FALSE(ParseGameSpec("stars_and_bars(auto=setup,auto=capture)").ok());
}

// A ruleset's `choices:` (PlayerChoice): auto= names them, Game::Automated answers; an id
// it does not list is refused like an unknown optional rule.
TEST(Registry, AutoNamesTheRulesetsChoices) {
  auto g = LoadGame("stars_and_bars(auto=capture)");
  ASSERT_TRUE(g.ok()) << g.errors().ToString();
  EXPECT_TRUE((*g)->Automated("capture"));
  EXPECT_FALSE((*g)->Automated("setup"));
  ASSERT_EQ((*g)->choices.size(), 2u);
  EXPECT_EQ((*g)->choices[0].id, "setup");
  EXPECT_EQ((*g)->choices[0].rule, "3.0");
  EXPECT_EQ((*g)->choices[1].since_format, 4);
  auto unknown = LoadGame("stars_and_bars(auto=retreat)");
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.errors().ToString().find("unknown choice \"retreat\" the program can make (known: setup, capture)"),
            std::string::npos)
      << unknown.errors().ToString();
  auto none = LoadGame("skirmish(auto=setup)");
  ASSERT_FALSE(none.ok());
  EXPECT_NE(none.errors().ToString().find("has no choice \"setup\""), std::string::npos) << none.errors().ToString();
  auto mini = LoadGame("civil_war_miniatures(auto=setup)");
  EXPECT_FALSE(mini.ok());
  // The choices are not optional rules any more.
  EXPECT_FALSE(LoadGame("stars_and_bars(optional=setup)").ok());
}

TEST(Registry, UnknownRulesetAndOptionAreErrors) {
  auto g = LoadGame("no_such_game");
  ASSERT_FALSE(g.ok());
  EXPECT_NE(g.errors().ToString().find("unknown ruleset \"no_such_game\""), std::string::npos);
  auto o = LoadGame("skirmish(optional=Z.9)");
  ASSERT_FALSE(o.ok());
  EXPECT_NE(o.errors().ToString().find("unknown optional rule \"Z.9\""), std::string::npos);
  auto sc = LoadGame("skirmish(scenario=nowhere)");
  ASSERT_FALSE(sc.ok());
  EXPECT_NE(sc.errors().ToString().find("unknown scenario \"nowhere\""), std::string::npos);
}

TEST(Game, LoadsCatalogAndInitialState) {
  auto g = Skirmish();
  ASSERT_TRUE(g);
  EXPECT_EQ(g->sides.size(), 2u);
  EXPECT_EQ(g->num_units(), 10);
  EXPECT_EQ(g->turns.num_turns(), 5);
  Session s(g, 1);
  const State& st = s.state();
  EXPECT_EQ(st.turn, 1);
  EXPECT_EQ(st.decision, DecisionType::kMovement);
  EXPECT_EQ(st.decision_side, 0);
  EXPECT_EQ(g->hex_board().map.Label(st.unit(g->UnitIndex("b1")).hex), "0203");
  // A reinforcement waits off the map; an optional unit is withdrawn unless its rule is on.
  EXPECT_EQ(st.unit(g->UnitIndex("b5")).hex, kNotYetEntered);
  EXPECT_EQ(st.unit(g->UnitIndex("r5")).hex, kWithdrawn);
  Session with(Skirmish("skirmish(optional=X.1)"), 1);
  EXPECT_EQ(with.game().hex_board().map.Label(with.state().unit(with.game().UnitIndex("r5")).hex), "0805");
  // Release schedule.
  EXPECT_FALSE(st.unit(g->UnitIndex("r2")).Has(kUnitReleased));
  EXPECT_TRUE(st.unit(g->UnitIndex("r1")).Has(kUnitReleased));
}

TEST(Game, StateIsFlatAndSmall) {
  static_assert(std::is_trivially_copyable_v<State>);
  EXPECT_LT(sizeof(State), 8192u);
}

TEST(Game, MoveAlongRoadAndRefusedMoveChangesNothing) {
  auto g = Skirmish();
  Session s(g, 1);
  State before;
  std::memcpy(static_cast<void*>(&before), &s.state(), sizeof(State));
  // 0204 -> 0304 -> 0404 along the road costs 1 MP.
  Status bad = s.Apply(Parse(*g, "{move: [b2], path: [0304, 0504]}"));
  EXPECT_FALSE(bad.ok());
  EXPECT_TRUE(before.Equals(s.state()));
  ASSERT_TRUE(s.Apply(Parse(*g, "{move: [b2], path: [0304, 0404]}")).ok());
  EXPECT_EQ(g->hex_board().map.Label(s.state().unit(g->UnitIndex("b2")).hex), "0404");
  // Moving through the crossroads gives Blue control of it.
  EXPECT_EQ(s.state().place_control[0], 1);
  // A unit moves once per phase.
  Status again = s.Apply(Parse(*g, "{move: [b2], path: [0304]}"));
  EXPECT_FALSE(again.ok());
  EXPECT_NE(again.error().message.find("already moved"), std::string::npos);
}

TEST(Game, ProhibitedTerrainIsRefusedWithReason) {
  auto g = Skirmish();
  Session s(g, 1);
  ASSERT_TRUE(s.Apply(Action::EndPhase()).ok());
  ASSERT_TRUE(s.Apply(Action::EndPhase()).ok());
  // Artillery may not enter woods, even with the minimum-one-hex rule.
  Status st = s.Apply(Parse(*g, "{move: [r4], path: [0603]}"));
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.error().message.find("woods"), std::string::npos) << st.ToString();
  // Infantry may.
  EXPECT_TRUE(s.Apply(Parse(*g, "{move: [r1], path: [0503]}")).ok());
}

TEST(Game, UnreleasedUnitCannotMove) {
  auto g = Skirmish();
  Session s(g, 1);
  ASSERT_TRUE(s.Apply(Action::EndPhase()).ok());  // Blue movement
  ASSERT_TRUE(s.Apply(Action::EndPhase()).ok());  // Blue combat
  ASSERT_EQ(s.state().decision_side, 1);
  Status st = s.Apply(Parse(*g, "{move: [r2], path: [0504]}"));
  EXPECT_FALSE(st.ok());
  EXPECT_EQ(st.error().rule, "release");
}

TEST(Game, ScenarioStartsAtAnyTurnAndPhaseWithPlacedUnits) {
  auto g = Skirmish("skirmish(scenario=" + std::string(WG_TEST_DATA_DIR) +
                    "/rulesets/skirmish/scenarios/duel.yaml)");
  ASSERT_TRUE(g);
  Session s(g, 1);
  EXPECT_EQ(s.state().turn, 2);
  EXPECT_EQ(s.state().decision, DecisionType::kCombat);
  EXPECT_EQ(s.state().unit(g->UnitIndex("b2")).hex, kWithdrawn);
  EXPECT_EQ(s.state().unit(g->UnitIndex("r1")).markers[0], 1);
  EXPECT_EQ(g->Current(s.state(), static_cast<UnitId>(g->UnitIndex("r1")), 0), 3);
  // b1 (4) against r1 (4 - 1 hit = 3): 4 to 3 rounds down to 1-1.
  // Mandatory: the phase cannot end before b1 attacks.
  Status end = s.Apply(Action::EndPhase());
  EXPECT_FALSE(end.ok());
  EXPECT_NE(end.error().message.find("must attack"), std::string::npos);
  s.SupplyDice({1});  // 1-1, roll 1: DR
  ASSERT_TRUE(s.Apply(Parse(*g, "{attack: [b1], target: [0503]}")).ok());
  bool odds_logged = false;
  for (const auto& line : s.DescribeEvents()) odds_logged = odds_logged || line.find("odds 1-1") != std::string::npos;
  EXPECT_TRUE(odds_logged);
  // Red must retreat one hex, not into Blue's zone of control.
  ASSERT_EQ(s.state().decision, DecisionType::kRetreat);
  EXPECT_EQ(s.state().decision_side, 1);
  const auto legal = s.LegalActions();
  ASSERT_FALSE(legal.empty());
  Status into_zoc = s.Apply(Parse(*g, "{retreat: r1, path: [0403]}"));
  EXPECT_FALSE(into_zoc.ok());
  ASSERT_TRUE(s.Apply(legal.front()).ok());
  // Blue may advance one unit into the vacated hex.
  ASSERT_EQ(s.state().decision, DecisionType::kAdvance);
  ASSERT_TRUE(s.Apply(Parse(*g, "{advance: [b1]}")).ok());
  EXPECT_EQ(g->hex_board().map.Label(s.state().unit(g->UnitIndex("b1")).hex), "0503");
  EXPECT_EQ(s.state().decision, DecisionType::kCombat);
}

TEST(Game, AnalyzeAttackGivesTheExactDistributionBeforeTheRoll) {
  auto g = Skirmish("skirmish(scenario=" + std::string(WG_TEST_DATA_DIR) +
                    "/rulesets/skirmish/scenarios/duel.yaml)");
  Session s(g, 1);
  const auto& rules = static_cast<const HexRules&>(*g->rules);
  Context ctx(*g, nullptr, nullptr, &s.scratch());
  const AttackAnalysis an = rules.AnalyzeAttack(s.state(), ctx, Parse(*g, "{attack: [b1], target: [0503]}"));
  ASSERT_TRUE(an.status.ok()) << an.status.ToString();
  EXPECT_EQ(an.plan.attack, 4);
  EXPECT_EQ(an.plan.defense, 3);
  EXPECT_EQ(rules.ColumnLabel(an.plan.column), "1-1");
  // 1-1 column: DR on 1-3 (1/2), AR on 4-6 (1/2).
  ASSERT_EQ(an.outcomes.size(), 2u);
  EXPECT_EQ(an.outcomes[0].result->text, "DR");
  EXPECT_EQ(an.outcomes[0].numerator * 2, an.outcomes[0].denominator);
  // Voluntary reduction by one column gives 1-2; raising is refused.
  EXPECT_EQ(rules.ColumnLabel(rules.AnalyzeAttack(s.state(), ctx, Parse(*g, "{attack: [b1], target: [0503], value: -1}")).plan.column), "1-2");
  EXPECT_FALSE(rules.AnalyzeAttack(s.state(), ctx, Parse(*g, "{attack: [b1], target: [0503], value: 1}")).status.ok());
  EXPECT_FALSE(rules.AnalyzeAttack(s.state(), ctx, Parse(*g, "{attack: [b1], target: [0403]}")).status.ok());
}

TEST(Registry, AFolderWithoutHooksPlaysOnTheStandardFlow) {
  auto g = LoadGame(std::string(WG_TEST_DATA_DIR) + "/rulesets/skirmish");
  ASSERT_TRUE(g.ok()) << g.errors().ToString();
  EXPECT_EQ((*g)->num_units(), 10);
}

TEST(Game, SuppliedDiceAreRequiredInRefereeMode) {
  auto g = Skirmish("skirmish(scenario=" + std::string(WG_TEST_DATA_DIR) +
                    "/rulesets/skirmish/scenarios/duel.yaml)");
  Session s(g, 1, /*supplied_dice=*/true);
  State before;
  std::memcpy(static_cast<void*>(&before), &s.state(), sizeof(State));
  Status st = s.Apply(Parse(*g, "{attack: [b1], target: [0503]}"));
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.error().message.find("needs a die value"), std::string::npos);
  EXPECT_TRUE(before.Equals(s.state()));
  s.SupplyDice({6});
  ASSERT_TRUE(s.Apply(Parse(*g, "{attack: [b1], target: [0503]}")).ok());
  ASSERT_EQ(s.supplied_used().size(), 1u);
  // 1-1 on a 6: AR, the attacker retreats.
  EXPECT_EQ(s.state().decision, DecisionType::kRetreat);
  EXPECT_EQ(s.state().decision_side, 0);
}

TEST(Game, UndoRestoresTheStateAndSuppliedDice) {
  auto g = Skirmish("skirmish(scenario=" + std::string(WG_TEST_DATA_DIR) +
                    "/rulesets/skirmish/scenarios/duel.yaml)");
  Session s(g, 1);
  const uint64_t h0 = HashState(s.state());
  s.SupplyDice({1});
  ASSERT_TRUE(s.Apply(Parse(*g, "{attack: [b1], target: [0503]}")).ok());
  EXPECT_NE(HashState(s.state()), h0);
  EXPECT_EQ(s.dice_queued(), 0u);
  ASSERT_TRUE(s.Undo());
  EXPECT_EQ(HashState(s.state()), h0);
  EXPECT_EQ(s.dice_queued(), 1u);
  EXPECT_FALSE(s.Undo());
}

TEST(Game, SaveLoadReplaysToTheSameState) {
  auto g = Skirmish();
  Session s(g, 42);
  ASSERT_TRUE(s.Apply(Parse(*g, "{move: [b2], path: [0304, 0404]}")).ok());
  ASSERT_TRUE(s.Apply(Action::EndPhase()).ok());
  const std::string text = s.Save();
  auto loaded = Session::Load(text, "save.yaml");
  ASSERT_TRUE(loaded.ok()) << loaded.errors().ToString();
  EXPECT_TRUE((*loaded)->state().Equals(s.state()));
  EXPECT_EQ((*loaded)->actions().size(), 2u);
  // A tampered hash is refused with its position.
  std::string bad = text;
  bad.replace(bad.find("hash: \"") + 7, 4, "ffff");
  auto refused = Session::Load(bad, "save.yaml");
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.errors().ToString().find("save.yaml:"), std::string::npos);
  // Replay stops at action N.
  auto partial = Session::Load(text, "save.yaml", 1);
  ASSERT_TRUE(partial.ok());
  EXPECT_EQ((*partial)->actions().size(), 1u);
}

// Save format 3 (issue 11): a save of format 2 hashed bytes that have since become step
// arguments (the advance's stage, the tabletop's card and charge). Each of these was
// written by the program before format 3, with such bytes set in its final State: it
// loads, its hash checked against the States Rules::LegacySaveStates gives, not the
// State as it is now; the same file marked with the current format is refused (that check
// is exact); a save written now has the current format.
TEST(Game, SavesOfFormat2AreCheckedAgainstTheirLegacyStates) {
  for (const char* file : {"stars_and_bars_advance.yaml", "civil_war_miniatures_charge.yaml"}) {
    std::ifstream in(std::string(WG_TEST_DATA_DIR) + "/saves_v2/" + file);
    std::stringstream text;
    text << in.rdbuf();
    ASSERT_FALSE(text.str().empty()) << file;
    auto loaded = Session::Load(text.str(), file);
    ASSERT_TRUE(loaded.ok()) << file << ": " << loaded.errors().ToString();
    char now[40];
    std::snprintf(now, sizeof now, "hash: \"%016" PRIx64 "\"", HashState((*loaded)->state()));
    EXPECT_EQ(text.str().find(now), std::string::npos) << file << ": its final State hashes as it did (no legacy byte set)";
    const std::string current = "format: " + std::to_string(Session::kSaveFormat);
    std::string as_now = text.str();
    as_now.replace(as_now.find("format: 2"), 9, current);
    EXPECT_FALSE(Session::Load(as_now, file).ok()) << file;
    EXPECT_NE((*loaded)->Save().find("\n" + current + "\n"), std::string::npos);
  }
}

std::string ReadSave(const std::string& path) {
  std::ifstream in(std::string(WG_TEST_DATA_DIR) + "/" + path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// Save format 4 (issue 41): Stars and Bars' choices of 3.0 and 5.8 are the players' by default.
// A save of format 3 of the default game was written while the program made them: it loads as
// a game with auto=setup+capture, and the game continued saves that. A format-3 save with
// optional=setup+capture (the options then) had the players make them: it loads as the
// default game. Both with Load and with LoadFor (its spec compared once read so).
TEST(Session, SavesOfFormat3KeepTheirChoices) {
  const struct {
    const char* file;
    const char* game;
  } saves[] = {{"saves_v3/stars_and_bars_turn17.yaml", "stars_and_bars(auto=setup+capture)"},
               {"saves_v3/stars_and_bars_setup_capture_turn2.yaml", "stars_and_bars"}};
  for (const auto& save : saves) {
    const std::string text = ReadSave(save.file);
    ASSERT_NE(text.find("\nformat: 3\n"), std::string::npos) << save.file;
    auto loaded = Session::Load(text, save.file);
    ASSERT_TRUE(loaded.ok()) << save.file << ": " << loaded.errors().ToString();
    EXPECT_EQ((*loaded)->game().params.ToString(), save.game);
    const std::string again = (*loaded)->Save();
    EXPECT_NE(again.find("\nformat: " + std::to_string(Session::kSaveFormat) + "\ngame: \"" + std::string(save.game) + "\"\n"),
              std::string::npos)
        << again.substr(0, 200);
    auto reloaded = Session::Load(again, save.file);
    ASSERT_TRUE(reloaded.ok()) << reloaded.errors().ToString();
    EXPECT_EQ(HashState((*reloaded)->state()), HashState((*loaded)->state()));
    // LoadFor: on the game it was, not on the other.
    auto same = LoadGame(save.game);
    ASSERT_TRUE(same.ok());
    auto on_same = Session::LoadFor(*same, text, save.file);
    EXPECT_TRUE(on_same.ok()) << save.file << ": " << (on_same.ok() ? "" : on_same.errors().ToString());
    auto other = LoadGame(std::string(save.game) == "stars_and_bars" ? "stars_and_bars(auto=setup+capture)" : "stars_and_bars");
    ASSERT_TRUE(other.ok());
    EXPECT_FALSE(Session::LoadFor(*other, text, save.file).ok()) << save.file;
  }
  // The same default save marked format 4 is a game where the players choose: its first
  // action (a move) does not replay over the set-up's questions (3.0).
  std::string as4 = ReadSave("saves_v3/stars_and_bars_turn17.yaml");
  as4.replace(as4.find("format: 3"), 9, "format: 4");
  auto refused = Session::Load(as4, "as4");
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.errors().ToString().find("3.0"), std::string::npos) << refused.errors().ToString();
}

TEST(Game, ActionTextRoundTrips) {
  auto g = Skirmish();
  for (const char* text : {"end", "stand", "concede", "{move: [b1, b2], path: [0304, 0404]}",
                           "{attack: [b1], target: [0503, 0504]}", "{retreat: [r1], path: [0602]}",
                           "{advance: []}", "{choose: 2}", "{loss: [b1], amount: 2, marker: hit}",
                           "{detach: b1, unit: b2}", "{reduce_odds: -1}"}) {
    const Action a = Parse(*g, text);
    const std::string back = ActionToText(*g, a);
    EXPECT_TRUE(Parse(*g, back) == a) << text << " -> " << back;
  }
  auto bad = ParseActionText(*g, "{move: [zz], path: [9999]}");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.errors().size(), 2u);
  EXPECT_NE(bad.errors().ToString().find("input:1:9: action.move[0]: unknown unit \"zz\""), std::string::npos);
}

TEST(Game, ConcessionEndsTheGame) {
  auto g = Skirmish();
  Session s(g, 1);
  ASSERT_TRUE(s.Apply(Action::Of(ActionType::kConcede)).ok());
  EXPECT_TRUE(s.over());
  EXPECT_EQ(s.state().winner, 1);
  EXPECT_FALSE(s.Apply(Action::EndPhase()).ok());
}

TEST(Game, EndingEveryPhasePlaysToTheLastTurn) {
  auto g = Skirmish();
  Session s(g, 1);
  int guard = 0;
  while (!s.over() && guard++ < 100) {
    auto legal = s.LegalActions();
    ASSERT_FALSE(legal.empty());
    // End phases; attack when the rules demand it.
    Action pick = legal.back();
    ASSERT_TRUE(s.Apply(pick).ok());
  }
  EXPECT_TRUE(s.over());
  EXPECT_EQ(s.state().turn, 5);
  // The log names the result.
  EXPECT_NE(s.DescribeEvents().back().find("Game over"), std::string::npos);
}

// Issue 11: the start of the game and each later phase announce the phase once.
// Recounted from the log: every player-turn's phases start in the order of
// turns: phases, each once, and the game's first phase is not announced twice.
TEST(Sequence, EachPhaseStartsOnceInTurnOrder) {
  auto g = Skirmish();
  ASSERT_TRUE(g);
  Session s(g, 5);
  for (int guard = 0; guard < 5000 && !s.over(); ++guard) {
    const auto legal = s.LegalActions();
    ASSERT_FALSE(legal.empty());
    Action pick = legal.back();
    for (const Action& a : legal) {
      if (a.type == ActionType::kEndPhase) pick = a;
    }
    ASSERT_TRUE(s.Apply(pick).ok());
  }
  ASSERT_TRUE(s.over());
  const int phases = static_cast<int>(g->turns.phases.size());
  const int sides = static_cast<int>(g->turns.order.size());
  std::vector<std::string> seen, expected;
  int turn = 0;
  for (const Event& e : s.events()) {
    if (e.type == EventType::kTurnStart) turn = e.a;
    if (e.type == EventType::kPhaseStart) seen.push_back(std::to_string(turn) + "/" + std::to_string(e.side) + "/" + e.text);
  }
  for (int t = 1; t <= g->turns.num_turns(); ++t) {
    for (int p = 0; p < sides; ++p) {
      for (int ph = 0; ph < phases; ++ph) {
        expected.push_back(std::to_string(t) + "/" + std::to_string(g->turns.order[static_cast<size_t>(p)]) + "/" +
                           g->turns.phases[static_cast<size_t>(ph)]);
      }
    }
  }
  EXPECT_EQ(seen, expected);
}

}  // namespace
}  // namespace wg
