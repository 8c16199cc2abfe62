// HexRules: the standard game flow of a hex-and-counter wargame, which a
// ruleset subclasses and adjusts through named hooks.
//
// It runs the turn record track (turns, player-turns, phases), and the two
// phases every hex game has:
//   movement  move a unit or a stack along a path (checked by the Pathfinder
//             with zones of control, stacking, terrain and hexside costs),
//             bring reinforcements on at their entry areas, change mode, end.
//   combat    declare attacks (attackers, defender hexes; adjacency, once per
//             phase, mandatory attacks), odds from the CRT with defender
//             multipliers and die-roll modifiers, voluntary odds reduction,
//             the die roll, then results as follow-up decisions: dividing
//             losses, stand or retreat, retreat paths, advance after combat.
// The flow is a stack of steps (wargame/steps.h, docs/steps.md): each phase of
// `turns:` is the step of the phase's name, and the core registers
//   movement  (the movement phase)       hex/movement.cc
//   combat    (the combat phase)         hex/combat.cc
//   retreat   (one unit's retreat)       hex/retreat.cc
//   advance   (advance after combat)     hex/advance.cc
// Phases it does not know (bombardment, reorganization, ...) are steps the
// ruleset registers by the phase's name; a phase with no step ends at once.
// A ruleset refines a core step by registering its own under the same name,
// calling the core's handler (ListMovementStep, ApplyMovementStep, ...) for
// what it does not change.
//
// Data it reads from ruleset.yaml (beyond the generic sections):
//   movement   MovementRules (movement.h)
//   zoc        {blocked_by: [river], unblocked_by: [bridge, ford], not_into: [river_hex],
//               stop_on_entry: true, leave_only_if_started: true, leave_cost: 1,
//               no_infiltration: true, rigid: false}
//   los        LosRules (los.h)
//   crt        CombatTable (combat_table.h)
//   tables     DieTables (die_table.h)
//   combat     {attack: attack, defense: defense, movement: movement,
//               mandatory: true, obligations: false, retreat_hexes: 2, retreat_through_ezoc: false,
//               advance: stacking | one | none, stacking_check: eliminate | refuse,
//               stacking_untrained_first: false,
//               control_kinds: [objective], artillery_kind: artillery, artillery_range: 3}
//              obligations: true makes the mandatory attacks span the phase (S&B 7.1,
//              B&G 8.0; hex/obligations.cc): every phasing unit in an enemy ZOC takes
//              part in an attack and every enemy unit in a friendly ZOC is attacked.
//   rule_numbers {movement: "5.1", zoc: "6.1", stacking: "5.5", ...}: the ruleset's
//               numbers for the generic rules, cited by events and refusals
//               (keys: kRuleKeys below); a key without a number cites itself.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <map>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "wargame/combat_table.h"
#include "wargame/die_table.h"
#include "wargame/game.h"
#include "wargame/game_loader.h"
#include "wargame/conformance.h"
#include "wargame/los.h"
#include "wargame/movement.h"
#include "wargame/pathfinder.h"

namespace wg {

// Keys of `rule_numbers:`, and the same as an enum (HexGameData::Rule(RuleKey): no
// string lookup where a refusal or event cites a generic rule).
inline constexpr const char* kRuleKeys[] = {
    "movement", "terrain", "enemy_hex", "zoc", "zoc_leave", "infiltration", "allowance", "stacking",
    "reinforcements", "release", "combat", "odds", "retreat", "advance", "sequence", "victory",
    "concession", "mode"};
inline constexpr size_t kNumRuleKeys = std::size(kRuleKeys);
enum class RuleKey : uint8_t {
  kMovement,
  kTerrain,
  kEnemyHex,
  kZoc,
  kZocLeave,
  kInfiltration,
  kAllowance,
  kStacking,
  kReinforcements,
  kRelease,
  kCombat,
  kOdds,
  kRetreat,
  kAdvance,
  kSequence,
  kVictory,
  kConcession,
  kMode,
};
static_assert(static_cast<size_t>(RuleKey::kMode) + 1 == kNumRuleKeys);

// The number of bits set in a word of a set of hexes. Inline arithmetic: without
// -mpopcnt (the x86-64 baseline) std::popcount is a call into libgcc.
inline uint32_t CountHexes(uint64_t x) {
  x = x - ((x >> 1) & 0x5555555555555555ull);
  x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
  x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
  return static_cast<uint32_t>((x * 0x0101010101010101ull) >> 56);
}

// The compiled data of a hex game (Game::data).
struct HexGameData : RulesetData {
  MovementRules movement;
  ZocRules zoc;
  LosRules los_rules;
  std::unique_ptr<LineOfSight> los;
  CombatTable crt;
  DieTables tables;
  int attack = -1, defense = -1, movement_attribute = -1;  // attribute indices
  bool mandatory = true;
  bool obligations = false;  // combat: {obligations: true}: see CombatDuties below
  int retreat_hexes = 1;
  bool retreat_through_ezoc = false;
  enum class Advance { kStacking, kOne, kNone } advance = Advance::kStacking;
  enum class StackingCheck { kEliminate, kRefuse } stacking_check = StackingCheck::kRefuse;
  bool stacking_untrained_first = false;  // the excess eliminated: untrained units first (S&B 5.5)
  std::vector<std::string> control_kinds;  // place kinds whose control is tracked
  int artillery_kind = -1;
  int artillery_range = 0;
  int phase_movement = -1, phase_combat = -1;
  MoveRuleLabels move_labels;
  // Built at load with the per-class step-cost tables; HexScratch copies it so a
  // new Session does not rebuild the tables (read-only: safe across threads).
  std::unique_ptr<Pathfinder> pathfinder_prototype;
  // The ruleset's numbers for the engine's generic rules (rule_numbers:
  // {movement: "5.1", zoc: "6.1", ...}); events and refusals cite them.
  // (std::less<>: looked up by a string_view, so `Rule("combat")` builds no string.)
  std::map<std::string, std::string, std::less<>> rule_numbers;
  const char* Rule(std::string_view key) const;
  // The same by key: rule_text[k] is Rule(kRuleKeys[k]), set when rule_numbers is
  // loaded (LoadHexGameData; a key without a number cites itself).
  const char* Rule(RuleKey k) const { return rule_text[static_cast<size_t>(k)]; }
  std::array<const char*, kNumRuleKeys> rule_text = [] {
    std::array<const char*, kNumRuleKeys> a{};
    for (size_t i = 0; i < kNumRuleKeys; ++i) a[i] = kRuleKeys[i];
    return a;
  }();
};

// Loads the hex engine's sections of a ruleset document into game->data.
// `extra` lets a ruleset read more sections itself afterwards.
ErrorList LoadHexGameData(RulesetDocument& doc, Game* game);

// Per-thread buffers.
class HexScratch : public Scratch {
 public:
  explicit HexScratch(const Game& game);
  Pathfinder pathfinder;
  ZocField zoc;  // free for hooks; HexRules::EnemyZoc keeps its own field (enemy_zoc)
  std::vector<uint8_t> enemy, overrun, friendly;
  // Free for ruleset hooks (B&G: the 11.1 strategic mask of a listing; S&B: the hexes
  // holding a normal friendly unit, 6.2). hex_mask_pin: the pin it was built under, if the ruleset says.
  std::vector<uint8_t> hex_mask;
  uint64_t hex_mask_pin = 0;
  std::vector<ZocSource> sources;
  std::vector<int> path;
  std::vector<Action> actions;
  // Free for ruleset hooks (S&B: 5.7's entry paths; whether a phase has any action at its start).
  std::vector<Action> ruleset_actions;

