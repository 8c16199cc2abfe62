// Blue & Gray standard rules + Chattanooga exclusive rules: victory points and control (17.15,
// 20.0-20.12). The class BgRules: rules.h; the helpers its files share: internal.h.
#include "internal.h"

#include <algorithm>
#include <cstring>
#include <tuple>

#include "wargame/rule_mark.h"

WG_RULE_MARKS("blue_and_gray");  // the WG_RULE marks below: the rules each function implements

namespace wg::blue_and_gray {

// --- Victory points ----------------------------------------------------------------------

WG_RULE("20.11", BgRules::OnEliminated);
void BgRules::OnEliminated(State& s, Context& ctx, UnitId u, int) const {
  for (const VpAward& a : cfg_.awards) {
    if (a.kind == VpAward::Kind::kUnitEliminated && !a.at_end && game_.units[static_cast<size_t>(u)].side == a.of_side) {
      AwardVp(s, ctx, a.side, a.points, a.rule.c_str(), "enemy unit eliminated");
    }
  }
}

// 17.15: the state's place control (what the AI weighs and the state file
// shows) follows Control(): a tracked place is controlled by the side that
// controls every hex of it.
void BgRules::IndexControlPlaces() {
  const auto& kinds = data().control_kinds;
  const auto& places = game_.hex_board().map.places;
  control_slot_.assign(static_cast<size_t>(std::max(0, game_.hex_board().map.size())), -1);
  for (size_t p = 0; p < places.size() && p < static_cast<size_t>(kMaxPlaces); ++p) {
    if (places[p].hexes.empty() || std::find(kinds.begin(), kinds.end(), places[p].kind) == kinds.end()) continue;
    control_places_.push_back(static_cast<int>(p));
    for (int h : places[p].hexes) {
      if (h >= 0 && h < static_cast<int>(control_slot_.size()) && control_slot_[static_cast<size_t>(h)] < 0) {
        control_slot_[static_cast<size_t>(h)] = static_cast<int16_t>(num_control_slots_++);
      }
    }
  }
}

// 17.15: a place is controlled by the side that controls all its hexes. The side
// of the first unit standing in each of the places' hexes comes from one pass over
// the units (what Control() finds scanning the units per hex).
WG_RULE("17.15", BgRules::SyncPlaceControl);
void BgRules::SyncPlaceControl(State& s, Context& ctx) const {
  constexpr int kSlots = 512;
  constexpr int8_t kEmpty = -2;
  int8_t first[kSlots];
  const bool indexed = num_control_slots_ <= kSlots;
  if (indexed) {
    std::fill(first, first + num_control_slots_, kEmpty);
    for (int i = 0; i < s.num_units; ++i) {
      const int h = s.units[static_cast<size_t>(i)].hex;
      if (h < 0 || h >= static_cast<int>(control_slot_.size())) continue;
      const int slot = control_slot_[static_cast<size_t>(h)];
      if (slot >= 0 && first[slot] == kEmpty) first[slot] = static_cast<int8_t>(s.units[static_cast<size_t>(i)].side);
    }
  }
  auto control = [&](int h) {
    if (!indexed || h < 0 || h >= static_cast<int>(control_slot_.size())) return Control(s, h);
    const int8_t f = first[control_slot_[static_cast<size_t>(h)]];
    return f != kEmpty ? static_cast<int>(f) : StoredControl(s, h);
  };
  for (int p : control_places_) {
    const Place& place = game_.hex_board().map.places[static_cast<size_t>(p)];
    const int side = control(place.hexes.front());
    bool all = side >= 0;
    for (int h : place.hexes) all = all && control(h) == side;
    if (!all || s.place_control[p] == side + 1) continue;
    s.place_control[p] = static_cast<uint8_t>(side + 1);
    Event e;
    e.type = EventType::kControl;
    e.side = static_cast<int8_t>(side);
    e.hex = static_cast<int16_t>(place.hexes.front());
    e.a = p;
    e.rule = "17.15";
    ctx.Emit(e);
  }
}

// 20.11: hexes the side controls for the first time (once per hex).
WG_RULE("17.15/20.11", BgRules::RefreshControl);
void BgRules::RefreshControl(State& s, Context& ctx) const {
  SyncPlaceControl(s, ctx);
  int bit = 0;
  for (const VpAward& a : cfg_.awards) {
    if (a.kind != VpAward::Kind::kHexEverControlled) continue;
    for (int h : a.hexes) {
      if (bit < 64 && !((s.once_awarded >> bit) & 1u) && Control(s, h) == a.side) {
        s.once_awarded |= uint64_t{1} << bit;
        AwardVp(s, ctx, a.side, a.points, a.rule.c_str(), "hex controlled");
      }
      ++bit;
    }
  }
}

// 5.0 / 20.12: a unit's ZOC is the six hexes adjacent to it, not its own hex: a
// hex counts only through the units of the award's kinds in the hexes around it
// (5.3 applies: not across creek or river hexsides).
WG_RULE("5.0/20.12", BgRules::InZocOfAdjacent);
bool BgRules::InZocOfAdjacent(const State& s, Context& ctx, const VpAward& a, int hex) const {
  HexScratch& hs = Hs(ctx);
  hs.sources.clear();
  for (int i = 0; i < s.num_units; ++i) {
    const UnitState& u = s.units[static_cast<size_t>(i)];
    const int kind = game_.units[static_cast<size_t>(i)].kind;
    if (!u.OnMap() || u.side != a.side || u.hex == hex || !Adjacent(u.hex, hex)) continue;
    if (!a.unit_kinds.empty() && std::find(a.unit_kinds.begin(), a.unit_kinds.end(), kind) == a.unit_kinds.end()) continue;
    hs.sources.push_back(ZocSource{u.hex, ZocKind::kSix});
  }
  if (hs.sources.empty()) return false;
  hs.zoc.Compute(game_.hex_board().map, data().zoc, hs.sources);
  return hs.zoc.InEzoc(hex);
}

// 20.12 (and the scenario's other end-of-game awards).
WG_RULE("20.0/20.12", BgRules::CountEndVp);
void BgRules::CountEndVp(State& s, Context& ctx) const {
  for (const VpAward& a : cfg_.awards) {
    if (!a.at_end) continue;
    int count = 0;
    if (a.kind == VpAward::Kind::kHexControlledAtEnd) {
      for (int h : a.hexes) count += Control(s, h) == a.side ? 1 : 0;
    } else if (a.kind == VpAward::Kind::kHexInZoc) {
      for (int h : a.hexes) count += InZocOfAdjacent(s, ctx, a, h) ? 1 : 0;
    }
    AwardVp(s, ctx, a.side, count * a.points, a.rule.c_str(), "end of game award");
  }
}

}  // namespace wg::blue_and_gray
