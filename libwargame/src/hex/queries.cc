// Queries and effects any hook may use: units in a hex, zones of control, eliminations, markers, VPs, place control.
#include <algorithm>
#include <cstring>

#include "internal.h"
#include "wargame/hex_rules.h"
#include "wargame/rule_mark.h"

namespace wg {

// --- Queries ------------------------------------------------------------------------

const std::string& HexRules::PhaseName(const State& s) const {
  return game_.turns.phases[s.phase];
}

int HexRules::UnitsIn(const State& s, int hex, int side, UnitId* out, int max) const {
  int n = 0;
  for (int i = 0; i < s.num_units; ++i) {
    const UnitState& u = s.units[static_cast<size_t>(i)];
    if (u.hex == hex && (side < 0 || u.side == side)) {
      if (n < max && out) out[n] = static_cast<UnitId>(i);
      ++n;
    }
  }
  return n;
}

int HexRules::CountIn(const State& s, int hex, int side) const { return UnitsIn(s, hex, side, nullptr, 0); }

int HexRules::StackingCount(const State& s, int hex, int side) const {
  int n = 0;
  for (int i = 0; i < s.num_units; ++i) {
    const UnitState& u = s.units[static_cast<size_t>(i)];
    if (u.hex == hex && u.side == side && CountsForStacking(s, static_cast<UnitId>(i))) ++n;
  }
  return n;
}

HexStatePin::HexStatePin(Context& ctx, const State& s)
    : hs_(Hs(ctx)), prev_state_(hs_.pinned), prev_pin_(hs_.pin) {
  if (hs_.pinned != &s || hs_.pin == 0) {
    hs_.pinned = &s;
    hs_.pin = ++hs_.pin_counter;
  }
}

HexStatePin::~HexStatePin() {
  hs_.pinned = prev_state_;
  hs_.pin = prev_pin_;
}


// The slot's field for these sources of the other side's ZOCs. The field is a
// function of the sources alone (ZocField::Compute): the same sources as the slot's
// last computation's (the other side did not move) leave it as it is, and a new
// generation is given only if the field changed (ListMoves' cache key).
void HexRules::ComputeZocSlot(HexScratch::ZocSlot& z, int side, const std::vector<ZocSource>& sources,
                              HexScratch& hs) const {
  const bool same_sources = z.sources_side == side && sources.size() == z.sources.size() &&
                            std::equal(sources.begin(), sources.end(), z.sources.begin(),
                                       [](const ZocSource& a, const ZocSource& b) { return a.hex == b.hex && a.kind == b.kind; });
  if (same_sources) return;
  z.field.Compute(game_.hex_board().map, data().zoc, sources);
  z.sources = sources;
  z.sources_side = side;
  const uint8_t* bits = z.field.data();
  const size_t n = static_cast<size_t>(z.field.size());
  if (z.prev_side != side || z.prev_bits.size() != n || !std::equal(bits, bits + n, z.prev_bits.begin())) {
    z.gen = ++hs.zoc_gen;
    z.prev_bits.assign(bits, bits + n);
    z.prev_side = side;
  }
}

WG_RULE_KEY("zoc", HexRules::EnemyZoc);
const ZocField& HexRules::EnemyZoc(const State& s, Context& ctx, int side) const {
  HexScratch& hs = Hs(ctx);
  HexScratch::ZocSlot& z = hs.zoc_slots[static_cast<size_t>(side) % hs.zoc_slots.size()];
  // The other side's units that exert a ZOC, into hs.sources (when RefreshOccupancy has
  // not gathered them).
  auto walk_sources = [&] {
    std::vector<ZocSource>& sources = hs.sources;
    sources.clear();
    const int num_units = s.num_units;  // read once (the compiler cannot tell that push_back leaves s alone)
    for (int i = 0; i < num_units; ++i) {
      const UnitState& u = s.units[static_cast<size_t>(i)];
      if (!u.OnMap() || u.side == side) continue;
      const ZocKind k = ZocOf(s, static_cast<UnitId>(i));
      if (k != ZocKind::kNone) sources.push_back(ZocSource{u.hex, k});
    }
  };
  if (hs.occupancy_by_side) {
    // The ZOCs `side` is in are a function of the other side's units (OccupancyBySide):
    // kept while that side's units epoch is the field's.
    if (z.side == side && z.pin != 0 && z.pin == hs.pin && hs.pinned == &s) return z.field;
    hs.SyncUnits(s);
    const uint64_t theirs = hs.unit_epoch[static_cast<size_t>((1 - side) & 1)];
    if (z.side != side || z.epoch != theirs) {
      // The sources: gathered by RefreshOccupancy for this side at the same epoch, else walked here.
      const bool gathered = hs.part[1].side == side && hs.part[1].epoch == theirs;
      if (!gathered) walk_sources();
      ComputeZocSlot(z, side, gathered ? hs.gathered_sources : hs.sources, hs);
      z.side = side;
      z.epoch = theirs;
    }
    z.pin = hs.PinOf(s);
    return z.field;
  }
  if (z.side == side && hs.CacheFresh(z.pin, z.state, s)) return z.field;
  // The sources: gathered by RefreshOccupancy from this State if it is pinned under the
  // same pin (so unchanged since) for this side, else walked here.
  const uint64_t pin = hs.PinOf(s);
  const bool gathered = pin != 0 && hs.gathered_pin == pin && hs.gathered_side == side;
  if (!gathered) walk_sources();
  ComputeZocSlot(z, side, gathered ? hs.gathered_sources : hs.sources, hs);
  CopyLiveState(&z.state, s);
  z.side = side;
  z.pin = hs.PinOf(s);
  return z.field;
}

bool HexRules::InEnemyZoc(const State& s, Context& ctx, int side, int hex) const {
  return EnemyZoc(s, ctx, side).InEzoc(hex);
}

// --- Effects -------------------------------------------------------------------------

void HexRules::Eliminate(State& s, Context& ctx, UnitId u, const char* rule, const char* why) const {
  UnitState& us = s.unit(u);
  if (!us.OnMap()) return;
  const int hex = us.hex;
  Event e;
  e.type = EventType::kEliminated;
  e.unit = u;
  e.hex = static_cast<int16_t>(hex);
  e.side = static_cast<int8_t>(us.side);
  e.rule = rule;
  e.text = why;
  us.hex = kEliminated;
  ctx.Emit(e);
  OnEliminated(s, ctx, u, hex);
  VpOnEliminated(s, ctx, u);  // victory.h: victory.points awards for eliminations
}

void HexRules::AddMarker(State& s, Context& ctx, UnitId u, int marker, int amount, const char* rule) const {
  UnitState& us = s.unit(u);
  us.markers[marker] = static_cast<uint8_t>(std::min(255, us.markers[marker] + amount));
  Event e;
  e.type = EventType::kLoss;
  e.unit = u;
  e.hex = us.hex;
  e.a = amount;
  e.rule = rule;
  e.text = game_.markers[static_cast<size_t>(marker)].name.c_str();
  ctx.Emit(e);
}

void HexRules::AwardVp(State& s, Context& ctx, int side, int points, const char* rule, const char* why) const {
  AwardVictoryPoints(s, ctx, side, points, rule, why);  // victory.h: the one VP ledger
}

// TouchHex's index: per map hex, the places of the tracked kinds (control_kinds)
// holding it, in place order (the order TouchHex visits them), read at load instead
// of comparing place kinds as strings on every call.
void HexRules::IndexControlHexes() {
  const Map& map = game_.hex_board().map;
  const auto& kinds = data().control_kinds;
  std::vector<std::vector<int16_t>> per_hex(static_cast<size_t>(std::max(map.size(), 0)));
  for (size_t p = 0; p < map.places.size() && p < static_cast<size_t>(kMaxPlaces); ++p) {
    const Place& place = map.places[p];
    if (std::find(kinds.begin(), kinds.end(), place.kind) == kinds.end()) continue;
    for (int h : place.hexes) {
      if (h < 0 || h >= map.size()) continue;
      std::vector<int16_t>& at = per_hex[static_cast<size_t>(h)];
      if (at.empty() || at.back() != static_cast<int16_t>(p)) at.push_back(static_cast<int16_t>(p));
    }
  }
  control_begin_.assign(per_hex.size() + 1, 0);
  control_places_.clear();
  for (size_t h = 0; h < per_hex.size(); ++h) {
    control_places_.insert(control_places_.end(), per_hex[h].begin(), per_hex[h].end());
    control_begin_[h + 1] = static_cast<int32_t>(control_places_.size());
  }
}

void HexRules::TouchHex(State& s, Context& ctx, int hex, int side) const {
  if (control_places_.empty() || hex < 0 || static_cast<size_t>(hex) + 1 >= control_begin_.size()) return;
  for (int32_t i = control_begin_[static_cast<size_t>(hex)]; i < control_begin_[static_cast<size_t>(hex) + 1]; ++i) {
    const size_t p = static_cast<size_t>(control_places_[static_cast<size_t>(i)]);
    if (s.place_control[p] == side + 1) continue;
    s.place_control[p] = static_cast<uint8_t>(side + 1);
    Event e;
    e.type = EventType::kControl;
    e.side = static_cast<int8_t>(side);
    e.hex = static_cast<int16_t>(hex);
    e.a = static_cast<int>(p);
    ctx.Emit(e);
    VpOnControl(s, ctx, static_cast<int>(p), side);  // victory.h: place_first_controlled
  }
}

void HexRules::MoveUnit(State& s, Context& ctx, UnitId u, int to, EventType type, const char* rule) const {
  UnitState& us = s.unit(u);
  Event e;
  e.type = type;
  e.unit = u;
  e.hex = us.hex;
  e.hex2 = static_cast<int16_t>(to);
  e.rule = rule;
  us.hex = static_cast<int16_t>(to);
  ctx.Emit(e);
}

}  // namespace wg
