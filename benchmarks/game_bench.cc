// Whole-game benchmarks over every ruleset LoadGame can load (a ruleset that does
// not load yet is reported as skipped, with the loader's message):
//
//   BM_RandomGame/<r>          8 complete random-play games (seeds 1..8, RandomPlayer over
//                              Session::LegalActions, as `wargame simulate --players random`)
//   BM_RandomGameQueries/<r>   baseline: only the reachable-set queries those 8 games made
//                              (one per movable unit at each movement decision, as
//                              HexRules::ListMoves does), replayed on the recorded states
//   BM_FastRandomGame/<r>      the same 8 seeds with FastRandomPlayer (one unit's search per
//                              movement decision instead of listing every move)
//   BM_LegalMoves/<r>          LegalActions at every movement decision of game 1
//   BM_LegalMovesQueries/<r>   baseline: the sum of the units' reachable-set queries there
//   BM_StateCopy / BM_StateMemcpy   copy of a mid-game State vs memcpy of sizeof(State)
//   BM_LoadRuleset/<r>         load + validate + compile the ruleset from YAML
//   BM_Signature/<r>           the determinism signature (label): 100 seeded random games
//   (the tabletop, civil_war_miniatures on the farm, has BM_RandomGame, BM_LoadRuleset and
//   BM_Signature only: it is not a hex game)
//
// items/s of BM_RandomGame = games per second.
#include <benchmark/benchmark.h>

#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "wargame/hex_rules.h"
#include "wargame/players.h"
#include "wargame/playout.h"
#include "wargame/registry.h"
#include "wargame/session.h"

