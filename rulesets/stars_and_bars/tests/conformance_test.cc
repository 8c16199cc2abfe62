// The conformance harness on Stars and Bars: random games of the whole
// Perryville scenario, from set-up to the end of turn 19, with and without
// the optional rules.
#include "wargame/conformance.h"

#include <gtest/gtest.h>

#include <string>

#include "rules.h"
#include "wargame/game.h"

namespace wg {
namespace {

// The referee's Stars and Bars facts, from the rulebook (not from rules/):
// strengths (7.4: each loss -1; 6.2: DS 0 means AS 0; 8.4: limbered artillery is
// zero-strength, unlimbered artillery attacks and defends with its BS; 8.1: phasing
// artillery that bombarded does not attack), ZOCs (6.1, 6.2), stacking (5.5, 12.2).
RefereeHooks SbReferee() {
  RefereeHooks h;
  auto kind = [](const Game& g, UnitId u) { return g.kinds[static_cast<size_t>(g.units[static_cast<size_t>(u)].kind)].id; };
  auto losses = [](const Game& g, const State& s, UnitId u) {
    return s.unit(u).markers[g.MarkerIndex("permanent_loss")] + s.unit(u).markers[g.MarkerIndex("disruption")];
  };
  auto ds = [=](const Game& g, const State& s, UnitId u) {
    if (kind(g, u) == "artillery") {
      if (s.unit(u).face != 1) return 0;
      return std::max(0, g.units[static_cast<size_t>(u)].back[static_cast<size_t>(g.AttributeIndex("bombard"))] - losses(g, s, u));
    }
    return g.Current(s, u, g.AttributeIndex("defense"));
  };
  h.defense = ds;
  h.attack = [=](const Game& g, const State& s, UnitId u) {
    if (ds(g, s, u) <= 0) return 0;
    if (kind(g, u) == "artillery") return s.unit(u).Has(kUnitBombarded) && s.unit(u).side == s.phasing_side ? 0 : ds(g, s, u);
    return g.Current(s, u, g.AttributeIndex("attack"));
  };
  h.zoc = [=](const Game& g, const State& s, UnitId u) {
    if (ds(g, s, u) <= 0) return ZocKind::kNone;
    const std::string k = kind(g, u);
    return k == "artillery" || k == "supply" ? ZocKind::kOwnHex : ZocKind::kSix;
  };
  // 7.8: units that advanced after a cavalry retreat before combat create no new combat situations.
  h.obliges = [](const Game&, const State& s, UnitId u) {
    const stars_and_bars::SbExt& x = Ext<stars_and_bars::SbExt>(s);
    for (int i = 0; i < x.num_cav_advanced && i < 8; ++i) {
      if (x.cav_advanced[i] == u) return false;
    }
    return true;
  };
  h.counts_for_stacking = [=](const Game& g, const State& s, UnitId u) {
    if (kind(g, u) == "hq") return false;
    // 12.2: a Confederate battery stacks free with its brigade (ruleset.yaml battery_parents).
    static const std::pair<const char*, const char*> kParents[] = {{"turner", "maney"}, {"swett", "liddell"}, {"darden", "johnson"}};
    if (!g.OptionOn("12.2")) return true;
    for (const auto& [b, p] : kParents) {
      const int bi = g.UnitIndex(b), pi = g.UnitIndex(p);
      if (bi == u && pi >= 0 && s.unit(static_cast<UnitId>(pi)).hex == s.unit(u).hex && s.unit(static_cast<UnitId>(pi)).side == s.unit(u).side) return false;
    }
    return true;
  };
  return h;
}

// The referee over 1,000 random games (four shards of 250, so ctest runs them in
// parallel) and 20 games of the computer player against itself (four shards of 5),
// scaled by WG_GAMES_PERCENT. Zero violations, and every game ends.
void RefereeShard(const char* players, int games, uint64_t seed) {
  const ErrorList e = wg::RefereeShard("stars_and_bars", SbReferee(), players, games, seed, /*min_phases_per_game=*/50);
  EXPECT_TRUE(e.ok()) << e.ToString();
}

TEST(Referee, PerryvilleRandomGames1To250) { RefereeShard("random,random", 250, 1); }
TEST(Referee, PerryvilleRandomGames251To500) { RefereeShard("random,random", 250, 251); }
TEST(Referee, PerryvilleRandomGames501To750) { RefereeShard("random,random", 250, 501); }
TEST(Referee, PerryvilleRandomGames751To1000) { RefereeShard("random,random", 250, 751); }
TEST(Referee, PerryvilleAiGames1To5) { RefereeShard("ai,ai", 5, 1); }
TEST(Referee, PerryvilleAiGames6To10) { RefereeShard("ai,ai", 5, 6); }
TEST(Referee, PerryvilleAiGames11To15) { RefereeShard("ai,ai", 5, 11); }
TEST(Referee, PerryvilleAiGames16To20) { RefereeShard("ai,ai", 5, 16); }
TEST(Referee, PerryvilleAllOptionalRulesRandomGames) {
  RefereeOptions opt;
  opt.games = ScaledGameCount(50);
  opt.hooks = SbReferee();
  const RefereeReport r = RunReferee("stars_and_bars(optional=12.1+12.2+12.3+12.4+12.5+12.6)", opt);
  EXPECT_TRUE(r.violations.ok()) << r.violations.ToString();
  EXPECT_EQ(r.games_finished, opt.games);
}

// The analysis (`wargame odds`, AnalyzeAttack) says exactly what applying the attack
// does, for every die face, in positions of random games (7.1 automatic eliminations too).
TEST(Analysis, AgreesWithPlayForEveryDieFaceInRandomPerryvilleGames) {
  const int games = ScaledGameCount(20);  // 5 attacks a game at least, so 100 in 20 games
  const AnalysisCheckReport r = CheckAnalysisAgainstPlay("stars_and_bars", games, 1);
  EXPECT_TRUE(r.mismatches.ok()) << r.mismatches.ToString();
  EXPECT_GT(r.attacks, 5 * games);
  EXPECT_GT(r.automatic, 0);
  EXPECT_GT(r.faces, 4 * r.attacks);
}

TEST(Conformance, PerryvilleRandomGamesAreLegalAndReplayable) {
  ConformanceOptions opt;
  opt.games = 4;
  opt.seed = 7;
  const ConformanceReport r = RunConformance("stars_and_bars(scenario=perryville)", opt);
  EXPECT_TRUE(r.errors.ok()) << r.errors.ToString();
  EXPECT_EQ(r.games_finished, 4);
}

TEST(Conformance, PerryvilleWithAllOptionalRules) {
  ConformanceOptions opt;
  opt.games = 4;
  opt.seed = 11;
  const ConformanceReport r =
      RunConformance("stars_and_bars(scenario=perryville,optional=12.1+12.2+12.3+12.4+12.5+12.6)", opt);
  EXPECT_TRUE(r.errors.ok()) << r.errors.ToString();
  EXPECT_EQ(r.games_finished, 4);
}

// Each optional rule alone, and each of the players' choices (3.0, 5.8) the program makes
// (auto=setup, auto=capture: as the default game was before they were the players').
TEST(Conformance, PerryvilleEachOptionalRuleAlone) {
  for (const char* rule : {"optional=12.1", "optional=12.2", "optional=12.3", "optional=12.4", "optional=12.5",
                           "optional=12.6", "auto=setup", "auto=capture", "auto=setup+capture"}) {
    ConformanceOptions opt;
    opt.games = 1;
    opt.seed = 21;
    const ConformanceReport r = RunConformance(std::string("stars_and_bars(") + rule + ")", opt);
    EXPECT_TRUE(r.errors.ok()) << rule << ": " << r.errors.ToString();
    EXPECT_EQ(r.games_finished, 1) << rule;
  }
}

}  // namespace
}  // namespace wg
