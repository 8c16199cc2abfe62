// The movement phase: reachable hexes, listing and applying moves and reinforcement entries.
#include <algorithm>
#include <bit>
#include <cstring>

#include "internal.h"
#include "wargame/hex_rules.h"
#include "wargame/rule_mark.h"

namespace wg {

// Appends a move/enter action along the searched path to `to` (what
// Pathfinder::Path returns, without building a vector); skips an empty path or
// one longer than an Action holds. Returns the action appended, or nullptr.
Action* HexRules::AppendPathAction(const Reachable& r, ActionType type, UnitId u, int start, int to,
                                   std::vector<Action>* out) {
  int16_t back[kMaxActionHexes];  // the path from `to` back to the start
  int len = 0;
  for (int h = to; h >= 0 && h != start; h = r.Predecessor(h)) {
    if (len == kMaxActionHexes) return nullptr;
    back[len++] = static_cast<int16_t>(h);
  }
  if (len == 0) return nullptr;
  Action& a = out->emplace_back();
  a.type = type;
  a.AddUnit(u);
  a.num_hexes = static_cast<uint8_t>(len);
  for (int i = 0; i < len; ++i) a.hexes[static_cast<size_t>(i)] = back[len - 1 - i];
  return &a;
}

// --- The movement phase's step ---------------------------------------------------------------

// Entering the movement phase: the phasing side's moved marks go, releases due this turn happen.
WG_RULE_KEY("release", HexRules::BeginMovementPhase);
void HexRules::BeginMovementPhase(State& s, Context& ctx) const {
  const int side = s.phasing_side;
  for (int i = 0; i < s.num_units; ++i) {
    UnitState& u = s.units[static_cast<size_t>(i)];
    if (u.side != side) continue;
    u.flags &= static_cast<uint16_t>(~(kUnitMoved | kUnitEnteredEzoc));
    const UnitDef& d = game_.units[static_cast<size_t>(i)];
    if (!u.Has(kUnitReleased) && d.release_turn > 0 && d.release_turn <= s.turn) {
      u.flags |= kUnitReleased;
      Event e;
      e.type = EventType::kRelease;
      e.unit = static_cast<UnitId>(i);
      e.rule = data().Rule(RuleKey::kRelease);
      ctx.Emit(e);
    }
  }
}

// Moves, entries, then the end of the phase if the ruleset accepts it now (e.g.
// reinforcements that must enter first).
void HexRules::ListMovementStep(const State& s, Context& ctx, std::vector<Action>* out) const {
  ListMoves(s, ctx);
  // The engine's movement step ends whenever asked (ApplyEndPhase): listed without
  // trying it on a copy of the State, unless the step says its end may be refused.
  if (steps_.Def(TopKind(s)).end_always_accepted) {
    out->push_back(Action::EndPhase());
    return;
  }
  ListEndPhaseIfAccepted(s, ctx, out);
}

Status HexRules::ApplyMovementStep(State& s, const Action& a, Context& ctx) const {
  switch (a.type) {
    case ActionType::kMove: return ApplyMove(s, a, ctx);
    case ActionType::kEnter: return ApplyEnter(s, a, ctx);
    case ActionType::kChangeMode: return ApplyModeChange(s, a, ctx);
    case ActionType::kEndPhase: AdvancePhase(s, ctx); return Status::Ok();
    default: break;
  }
  return RefuseOutOfSequence(*this, s, a, data().Rule(RuleKey::kSequence));
}

void HexRules::RefreshOccupancy(const State& s, Context& ctx, int side) const {
  HexScratch& hs = Hs(ctx);
  if (hs.occupancy_by_side) {
    RefreshOccupancyBySide(s, hs, side, 3u);
    return;
  }
  if (hs.occupancy_side == side && hs.CacheFresh(hs.occupancy_pin, hs.occupancy_state, s)) return;
  std::fill(hs.enemy.begin(), hs.enemy.end(), 0);
  std::fill(hs.overrun.begin(), hs.overrun.end(), 0);
  std::fill(hs.friendly.begin(), hs.friendly.end(), 0);
  // Read once: the stores into the byte arrays might alias s and hs for the compiler.
  const int num_units = s.num_units;
  uint8_t* const friendly = hs.friendly.data();
  uint8_t* const enemy = hs.enemy.data();
  // Under a pin, the other side's ZOC sources are gathered too (HexScratch::gathered_sources).
  const uint64_t pin = hs.PinOf(s);
  std::vector<ZocSource>& sources = hs.gathered_sources;
  sources.clear();
  hs.gathered_units.clear();
  UnitId others[kMaxUnits];  // the other side's units on the map, for MarkOverrunnable
  size_t num_others = 0;
  hs.friendly_hexes.clear();
  ++hs.friendly_gen;
  for (int i = 0; i < num_units; ++i) {
    const UnitState& u = s.units[static_cast<size_t>(i)];
    if (!u.OnMap()) continue;
    if (u.side == side) {
      if (CountsForStacking(s, static_cast<UnitId>(i)) && friendly[static_cast<size_t>(u.hex)]++ == 0) {
        hs.friendly_hexes.push_back(u.hex);
      }
      if (pin != 0) hs.gathered_units.push_back(static_cast<UnitId>(i));
    } else {
      enemy[static_cast<size_t>(u.hex)] = 1;
      others[num_others++] = static_cast<UnitId>(i);
      if (pin == 0) continue;
      const ZocKind k = ZocOf(s, static_cast<UnitId>(i));
      if (k != ZocKind::kNone) sources.push_back(ZocSource{u.hex, k});
    }
  }
  hs.gathered_pin = pin;
  hs.gathered_side = side;
  MarkOverrunnable(s, side, hs.enemy, std::span<const UnitId>(others, num_others), &hs.overrun);
  hs.EnemyOccupancyBuilt(side);
  CopyLiveState(&hs.occupancy_state, s);
  hs.occupancy_side = side;
  hs.occupancy_pin = hs.PinOf(s);
}

void HexRules::RefreshEnemyOccupancy(const State& s, Context& ctx, int side) const {
  HexScratch& hs = Hs(ctx);
  if (hs.occupancy_by_side) {
    RefreshOccupancyBySide(s, hs, side, 2u);
  } else {
    RefreshOccupancy(s, ctx, side);
  }
}

// RefreshOccupancy for a ruleset whose occupancy hooks read one side's units
// (OccupancyBySide): the moving side's counts are recomputed when its units changed,
// the enemy occupancy, overruns and ZOC sources when the other side's did.
void HexRules::RefreshOccupancyBySide(const State& s, HexScratch& hs, int side, unsigned parts) const {
  const uint64_t pin = hs.PinOf(s);
  HexScratch::OccupancyPart& mine = hs.part[0];
  HexScratch::OccupancyPart& theirs = hs.part[1];
  const bool need_mine = (parts & 1u) && !(mine.side == side && pin != 0 && mine.pin == pin);
  const bool need_theirs = (parts & 2u) && !(theirs.side == side && pin != 0 && theirs.pin == pin);
  if (!need_mine && !need_theirs) return;
  hs.SyncUnits(s);
  const int num_units = s.num_units;
  if (need_mine) {
    const uint64_t epoch = hs.unit_epoch[static_cast<size_t>(side & 1)];
    if (mine.side != side || mine.epoch != epoch) {
      uint8_t* const friendly = hs.friendly.data();
      for (const int16_t h : hs.friendly_hexes) friendly[static_cast<size_t>(h)] = 0;
      hs.friendly_hexes.clear();
      ++hs.friendly_gen;
      std::span<const UnitId> units;
      hs.GatheredUnits(s, side, &units);  // the side's units on the map (kept by its epoch)
      for (const UnitId u : units) {
        const int h = s.unit(u).hex;
        if (CountsForStacking(s, u) && friendly[static_cast<size_t>(h)]++ == 0) hs.friendly_hexes.push_back(static_cast<int16_t>(h));
      }
      mine.side = side;
      mine.epoch = epoch;
    }
    mine.pin = pin;
  }
  if (need_theirs) {
    const uint64_t epoch = hs.unit_epoch[static_cast<size_t>((1 - side) & 1)];
    if (theirs.side != side || theirs.epoch != epoch) {
      std::fill(hs.enemy.begin(), hs.enemy.end(), 0);
      std::fill(hs.overrun.begin(), hs.overrun.end(), 0);
      uint8_t* const enemy = hs.enemy.data();
      std::vector<ZocSource>& sources = hs.gathered_sources;
      sources.clear();
      UnitId others[kMaxUnits];  // the other side's units on the map, for MarkOverrunnable
      size_t num_others = 0;
      for (int i = 0; i < num_units; ++i) {
        const UnitState& u = s.units[static_cast<size_t>(i)];
        if (u.side == side || !u.OnMap()) continue;
        enemy[static_cast<size_t>(u.hex)] = 1;
        others[num_others++] = static_cast<UnitId>(i);
        const ZocKind k = ZocOf(s, static_cast<UnitId>(i));
        if (k != ZocKind::kNone) sources.push_back(ZocSource{u.hex, k});
      }
      MarkOverrunnable(s, side, hs.enemy, std::span<const UnitId>(others, num_others), &hs.overrun);
      hs.EnemyOccupancyBuilt(side);
      theirs.side = side;
      theirs.epoch = epoch;
    }
    theirs.pin = pin;
  }
}

void HexRules::MarkOverrunnable(const State& s, int moving_side, const std::vector<uint8_t>& enemy,
                                std::span<const UnitId>, std::vector<uint8_t>* overrun) const {
  for (size_t h = 0; h < enemy.size(); ++h) {
    if (enemy[h] && Overrunnable(s, static_cast<int>(h), moving_side)) (*overrun)[h] = 1;
  }
}

void HexRules::FillBits(const MoveQuery& q, UnitId u, ActionType type, HexScratch::UnitMoves& slot) const {
  const size_t n = slot.size();
  slot.bits.resize(n);
  if (StepwiseCandidateBits()) {
    FillStepCandidateBits(q, u, type, slot, slot.bits.data());  // all at once
  } else {
    for (size_t i = 0; i < n; ++i) slot.bits[i] = CandidateBits(q, u, slot.At(i));
  }
  slot.bits_valid = true;
}

const uint8_t* HexRules::SlotBits(HexScratch& hs, HexScratch::UnitMoves& slot) const {
  if (!candidate_bits_) return nullptr;
  if (!slot.bits_valid) {
    if (!slot.valid) return nullptr;
    // The slot's query, from its key (every field a search reads; the friendly counts
    // are not one: the bits are a function of the query's key, the unit and the path),
    // if the arrays it names still hold what they held at the fill (their generations).
    const HexScratch::MoveListKey& k = slot.key;
    if ((k.enemy != nullptr || k.overrun != nullptr) && k.enemy_gen != hs.enemy_gen) return nullptr;
    if (k.mask_gen != 0 && k.mask_gen != hs.hex_mask_gen) return nullptr;
    if (slot.size() == 0) {
      slot.bits.clear();
      slot.bits_valid = true;
      return slot.bits.data();
    }
    MoveQuery q;
    q.start = k.start;
    q.entry_hexes = std::span<const int>(k.entry, k.entry_size);
    q.entry_cost = k.entry_cost;
    q.allowance = k.allowance;
    q.classes = k.classes;
    q.enemy = k.enemy;
    q.overrunnable = k.overrun;
    q.moving_count = k.moving_count;
    q.stack_limit = k.stack_limit;
    q.zoc = k.zoc;
    q.zoc_rules = k.zoc_rules;
    q.started_in_ezoc = k.started_in_ezoc;
    q.minimum_one_hex = k.minimum_one_hex;
    const Action& first = slot.roots[0];
    FillBits(q, first.units[0], k.type, slot);
  }
  return slot.bits.data();
}

uint8_t HexRules::CandidateBits(const MoveQuery&, UnitId, const Action&) const { return 0; }
uint8_t HexRules::StepCandidateBits(const MoveQuery&, UnitId, ActionType, uint8_t, int, int, int) const { return 0; }

void HexRules::FillStepCandidateBits(const MoveQuery& q, UnitId u, ActionType type, const HexScratch::UnitMoves& c,
                                     uint8_t* bits) const {
  FillStepCandidateBitsOf(*this, q, u, type, c, bits);
}

// The parts of a move query common to every unit of `side` in s: the stacking limit
// and the friendly counts (only with a limit: nothing else of a query reads them), the
// enemy occupancy, overruns and ZOCs, the movement rules.
MoveQuery HexRules::SideMoveQuery(const State& s, Context& ctx, int side) const {
  HexScratch& hs = Hs(ctx);
  MoveQuery q;
  q.stack_limit = data().stacking_check == HexGameData::StackingCheck::kRefuse ? game_.hex_board().stacking.limit : 0;
  if (q.stack_limit > 0) {
    RefreshOccupancy(s, ctx, side);
    q.friendly_count = hs.friendly.data();
  } else {
    RefreshEnemyOccupancy(s, ctx, side);
  }
  q.enemy = hs.enemy.data();
  q.overrunnable = hs.overrun.data();
  q.zoc = &EnemyZoc(s, ctx, side);
  q.zoc_rules = &data().zoc;
  q.minimum_one_hex = data().movement.minimum_one_hex;
  return q;
}

MoveQuery HexRules::BuildQuery(const State& s, Context& ctx, const UnitId* units, int n) const {
  MoveQuery q = SideMoveQuery(s, ctx, s.unit(units[0]).side);
  q.start = s.unit(units[0]).hex;
  q.started_in_ezoc = q.start >= 0 && q.zoc->InEzoc(q.start);
  q.allowance = 1 << 20;
  q.classes = 0;
  int moving = 0;
  for (int i = 0; i < n; ++i) {
    const UnitId u = units[i];
    q.allowance = std::min(q.allowance, MovementAllowance(s, u));
    q.classes |= MoveClassBit(game_.kinds[static_cast<size_t>(game_.units[static_cast<size_t>(u)].kind)].movement_class);
    if (CountsForStacking(s, u)) ++moving;
  }
  q.moving_count = moving;
  return q;
}

const Reachable& HexRules::SearchMoves(const State& s, Context& ctx, const UnitId* units, int n) const {
  const MoveQuery q = BuildQuery(s, ctx, units, n);
  return Hs(ctx).pathfinder.Search(q);
}

void HexRules::ListMoves(const State& s, Context& ctx) const {
  HexScratch& hs = Hs(ctx);
  const int side = s.phasing_side, num_units = s.num_units;
  // The phasing side's units that have not moved, gathered without a branch per unit
  // (which units moved is different at every decision: a branch on it mispredicts).
  // With OccupancyBySide, from the side's units that may move at all (on the map or
  // waiting to enter: SideLists, kept while no unit enters or leaves the map).
  UnitId pending[kMaxUnits];
  int num_pending = 0;
  if (hs.occupancy_by_side) {
    for (const UnitId u : hs.SideLists(s, side).may_move()) {
      pending[num_pending] = u;
      num_pending += (s.unit(u).flags & kUnitMoved) == 0;
    }
  } else {
    for (int i = 0; i < num_units; ++i) {
      const UnitState& us = s.units[static_cast<size_t>(i)];
      pending[num_pending] = static_cast<UnitId>(i);
      num_pending += (us.side == side) & ((us.flags & kUnitMoved) == 0);
    }
  }
  if (num_pending == 0) return;
  // BuildQuery's query: its parts common to the phasing side's units worked out once
  // for the listing (the occupancy and the ZOCs: nothing below changes them), the
  // unit's own (start, allowance, class, stacking count) per unit.
  const MoveQuery base = SideMoveQuery(s, ctx, side);
  auto query = [&](UnitId u, int allowance) {
    MoveQuery q = base;
    q.start = s.unit(u).hex;
    q.started_in_ezoc = q.start >= 0 && base.zoc->InEzoc(q.start);
    q.allowance = std::min(1 << 20, allowance);
    q.classes = MoveClassBit(game_.kinds[static_cast<size_t>(game_.units[static_cast<size_t>(u)].kind)].movement_class);
    q.moving_count = base.stack_limit > 0 && CountsForStacking(s, u) ? 1 : 0;
    return q;
  };
  for (int k = 0; k < num_pending; ++k) {
    const UnitId u = pending[k];
    const int i = u;
    const UnitState& us = s.unit(u);
    if (us.OnMap()) {
      if (!Movable(s, u, nullptr)) continue;
      const int allowance = MovementAllowance(s, u);
      if (allowance <= 0) continue;
      ListUnitMoves(hs, u, query(u, allowance), ActionType::kMove);
    } else if (us.hex == kNotYetEntered) {
      const UnitDef& d = game_.units[static_cast<size_t>(i)];
      const int due = ReinforcementTurn(s, u);
      if (d.entry_place < 0 || due > s.turn || due == 0) continue;
      const Place& place = game_.hex_board().map.places[static_cast<size_t>(d.entry_place)];
      MoveQuery q = query(u, MovementAllowance(s, u));
      q.EnterFrom(place.hexes);
      ListUnitMoves(hs, u, q, ActionType::kEnter);
    }
  }
}

// One unit's moves (or entries) by query q: the unit's cached candidates if q is
// the query they were found for (HexScratch::unit_moves), else searched and
// cached. The candidates are every reached hex but the start, in the search's
// order; the friendly units already in a hex (the stacking limit at the end of a
// move) decide only whether a reached hex may end the move, never the search, so
// they are applied here, to the current counts (exactly Reachable::CanEnd).
void HexRules::ListUnitMoves(HexScratch& hs, UnitId u, const MoveQuery& q, ActionType type, int slot,
                             int value) const {
  const size_t units = std::max(static_cast<size_t>(game_.num_units()), static_cast<size_t>(u) + 1);
  if (hs.unit_moves.size() < units * HexScratch::kMoveSlots) hs.unit_moves.resize(units * HexScratch::kMoveSlots);
  const size_t at = static_cast<size_t>(u) * HexScratch::kMoveSlots + static_cast<size_t>(slot);
  HexScratch::UnitMoves& cached = hs.unit_moves[at];
  HexScratch::MoveListKey& key = hs.probe_key;  // MoveKey sets every field (no zeroing per call)
  const bool cacheable = hs.MoveKey(q, type, value, &key);
  if (!cacheable || !cached.valid || !(cached.key == key)) FillUnitMoves(hs, u, q, type, value, cacheable, cached);
  const uint32_t cache = static_cast<uint32_t>(at);
  const uint32_t n = static_cast<uint32_t>(cached.size());
  if (n == 0) return;
  if (q.friendly_count == nullptr || q.stack_limit <= 0) {
    hs.listed_runs.push_back(HexScratch::MoveRun{cache, 0, n, true});  // every candidate: nothing written per move
    return;
  }
  PushStackedRun(hs, q, cache, cached);
}

// Searches q and writes slot `cached`'s candidates (see ListUnitMoves), its key
// hs.probe_key if `cacheable`.
void HexRules::FillUnitMoves(HexScratch& hs, UnitId u, const MoveQuery& q, ActionType type, int value,
                             bool cacheable, HexScratch::UnitMoves& cached) const {
  cached.roots.clear();
  cached.built_valid = false;
  cached.enemy = q.enemy;
  const Reachable& r = hs.pathfinder.Search(q);
  const std::span<const int> reached = r.hexes();
  // At most one allocation per vector, and only when the unit reaches more hexes
  // than its slot has held (push_back's doubling would allocate log2(n) times).
  const size_t most = reached.size();  // candidates: at most one per reached hex
  if (cached.ends.capacity() < most) {
    const size_t room = std::bit_ceil(most);
    cached.roots.reserve(room);
    cached.link.reserve(room);
    cached.ends.reserve(room);
    cached.lengths.reserve(room);
    if (candidate_bits_ && cached.bits.capacity() < room) cached.bits.reserve(room);
  }
  // Written through pointers, then cut to the candidates found.
  cached.link.resize(most);
  cached.ends.resize(most);
  cached.lengths.resize(most);
  int32_t* const link_out = cached.link.data();
  int16_t* const ends_out = cached.ends.data();
  uint8_t* const lengths_out = cached.lengths.data();
  const uint8_t* no_end = NoMoveEnd();
  // A candidate whose predecessor is a candidate of this fill (settled before it) is
  // that one with one more hex (a link: no Action written), and its bits extend that
  // one's by the step (StepCandidateBits). Any other is built by walking back
  // (AppendPathAction, a root) and its bits asked of the whole path (CandidateBits).
  // The candidates' last hexes are gathered as a set in the scratch's map-wide words
  // (left zero again below).
  int32_t* const index = hs.candidate_index.data();  // per map hex: its candidate, -1 none
  uint64_t* const fw = hs.fill_words.data();
  const bool extend = hs.extend_candidates;
  const int start = q.start;
  int32_t count = 0;
  for (const int h : reached) {
    if (h == start) continue;
    if (no_end != nullptr && h >= 0 && no_end[h]) continue;  // the ruleset never lets a move end here
    const int p = r.Predecessor(h);
    const int32_t from = p >= 0 && p != start && extend ? index[p] : -1;
    int32_t link = from;
    int length;
    if (from >= 0) {
      length = lengths_out[from] + 1;
      if (length > kMaxActionHexes) continue;  // too long for an Action, as its predecessor's path
    } else {
      Action* a = AppendPathAction(r, type, u, start, h, &cached.roots);
      if (a == nullptr) continue;
      a->value = value;
      link = -static_cast<int32_t>(cached.roots.size());  // -1 - its index
      length = a->num_hexes;
    }
    index[h] = count;
    fw[h >> 6] |= uint64_t{1} << (h & 63);
    link_out[count] = link;
    ends_out[count] = static_cast<int16_t>(h);
    lengths_out[count] = static_cast<uint8_t>(length);
    ++count;
  }
  const size_t n = static_cast<size_t>(count);
  cached.link.resize(n);
  cached.ends.resize(n);
  cached.lengths.resize(n);
  for (size_t i = 0; i < n; ++i) index[ends_out[i]] = -1;
  // The candidates' bits are worked out when a filter first asks for them
  // (SlotBits): most units' runs are kept whole and never read them. A slot that
  // cannot be cached (no key to rebuild its query from) gets them now.
  cached.bits.clear();
  cached.bits_valid = false;
  if (candidate_bits_ && !cacheable) FillBits(q, u, type, cached);
  // The set of the candidates' last hexes (distinct: one candidate per reached
  // hex), over the words they touch.
  cached.hexset.clear();
  cached.w0 = 0;
  if (n > 0) {
    size_t lo = 0, hi = hs.map_words;
    while (fw[lo] == 0) ++lo;
    while (fw[hi - 1] == 0) --hi;
    cached.w0 = static_cast<int32_t>(lo);
    cached.hexset.assign(fw + lo, fw + hi);
    std::fill(fw + lo, fw + hi, uint64_t{0});
  }
  cached.without_valid = false;
  cached.valid = cacheable;
  cached.key = hs.probe_key;
}

// The run of slot `cached` (index `cache`, at least one candidate) under q's
// stacking limit, into hs.listed_runs.
void HexRules::PushStackedRun(HexScratch& hs, const MoveQuery& q, uint32_t cache,
                              const HexScratch::UnitMoves& cached) const {
  const uint32_t n = static_cast<uint32_t>(cached.size());
  // A move may not end where the friendly units already there leave no room for the
  // movers (friendly_count[end] <= room): the run keeps the candidates outside the
  // full hexes, a word (64 hexes) at a time.
  const int room = q.stack_limit - q.moving_count;
  const size_t words = cached.num_words();
  const uint64_t* set = cached.hexset.data();
  uint64_t* out = hs.WordSpace(words);
  uint32_t kept = 0;
  if (const uint64_t* full = hs.FullHexes(q.friendly_count, room)) {
    full += cached.w0;
    uint64_t any = 0;
    for (size_t w = 0; w < words; ++w) any |= set[w] & full[w];
    if (any == 0) {
      hs.listed_runs.push_back(HexScratch::MoveRun{cache, 0, n, true});
      return;
    }
    for (size_t w = 0; w < words; ++w) {
      out[w] = set[w] & ~full[w];
      kept += CountHexes(out[w]);
    }
  } else {
    // Counts of another array than the scratch's: asked per candidate.
    std::copy(set, set + words, out);
    for (uint32_t i = 0; i < n; ++i) {
      const int h = cached.ends[i];
      if (q.friendly_count[h] > room) out[static_cast<size_t>((h >> 6) - cached.w0)] &= ~(uint64_t{1} << (h & 63));
    }
    for (size_t w = 0; w < words; ++w) kept += CountHexes(out[w]);
  }
  if (kept == n) {
    hs.listed_runs.push_back(HexScratch::MoveRun{cache, 0, n, true});
  } else if (kept > 0) {
    hs.listed_runs.push_back(HexScratch::MoveRun{cache, hs.words_used, kept, false});
    hs.words_used += static_cast<uint32_t>(words);
  }
}

WG_RULE_KEY("movement/terrain/enemy_hex/zoc/zoc_leave/infiltration/allowance", HexRules::ApplyMove);
Status HexRules::ApplyMove(State& s, const Action& a, Context& ctx) const {
  if (a.num_units == 0) return Status::Refused(data().Rule(RuleKey::kMovement), "no unit to move");
  if (a.num_hexes == 0) return Status::Refused(data().Rule(RuleKey::kMovement), "the path is empty");
  const int start = s.unit(a.units[0]).hex;
  for (int i = 0; i < a.num_units; ++i) {
    const UnitId u = a.units[static_cast<size_t>(i)];
    const UnitState& us = s.unit(u);
    if (u < 0 || u >= s.num_units) return Status::Refused(data().Rule(RuleKey::kMovement), "no such unit");
    if (us.side != s.phasing_side) return Status::Refused(data().Rule(RuleKey::kMovement), game_.UnitLabel(u) + " is not the phasing side's");
    if (!us.OnMap()) return Status::Refused(data().Rule(RuleKey::kMovement), game_.UnitLabel(u) + " is not on the map");
    if (us.hex != start) return Status::Refused(data().Rule(RuleKey::kMovement), "units moving together must start in the same hex");
    if (us.Has(kUnitMoved)) return Status::Refused(data().Rule(RuleKey::kMovement), game_.UnitLabel(u) + " has already moved this phase");
    for (int j = 0; j < i; ++j) {
      if (a.units[static_cast<size_t>(j)] == u) return Status::Refused(data().Rule(RuleKey::kMovement), "a unit is listed twice");
    }
    Status st = CanMove(s, u);
    if (!st.ok()) return st;
  }
  MoveQuery q;
  {
    // The check and the query read s and do not change it: pinned, the occupancy and
    // ZOC caches they share compare the State's bytes once (HexScratch::CacheFresh).
    const HexStatePin pin(ctx, s);
    Status st = CheckMove(s, a, ctx);
    if (!st.ok()) return st;
    q = BuildQuery(s, ctx, a.units.data(), a.num_units);
  }
  PathCheck pc;
  bool ezoc = false;
  {
    Status st = WalkPath(s, a, ctx, q, &pc, &ezoc);  // changes s (overruns, place control)
    if (!st.ok()) return st;
  }
  FinishMove(s, a, ctx, start, pc.cost, ezoc, "");
  return Status::Ok();
}

void HexRules::FinishMove(State& s, const Action& a, Context& ctx, int start, int cost, bool ends_in_ezoc,
                          const char* rule) const {
  const int to = a.hexes[static_cast<size_t>(a.num_hexes - 1)];
  for (int i = 0; i < a.num_units; ++i) {
    const UnitId u = a.units[static_cast<size_t>(i)];
    Event e;
    e.type = EventType::kMove;
    e.unit = u;
    e.hex = static_cast<int16_t>(start);
    e.hex2 = static_cast<int16_t>(to);
    e.a = cost;
    e.rule = rule;
    ctx.Emit(e);
    UnitState& us = s.unit(u);
    us.hex = static_cast<int16_t>(to);
    us.flags |= kUnitMoved;
    if (ends_in_ezoc) us.flags |= kUnitEnteredEzoc;
  }
  AfterMove(s, a, ctx);
}

Status HexRules::WalkPath(State& s, const Action& a, Context& ctx, const MoveQuery& q, PathCheck* pc,
                          bool* ends_in_ezoc) const {
  HexScratch& hs = Hs(ctx);
  hs.path.assign(a.hexes.begin(), a.hexes.begin() + a.num_hexes);
  *pc = hs.pathfinder.CheckPath(q, hs.path, data().move_labels);
  if (!pc->ok) return Status::Refused(pc->rule, pc->message);
  const int side = s.phasing_side;
  for (int k = 0; k < a.num_hexes; ++k) {
    const int h = a.hexes[static_cast<size_t>(k)];
    if (hs.enemy[static_cast<size_t>(h)]) OnOverrun(s, ctx, h, side);
    TouchHex(s, ctx, h, side);
  }
  *ends_in_ezoc = EnemyZoc(s, ctx, side).InEzoc(a.hexes[static_cast<size_t>(a.num_hexes - 1)]);
  return Status::Ok();
}

WG_RULE_KEY("reinforcements", HexRules::ApplyEnter);
Status HexRules::ApplyEnter(State& s, const Action& a, Context& ctx) const {
  if (a.num_units == 0 || a.num_hexes == 0) return Status::Refused(data().Rule(RuleKey::kReinforcements), "an entry needs units and a path");
  int place = -1;
  for (int i = 0; i < a.num_units; ++i) {
    const UnitId u = a.units[static_cast<size_t>(i)];
    const UnitDef& d = game_.units[static_cast<size_t>(u)];
    const UnitState& us = s.unit(u);
    if (us.side != s.phasing_side) return Status::Refused(data().Rule(RuleKey::kReinforcements), game_.UnitLabel(u) + " is not the phasing side's");
    if (us.hex != kNotYetEntered || d.entry_place < 0) {
      return Status::Refused(data().Rule(RuleKey::kReinforcements), game_.UnitLabel(u) + " is not a reinforcement waiting to enter");
    }
    if (ReinforcementTurn(s, u) > s.turn) {
      return Status::Refused(data().Rule(RuleKey::kReinforcements), game_.UnitLabel(u) + " enters on turn " + std::to_string(ReinforcementTurn(s, u)));
    }
    if (place >= 0 && place != d.entry_place) return Status::Refused(data().Rule(RuleKey::kReinforcements), "units entering together must share an entry area");
    place = d.entry_place;
  }
  const Place& p = game_.hex_board().map.places[static_cast<size_t>(place)];
  const int first = a.hexes[0];
  if (std::find(p.hexes.begin(), p.hexes.end(), first) == p.hexes.end()) {
    return Status::Refused(data().Rule(RuleKey::kReinforcements), "hex " + game_.HexLabel(first) + " is not in the entry area " + p.name);
  }
  {
    Status st = CheckMove(s, a, ctx);
    if (!st.ok()) return st;
  }
  MoveQuery q = BuildQuery(s, ctx, a.units.data(), a.num_units);
  q.EnterFrom(p.hexes);
  PathCheck pc;
  bool ezoc = false;
  {
    Status st = WalkPath(s, a, ctx, q, &pc, &ezoc);
    if (!st.ok()) return st;
  }
  const int to = a.hexes[static_cast<size_t>(a.num_hexes - 1)];
  for (int i = 0; i < a.num_units; ++i) {
    const UnitId u = a.units[static_cast<size_t>(i)];
    UnitState& us = s.unit(u);
    Event e;
    e.type = EventType::kEnter;
    e.unit = u;
    e.hex = static_cast<int16_t>(first);
    e.rule = data().Rule(RuleKey::kReinforcements);
    ctx.Emit(e);
    if (to != first) {
      Event m;
      m.type = EventType::kMove;
      m.unit = u;
      m.hex = static_cast<int16_t>(first);
      m.hex2 = static_cast<int16_t>(to);
      m.a = pc.cost;
      ctx.Emit(m);
    }
    us.hex = static_cast<int16_t>(to);
    us.flags |= kUnitMoved | kUnitReleased;
    if (ezoc) us.flags |= kUnitEnteredEzoc;
  }
  AfterMove(s, a, ctx);
  return Status::Ok();
}

}  // namespace wg
