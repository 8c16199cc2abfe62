// Per-thread buffers of the hex engine (HexScratch) and the ruleset's rule numbers.
#include <algorithm>
#include <cstring>

#include "internal.h"
#include "wargame/hex_rules.h"
#include "wargame/rule_mark.h"
#include "wargame/rule_index.h"

namespace wg {

// --- Scratch ------------------------------------------------------------------------

namespace {
// A copy of the Game's prototype (its step-cost tables are built once per Game),
// or a new Pathfinder if there is none for this map and cost model.
Pathfinder ScratchPathfinder(const Game& game) {
  const HexGameData& d = game.Data<HexGameData>();
  const Pathfinder* proto = d.pathfinder_prototype.get();
  if (proto != nullptr && &proto->map() == &game.hex_board().map && &proto->rules() == &d.movement) return *proto;
  return Pathfinder(game.hex_board().map, d.movement);
}
}  // namespace

HexScratch::HexScratch(const Game& game) : pathfinder(ScratchPathfinder(game)) {
  const size_t n = static_cast<size_t>(game.hex_board().map.size());
  enemy.assign(n, 0);
  overrun.assign(n, 0);
  friendly.assign(n, 0);
  hex_head.assign(n, -1);
  hex_duty.assign(n, 0);
  attacker_head.assign(n, -1);
  candidate_index.assign(n, -1);
  attacker_hexes.reserve(n);
  seen_hexes.reserve(n);
  hex_seen.assign(n, 0);
  enemy_hexes.reserve(n);
  sources.reserve(kMaxUnits);
  gathered_sources.reserve(kMaxUnits);
  gathered_units.reserve(kMaxUnits);
  actions.reserve(256);
  map_words = (n + 63) / 64;
  friendly_hexes.reserve(n);
  for (FullSet& f : full_sets) f.words.assign(map_words, 0);
  set_buffer.assign(map_words, 0);
  fill_words.assign(map_words, 0);
}

const uint64_t* HexScratch::FullHexes(const uint8_t* friendly_count, int room) {
  if (friendly_count != friendly.data()) return nullptr;
  for (const FullSet& f : full_sets) {
    if (f.gen == friendly_gen && f.room == room) return f.words.data();
  }
  FullSet& f = full_sets[full_next];
  full_next = (full_next + 1) % full_sets.size();
  std::fill(f.words.begin(), f.words.end(), uint64_t{0});
  if (room < 0) {
    // No hex has room (friendly counts are never negative): every hex.
    std::fill(f.words.begin(), f.words.end(), ~uint64_t{0});
  } else {
    // Only a hex with friendly units can be above a room of 0 or more.
    for (const int16_t h : friendly_hexes) {
      if (friendly[static_cast<size_t>(h)] > room) f.words[static_cast<size_t>(h >> 6)] |= uint64_t{1} << (h & 63);
    }
  }
  f.gen = friendly_gen;
  f.room = room;
  return f.words.data();
}

void HexScratch::SyncUnits(const State& s) {
  if (synced_pin != 0 && synced_pin == pin && pinned == &s) return;  // diffed under this pin already
  synced_pin = PinOf(s);
  const int n = std::min<int>(s.num_units, kMaxUnits);
  if (n != units_seen_count) {
    units_seen.assign(s.units.begin(), s.units.begin() + n);
    units_seen_count = n;
    ++unit_epoch[0];
    ++unit_epoch[1];
    ++member_epoch[0];
    ++member_epoch[1];
    return;
  }
  // The units' records compared 64 bytes at a time; a block that differs is looked
  // at unit by unit (after a move, one or two units changed).
  static_assert(sizeof(UnitState) == 14);
  const auto* a = reinterpret_cast<const unsigned char*>(units_seen.data());
  const auto* b = reinterpret_cast<const unsigned char*>(s.units.data());
  const size_t bytes = static_cast<size_t>(n) * sizeof(UnitState);
  if (std::memcmp(a, b, bytes) == 0) return;  // the same units (libc's compare: 32 bytes an instruction)
  unsigned changed = 0;  // bit k: a unit of side k changed
  unsigned moved = 0;    // bit k: a unit of side k entered or left the map or the waiting units, or changed sides
  // Which of SideLists' lists a unit belongs to: 1 on the map, 2 waiting to enter, 0 neither.
  auto place = [](const UnitState& u) { return u.hex >= 0 ? 1 : (u.hex == kNotYetEntered ? 2 : 0); };
  constexpr size_t kBlock = 64;
  for (size_t at = 0; at < bytes; at += kBlock) {
    const size_t len = std::min(kBlock, bytes - at);
    if (len == kBlock) {
      // Sixteen bytes a step (GCC's vector extension: SSE2 on x86-64, scalar elsewhere).
      using V = uint64_t __attribute__((vector_size(16)));
      V x = {0, 0};
      for (size_t k = 0; k < kBlock; k += 16) {
        V p, q;
        std::memcpy(&p, a + at + k, 16);
        std::memcpy(&q, b + at + k, 16);
        x |= p ^ q;
      }
      if ((x[0] | x[1]) == 0) continue;
    } else if (std::memcmp(a + at, b + at, len) == 0) {
      continue;
    }
    const size_t first = at / sizeof(UnitState), last = std::min<size_t>((at + len - 1) / sizeof(UnitState), n - 1);
    for (size_t u = first; u <= last; ++u) {
      UnitState& seen = units_seen[u];
      const UnitState& now = s.units[u];
      if (std::memcmp(&seen, &now, sizeof(UnitState)) == 0) continue;
      const unsigned sides = (seen.side < 2 ? 1u << seen.side : 3u) | (now.side < 2 ? 1u << now.side : 3u);
      changed |= sides;
      if (seen.side != now.side || place(seen) != place(now)) moved |= sides;
      seen = now;
    }
  }
  if (changed & 1u) ++unit_epoch[0];
  if (changed & 2u) ++unit_epoch[1];
  if (moved & 1u) ++member_epoch[0];
  if (moved & 2u) ++member_epoch[1];
}

namespace {
// The hexes of a ZOC field as a set (word w: hexes 64w .. 64w + 63).
void ZocFieldWords(const ZocField& field, uint64_t* words, size_t num_words) {
  const uint8_t* b = field.data();
  const size_t n = static_cast<size_t>(field.size());
  for (size_t w = 0; w < num_words; ++w) {
    uint64_t m = 0;
    const size_t end = std::min(n, 64 * w + 64);
    for (size_t h = 64 * w; h < end; ++h) m |= static_cast<uint64_t>(b[h] != 0) << (h & 63);
    words[w] = m;
  }
}
}  // namespace

const uint64_t* HexScratch::ZocWords(const ZocField& field) {
  for (ZocSlot& z : zoc_slots) {
    if (&field != &z.field) continue;
    if (z.words_gen != z.gen || z.gen == 0 || z.words.size() != map_words) {
      z.words.resize(map_words);
      ZocFieldWords(field, z.words.data(), map_words);
      z.words_gen = z.gen;
    }
    return z.words.data();
  }
  ZocFieldWords(field, set_buffer.data(), map_words);
  return set_buffer.data();
}

// A new generation only if the arrays' contents changed (ListMoves' cache key).
void HexScratch::EnemyOccupancyBuilt(int side) {
  if (prev_occupancy_side != side || prev_enemy != enemy || prev_overrun != overrun) {
    ++enemy_gen;
    prev_enemy = enemy;
    prev_overrun = overrun;
  }
  prev_occupancy_side = side;
}

void HexScratch::HexMaskBuilt() {
  if (prev_hex_mask != hex_mask) {
    ++hex_mask_gen;
    prev_hex_mask = hex_mask;
  }
}

std::unique_ptr<Scratch> HexRules::NewScratch() const {
  auto hs = std::make_unique<HexScratch>(game_);
  hs->occupancy_by_side = OccupancyBySide();
  return hs;
}

std::string HexRules::PositionText(const State& s, UnitId u) const {
  const int16_t h = s.unit(u).hex;
  return h >= 0 ? game_.hex_board().map.Label(h) : Rules::PositionText(s, u);
}

const char* HexGameData::Rule(std::string_view key) const {
  auto it = rule_numbers.find(key);
  if (it != rule_numbers.end()) return it->second.c_str();
  // Keys without a number print as themselves; the strings are static.
  for (const char* k : kRuleKeys) {
    if (key == k) return k;
  }
  return "";
}

void HexRules::RuleSources(std::vector<RuleSource>* out) const {
  Rules::RuleSources(out);  // the steps
  for (const auto& [key, number] : data().rule_numbers) {
    const std::string name = "rule_numbers." + key;
    std::string where;  // the line the entry was read from (none: the engine's default number)
    for (const auto& [k, w] : game_.rule_number_lines) {
      if (k == name) where = w;
    }
    out->push_back(RuleSource{number, "data", name, where});
  }
  // The core's marks (WG_RULE_KEY) under the numbers this game's `rule_numbers:` gives
  // their keys (a key it gives none cites itself), and under the rules the comment on that
  // key's line names (`reinforcements: "15.0"   # 15.11/15.13`: the sub-rules the generic
  // rule carries); then the ruleset's own marks (WG_RULE).
  std::vector<RuleSource> core;
  for (const RuleMark* m = RuleMarks(); m; m = m->next) {
    if (m->ruleset || !m->rule) continue;
    std::vector<RuleSource> keys;
    SplitRules(m->rule, "", "", "", &keys);
    for (const RuleSource& k : keys) {
      SplitRules(data().Rule(std::string_view(k.rule)), "hook", m->name, RuleMarkWhere(*m), &core);
      for (const DataRule& d : game_.data_rules) {
        if (d.key == "rule_numbers." + k.rule) core.push_back(RuleSource{d.rule, "hook", m->name, RuleMarkWhere(*m)});
      }
    }
  }
  out->insert(out->end(), core.rbegin(), core.rend());  // in the order they were registered
  AppendRuleMarks(game_.params.ruleset, out);
}

}  // namespace wg