  // Caches of HexRules::EnemyZoc and RefreshOccupancy: both are pure functions of
  // the State and the side (their hooks take only the State), so a result is reused
  // while the State's bytes and the side are unchanged. Key side -1: empty.
  // EnemyZoc has a slot per side parity (side % 2): the obligations ask InEnemyZoc of
  // both sides in turn, which one slot recomputed at every switch. A slot's key is
  // exact: its side, and the State's bytes (or the pin it was filled under).
  struct ZocSlot {
    ZocField field;
    int side = -1;  // the key's side (-1: empty)
    State state;    // the key's State
    uint64_t pin = 0;
    uint64_t gen = 0;  // the field's generation (ListMoves' cache key; see zoc_gen)
    // The sources the field was last computed from, for sources_side (-1: none), and the
    // field's contents then, for prev_side (a new generation only if they change).
    std::vector<ZocSource> sources;
    int sources_side = -1;
    std::vector<uint8_t> prev_bits;
    int prev_side = -1;
    // The field as a set of hexes (ZocWords), of generation words_gen (0: none).
    std::vector<uint64_t> words;
    uint64_t words_gen = 0;
    // With occupancy_by_side: the units epoch of the side exerting the ZOCs that the
    // field was computed at (0: none).
    uint64_t epoch = 0;
  };
  std::array<ZocSlot, 2> zoc_slots;
  // The ZOC sources of the other side's units (EnemyZoc's gather, in the same order),
  // collected by a RefreshOccupancy under pin gathered_pin (0: none) for side gathered_side
  // while it walks the units anyway: EnemyZoc for that side under the same pin (the State
  // unchanged) uses them instead of walking the units again.
  std::vector<ZocSource> gathered_sources;
  // ... and the units of gathered_side on the map, in unit order.
  std::vector<UnitId> gathered_units;
  uint64_t gathered_pin = 0;
  int gathered_side = -1;
  // The units of `side` on the map, in unit order, into *out: gathered_units if a
  // RefreshOccupancy for `side` under the pin of s gathered them (s is then unchanged
  // since), else false. With occupancy_by_side, always: SideLists' list.
  bool GatheredUnits(const State& s, int side, std::span<const UnitId>* out) {
    if (occupancy_by_side) {
      *out = SideLists(s, side).on_map();
      return true;
    }
    if (gathered_pin != 0 && gathered_pin == PinOf(s) && gathered_side == side) {
      *out = std::span<const UnitId>(gathered_units);
      return true;
    }
    return false;
  }
  // A side's units on the map and its units on the map or waiting to enter, in unit
  // order (occupancy_by_side only): kept while the side's membership epoch is the
  // one they were gathered at (a move within the map changes neither list).
  struct SideUnits {
    std::array<UnitId, kMaxUnits> map{}, movers{};
    int num_map = 0, num_movers = 0;
    int side = -1;
    uint64_t epoch = 0;
    std::span<const UnitId> on_map() const { return {map.data(), static_cast<size_t>(num_map)}; }
    std::span<const UnitId> may_move() const { return {movers.data(), static_cast<size_t>(num_movers)}; }
  };
  const SideUnits& SideLists(const State& s, int side) {
    SyncUnits(s);
    SideUnits& l = side_lists[static_cast<size_t>(side & 1)];
    const uint64_t epoch = member_epoch[static_cast<size_t>(side & 1)];
    if (l.side != side || l.epoch != epoch) {
      // Gathered without a branch per unit.
      const int n = std::min<int>(s.num_units, kMaxUnits);
      int on_map = 0, movers = 0;
      for (int i = 0; i < n; ++i) {
        const UnitState& u = s.units[static_cast<size_t>(i)];
        const int mine = u.side == side;
        l.map[static_cast<size_t>(on_map)] = static_cast<UnitId>(i);
        on_map += mine & (u.hex >= 0);
        l.movers[static_cast<size_t>(movers)] = static_cast<UnitId>(i);
        movers += mine & ((u.hex >= 0) | (u.hex == kNotYetEntered));
      }
      l.num_map = on_map;
      l.num_movers = movers;
      l.side = side;
      l.epoch = epoch;
    }
    return l;
  }
  std::array<SideUnits, 2> side_lists;
  // The slot holding a field that a query points to, or null (not EnemyZoc's field).
  const ZocSlot* ZocSlotOf(const ZocField* f) const {
    for (const ZocSlot& z : zoc_slots) {
      if (f == &z.field) return &z;
    }
    return nullptr;
  }
  int occupancy_side = -1;
  State occupancy_state;
  // HexRules::OccupancyBySide (the ruleset's occupancy hooks read one side's units):
  // the occupancy arrays and the ZOC fields are then keyed by the units epochs of
  // the sides they read, not by the whole State. unit_epoch[k] is bumped whenever
  // SyncUnits finds a unit of side k changed since units_seen (a unit that changes
  // sides counts for both). The occupancy is two parts, each for a moving side:
  // part[0] `friendly` (and friendly_hexes), computed at that side's epoch; part[1]
  // enemy, overrun and gathered_sources, at the other side's epoch.
  bool occupancy_by_side = false;
  std::vector<UnitState> units_seen;
  int units_seen_count = -1;
  std::array<uint64_t, 2> unit_epoch{1, 1};
  // Bumped like unit_epoch, but only when a unit of the side entered or left the map,
  // changed sides, or stopped or started waiting to enter (SideLists' key).
  std::array<uint64_t, 2> member_epoch{1, 1};
  struct OccupancyPart {
    int side = -1;      // the moving side it is for (-1: none)
    uint64_t epoch = 0;  // the units epoch it was computed at
    uint64_t pin = 0;    // the pin it was last found valid under (0: none)
  };
  std::array<OccupancyPart, 2> part;
  uint64_t synced_pin = 0;  // the pin SyncUnits last diffed under (0: none)
  void SyncUnits(const State& s);
  // The hexes RefreshOccupancy found friendly units in (each once), and a generation
  // of `friendly` bumped at each refill (FullHexes' key).
  std::vector<int16_t> friendly_hexes;
  uint64_t friendly_gen = 0;
  struct FullSet {
    uint64_t gen = 0;  // friendly_gen it was built from (0: none)
    int room = 0;
    std::vector<uint64_t> words;
  };
  std::array<FullSet, 2> full_sets;  // FullHexes' last two (a listing asks one or two rooms)
  size_t full_next = 0;
  size_t map_words = 0;  // words of a set of the map's hexes
  std::vector<uint64_t> set_buffer;  // FullHexes' and ZocWords' answer when not cached
  std::vector<uint64_t> fill_words;  // ListUnitMoves' set of a fill's hexes (all zero between fills)
  // While a listing runs (HexStatePin), its const State is pinned: a cache filled
  // from that State under the same pin is valid without comparing the bytes.
  const State* pinned = nullptr;
  uint64_t pin = 0;          // the active pin's id (0: none)
  uint64_t pin_counter = 0;  // ids are never reused
  uint64_t occupancy_pin = 0;  // the pin the cache was filled under (0: none)

  // Generations of the occupancy arrays and of each enemy ZOC field: bumped when a
  // refresh changes their contents (or their side), so equal generations mean
  // equal arrays. The previous contents are kept to compare. zoc_gen is the last
  // generation given to a ZOC slot (never reused, so a slot's gen names its contents).
  uint64_t enemy_gen = 0, zoc_gen = 0;
  std::vector<uint8_t> prev_enemy, prev_overrun;
  int prev_occupancy_side = -1;
  // Called after each rebuild of enemy and overrun for `side`: a new enemy_gen only if
  // the side or the contents changed.
  void EnemyOccupancyBuilt(int side);

