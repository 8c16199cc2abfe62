// Blue & Gray standard rules + Chattanooga exclusive rules: the sequence of play's hooks: the
// start, night recovery (10.4), the combat phase (10.2), reinforcements not entered (15.12). The
// class BgRules: rules.h; the helpers its files share: internal.h.
#include "internal.h"

#include <algorithm>
#include <cstring>
#include <tuple>

#include "wargame/rule_mark.h"

WG_RULE_MARKS("blue_and_gray");  // the WG_RULE marks below: the rules each function implements

namespace wg::blue_and_gray {

// --- Hooks: sequence -----------------------------------------------------------------

WG_RULE("17.15/20.11", BgRules::Start);
void BgRules::Start(State& s, Context& ctx) const {
  // 17.15: a side controls the hexes its units occupy at the start: it counts
  // for 20.11 and 17.14 at once, and the state's place control shows it.
  for (int i = 0; i < s.num_units; ++i) {
    const UnitState& u = s.units[static_cast<size_t>(i)];
    if (u.OnMap()) SetControl(s, u.hex, u.side);
  }
  RefreshControl(s, ctx);
  HexRules::Start(s, ctx);
}

// 10.4: at the end of a night turn all ineffective units become effective again (run as the
// next game-turn begins).
WG_RULE("10.4", BgRules::RecoverAfterNight);
void BgRules::RecoverAfterNight(State& s, Context& ctx) const {
  if (s.turn <= 1) return;
  const int prev = s.turn - 2;
  if (!game_.turns.turns[static_cast<size_t>(prev)].night) return;
  const int m = ineffective_;  // looked up at load
  if (m < 0) return;
  for (int i = 0; i < s.num_units; ++i) {
    UnitState& u = s.units[static_cast<size_t>(i)];
    if (u.markers[m] == 0) continue;
    u.markers[m] = 0;
    Event e;
    e.type = EventType::kNote;
    e.unit = static_cast<UnitId>(i);
    e.rule = "10.4";
    e.text = "effective again after the night turn";
    ctx.Emit(e);
  }
}

// The combat phase (8.0).
WG_RULE("10.2", BgRules::BeginBgCombat);
void BgRules::BeginBgCombat(State& s, Context& ctx) const {
  BeginCombatPhase(s, ctx);
  // 10.2: ineffective units in an enemy ZOC at the start of their combat phase retreat (no advance).
  const int side = s.phasing_side;
  UnitId must[kMaxCombatUnits];
  int n = 0;
  const ZocField& zoc = EnemyZoc(s, ctx, side);
  for (int i = 0; i < s.num_units && n < kMaxCombatUnits; ++i) {
    const UnitState& u = s.units[static_cast<size_t>(i)];
    if (u.side == side && u.OnMap() && Ineffective(s, static_cast<UnitId>(i)) && zoc.InEzoc(u.hex)) {
      must[n++] = static_cast<UnitId>(i);
    }
  }
  if (n == 0) return;
  PendingCombat& c = s.combat;
  c = PendingCombat{};
  for (auto& h : c.defender_hexes) h = -1;
  c.active = 1;
  c.vacated_hex = -1;  // no defender hexes: none is vacated, so there is no advance (10.2)
  c.legacy_current = kNoUnit;
  c.retreat_hexes = 1;
  CallFollowUp(s);  // the retreats are owed in it
  c.num_attackers = static_cast<uint8_t>(n);
  for (int i = 0; i < n; ++i) {
    c.attackers[i] = must[i];
    Event e;
    e.type = EventType::kNote;
    e.unit = must[i];
    e.rule = "10.2";
    e.text = "ineffective in an enemy zone of control: must retreat";
    ctx.Emit(e);
    FlagRetreat(s, ctx, must[i], 1);  // 10.2: one hex
  }
  FollowUpCombat(s, ctx);
}

// 15.12: reinforcements that could not enter by the end of their turn are eliminated (as the
// movement phase of the deadline turn ends).
WG_RULE("15.12", BgRules::EliminateReinforcementsNotEntered);
void BgRules::EliminateReinforcementsNotEntered(State& s, Context& ctx) const {
  if (cfg_.deadline_turn > 0 && s.turn == cfg_.deadline_turn) {
    for (int i = 0; i < s.num_units; ++i) {
      UnitState& u = s.units[static_cast<size_t>(i)];
      const UnitDef& d = game_.units[static_cast<size_t>(i)];
      if (u.hex != kNotYetEntered || u.side != s.phasing_side || d.reinforcement_turn <= 0 ||
          d.reinforcement_turn > cfg_.deadline_turn) {
        continue;
      }
      u.hex = kEliminated;
      Event e;
      e.type = EventType::kEliminated;
      e.unit = static_cast<UnitId>(i);
      e.side = static_cast<int8_t>(u.side);
      e.rule = "15.12";
      e.text = "could not enter the map";
      ctx.Emit(e);
      OnEliminated(s, ctx, static_cast<UnitId>(i), -1);
    }
  }
}

}  // namespace wg::blue_and_gray
