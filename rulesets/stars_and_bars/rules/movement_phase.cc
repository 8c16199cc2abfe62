// Stars and Bars: the movement phase's step (5.0, 12.4.1). The class SbRules: internal.h; RULES.md
// maps every rule to its hook.
#include "internal.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <type_traits>

#include "wargame/rule_mark.h"

WG_RULE_MARKS("stars_and_bars");  // the WG_RULE marks below: the rules each function implements

namespace wg::stars_and_bars {

// The movement phase (5.0): the core's releases, then the marks of the last phase go, 12.4.1's
// initiative roll, then the start-of-turn choices (12.3, 12.6).
void SbRules::BeginSbMovement(State& s, Context& ctx) const {
  SbExt& x = Ext<SbExt>(s);
  const int side = s.phasing_side;
  BeginMovementPhase(s, ctx);
  x.moved_any = 0;
  x.forced_march_active = 0;
  x.num_cav_advanced = 0;
  const ZocField& zoc = EnemyZoc(s, ctx, side);
  for (int i = 0; i < s.num_units; ++i) {
    const UnitId u = static_cast<UnitId>(i);
    UnitState& us = s.unit(u);
    // The combat marks of the last combat phase go; 7.8 may set them again before this one.
    us.flags &= static_cast<uint16_t>(~(kSbCavRetreated | kSbDetachedNow | kUnitAttacked | kUnitDefended));
    if (us.side != side) continue;
    if (us.Has(kSbReleaseNext)) {
      us.flags = static_cast<uint16_t>((us.flags | kUnitReleased) & ~kSbReleaseNext);  // 5.6
    }
    if (IsArtillery(u)) us.spare = 0;
    us.flags &= static_cast<uint16_t>(~(kSbStartedInEzoc | kSbStartedWithHq));
    if (us.OnMap() && zoc.InEzoc(us.hex)) us.flags |= kSbStartedInEzoc;
  }
  // 12.4.1: the Union initiative roll, from the turn after the first combat.
  x.initiative_corps = 0;
  if (game_.OptionOn("12.4") && side == 0 && x.first_combat_turn > 0 && s.turn > x.first_combat_turn) {
    CallStep(s, ctx, steps_, step_initiative_, 0);  // its outcome goes on to the choices
    return;
  }
  NextChoice(s, ctx);
}

// The Union initiative's die (12.4.1), then the start-of-turn choices (12.3, 12.6).
WG_RULE("12.4.1", SbRules::ResolveUnionInitiative);
void SbRules::ResolveUnionInitiative(State& s, Context& ctx, int roll) const {
  SbExt& x = Ext<SbExt>(s);
  EndStep(s, ctx, steps_);
  const DieTable& t = *data().tables.Find("union_initiative");
  const std::string& corps = t.Lookup(roll, 0).text;
  x.initiative_corps = static_cast<uint8_t>(corps == "I" ? 1 : corps == "II" ? 2 : corps == "III" ? 3 : 0);
  Event e;
  e.type = EventType::kNote;
  e.rule = "12.4.1";
  e.a = x.initiative_corps;
  e.text = x.initiative_corps == 1 ? "I Corps lacks initiative" : x.initiative_corps == 2 ? "II Corps lacks initiative"
                                   : x.initiative_corps == 3 ? "III Corps lacks initiative" : "no corps restricted";
  ctx.Emit(e);
  for (int i = 0; i < s.num_units; ++i) {
    const UnitId u = static_cast<UnitId>(i);
    if (s.unit(u).side != 0 || !s.unit(u).OnMap()) continue;
    for (int j = 0; j < s.num_units; ++j) {
      const UnitId h = static_cast<UnitId>(j);
      if (IsHq(h) && s.unit(h).side == 0 && s.unit(h).hex == s.unit(u).hex &&
          (!game_.OptionOn("12.5") || (CorpsNumber(h) == CorpsNumber(u) && Def(h).size == "corps"))) {
        s.unit(u).flags |= kSbStartedWithHq;
      }
    }
  }
  NextChoice(s, ctx);
}

// --- Steps: the movement phase ---------------------------------------------------------------

void SbRules::ListSbMovement(const State& s, Context& ctx, std::vector<Action>* out) const {
  ListMoves(s, ctx);  // into the scratch's listed_runs: placed ahead of `out`
  ListMovementExtras(s, ctx, out);
  // The end of the phase, last: EndSbMovement refuses it only while a reinforcement
  // may still enter (5.7), so that is asked directly instead of trying the end on a
  // copy of the State (the same answer; ReinforcementCanEnter is not even needed
  // when an entry is listed).
  if (!FilterMoves(s, ctx) && !ReinforcementCanEnter(s, ctx)) out->push_back(Action::EndPhase());
}

// Mode changes (5.3), convoy destruction (5.8), detachment and recombination (10.1, 10.2),
// disruption converted to permanent loss (7.4.3).
void SbRules::ListMovementExtras(const State& s, Context& ctx, std::vector<Action>* out) const {
  const SbExt& x = Ext<SbExt>(s);
  constexpr UnitId kNotLookedFor = -2;
  UnitId detachable = kNotLookedFor;  // 10.1: the regiment any brigade would detach (kNoUnit: none)
  UnitId room[kMaxUnits];
  for (const UnitId u : PhasingUnitsOnMap(s, ctx, room)) {
    const UnitState& us = s.unit(u);
    if (IsArtillery(u)) {
      Action a = Action::Of(ActionType::kChangeMode);
      a.AddUnit(u);
      if (ModeChangeAllowed(s, a, ctx, nullptr)) out->push_back(a);  // ApplyModeChange's own test
    }
    if (IsSupply(u)) out->push_back(Action::Of(ActionType::kDestroy).AddUnit(u));
    if (!x.moved_any && IsBrigade(u)) {
      // 10.1: the brigade detaches the first regiment (in unit order) that CheckDetachAllowed
      // accepts; its regiment test does not read the brigade, so that regiment is the first
      // available one for every brigade, looked for once per listing.
      if (detachable == kNotLookedFor) {
        detachable = kNoUnit;
        for (const UnitId r : regiments_) {  // IsRegiment, in unit order
          if (r >= s.num_units) break;
          if (RegimentAvailable(s, r)) {
            detachable = r;
            break;
          }
        }
      }
      if (detachable != kNoUnit) {
        Action d = Action::Of(ActionType::kDetach);
        d.AddUnit(u).AddUnit(detachable);
        if (CheckDetachAllowed(s, d, nullptr)) out->push_back(d);
      }
      for (const UnitId r : regiments_) {
        if (r >= s.num_units) break;
        if (s.unit(r).hex != us.hex) continue;
        Action d = Action::Of(ActionType::kRecombine);
        d.AddUnit(u).AddUnit(r);
        if (CheckRecombineAllowed(s, d, nullptr)) out->push_back(d);
      }
    }
    if (us.markers[dis_] > 0 && !IsArtillery(u)) {
      Action c = Action::Of(ActionType::kConvert);
      c.AddUnit(u);
      c.value = 1;
      out->push_back(c);
    }
  }
}

// The phasing side's units on the map, in unit order, into out (room for kMaxUnits): those a
// RefreshOccupancy of this listing gathered (HexScratch::GatheredUnits), else found here.
std::span<const UnitId> SbRules::PhasingUnitsOnMap(const State& s, Context& ctx, UnitId* room) const {
  std::span<const UnitId> units;
  if (Hs(ctx).GatheredUnits(s, s.phasing_side, &units)) return units;
  size_t n = 0;
  for (int i = 0; i < s.num_units; ++i) {
    const UnitState& u = s.units[static_cast<size_t>(i)];
    if (u.side == s.phasing_side && u.OnMap()) room[n++] = static_cast<UnitId>(i);
  }
  return std::span<const UnitId>(room, n);
}

// MoveFacts::normal_friend for s, in the scratch's hex_mask (rebuilt by each listing that
// needs it, on the first unit: the pointer stays valid for the listing).
const uint8_t* SbRules::NormalFriends(const State& s, Context& ctx) const {
  HexScratch& hs = Hs(ctx);
  if (hs.hex_mask_pin == hs.PinOf(s) && hs.hex_mask_pin != 0) return hs.hex_mask.data();
  hs.hex_mask.assign(static_cast<size_t>(map_size_), 0);
  uint8_t* mask = hs.hex_mask.data();
  UnitId room[kMaxUnits];
  for (const UnitId u : PhasingUnitsOnMap(s, ctx, room)) {
    if (DefenseStrength(s, u) > 0) mask[static_cast<size_t>(s.unit(u).hex)] = 1;
  }
  hs.hex_mask_pin = hs.PinOf(s);
  return hs.hex_mask.data();
}

// Drops the moves CheckMove refuses (zero-strength units, 12.4 initiative, 12.6, artillery);
// true if an entry is kept (then the phase may not end: 5.7).
WG_RULE("5.3/6.2/12.4.1/12.6", SbRules::FilterMoves);
bool SbRules::FilterMoves(const State& s, Context& ctx) const {
  HexScratch& hs = Hs(ctx);
  bool enter = false;
  const bool fm = Ext<SbExt>(s).forced_march_active != 0;
  // 6.2's test of a zero-strength unit's move ending in an enemy ZOC without joining a
  // normal unit (MoveAllowed), as a set of hexes: the enemy ZOCs less the hexes of the
  // phasing side's units with a defence strength, built for the first such unit of the
  // listing (the ZOCs and the units are the listing's State's).
  const uint64_t* barred = nullptr;
  // Whether a unit's moves need CheckMove depends on the unit only: decided once
  // per unit, for the run of its candidates (a run is one cache slot's: one unit's
  // moves of one type); a run that needs no check is kept without reading its actions.
  hs.FilterRuns([&](HexScratch::RunEdit& edit) {
    // A slot's candidates share their units, type and value: its first root's.
    HexScratch::UnitMoves& slot = edit.slot();
    const Action& first = slot.roots[0];
    const UnitId u = first.units[0];
    const bool needs_check = PinnedAttackStrength(s, hs, u) <= 0 || InitiativeAffects(s, u) || fm || IsArtillery(u);
    if (!needs_check) {
      enter = enter || first.type == ActionType::kEnter;
      return;
    }
    MoveFacts facts = MoveFactsOf(s, first);  // the same for all of a unit's moves
    if (!facts.any_normal || fm) facts.zoc = &EnemyZoc(s, ctx, s.phasing_side);
    // MoveAllowed's per-hex normal friends (the same answer as its scan of the units),
    // built only for the moves asked of it one by one.
    auto one_by_one = [&] {
      if (facts.normal_friend == nullptr) facts.normal_friend = NormalFriends(s, ctx);
    };
    // The path facts cached with the candidates, if computed from the phasing side's
    // occupancy (the query's enemy array is the scratch's, of the key's generation,
    // which this listing's refresh for the phasing side produced).
    const int limit = facts.initiative_limit[0];
    const bool bits = slot.enemy == hs.enemy.data() && first.num_units == 1 && limit <= 2 && SlotBits(hs, slot) != nullptr &&
                      slot.bits.size() == slot.size();
    const uint32_t n = static_cast<uint32_t>(slot.size());
    if (bits) {
      // MoveAllowed's tests of a one-unit move decided by the path's bits, without
      // reading the Action: the bits that refuse it outright for this unit (5.3, 6.2,
      // 12.4.1), as the slot's set of candidates without them (cached per fill); a
      // path off the map goes to MoveAllowed itself.
      uint8_t reject = limit == 1 ? kPathOver1 : (limit == 2 ? kPathOver2 : 0);
      if (facts.artillery && first.type == ActionType::kMove) reject |= kPathWoodsExit;  // 5.3
      if (!facts.any_attack) reject |= kPathEnemyHex;                                    // 6.2
      const ZocField* ezoc = !facts.any_normal || fm ? facts.zoc : nullptr;
      const uint64_t* without = slot.WithoutBits(reject | kPathOffMap);  // also sets slot.any_bits
      // The off-map paths the run holds that MoveAllowed accepts (rare): put back last.
      uint32_t off_map[16];
      size_t num_off_map = 0;
      bool off_map_overflow = false;
      if (slot.any_bits & kPathOffMap) {
        one_by_one();
        for (uint32_t i = 0; i < n; ++i) {
          if (!(slot.bits[i] & kPathOffMap) || !edit.Kept(i) || !MoveAllowed(s, slot.At(i), ctx, facts, nullptr, -1)) {
            continue;
          }
          if (num_off_map == std::size(off_map)) {
            off_map_overflow = true;
            break;
          }
          off_map[num_off_map++] = i;
        }
      }
      if (off_map_overflow) {  // too many to remember: every candidate asked
        one_by_one();
        const Action* all = slot.BuildAll();
        for (uint32_t i = 0; i < n; ++i) {
          if (edit.Kept(i) && !MoveAllowed(s, all[i], ctx, facts, nullptr)) edit.Drop(i);
        }
      } else {
        edit.And(without);
        if (ezoc != nullptr && !fm) {
          // !any_normal: 6.2 by the listing's barred hexes (a zero-strength unit ends in
          // an enemy ZOC only joining a normal unit; the path bits are on the map).
          if (barred == nullptr) {
            const size_t words = hs.map_words;
            std::vector<uint64_t>& b = hs.ruleset_words;
            b.assign(words, 0);
            UnitId room[kMaxUnits];
            for (const UnitId v : PhasingUnitsOnMap(s, ctx, room)) {
              if (DefenseStrength(s, v) <= 0) continue;
              const int h = s.unit(v).hex;
              b[static_cast<size_t>(h >> 6)] |= uint64_t{1} << (h & 63);
            }
            const uint64_t* z = hs.ZocWords(*ezoc);
            for (size_t w = 0; w < words; ++w) b[w] = z[w] & ~b[w];
            barred = b.data();
          }
          edit.AndNotMap(barred);
        } else if (ezoc != nullptr) {
          // The forced march (12.6), and 6.2 joining a normal unit: MoveAllowed decides a
          // move ending in an enemy ZOC, with the path's bits.
          one_by_one();
          for (uint32_t i = 0; i < n; ++i) {
            if (edit.Kept(i) && ezoc->InEzoc(slot.ends[i]) && !MoveAllowed(s, slot.At(i), ctx, facts, nullptr, slot.bits[i])) {
              edit.Drop(i);
            }
          }
        }
        for (size_t k = 0; k < num_off_map; ++k) edit.Keep(off_map[k]);
      }
    } else {
      one_by_one();
      const Action* all = slot.BuildAll();  // every Action is checked
      for (uint32_t i = 0; i < n; ++i) {
        if (edit.Kept(i) && !MoveAllowed(s, all[i], ctx, facts, nullptr)) edit.Drop(i);
      }
    }
    if (first.type == ActionType::kEnter && !enter) {
      // An entry kept (FilterRuns counts the set after this returns).
      for (uint32_t i = 0; i < n && !enter; ++i) enter = edit.Kept(i);
    }
  });
  return enter;
}

// 5.8: a supply convoy under the phasing side's control may be destroyed.
WG_RULE("5.8", SbRules::ApplyDestroyConvoy);
Status SbRules::ApplyDestroyConvoy(State& s, const Action& a, Context& ctx) const {
  const UnitId u = a.num_units == 1 ? a.units[0] : kNoUnit;
  if (u < 0 || u >= s.num_units || !IsSupply(u) || s.unit(u).side != s.phasing_side || !s.unit(u).OnMap()) {
    return Status::Refused("5.8", "only a supply convoy under the phasing side's control may be destroyed");
  }
  Eliminate(s, ctx, u, "5.8", "voluntarily destroyed");
  return Status::Ok();
}

// 5.7: the movement phase ends only when no reinforcement due may still enter; then the
// stacking check (5.5).
WG_RULE("5.7", SbRules::EndSbMovement);
Status SbRules::EndSbMovement(State& s, Context& ctx) const {
  if (ReinforcementCanEnter(s, ctx)) return Status::Refused("5.7", "reinforcements due this turn must enter");
  return BeginStackingCheck(s, ctx);
}

// A move or an entry: artillery's movement points spent (5.3), zero-strength units take no
// objective (11.1 note 2), raids (5.8).
WG_RULE("5.3/11.1", SbRules::ApplySbMove);
Status SbRules::ApplySbMove(State& s, const Action& a, Context& ctx) const {
  SbExt& x = Ext<SbExt>(s);
  int cost = 0;
  uint8_t control[kMaxPlaces];
  std::memcpy(control, s.place_control, sizeof(control));
  bool zero_strength = true;
  for (int i = 0; i < a.num_units; ++i) {
    const UnitId u = a.units[static_cast<size_t>(i)];
    if (u >= 0 && u < s.num_units && DefenseStrength(s, u) > 0) zero_strength = false;
  }
  if (a.type == ActionType::kMove && a.num_units > 0 && a.num_hexes > 0 && a.units[0] >= 0 && a.units[0] < s.num_units &&
      IsArtillery(a.units[0]) && s.unit(a.units[0]).OnMap()) {
    MoveQuery q = BuildQuery(s, ctx, a.units.data(), a.num_units);
    int path[kMaxActionHexes];  // no allocation
    std::copy(a.hexes.begin(), a.hexes.begin() + a.num_hexes, path);
    const PathCheck pc = Hs(ctx).pathfinder.CheckPath(
        q, std::span<const int>(path, static_cast<size_t>(a.num_hexes)), data().move_labels);
    cost = pc.ok ? pc.cost : 0;
  }
  // 11.1 note 2: zero-strength units take no objective: their moves do not report control.
  struct NoControl : EventSink {
    EventSink* next = nullptr;
    void OnEvent(const Event& e) override {
      if (e.type != EventType::kControl && next) next->OnEvent(e);
    }
  } filter;
  filter.next = ctx.sink();
  Context quiet(game_, nullptr, &filter, &ctx.scratch());
  Status st = ApplyMovementStep(s, a, zero_strength ? quiet : ctx);
  if (!st.ok()) return st;
  x.moved_any = 1;
  for (int i = 0; i < a.num_units; ++i) {
    const UnitId u = a.units[static_cast<size_t>(i)];
    if (IsArtillery(u)) s.unit(u).spare = static_cast<int16_t>(s.unit(u).spare + cost);
  }
  if (zero_strength) {
    std::memcpy(s.place_control, control, sizeof(control));  // 11.1 note 2
  } else {
    RaidCheck(s, ctx, a);
  }
  return Status::Ok();
}

// 7.4.3: disruption converted to permanent loss.
WG_RULE("7.4.3", SbRules::ApplyConvert);
Status SbRules::ApplyConvert(State& s, const Action& a, Context& ctx) const {
  const UnitId u = a.num_units == 1 ? a.units[0] : kNoUnit;
  if (u < 0 || u >= s.num_units || s.unit(u).side != s.phasing_side || !s.unit(u).OnMap()) {
    return Status::Refused("7.4.3", "convert disruption on a phasing unit on the map");
  }
  if (IsArtillery(u)) return Status::Refused("8.4", "artillery can never take permanent losses");
  if (a.value < 1 || a.value > s.unit(u).markers[dis_]) return Status::Refused("7.4.3", "not that much disruption to convert");
  s.unit(u).markers[dis_] = static_cast<uint8_t>(s.unit(u).markers[dis_] - a.value);
  AddMarker(s, ctx, u, pl_, a.value, "7.4.3");
  return Status::Ok();
}

}  // namespace wg::stars_and_bars