  // The move candidates HexRules::ListMoves found for each unit, reused while the
  // unit's move query is the same (every scalar equal, the enemy/overrun arrays and
  // ZOC field it reads of the same generation): the Pathfinder's search is a pure
  // function of the query, so the listed actions are identical (issue 15: no search
  // for the units whose surroundings did not change since the last decision).
  struct MoveListKey {
    int start = 0, entry_cost = 0, allowance = 0, moving_count = 0, stack_limit = 0;
    uint32_t classes = 0;
    const int* entry = nullptr;
    size_t entry_size = 0;
    const uint8_t* enemy = nullptr;
    const uint8_t* overrun = nullptr;
    const ZocField* zoc = nullptr;
    const ZocRules* zoc_rules = nullptr;
    bool started_in_ezoc = false, minimum_one_hex = false;
    ActionType type = ActionType::kMove;
    int value = 0;  // Action::value of the listed moves
    uint64_t enemy_gen = 0, zoc_gen = 0, mask_gen = 0;
    bool operator==(const MoveListKey&) const = default;
  };
  // One unit's candidates, all of one type, as a CandidateForest (action.h): a
  // candidate whose predecessor on its path is a candidate is that one plus a hex
  // (link, ends), so a fill writes a few bytes per reached hex, not an Action; the
  // others are whole Actions (roots). At(i) builds candidate i.
  struct UnitMoves {
    bool valid = false;
    MoveListKey key;
    std::vector<Action> roots;
    std::vector<int32_t> link;     // CandidateForest::link
    std::vector<int16_t> ends;     // ends[i]: candidate i's last hex
    std::vector<uint8_t> lengths;  // lengths[i]: its number of hexes
    // bits[i]: HexRules::CandidateBits of candidate i (only if the ruleset asks for
    // them: candidate_bits_), computed when a filter first asks (HexRules::SlotBits,
    // bits_valid); `enemy` is the query's enemy array they are computed from (its
    // contents are the key's generation while the slot is valid).
    std::vector<uint8_t> bits;
    bool bits_valid = false;
    const uint8_t* enemy = nullptr;
    // The candidates' last hexes as a set (CandidateRun): the map's words
    // [w0, w0 + hexset.size()), the ones the candidates touch. Listings keep a unit's
    // moves as such sets, filtered a word at a time.
    std::vector<uint64_t> hexset;
    int32_t w0 = 0;
    size_t size() const { return ends.size(); }
    size_t num_words() const { return hexset.size(); }
    CandidateForest forest() const { return CandidateForest{roots.data(), link.data(), ends.data()}; }
    Action At(size_t i) const { return forest().At(static_cast<uint32_t>(i)); }
    bool Has(int h) const {
      const size_t w = static_cast<size_t>((h >> 6) - w0);
      return w < hexset.size() && ((hexset[w] >> (h & 63)) & 1u);
    }
    // The candidates none of whose bits are in `mask`, as a set laid out like hexset
    // (computed once per fill and mask: a ruleset's filter asks it of the same unit at
    // every decision); it also sets any_bits. The bits must be there (HexRules::SlotBits).
    const uint64_t* WithoutBits(uint8_t mask) {
      if (!without_valid || without_mask != mask) {
        without.assign(hexset.size(), 0);
        uint64_t* const w = without.data();
        uint8_t any = 0;
        for (size_t i = 0; i < size(); ++i) {
          const uint8_t b = bits[i];
          any |= b;
          const int h = ends[i];
          w[static_cast<size_t>((h >> 6) - w0)] |= static_cast<uint64_t>((b & mask) == 0) << (h & 63);
        }
        any_bits = any;
        without_mask = mask;
        without_valid = true;
      }
      return without.data();
    }
    std::vector<uint64_t> without;
    uint8_t without_mask = 0;
    bool without_valid = false;
    uint8_t any_bits = 0;  // the union of bits[i] (set by WithoutBits)
    // Every candidate built, in order (each from its predecessor's, one hex more), once
    // per fill: for the listings that hand out or check every Action (the vector form
    // of LegalActions, a ruleset's per-Action filter); a playout's listing never builds.
    std::vector<Action> built;
    bool built_valid = false;
    const Action* BuildAll() {
      if (!built_valid) {
        built.clear();
        if (built.capacity() < size()) built.reserve(std::bit_ceil(size()));  // as the fill's vectors
        for (size_t i = 0; i < size(); ++i) {
          const int32_t f = link[i];
          if (f < 0) {
            built.push_back(roots[static_cast<size_t>(-1 - f)]);
          } else {
            built.push_back(built[static_cast<size_t>(f)]);
            Action& a = built.back();
            if (a.num_hexes < kMaxActionHexes) a.hexes[a.num_hexes++] = ends[i];
          }
        }
        built_valid = true;
      }
      return built.data();
    }
  };
  // By unit id * kMoveSlots + slot: a ruleset's special moves (B&G's strategic and
  // night moves) have slots of their own, so they do not evict the unit's moves.
  static constexpr int kMoveSlots = 3;
  std::vector<UnitMoves> unit_moves;
  MoveListKey probe_key;  // ListUnitMoves' key of the query it is asked (reused: MoveKey sets it all)
  // The moves of the listing under way (issue 15: neither copied into the list nor
  // built one by one): runs of one cache slot's candidates, in listing order. A run
  // is whole (the slot's candidates 0..count-1, nothing written per move) or keeps
  // the candidates whose last hexes are in its set: the slot's num_words() words at
  // listed_words[begin] (CandidateRun). No slot is filled again during a listing, so
  // the runs stay valid until the next listing; the rulesets' movement filters drop
  // from them (FilterRuns); HexRules::LegalActions copies the moves ahead of the
  // step's other actions (every step lists its moves first) and ListLegal hands out
  // the runs (LegalActionList).
  struct MoveRun {
    uint32_t cache = 0;             // the slot: unit_moves[cache]
    uint32_t begin = 0, count = 0;  // the kept set: listed_words[begin, begin + words), unless whole
    bool whole = false;
  };
  std::vector<MoveRun> listed_runs;
  // Grown only (a high-water mark): words_used are in use.
  std::vector<uint64_t> listed_words;
  uint32_t words_used = 0;
  // Room for n more words at listed_words[words_used] (the pointer is valid until the next call).
  uint64_t* WordSpace(size_t n) {
    if (listed_words.size() < words_used + n) listed_words.resize(std::max(words_used + n, 2 * listed_words.size()));
    return listed_words.data() + words_used;
  }
  void ClearListedMoves() {
    listed_runs.clear();
    words_used = 0;
  }
  // One run as a filter sees it (the slot's candidates in order, the kept ones).
  CandidateRun View(const MoveRun& run) const {
    const UnitMoves& m = unit_moves[run.cache];
    return CandidateRun{m.forest(), m.ends.data(), run.whole ? nullptr : listed_words.data() + run.begin, m.w0,
                        run.count};
  }
  size_t NumListedMoves() const {
    size_t n = 0;
    for (const MoveRun& r : listed_runs) n += r.count;
    return n;
  }
  // A run's kept set, as FilterRuns hands it to a ruleset's filter: the filter drops
  // candidates (Drop, AndNot, And...) and FilterRuns then counts what is left. The
  // set of a whole run is written out at the first change.
  class RunEdit {
   public:
    RunEdit(HexScratch& hs, MoveRun& run) : hs_(hs), run_(run), slot_(hs.unit_moves[run.cache]) {}
    UnitMoves& slot() { return slot_; }
    const MoveRun& run() const { return run_; }
    size_t num_words() const { return slot_.num_words(); }
    int32_t w0() const { return slot_.w0; }
    bool Kept(uint32_t i) const {
      if (!edited_ && run_.whole) return true;
      const int h = slot_.ends[i];
      return (hs_.listed_words[run_.begin + static_cast<size_t>((h >> 6) - slot_.w0)] >> (h & 63)) & 1u;
    }
    // The set, writable (num_words() words, the map's words from w0()); valid until
    // the filter returns.
    uint64_t* Words() {
      if (!edited_) {
        if (run_.whole) {
          uint64_t* w = hs_.WordSpace(slot_.num_words());
          std::copy(slot_.hexset.begin(), slot_.hexset.end(), w);
          run_.begin = hs_.words_used;
          hs_.words_used += static_cast<uint32_t>(slot_.num_words());
          run_.whole = false;
        }
        edited_ = true;
      }
      return hs_.listed_words.data() + run_.begin;
    }
    // Keeps only the candidates also in `set` (laid out like the slot's hexset).
    void And(const uint64_t* set) {
      uint64_t* w = Words();
      for (size_t k = 0; k < num_words(); ++k) w[k] &= set[k];
    }
    // Drops the candidates whose last hex is in `map_set` (a set of the whole map's hexes: word w at map_set[w]).
    void AndNotMap(const uint64_t* map_set) {
      uint64_t* w = Words();
      const uint64_t* m = map_set + slot_.w0;
      for (size_t k = 0; k < num_words(); ++k) w[k] &= ~m[k];
    }
    void Drop(uint32_t i) { SetBit(i, false); }
    void Keep(uint32_t i) { SetBit(i, true); }  // back into the set (a candidate of the slot)
    void DropAll() { std::fill_n(Words(), num_words(), uint64_t{0}); }
    bool edited() const { return edited_; }

