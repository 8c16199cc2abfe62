// The hex engine's move sampler for FastRandomPlayer (playout.h): a random unit
// that may move, a random hex it can reach, without listing every move.
#include "wargame/hex_rules.h"
#include "wargame/playout.h"
#include "wargame/session.h"

namespace wg {

namespace {

// May u move (on the map) or enter (a reinforcement due) now? Same tests as HexRules::ListMoves.
bool MayMoveNow(const Game& game, const HexQueries& rules, const State& s, UnitId u) {
  const UnitState& us = s.unit(u);
  if (us.side != s.phasing_side || us.Has(kUnitMoved)) return false;
  if (us.OnMap()) return rules.MayMove(s, u) && rules.MovementAllowance(s, u) > 0;
  if (us.hex != kNotYetEntered) return false;
  const UnitDef& d = game.units[static_cast<size_t>(u)];
  return d.entry_place >= 0 && d.reinforcement_turn <= s.turn && d.reinforcement_turn != 0;
}

class HexMoveSampler final : public MoveSampler {
 public:
  bool SampleMove(Session& session, RngState* rng, std::vector<UnitId>* candidates, std::vector<int>* destinations,
                  Action* out) const override;
};

bool HexMoveSampler::SampleMove(Session& session, RngState* rng, std::vector<UnitId>* candidates,
                                std::vector<int>* destinations, Action* out) const {
  RngState& random = *rng;
  std::vector<UnitId>& movers = *candidates;
  std::vector<int>& ends = *destinations;
  const Game& game = session.game();
  const HexQueries* rules = game.rules->hex();
  const State& s = session.state();
  if (rules == nullptr || s.decision != DecisionType::kMovement) return false;
  movers.clear();
  for (int i = 0; i < s.num_units; ++i) {
    if (MayMoveNow(game, *rules, s, static_cast<UnitId>(i))) movers.push_back(static_cast<UnitId>(i));
  }
  Context ctx(game, nullptr, nullptr, &session.scratch());
  Pathfinder& pf = static_cast<HexScratch&>(session.scratch()).pathfinder;
  while (true) {
    // One slot per candidate unit and one for ending the phase.
    const uint32_t pick = UniformBelow(random, static_cast<uint32_t>(movers.size() + 1));
    if (pick == movers.size()) {
      *out = Action::EndPhase();
      return true;
    }
    const UnitId u = movers[pick];
    const UnitState& us = s.unit(u);
    const Reachable* r = nullptr;
    int start = us.hex;
    if (us.OnMap()) {
      r = &rules->SearchMoves(s, ctx, &u, 1);
    } else {
      const Place& place = game.hex_board().map.places[static_cast<size_t>(game.units[static_cast<size_t>(u)].entry_place)];
      MoveQuery q = rules->BuildQuery(s, ctx, &u, 1);
      q.EnterFrom(place.hexes);
      r = &pf.Search(q);
      start = -1;
    }
    ends.clear();
    for (int h : r->hexes()) {
      if (h == start || !r->CanEnd(h)) continue;
      int len = 0;
      for (int p = h; p >= 0 && p != start; p = r->Predecessor(p)) ++len;
      if (len > 0 && len <= kMaxActionHexes) ends.push_back(h);
    }
    if (ends.empty()) {  // this unit has nowhere to go: drop it and pick again
      movers.erase(movers.begin() + pick);
      continue;
    }
    const int h = ends[UniformBelow(random, static_cast<uint32_t>(ends.size()))];
    int16_t path[kMaxActionHexes];
    int n = 0;
    for (int p = h; p >= 0 && p != start; p = r->Predecessor(p)) path[n++] = static_cast<int16_t>(p);
    Action a = Action::Of(us.OnMap() ? ActionType::kMove : ActionType::kEnter);
    a.AddUnit(u);
    while (n > 0) a.AddHex(path[--n]);
    *out = a;
    return true;
  }
}

}  // namespace

const MoveSampler* HexRules::move_sampler() const {
  static const HexMoveSampler kSampler;
  return &kSampler;
}

}  // namespace wg