namespace wg::bench {
namespace {

struct Ruleset {
  const char* name;
  std::string spec;
};

const std::vector<Ruleset>& Rulesets() {
  static const std::vector<Ruleset> r = {
      {"skirmish", std::string(WG_SOURCE_DIR) + "/tests/data/rulesets/skirmish"},
      {"stars_and_bars", "stars_and_bars"},
      {"chattanooga", "blue_and_gray(scenario=chattanooga)"},
      {"civil_war_miniatures", "civil_war_miniatures(scenario=farm)"},  // the tabletop (issue 15)
  };
  return r;
}

constexpr int kGames = 8;
constexpr int kSignatureGames = 100;

// The reachable-set queries HexRules::ListMoves makes at a movement decision
// (same units, same queries), without building the actions. Returns the count.
int MovementQueries(const Game& game, const HexQueries& rules, const State& s, Context& ctx, long* reached) {
  const HexStatePin pin(ctx, s);  // as LegalActions does: the State's caches are checked by pin
  int queries = 0;
  for (int i = 0; i < s.num_units; ++i) {
    const UnitId u = static_cast<UnitId>(i);
    const UnitState& us = s.unit(u);
    if (us.side != s.phasing_side || us.Has(kUnitMoved)) continue;
    if (us.OnMap()) {
      if (!rules.CanMove(s, u).ok() || rules.MovementAllowance(s, u) <= 0) continue;
      *reached += static_cast<long>(rules.SearchMoves(s, ctx, &u, 1).hexes().size());
      ++queries;
    } else if (us.hex == kNotYetEntered) {
      const UnitDef& d = game.units[static_cast<size_t>(i)];
      if (d.entry_place < 0 || d.reinforcement_turn > s.turn || d.reinforcement_turn == 0) continue;
      const Place& place = game.hex_board().map.places[static_cast<size_t>(d.entry_place)];
      MoveQuery q = rules.BuildQuery(s, ctx, &u, 1);
      q.EnterFrom(place.hexes);
      *reached += static_cast<long>(static_cast<HexScratch&>(ctx.scratch()).pathfinder.Search(q).hexes().size());
      ++queries;
    }
  }
  return queries;
}

struct Loaded {
  std::shared_ptr<const Game> game;
  std::string error;
  const HexQueries* hex = nullptr;
  // States at each movement decision of games 1..kGames.
  std::vector<std::vector<State>> movement_states;
  State mid_game;
};

const Loaded& Load(const Ruleset& r) {
  static std::map<std::string, std::unique_ptr<Loaded>> cache;
  auto& slot = cache[r.name];
  if (slot) return *slot;
  slot = std::make_unique<Loaded>();
  Loaded& l = *slot;
  auto g = LoadGame(r.spec);
  if (!g.ok()) {
    l.error = g.errors().ToString();
    return l;
  }
  l.game = *g;
  l.hex = l.game->rules->hex();
  l.movement_states.resize(kGames);
  for (int k = 0; k < kGames; ++k) {
    const uint64_t seed = static_cast<uint64_t>(k + 1);
    Session s(l.game, seed);
    RandomPlayer player(seed * 7919 + 1);
    long n = 0;
    while (!s.over() && n < 50000) {
      if (s.state().decision == DecisionType::kMovement) l.movement_states[static_cast<size_t>(k)].push_back(s.state());
      const std::vector<Action> legal = s.LegalActions();
      if (legal.empty() || !s.Apply(player.Choose(s.game(), s.state(), legal)).ok()) break;
      ++n;
    }
  }
  const auto& first = l.movement_states[0];
  if (!first.empty()) {
    std::memcpy(static_cast<void*>(&l.mid_game), &first[first.size() / 2], sizeof(State));
  }
  return l;
}

const Loaded* Need(benchmark::State& state, int index, bool hex_rules) {
  const Loaded& l = Load(Rulesets()[static_cast<size_t>(index)]);
  if (!l.game) {
    state.SkipWithError(("not loadable yet: " + l.error.substr(0, 160)).c_str());
    return nullptr;
  }
  if (hex_rules && l.hex == nullptr) {
    state.SkipWithError("not a hex game");
    return nullptr;
  }
  return &l;
}

void BM_RandomGame(benchmark::State& state, int index) {
  const Loaded* l = Need(state, index, false);
  if (!l) return;
  long actions = 0;
  for (auto _ : state) {
    for (int k = 0; k < kGames; ++k) {
      const PlayoutResult r = PlayRandomGame(l->game, static_cast<uint64_t>(k + 1));
      actions += r.actions;
    }
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * kGames);
  state.counters["actions_per_game"] = benchmark::Counter(
      static_cast<double>(actions) / static_cast<double>(state.iterations() * kGames));
}

void BM_FastRandomGame(benchmark::State& state, int index) {
  const Loaded* l = Need(state, index, false);
  if (!l) return;
  long actions = 0;
  for (auto _ : state) {
    for (int k = 0; k < kGames; ++k) actions += PlayFastRandomGame(l->game, static_cast<uint64_t>(k + 1)).actions;
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * kGames);
  state.counters["actions_per_game"] = benchmark::Counter(
      static_cast<double>(actions) / static_cast<double>(state.iterations() * kGames));
}

void BM_RandomGameQueries(benchmark::State& state, int index) {
  const Loaded* l = Need(state, index, true);
  if (!l) return;
  auto scratch = l->game->rules->NewScratch();
  Context ctx(*l->game, nullptr, nullptr, scratch.get());
  long queries = 0, reached = 0;
  for (auto _ : state) {
    for (const auto& game : l->movement_states) {
      for (const State& s : game) queries += MovementQueries(*l->game, *l->hex, s, ctx, &reached);
    }
    benchmark::DoNotOptimize(reached);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * kGames);
  state.counters["queries_per_game"] = benchmark::Counter(
      static_cast<double>(queries) / static_cast<double>(state.iterations() * kGames));
}

void BM_LegalMoves(benchmark::State& state, int index) {
  const Loaded* l = Need(state, index, true);
  if (!l) return;
  auto scratch = l->game->rules->NewScratch();
  Context ctx(*l->game, nullptr, nullptr, scratch.get());
  std::vector<Action> out;
  long listed = 0;
  for (auto _ : state) {
    for (const State& s : l->movement_states[0]) {
      l->game->rules->LegalActions(s, ctx, &out);
      listed += static_cast<long>(out.size());
    }
    benchmark::DoNotOptimize(listed);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * l->movement_states[0].size()));
  state.counters["actions_per_decision"] = benchmark::Counter(
      static_cast<double>(listed) /
      static_cast<double>(static_cast<size_t>(state.iterations()) * l->movement_states[0].size()));
}

void BM_LegalMovesQueries(benchmark::State& state, int index) {
  const Loaded* l = Need(state, index, true);
  if (!l) return;
  auto scratch = l->game->rules->NewScratch();
  Context ctx(*l->game, nullptr, nullptr, scratch.get());
  long reached = 0;
  for (auto _ : state) {
    for (const State& s : l->movement_states[0]) MovementQueries(*l->game, *l->hex, s, ctx, &reached);
    benchmark::DoNotOptimize(reached);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * l->movement_states[0].size()));
}