   private:
    void SetBit(uint32_t i, bool on) {
      uint64_t* w = Words();
      const int h = slot_.ends[i];
      const uint64_t bit = uint64_t{1} << (h & 63);
      uint64_t& word = w[static_cast<size_t>((h >> 6) - slot_.w0)];
      word = on ? (word | bit) : (word & ~bit);
    }
    HexScratch& hs_;
    MoveRun& run_;
    UnitMoves& slot_;
    bool edited_ = false;
  };
  // A ruleset's movement filter: keep_run(edit) drops, run by run, what it refuses
  // of the listed moves (RunEdit); a run it leaves unedited stays as it was. Runs left
  // empty are removed, and a run that keeps every candidate is whole again.
  template <class KeepRun>
  void FilterRuns(KeepRun&& keep_run) {
    size_t kept_runs = 0;
    for (size_t r = 0; r < listed_runs.size(); ++r) {
      MoveRun run = listed_runs[r];
      RunEdit edit(*this, run);
      keep_run(edit);
      if (edit.edited()) {
        const uint64_t* w = listed_words.data() + run.begin;
        uint32_t n = 0;
        for (size_t k = 0; k < edit.num_words(); ++k) n += CountHexes(w[k]);
        run.count = n;
        if (n == 0) continue;
        if (n == edit.slot().size()) run.whole = true;
      }
      listed_runs[kept_runs++] = run;
    }
    listed_runs.resize(kept_runs);
  }
  // The hexes whose friendly count (RefreshOccupancy's `friendly`, of its current
  // contents) is above `room`, as a set of the map's hexes: a move may not end there
  // (the stacking limit). Null if `friendly_count` is not the scratch's array.
  const uint64_t* FullHexes(const uint8_t* friendly_count, int room);
  // The set of the hexes in a ZOC field (a set of the map's hexes); for a field of
  // EnemyZoc's cached by its generation.
  const uint64_t* ZocWords(const ZocField& field);
  std::vector<uint64_t> ruleset_words;  // free for ruleset hooks (S&B: 6.2's barred hexes)
  // ListUnitMoves while it fills a slot: per map hex, the index of its candidate
  // (-1 none; reset after each fill).
  std::vector<int32_t> candidate_index;
  // false: every candidate is built by walking back its path and its bits asked of the
  // whole path (what the stepwise fill must equal; tests/playout_speed_test.cc).
  bool extend_candidates = true;
  // The key of q, or false if q reads arrays that are not this scratch's (not cacheable).
  // Inline: asked of every listed unit at every decision.
  bool MoveKey(const MoveQuery& q, ActionType type, int value, MoveListKey* key) const {
    // The friendly counts are not part of the key: they decide only where a move may
    // end (HexRules::ListUnitMoves applies them), never what the search reaches.
    const bool masked = q.enemy != nullptr && q.enemy == hex_mask.data() && hex_mask_gen != 0;
    const ZocSlot* zoc_slot = q.zoc != nullptr ? ZocSlotOf(q.zoc) : nullptr;
    if ((q.enemy != nullptr && q.enemy != enemy.data() && !masked) ||
        (q.overrunnable != nullptr && q.overrunnable != overrun.data()) || (q.zoc != nullptr && zoc_slot == nullptr)) {
      return false;
    }
    MoveListKey& k = *key;
    k.start = q.start;
    k.entry_cost = q.entry_cost;
    k.allowance = q.allowance;
    k.moving_count = q.moving_count;
    k.stack_limit = q.stack_limit;
    k.classes = q.classes;
    k.entry = q.entry_hexes.data();
    k.entry_size = q.entry_hexes.size();
    k.enemy = q.enemy;
    k.overrun = q.overrunnable;
    k.zoc = q.zoc;
    k.zoc_rules = q.zoc_rules;
    k.started_in_ezoc = q.started_in_ezoc;
    k.minimum_one_hex = q.minimum_one_hex;
    k.type = type;
    k.value = value;
    k.enemy_gen = q.enemy != nullptr || q.overrunnable != nullptr ? enemy_gen : 0;
    k.zoc_gen = zoc_slot != nullptr ? zoc_slot->gen : 0;
    k.mask_gen = masked ? hex_mask_gen : 0;
    return true;
  }
  // A ruleset that builds hex_mask and passes it as a query's `enemy` calls this after
  // each build: a new generation if the contents changed (then such queries are cacheable).
  void HexMaskBuilt();
  uint64_t hex_mask_gen = 0;
  uint64_t hex_mask_enemy_gen = 0;  // B&G: the enemy_gen the 11.1 mask was built from (it depends on nothing else)
  std::vector<uint8_t> prev_hex_mask;

  // The combat obligations of one State (hex/obligations.cc), cached like the above.
  std::vector<int16_t> hex_head;                // first unit in each hex, -1 none
  std::array<int16_t, kMaxUnits> next_in_hex{};  // next unit in the same hex
  std::vector<uint8_t> hex_duty;                // per hex: DutyBits
  std::array<uint8_t, kMaxUnits> unit_duty{};   // per unit: DutyBits
  std::vector<int16_t> enemy_hexes;             // hexes holding units of the non-phasing side
  State duty_state;
  uint64_t duty_pin = 0;
  bool duty_valid = false;
  // HexRules::ListDutyAttacks' working lists (reused, not allocated per listing).
  struct DutyEdge {
    UnitId u;
    int16_t h;
  };
  std::vector<DutyEdge> duty_cover;
  std::vector<UnitId> duty_able;
  std::vector<uint8_t> duty_can, duty_used;
  std::vector<Action> duty_seen;
  // HexRules::BuildDuties asks MustAttack / MustBeAttacked only where an
  // attack could meet the obligation, unless duty_full (CombatDuties: asked of every unit).
  // duty_can[u]: CanStillAttack(s, u) of the phasing units that could attack something
  // (next to an enemy hex not attacked yet; all of them if artillery has a range), else 0.
  // duty_units: the units whose obligation can be met (Owed | Possible), in unit order;
  // duty_hexes: such hexes (Enemy | Owed | Possible), in enemy_hexes' order.
  bool duty_full = false;
  std::vector<UnitId> duty_units;
  std::vector<int16_t> duty_hexes;
  // CheckDutiesAfter's view of a declaration (kept, not built per check; busy while in use).
  State duty_view;
  bool duty_view_busy = false;
  // The pin hex_head / next_in_hex were built under (0: none): they list the units of the
  // State pinned under it while that pin lasts (a hook given ctx may read them then).
  uint64_t duty_lists_pin = 0;
  // The hex lists if they are those of s (pinned), else null.
  const HexScratch* StacksOf(const State& s) const {
    return duty_lists_pin != 0 && duty_lists_pin == PinOf(s) ? this : nullptr;
  }

  // HexRules::PinnedAttackStrength: each unit's AttackStrength in the pinned State,
  // computed at most once per pin (the hook is a pure function of the State);
  // strength[u] is valid while strength_pin[u] is the active pin. Mutable: a memo,
  // filled through a const scratch.
  mutable std::array<int32_t, kMaxUnits> strength{};
  mutable std::array<uint64_t, kMaxUnits> strength_pin{};
  // HexRules::ListAttacks: the phasing units that may attack, by hex (the first
  // unit in each hex, -1 none, and the next in unit order), and the enemy hexes seen.
  std::vector<int16_t> attacker_head;
  std::array<int16_t, kMaxUnits> next_attacker{};
  std::vector<int16_t> attacker_hexes, seen_hexes;
  std::vector<uint8_t> hex_seen;

  // Is a cache filled from `key` under pin `filled` valid for s? If s is pinned and what
  // rules read of it equals the key's (SameLiveState), the cache takes s's pin
  // (`filled`): exact, as a pinned State is not modified while the pin lasts, and the
  // next asks under that pin compare nothing.
  bool CacheFresh(uint64_t& filled, const State& key, const State& s) {
    if (filled != 0 && filled == pin && pinned == &s) return true;
    if (!SameLiveState(key, s)) return false;
    if (pinned == &s && pin != 0) filled = pin;
    return true;
  }
  uint64_t PinOf(const State& s) const { return pinned == &s ? pin : 0; }
  // QuietRefusals guards active: the checks that honour them refuse with the rule alone.
  int quiet_refusals = 0;
};

// Bits of HexScratch::hex_duty / unit_duty.
enum DutyBits : uint8_t {
  kDutyEnemy = 1,       // hex: holds units of the non-phasing side
  kDutyDefended = 2,    // hex: one of them was already attacked this phase (the hex cannot be)
  kDutyOwed = 4,        // hex: holds an enemy unit that must be attacked; unit: owes an attack
  kDutyPossible = 8,    // the obligation can still be met by some attack
};

// Pins `s` in the context's HexScratch for the guard's lifetime (restores the
// previous pin after). Only for a State that nothing modifies meanwhile: the
// const State of a LegalActions call.
class HexStatePin {
 public:
  HexStatePin(Context& ctx, const State& s);
  ~HexStatePin();
  HexStatePin(const HexStatePin&) = delete;
  HexStatePin& operator=(const HexStatePin&) = delete;

 private:
  HexScratch& hs_;
  const State* prev_state_;
  uint64_t prev_pin_;
};

// While it lasts, the retreat checks (HexRules::CheckRetreat and the rulesets'
// overrides) refuse with the rule they apply and an empty message: for the code
// that asks only whether a path is legal (the retreat listings), so that a
// rejected path costs no formatting or allocation (issue 15). Nests.
class QuietRefusals {
 public:
  explicit QuietRefusals(HexScratch& hs) : hs_(hs) { ++hs_.quiet_refusals; }
  ~QuietRefusals() { --hs_.quiet_refusals; }
  QuietRefusals(const QuietRefusals&) = delete;
  QuietRefusals& operator=(const QuietRefusals&) = delete;

