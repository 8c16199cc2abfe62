// Civil War miniatures: the turn and the deck of unit cards (T.1). The class MiniRules and the
// helpers the files share: internal.h.
#include "internal.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numbers>
#include <optional>

#include "wargame/rule_mark.h"

WG_RULE_MARKS("civil_war_miniatures");  // the WG_RULE marks below: the rules each function implements

namespace wg::civil_war_miniatures {

// --- Turn and deck (T.1) -------------------------------------------------------------

bool SideHasUnits(const Game& g, const State& s, int side) {
  for (UnitId u = 0; u < static_cast<UnitId>(g.num_units()); ++u) {
    if (OnTable(s, u) && s.unit(u).side == side) return true;
  }
  return false;
}

WG_RULE("V", EndGame);
void EndGame(const Game& g, State& s, Context& ctx) {
  const MiniData& d = D(g);
  int vp[2] = {0, 0};
  for (UnitId u = 0; u < static_cast<UnitId>(g.num_units()); ++u) {
    const UnitInfo& info = d.info[static_cast<size_t>(u)];
    const MiniUnit& mu = M(s).units[u];
    const int lost_figs = info.start_figures - (OnTable(s, u) ? mu.figures : 0);
    const int lost_guns = info.start_guns - (OnTable(s, u) ? mu.guns : 0);
    vp[1 - s.unit(u).side] += lost_figs * d.vp_figure + lost_guns * d.vp_gun;
  }
  for (size_t a = 0; a < g.table().areas.size(); ++a) {
    if (!IsBuilding(g.table().areas[a])) continue;
    int holder = -1;
    for (UnitId u = 0; u < static_cast<UnitId>(g.num_units()); ++u) {
      if (!OnTable(s, u) || M(s).units[u].building != a + 1) continue;
      holder = holder == -1 || holder == s.unit(u).side ? s.unit(u).side : -2;
    }
    if (holder >= 0) vp[holder] += d.vp_building;
  }
  for (int side = 0; side < 2; ++side) {
    s.vp[side] = static_cast<int16_t>(vp[side]);
    Event e =
        Ev(EventType::kVictoryPoints, "V", "casualties inflicted and buildings held", kNoUnit, vp[side]);
    e.side = static_cast<int8_t>(side);
    ctx.Emit(e);
  }
  s.game_over = 1;
  ClearSteps(s);
  s.winner = static_cast<int8_t>(vp[0] > vp[1] ? 0 : vp[1] > vp[0] ? 1 : -1);
  Event e = Ev(EventType::kGameEnd, "V", s.winner < 0 ? "draw" : "victory");
  e.side = s.winner;
  ctx.Emit(e);
}

WG_RULE("T.1", NewDeck);
void NewDeck(const Game& g, State& s) {
  MiniState& m = M(s);
  int n = 0;
  const bool cows = m.herds[0].alive + m.herds[1].alive + m.herds[2].alive + m.herds[3].alive;
  const bool pigs = m.herds[4].alive + m.herds[5].alive + m.herds[6].alive + m.herds[7].alive;
  auto present = [&](int card) {
    return card == kCowCard ? cows : card == kPigCard ? pigs : OnTable(s, static_cast<UnitId>(card));
  };
  for (int card : D(g).deck_order) {
    if (present(card)) m.deck[n++] = static_cast<uint8_t>(card);
  }
  if (D(g).shuffle) {  // Fisher-Yates with the game's seeded generator
    for (int i = n - 1; i > 0; --i) {
      const int j = static_cast<int>(UniformBelow(s.rng, static_cast<uint32_t>(i + 1)));
      std::swap(m.deck[i], m.deck[j]);
    }
  }
  m.deck_size = static_cast<uint8_t>(n);
  m.deck_pos = 0;
}

// Draws cards until a unit must act (or the game ends): its activation step (T.1,
// the only one on the stack; args[0] the unit) for its side.
WG_RULE("T.1", DrawNext);
void DrawNext(const Game& g, State& s, Context& ctx) {
  MiniState& m = M(s);
  PopStepsTo(s, g.rules->steps(), 0);  // no card is up
  for (int guard = 0; guard < 10000; ++guard) {
    if (!SideHasUnits(g, s, 0) || !SideHasUnits(g, s, 1)) {
      EndGame(g, s, ctx);
      return;
    }
    if (m.deck_pos >= m.deck_size) {
      if (s.turn >= g.turns.num_turns()) {
        EndGame(g, s, ctx);
        return;
      }
      ++s.turn;
      for (UnitId u = 0; u < static_cast<UnitId>(g.num_units()); ++u) {
        s.unit(u).flags = static_cast<uint16_t>(
            s.unit(u).flags & ~(kPinned | kPinnedByLivestock | kFormationChanged | kMovedNow | kActivated));
      }
      ctx.Emit(Ev(EventType::kTurnStart, "T.1", "", kNoUnit, s.turn));
      NewDeck(g, s);
      continue;
    }
    const uint8_t card = m.deck[m.deck_pos++];
    if (card == kCowCard) {
      ctx.Emit(Ev(EventType::kNote, "T.1", "cow card"));
      LivestockCard(g, s, ctx, 0);
    } else if (card == kPigCard) {
      ctx.Emit(Ev(EventType::kNote, "T.1", "pig card"));
      LivestockCard(g, s, ctx, 4);
    } else if (OnTable(s, card)) {
      s.unit(card).flags |= kActivated;
      s.phasing_side = s.unit(card).side;
      PushStep(s, g.rules->steps(), kActivationStep, s.unit(card).side, {card});
      ctx.Emit(Ev(EventType::kNote, "T.1", "card: unit activates", card));
      return;
    }
  }
}

void EndActivation(const Game& g, State& s, Context& ctx) {
  MiniState& m = M(s);
  const uint8_t active = ActiveCard(s);
  if (active != kNone) {
    s.unit(active).flags = static_cast<uint16_t>(s.unit(active).flags & ~(kMovedNow | kDesignated));
    m.units[active].arranged = 0;
  }
  DrawNext(g, s, ctx);
}

}  // namespace wg::civil_war_miniatures