void BM_StateCopy(benchmark::State& state, int index) {
  const Loaded* l = Need(state, index, false);
  if (!l) return;
  const State& src = l->mid_game;
  auto dst = std::make_unique<State>();
  for (auto _ : state) {
    benchmark::DoNotOptimize(&src);
    *dst = src;
    benchmark::DoNotOptimize(dst.get());
    benchmark::ClobberMemory();
  }
  state.counters["state_bytes"] = static_cast<double>(sizeof(State));
}

void BM_StateMemcpy(benchmark::State& state, int index) {
  const Loaded* l = Need(state, index, false);
  if (!l) return;
  const State& src = l->mid_game;
  std::vector<unsigned char> dst(sizeof(State));
  for (auto _ : state) {
    benchmark::DoNotOptimize(&src);
    std::memcpy(dst.data(), &src, sizeof(State));
    benchmark::DoNotOptimize(dst.data());
    benchmark::ClobberMemory();
  }
  state.counters["state_bytes"] = static_cast<double>(sizeof(State));
}

void BM_LoadRuleset(benchmark::State& state, int index) {
  const Ruleset& r = Rulesets()[static_cast<size_t>(index)];
  auto probe = LoadGame(r.spec);
  if (!probe.ok()) {
    state.SkipWithError(("not loadable yet: " + probe.errors().ToString().substr(0, 160)).c_str());
    return;
  }
  for (auto _ : state) {
    auto g = LoadGame(r.spec);
    benchmark::DoNotOptimize(g.ok());
  }
}

void BM_Signature(benchmark::State& state, int index) {
  const Loaded* l = Need(state, index, false);
  if (!l) return;
  uint64_t sig = 0;
  for (auto _ : state) sig = DeterminismSignature(l->game, kSignatureGames, 1);
  char text[40];
  std::snprintf(text, sizeof(text), "signature=%016" PRIx64, sig);
  state.SetLabel(text);
}

// One registration per ruleset; `tail` is applied to each.
#define WG_GAME_BENCH(fn, tail)                  \
  BENCHMARK_CAPTURE(fn, skirmish, 0) tail;       \
  BENCHMARK_CAPTURE(fn, stars_and_bars, 1) tail; \
  BENCHMARK_CAPTURE(fn, chattanooga, 2) tail

WG_GAME_BENCH(BM_RandomGame, ->Unit(benchmark::kMillisecond));
WG_GAME_BENCH(BM_FastRandomGame, ->Unit(benchmark::kMillisecond));
WG_GAME_BENCH(BM_RandomGameQueries, ->Unit(benchmark::kMillisecond));
WG_GAME_BENCH(BM_LegalMoves, ->Unit(benchmark::kMicrosecond));
WG_GAME_BENCH(BM_LegalMovesQueries, ->Unit(benchmark::kMicrosecond));
WG_GAME_BENCH(BM_LoadRuleset, ->Unit(benchmark::kMillisecond));
BENCHMARK_CAPTURE(BM_StateCopy, skirmish, 0);
BENCHMARK_CAPTURE(BM_StateMemcpy, skirmish, 0);
WG_GAME_BENCH(BM_Signature, ->Iterations(1)->Repetitions(1)->Unit(benchmark::kMillisecond));
// The tabletop (issue 15): its uniform random games, load and signature (no hex rows).
BENCHMARK_CAPTURE(BM_RandomGame, civil_war_miniatures, 3)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_LoadRuleset, civil_war_miniatures, 3)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Signature, civil_war_miniatures, 3)->Iterations(1)->Repetitions(1)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace wg::bench