 private:
  HexScratch& hs_;
};

// A refusal of `rule` with the message message() returns (a callable), or with no
// message under a QuietRefusals guard (the message is then not built).
template <class Message>
Status RefuseUnlessQuiet(const HexScratch& hs, const char* rule, Message&& message) {
  if (hs.quiet_refusals > 0) return Status::Refused(rule, std::string());
  return Status::Refused(rule, message());
}

// Defender strength multipliers and die-roll modifiers of one combat.
struct CombatMods {
  int multipliers[4] = {1, 1, 1, 1};
  int num_multipliers = 0;
  int drm = 0;
  int column_shift = 0;  // beyond the attacker's voluntary reduction
  // Added to the defence after the multipliers (a stack where only some
  // units are doubled, e.g. artillery never doubled for slope, S&B 8.4).
  int defense_bonus = 0;
  const char* notes[4] = {"", "", "", ""};
  int num_notes = 0;
  void Multiply(int m, const char* why) {
    if (num_multipliers < 4) multipliers[num_multipliers++] = m;
    Note(why);
  }
  void Drm(int d, const char* why) {
    drm += d;
    Note(why);
  }
  void Note(const char* why) {
    if (num_notes < 4) notes[num_notes++] = why;
  }
};

// An attack worked out before the die is cast.
struct AttackPlan {
  UnitId defenders[kMaxCombatUnits] = {};
  int num_defenders = 0;
  int attack = 0, defense = 0, modified_defense = 0;
  int computed_column = 0;  // before voluntary reduction
  int column = 0;           // CombatTable::kBelowLowest possible
  CombatMods mods;
};
struct AttackAnalysis {
  Status status;  // refused: why the attack is illegal
  AttackPlan plan;
  std::vector<CrtOutcome> outcomes;  // exact distribution of results (empty if automatic)
  // Non-empty: the attack is resolved without the table or the die (S&B 7.1: a
  // zero-strength unit attacked alone is eliminated); what happens, citing the rule.
  std::string automatic;
};

// What a hex game answers to the programs around it (players, the AI, playouts,
// referees, renderers, bindings) besides legal actions: Rules::hex() returns it,
// and a game not played on a hex map (a tabletop) returns nullptr. Callers talk
// to this interface, never to the class a ruleset derives from.
class HexQueries {
 public:
  virtual ~HexQueries() = default;
  // The hex engine's compiled data (movement, ZOC, CRT, combat options...).
  virtual const HexGameData& hex_data() const = 0;
  // The odds column, modifiers and exact result distribution of an attack
  // (ActionType::kAttack) before the die is cast; nothing is changed.
  virtual AttackAnalysis AnalyzeAttack(const State& s, Context& ctx, const Action& a) const = 0;
  virtual std::string ColumnLabel(int column) const = 0;
  // A unit's movement allowance in half points, and whether it may move now.
  virtual int MovementAllowance(const State& s, UnitId u) const = 0;
  virtual Status CanMove(const State& s, UnitId u) const = 0;
  // CanMove(s, u).ok() without the refusal's message (for playouts).
  virtual bool MayMove(const State& s, UnitId u) const { return CanMove(s, u).ok(); }
  // The move query of u (or a stack) and its search (reachable hexes, costs, paths).
  // Its friendly counts are set only with a stacking limit (stack_limit > 0: a ruleset
  // that refuses overstacked moves); without one nothing of the query reads them.
  virtual MoveQuery BuildQuery(const State& s, Context& ctx, const UnitId* units, int n) const = 0;
  virtual const Reachable& SearchMoves(const State& s, Context& ctx, const UnitId* units, int n) const = 0;
  // The zones of control `side`'s units are in (exerted by its opponent).
  virtual const ZocField& EnemyZocOf(const State& s, Context& ctx, int side) const = 0;
  // Units of `side` in `hex` that count for stacking.
  virtual int StackingCountOf(const State& s, int hex, int side) const = 0;
};

class HexRules : public Rules, public HexQueries {
 public:
  explicit HexRules(const Game& game);

  void Start(State& s, Context& ctx) const override;
  void LegalActions(const State& s, Context& ctx, std::vector<Action>* out) const override;
  void ListLegal(const State& s, Context& ctx, LegalActionList* out) const override;
  Status Apply(State& s, const Action& a, Context& ctx) const override;
  void CheckInvariants(const State& s, ErrorList* out) const override;
  std::unique_ptr<Scratch> NewScratch() const override;
  std::string PositionText(const State& s, UnitId u) const override;
  // Registers the combat roll's chance step after the ruleset's steps (their kinds keep their numbers).
  void FinishSteps() override;
  // The combat table's die and every die table's (at least a d6: the hooks' own rolls).
  int MaxDieFaces() const override;
  // Saves of format 1-4 were written before a combat's follow-up was a script step:
  // they hashed the State as that code left it (LegacyFrameState). Format 1 and 2
  // saves also hashed the advance's stage (PendingCombat::legacy_stage): that State
  // with each value it may have had (1 offered, 2 done).
  void LegacySaveStates(const State& s, int format, std::vector<State>* out) const override;
  // `s` as the code before script steps left it (save formats 1-4): no script
  // frames in the stack, the retreats owed as unit flags (kUnitLegacyRetreatOwed,
  // the retreating unit's too), the retreating unit in PendingCombat::legacy_current.
  // A ruleset whose scripts replaced State fields of its own puts them back too.
  virtual void LegacyFrameState(const State& s, State* old) const;

  const HexGameData& data() const { return game_.Data<HexGameData>(); }
  const Game& game() const { return game_; }

  // --- HexQueries ---------------------------------------------------------------
  const HexQueries* hex() const override { return this; }
  const MoveSampler* move_sampler() const override;  // hex/playout.cc
  const AiBoardFeatures* ai_features() const override;  // hex/ai_features.cc
  const HexGameData& hex_data() const override { return data(); }
  const ZocField& EnemyZocOf(const State& s, Context& ctx, int side) const override { return EnemyZoc(s, ctx, side); }
  int StackingCountOf(const State& s, int hex, int side) const override { return StackingCount(s, hex, side); }
  // The generic rules the ruleset numbered in `rule_numbers:` (data keys rule_numbers.KEY).
  void RuleSources(std::vector<RuleSource>* out) const override;

  // The odds column, modifiers and exact result distribution of an attack
  // (ActionType::kAttack), before the die is cast; nothing is changed.
  AttackAnalysis AnalyzeAttack(const State& s, Context& ctx, const Action& a) const override;
  std::string ColumnLabel(int column) const override;

  // A cached move slot's candidate bits (HexScratch::UnitMoves::bits), worked out at
  // the first ask after a fill from the query its key describes, while the scratch's
  // occupancy arrays are still those of the key's generation; null without
  // candidate_bits_, or for a slot whose arrays have changed since (not valid).
  const uint8_t* SlotBits(HexScratch& hs, HexScratch::UnitMoves& slot) const;

  // --- Combat obligations over the phase (hex/obligations.cc) ----------------------
  // With `combat: {obligations: true}` (S&B 7.1, B&G 8.0): a phasing unit that
  // MustAttack owes an attack until it takes part in one; an enemy unit that
  // MustBeAttacked is owed one until its hex is attacked. An obligation no attack
  // can meet any more (its enemies were all attacked, no unit that may still
  // attack is adjacent: a combat result or retreat made it so) has lapsed. The
  // combat phase does not end while an obligation can be met, and a declaration
  // that would leave an obligation that could be met impossible is refused
  // (a unit that owes an attack is excused if the declaration already holds as
  // many units as one attack may, kMaxActionUnits, and it could have joined).
  // A minimal set of attacks meeting every obligation always exists when each
  // can be met on its own (a minimal edge cover of the attacker-hex graph is a
  // set of stars, i.e. one-hex or one-attacker attacks), so the game never
  // stalls: ListAttacks lists such a cover.
  struct CombatDuty {
    bool attacker = false;  // a phasing unit that owes an attack, else an enemy unit owed one
    UnitId unit = kNoUnit;
    int hex = -1;
    bool possible = false;  // false: lapsed
  };
  void CombatDuties(const State& s, Context& ctx, std::vector<CombatDuty>* out) const;

  // --- Queries any hook may use ------------------------------------------------
  int PhaseOf(const State& s) const { return s.phase; }
  const std::string& PhaseName(const State& s) const;
  bool IsPhase(const State& s, int phase) const { return phase >= 0 && s.phase == phase; }
  int Opponent(int side) const { return 1 - side; }
  // Units of a side in a hex (in play), into out; returns the count.
  int UnitsIn(const State& s, int hex, int side, UnitId* out, int max) const;
  int CountIn(const State& s, int hex, int side) const;
  int StackingCount(const State& s, int hex, int side) const;
  bool EnemyIn(const State& s, int hex, int side) const { return CountIn(s, hex, 1 - side) > 0; }
  // Enemy ZOC of the side's opponent, in the scratch field.
  const ZocField& EnemyZoc(const State& s, Context& ctx, int side) const;
  bool InEnemyZoc(const State& s, Context& ctx, int side, int hex) const;
  // Inline: the obligations and the listing ask it per unit and enemy hex.
  bool Adjacent(int a, int b) const {
    const int32_t* nb = game_.hex_board().map.grid.Neighbors(a);
    return std::find(nb, nb + 6, b) != nb + 6;
  }
  int DistanceBetween(int a, int b) const { return game_.hex_board().map.grid.DistanceIdx(a, b); }

  // --- Effects any hook may use ---------------------------------------------------
  void Eliminate(State& s, Context& ctx, UnitId u, const char* rule, const char* why) const;
  void AddMarker(State& s, Context& ctx, UnitId u, int marker, int amount, const char* rule) const;
  void AwardVp(State& s, Context& ctx, int side, int points, const char* rule, const char* why) const;
  // Marks a place controlled by side if the hex belongs to a tracked place.
  void TouchHex(State& s, Context& ctx, int hex, int side) const;
  void MoveUnit(State& s, Context& ctx, UnitId u, int to, EventType type, const char* rule) const;

  // --- Movement queries (public for players and playouts) ---------------------------
  // Hooks: a unit's movement allowance in half points, and whether it may move now.
  int MovementAllowance(const State& s, UnitId u) const override;
  // CanMove is Movable(s, u, &why) (a ruleset overrides Movable, not CanMove).
  Status CanMove(const State& s, UnitId u) const final;
  bool MayMove(const State& s, UnitId u) const final { return Movable(s, u, nullptr); }
  // Hook: may u move now? If not and `why` is not null, *why gets the refusal
  // (the listing passes null: a refused unit formats no message). Default: released.
  virtual bool Movable(const State& s, UnitId u, Status* why) const;
  // Hook: per map hex, 1 where no move or entry may ever end (B&G 19.12: a ferry
  // hex), or null (the default: none). A fixed property of the game: ListUnitMoves
  // leaves those hexes out of the cached candidates (CheckMove still refuses them).
  virtual const uint8_t* NoMoveEnd() const { return nullptr; }
  // Hook: facts about a cached move candidate `a` of u found by query q that depend
  // only on the query and the path (S&B: 5.3's woods exit, 6.2's enemy hex on the
  // path), in UnitMoves::bits for the listing's filter; called when a slot is filled,
  // only if candidate_bits_ is set. Must be a function of q's key, u and a alone.
  virtual uint8_t CandidateBits(const MoveQuery& q, UnitId u, const Action& a) const;
  // Hook, if StepwiseCandidateBits(): the CandidateBits of the path that extends a
  // cached candidate's (whose bits are pred_bits) by one step, from hex `from` to
  // `to` (then num_hexes long, of a move of `type`). Must equal CandidateBits of that
  // path: ListUnitMoves uses it for every candidate whose predecessor is one.
  virtual bool StepwiseCandidateBits() const { return false; }
  virtual uint8_t StepCandidateBits(const MoveQuery& q, UnitId u, ActionType type, uint8_t pred_bits, int from, int to,
                                    int num_hexes) const;
  // The bits of a whole fill at once, if StepwiseCandidateBits() (one call per fill, not
  // one per candidate): bits[i] for the slot's candidates in order, StepCandidateBits
  // of its predecessor's (link[i] >= 0) or CandidateBits of its root Action. The
  // default asks StepCandidateBits / CandidateBits of each; an override must give the
  // same bits.
  virtual void FillStepCandidateBits(const MoveQuery& q, UnitId u, ActionType type, const HexScratch::UnitMoves& c,
                                     uint8_t* bits) const;
  void FillBits(const MoveQuery& q, UnitId u, ActionType type, HexScratch::UnitMoves& slot) const;
  // That loop, with the hooks of R: a final ruleset class R overrides FillStepCandidateBits
  // with FillStepCandidateBitsOf(*this, ...), and its own hooks are then called directly.
  template <class R>
  static void FillStepCandidateBitsOf(const R& r, const MoveQuery& q, UnitId u, ActionType type,
                                      const HexScratch::UnitMoves& c, uint8_t* bits) {
    const int32_t* link = c.link.data();
    const int16_t* ends = c.ends.data();
    const uint8_t* lengths = c.lengths.data();
    const size_t n = c.size();
    for (size_t i = 0; i < n; ++i) {
      const int32_t f = link[i];
      bits[i] = f >= 0 ? r.StepCandidateBits(q, u, type, bits[f], ends[f], ends[i], lengths[i])
                       : r.CandidateBits(q, u, c.roots[static_cast<size_t>(-1 - f)]);
    }
  }
  // Builds the move query for u (or a stack) and runs the search.
  const Reachable& SearchMoves(const State& s, Context& ctx, const UnitId* units, int n) const override;
  MoveQuery BuildQuery(const State& s, Context& ctx, const UnitId* units, int n) const override;

 protected:
  // --- Steps (wargame/steps.h) --------------------------------------------------------
  // The core's step kinds (registered by the constructor).
  StepKind step_movement_ = kNoStep, step_combat_ = kNoStep, step_retreat_ = kNoStep, step_advance_ = kNoStep;
  StepKind step_combat_roll_ = kNoStep;  // the CRT's die: a chance step (FinishSteps)
  StepKind step_after_combat_ = kNoStep;  // a combat's follow-up: a script step (FinishSteps)
  // The core steps' handlers, for a ruleset's refinement to call.
  void BeginMovementPhase(State& s, Context& ctx) const;  // hex/movement.cc
  void ListMovementStep(const State& s, Context& ctx, std::vector<Action>* out) const;
  Status ApplyMovementStep(State& s, const Action& a, Context& ctx) const;
  void BeginCombatPhase(State& s, Context& ctx) const;  // hex/combat.cc
  void ListCombatStep(const State& s, Context& ctx, std::vector<Action>* out) const;
  Status ApplyCombatStep(State& s, const Action& a, Context& ctx) const;
  void ListRetreatStep(const State& s, Context& ctx, std::vector<Action>* out) const;  // hex/retreat.cc
  // The after_combat script's resume (hex/retreat.cc) and its registration (FinishSteps).
  void ResumeAfterCombat(State& s, Context& ctx) const;
  void RegisterAfterCombat();
  Status ApplyRetreatStep(State& s, const Action& a, Context& ctx) const;
  void ListAdvanceStep(const State& s, Context& ctx, std::vector<Action>* out) const;  // hex/advance.cc
  Status ApplyAdvanceStep(State& s, const Action& a, Context& ctx) const;
  // Appends kEndPhase if the mandatory attacks allow the combat phase to end (on a copy).
  void ListEndCombatPhase(const State& s, Context& ctx, std::vector<Action>* out) const;
  // Appends kEndPhase if the ruleset accepts it now (tried on a copy).
  void ListEndPhaseIfAccepted(const State& s, Context& ctx, std::vector<Action>* out) const;
  // Begins the current phase: pushes the step of the phase's name (none: the
  // phase is over at once) and calls its begin.
  void BeginPhase(State& s, Context& ctx) const;
  // Whether the phase happens this player-turn (its step's `applies`; B&G 9.0: no
  // combat phase at night).
  bool PhaseHappens(const State& s, int phase) const;
  // The phase ends: the procedure's handlers for it (ProcedureAt::kPhaseEnd).
  void EndPhase(State& s, Context& ctx) const;
  // A phase step's kEndPhase handler when nothing must be checked first: the
  // procedure goes on (AdvancePhase).
  Status ApplyEndPhase(State& s, Context& ctx) const {
    AdvancePhase(s, ctx);
    return Status::Ok();
  }
  // The engine's handlers of the turn procedure (FinishSteps: after the ruleset's).
  void RegisterProcedure();
  // Back to the phase's own step (the bottom of the stack): a resolved combat's
  // roll step ends into its follow-up (FinishAttack).
  void ReturnToPhase(State& s) const { PopStepsTo(s, steps_, 1); }

  // --- Unit hooks --------------------------------------------------------------------
  // The turn a reinforcement may enter (0: not a reinforcement); the default is
  // the unit's printed turn (a ruleset may move it, e.g. S&B 12.3).
  virtual int ReinforcementTurn(const State& s, UnitId u) const;
  virtual ZocKind ZocOf(const State& s, UnitId u) const;
  virtual bool CountsForStacking(const State& s, UnitId u) const;
  virtual int AttackStrength(const State& s, UnitId u) const;
  // AttackStrength(s, u), computed once per unit while s is pinned (HexStatePin);
  // for any other State it calls the hook.
  int PinnedAttackStrength(const State& s, const HexScratch& hs, UnitId u) const {
    const uint64_t pin = hs.PinOf(s);
    if (pin == 0) return AttackStrength(s, u);
    const size_t i = static_cast<size_t>(u);
    if (hs.strength_pin[i] != pin) {
      hs.strength[i] = AttackStrength(s, u);
      hs.strength_pin[i] = pin;
    }
    return hs.strength[i];
  }
  virtual int DefenseStrength(const State& s, UnitId u) const;
  // May the moving side's units pass through/enter this enemy hex (overrun)?
  virtual bool Overrunnable(const State& s, int hex, int moving_side) const;
  // Sets (*overrun)[h] = Overrunnable(s, h, moving_side) for every hex h with enemy[h]
  // (the rest are 0 already): RefreshOccupancy's pass. A ruleset may do it in one pass
  // over the units instead of one per hex; the result must be the same. `others`: the
  // units on the map not of moving_side, in unit order (RefreshOccupancy's walk found them).
  virtual void MarkOverrunnable(const State& s, int moving_side, const std::vector<uint8_t>& enemy,
                                std::span<const UnitId> others, std::vector<uint8_t>* overrun) const;
  // Called for each overrun hex the path enters.
  virtual void OnOverrun(State& s, Context& ctx, int hex, int moving_side) const;
  // Hook: true if the occupancy hooks read only the units of one side: ZocOf(s, u)
  // and CountsForStacking(s, u) read nothing of s but the records of the units on
  // u's side, and MarkOverrunnable(s, side, ...) (Overrunnable) nothing but those of
  // the units not on `side` (not the turn, the phase, the ext, the combat...). The
  // engine then recomputes a side's stacking counts, and the enemy occupancy and ZOCs
  // it faces, only when units of the side they read changed (issue 15), not at every
  // change of the State. Default false: recomputed for every new State.
  // tests/playout_speed_test.cc checks a ruleset that says true against a fresh
  // recomputation at every decision of random games.
  virtual bool OccupancyBySide() const { return false; }
  virtual Status ApplyModeChange(State& s, const Action& a, Context& ctx) const;
  virtual void OnEliminated(State& s, Context& ctx, UnitId u, int hex) const;
  // Extra checks of a move (beyond the Pathfinder's).
  virtual Status CheckMove(const State& s, const Action& a, Context& ctx) const;
  virtual void AfterMove(State& s, const Action& a, Context& ctx) const;

  // --- Combat hooks ------------------------------------------------------------------
  virtual Status CheckAttack(const State& s, const Action& a, Context& ctx) const;
  virtual void CombatModifiers(const State& s, Context& ctx, CombatMods* mods) const;
  // Applies the CRT result of s.combat; may set follow-up decisions. The default
  // applies each token's ResultEffect (crt.effects, or the standard AE/AR/DE/DR).
  virtual void ApplyCombatResult(State& s, Context& ctx, const CombatResult& r) const;
  // Units that still must attack / be attacked (mandatory combat).
  virtual bool MustAttack(const State& s, Context& ctx, UnitId u) const;
  virtual bool MustBeAttacked(const State& s, Context& ctx, UnitId u) const;
  // With obligations: may u still take part in an attack (not attacked yet, an
  // attack strength, ...)? `s` may be a view with a declared attack marked
  // (B&G 8.42: a stack-mate that attacked bars u).
  // `stacks`, if not null, lists the units of each map hex as they stand in s
  // (HexScratch::hex_head / next_in_hex: the obligations' cache, built from a State
  // with s's positions), for a hook that asks who shares u's hex; null: scan.
  virtual bool CanStillAttack(const State& s, UnitId u, const HexScratch* stacks) const;
  // May u attack the units in `hex` (adjacent; artillery with a range: in range
  // and line of sight)? Checked after CanStillAttack.
  virtual bool InAttackReach(const State& s, UnitId u, int hex) const;
  // A retreat path for u owing a retreat of `length` hexes (the retreat step's
  // argument; the listing and the apply both pass it): the n hexes entered. The
  // default checks the length, adjacency, terrain, enemy units and enemy ZOCs.
  virtual Status CheckRetreat(const State& s, Context& ctx, UnitId u, const int16_t* path, int n, int length) const;
  virtual void AfterCombat(State& s, Context& ctx) const;
  // An attack resolved without the CRT (nullptr: none): the text cites the rule
  // ("7.1: ..."). AnalyzeAttack reports it; the ruleset applies it.
  virtual const char* AutomaticAttack(const State& s, const AttackPlan& plan) const;
  // Is a defender hex empty enough for an advance after combat? Default: no unit
  // at all (S&B 7.6: an enemy HQ alone does not prevent it; the advance eliminates
  // it through OnOverrun).
  virtual bool VacatedForAdvance(const State& s, int hex) const;

  // --- Engine steps rulesets call ----------------------------------------------------
  void AdvancePhase(State& s, Context& ctx) const;
  void EndGame(State& s, Context& ctx, const char* rule) const;
  // --- The follow-up of a combat (hex/retreat.cc) ----------------------------------
  // A combat's follow-up is the script step `after_combat`, called above the
  // phase's step: its arguments hold the retreat length and who still owes a
  // retreat (a bit per unit of the combat's lists); it calls one `retreat` step
  // per unit that owes one (defenders first, then attackers, in list order), is
  // resumed when each ends, offers the advance after combat (by the resume that
  // finds the vacated hex, while the combat is on), then ends, and AfterCombat
  // runs over the phase's step.
  //
  // Every defender (attacker) on the map owes a retreat of `hexes` (calls the
  // follow-up, not yet run, if none is on the stack).
  void BeginRetreats(State& s, Context& ctx, bool attacker, int hexes) const;
  // u, a unit of the combat, owes a retreat (of the follow-up's length); or no
  // longer does. OwesRetreat: whether it does (a unit not in the combat: no).
  void OweRetreat(State& s, UnitId u, int length) const;
  void ForgiveRetreat(State& s, UnitId u) const;
  bool OwesRetreat(const State& s, UnitId u) const;
  // Calls the follow-up if none is on the stack (owing nothing yet); returns its frame.
  Step* CallFollowUp(State& s) const;
  // Runs the follow-up (calls it first if none is on the stack): the next retreat,
  // the advance, or its end.
  void FollowUpCombat(State& s, Context& ctx) const;
  // The unit the `retreat` step on top (or nearest the top) is for, and how far
  // (kNoUnit / 0: no retreat step is on the stack).
  UnitId RetreatingUnit(const State& s) const;
  int RetreatLength(const State& s) const;
  // Appends a `type` action of u along the searched path from `start` to `to` (the
  // predecessor walk of Pathfinder::Path, no vector); none for an empty path or one
  // longer than an Action holds. Returns the action appended, or nullptr.
  static Action* AppendPathAction(const Reachable& r, ActionType type, UnitId u, int start, int to,
                                  std::vector<Action>* out);
  // Lists every retreat path of exactly `hexes` steps for u.
  void RetreatPaths(const State& s, Context& ctx, UnitId u, int hexes, std::vector<Action>* out) const;
  void RefreshOccupancy(const State& s, Context& ctx, int side) const;
  MoveQuery SideMoveQuery(const State& s, Context& ctx, int side) const;
  // `parts`: bit 0 the friendly counts, bit 1 the enemy occupancy (HexScratch::part).
  void RefreshOccupancyBySide(const State& s, HexScratch& hs, int side, unsigned parts) const;
  // The enemy occupancy of `side` (enemy, overrun: what a move query without a stacking
  // limit reads); with OccupancyBySide the friendly counts are left as they are.
  void RefreshEnemyOccupancy(const State& s, Context& ctx, int side) const;
  void ComputeZocSlot(HexScratch::ZocSlot& z, int side, const std::vector<ZocSource>& sources, HexScratch& hs) const;

  Status ApplyMove(State& s, const Action& a, Context& ctx) const;
  Status ApplyEnter(State& s, const Action& a, Context& ctx) const;
  // Checks a move's or an entry's path and walks it (overruns, place control).
  Status WalkPath(State& s, const Action& a, Context& ctx, const MoveQuery& q, PathCheck* pc,
                  bool* ends_in_ezoc) const;
  // Puts the moving units of `a` in their last hex, one kMove event each
  // citing `rule`, sets the moved flags, then calls AfterMove.
  void FinishMove(State& s, const Action& a, Context& ctx, int start, int cost, bool ends_in_ezoc,
                  const char* rule) const;
  Status PrepareAttack(const State& s, const Action& a, Context& ctx, AttackPlan* plan) const;
  void FillCombat(State& s, const Action& a, const UnitId* defenders, int nd) const;
  Status ApplyAttack(State& s, const Action& a, Context& ctx) const;
  // The combat roll's outcome (the chance step's resolve): looks up s.combat's
  // column with its die-roll modifier, applies the result, goes on.
  void ResolveCombatRoll(State& s, Context& ctx, int roll) const;
  // Announces and applies a CRT result, then the combat's follow-ups.
  void FinishAttack(State& s, Context& ctx, const CombatResult& result) const;
  // An exchange (ResultLoss::kExchange): the attackers (or defenders) lose units,
  // weakest first, until their printed strength totals at least `owed`.
  void LoseAtLeast(State& s, Context& ctx, bool attacker, int owed, const char* rule, const char* why) const;
  Status ApplyRetreat(State& s, const Action& a, Context& ctx) const;
  Status ApplyAdvance(State& s, const Action& a, Context& ctx) const;
  Status EndCombatPhase(State& s, Context& ctx) const;
  // Obligations (hex/obligations.cc): the snapshot of s, the refusal of a
  // declaration that breaks one, the end of the phase, the cover listed.
  // `full`: MustAttack / MustBeAttacked asked of every unit (CombatDuties reports who owes).
  void BuildDuties(const State& s, Context& ctx, bool full = false) const;
  void IndexDuties(const State& s, HexScratch& hs) const;
  void AttackerDuties(const State& s, Context& ctx, bool full) const;
  void DefenderDuties(const State& s, Context& ctx, bool full) const;
  Status CheckDutiesAfter(const State& s, Context& ctx, const Action& a) const;
  Status DutiesMet(const State& s, Context& ctx) const;
  void ListDutyAttacks(const State& s, Context& ctx, std::vector<Action>* out) const;
  bool HasTarget(const State& view, Context& ctx, UnitId u, const Action* declared) const;
  bool HasAttacker(const State& view, Context& ctx, int hex, const Action* declared) const;
  // The phasing side's moves and entries, into HexScratch::listed_runs (a step that
  // lists moves lists them before anything else: they are placed first).
  void ListMoves(const State& s, Context& ctx) const;
  // One unit's moves (type kMove or kEnter, Action::value `value`) by query q, into
  // hs.listed_runs, reusing the candidates cached in `slot` (< HexScratch::kMoveSlots;
  // 0 is ListMoves').
  void ListUnitMoves(HexScratch& hs, UnitId u, const MoveQuery& q, ActionType type, int slot = 0,
                     int value = 0) const;
  void FillUnitMoves(HexScratch& hs, UnitId u, const MoveQuery& q, ActionType type, int value, bool cacheable,
                     HexScratch::UnitMoves& cached) const;
  void PushStackedRun(HexScratch& hs, const MoveQuery& q, uint32_t cache, const HexScratch::UnitMoves& cached) const;
  void ListAttacks(const State& s, Context& ctx, std::vector<Action>* out) const;
  void ListAdvances(const State& s, Context& ctx, std::vector<Action>* out) const;
  void EnforceStacking(State& s, Context& ctx, int side, const char* rule) const;

  const Game& game_;
  // TouchHex's index (IndexControlHexes): control_places_[control_begin_[h], control_begin_[h + 1])
  // are the tracked places holding map hex h.
  void IndexControlHexes();
  std::vector<int32_t> control_begin_;
  std::vector<int16_t> control_places_;
  bool candidate_bits_ = false;  // ListUnitMoves fills UnitMoves::bits (CandidateBits)
};

// Loads a hex game: the document, the generic sections, the hex sections;
// then `make_rules` builds the ruleset's Rules for the finished Game.
Result<std::shared_ptr<const Game>> LoadHexGame(
    const std::string& folder, const GameParams& params, const std::vector<std::string>& extra_sections,
    const std::function<std::unique_ptr<Rules>(const Game&, RulesetDocument&, ErrorList*)>& make_rules);

// --- Conformance of a hex game (the core's harness is conformance.h) ------------

// --- The referee -------------------------------------------------------------------

struct RefereeHooks {
  using UnitQuery = std::function<int(const Game&, const State&, UnitId)>;
  using UnitTest = std::function<bool(const Game&, const State&, UnitId)>;
  // Defaults: the combat attributes' current values (Game::Current).
  UnitQuery attack, defense;
  // Default: six hexes if the defense is above zero, else none.
  std::function<ZocKind(const Game&, const State&, UnitId)> zoc;
  // May u (phasing, on the map) still attack now? Default: not attacked this
  // phase and an attack above zero.
  UnitTest may_attack;
  // May phasing unit u attack the units in `hex` (whether it may attack at all is
  // may_attack)? Default: `hex` is adjacent (B&G 8.7: a battery also fires at range).
  std::function<bool(const Game&, const State&, UnitId, int hex)> reaches;
  // Does phasing unit u's ZOC oblige the enemy units in it to be attacked?
  // Default: yes (S&B 7.8: units that advanced after a cavalry retreat do not).
  UnitTest obliges;
  // Does u count for stacking? Default: its kind's `stacking:`.
  UnitTest counts_for_stacking;
  // Ruleset checks of a phase end: `last` is the last State of phase
  // `last.phase`, `next` the first State after it.
  std::function<void(const Game&, const State& last, const State& next, ErrorList*)> extra;
};

struct RefereeOptions {
  int games = 10;
  uint64_t seed = 1;
  int max_actions = 50000;
  std::string players = "random,random";  // each "random" or "ai"
  RefereeHooks hooks;
};

struct RefereeReport {
  ErrorList violations;  // "game G turn T phase P: ..."
  int games_finished = 0;
  long phases_checked = 0;
  long actions = 0;
};

// The violations of the phase that `last` ends (see above), into `out`.
void RefereePhaseEnd(const Game& game, const RefereeHooks& hooks, const State& last, const State& next,
                     ErrorList* out);
// An attack declared in the combat phase (`after` marks the declared units attacked
// and the defenders defended): it may leave no obligation that could be met
// impossible (7.1 / 8.0).
void RefereeDeclaration(const Game& game, const RefereeHooks& hooks, const State& before, const State& after,
                        ErrorList* out);
// Plays games (seeds seed, seed+1, ...) and referees every phase end.
RefereeReport RunReferee(const std::string& game_spec, const RefereeOptions& options);
// One shard of a ruleset's referee run (its tests run several shards in
// parallel): ScaledGameCount(games) games from `seed` between `players`
// ("random,random", "ai,ai") with the ruleset's `hooks`. Returns the
// violations, and an error if a game did not finish or the games checked
// fewer than `min_phases_per_game` phases each (a run that checked nothing).
ErrorList RefereeShard(const std::string& game_spec, const RefereeHooks& hooks, const std::string& players, int games,
                       uint64_t seed, long min_phases_per_game);

// --- The analysis agrees with play ---------------------------------------------------
// In random games of a hex game, at each combat decision, up to `attacks_per_decision`
// listed attacks are analysed (HexRules::AnalyzeAttack) and applied once per die face
// on copies of the State: the attack event (strengths, column) and the results over the
// faces must be exactly the analysis' distribution, and an automatic attack (S&B 7.1)
// must roll no die and eliminate its defenders. An attack that first asks a decision
// (no die rolled, no result yet) is counted as deferred.
struct AnalysisCheckReport {
  ErrorList mismatches;
  long attacks = 0, faces = 0, automatic = 0, deferred = 0;
};
AnalysisCheckReport CheckAnalysisAgainstPlay(const std::string& game_spec, int games, uint64_t seed = 1,
                                             int attacks_per_decision = 3);

}  // namespace wg
