// Movement search: zones of control, the per-unit move query, a fast
// bucket-queue (Dial) search that allocates nothing per query, path
// validation with rule-numbered reasons, and a Boost.Graph reference search.
//
// Costs are half movement points (see movement.h). Nothing here names a
// terrain, feature or class: those come from MovementRules and the Map.
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "wargame/map.h"
#include "wargame/movement.h"

namespace wg {

// --- Zones of control ---------------------------------------------------------

// Which hexes one unit controls (chosen per unit by the caller).
enum class ZocKind : uint8_t { kNone, kOwnHex, kSix };

// Zone-of-control policy. A ruleset fills it from its data.
struct ZocRules {
  FeatureMask blocked_by = 0;    // a ZOC does not extend across these hexside features...
  FeatureMask unblocked_by = 0;  // ...unless the hexside also has one of these (bridge, ford)
  TerrainMask not_into = 0;      // a ZOC does not extend into hexes with this terrain
  bool stop_on_entry = true;     // a unit entering an EZOC stops
  bool leave_only_if_started = false;  // an EZOC may be left only by a unit that began there
  int leave_cost = 0;                  // extra half points to leave an EZOC hex
  bool no_infiltration = false;        // no move directly from an EZOC hex to another
  bool rigid = false;                  // an EZOC can never be left by movement
};

// One enemy unit that projects a ZOC.
struct ZocSource {
  int hex = -1;
  ZocKind kind = ZocKind::kSix;
};

// Per-hex bitmap of the enemy ZOC for the moving side. Reusable: Compute
// allocates only the first time (or when the map grows).
class ZocField {
 public:
  void Compute(const Map& map, const ZocRules& rules, std::span<const ZocSource> enemies);
  bool InEzoc(int hex) const { return bits_[static_cast<size_t>(hex)] != 0; }
  const uint8_t* data() const { return bits_.data(); }
  int size() const { return static_cast<int>(bits_.size()); }

 private:
  std::vector<uint8_t> bits_;
};

// --- Queries -------------------------------------------------------------------

inline constexpr int kUnboundedAllowance = 1 << 28;

// One unit's (or one stack's) move. Pointers are per-hex arrays (grid index) owned by
// the caller; null means "none".
struct MoveQuery {
  int start = -1;                    // grid index; -1 = entering from off the map
  std::span<const int> entry_hexes;  // when start == -1: the hexes it may enter first
  int entry_cost = -1;               // half points for the first hex entered; <0 = EntryCost()
  int allowance = 0;                 // half points (kUnboundedAllowance for a cost field)
  uint32_t classes = 1;              // MoveClassBit per class; a stack has several bits
  const uint8_t* enemy = nullptr;         // nonzero: enemy-occupied, may not be entered...
  const uint8_t* overrunnable = nullptr;  // ...unless nonzero here (only zero-strength units)
  const uint8_t* friendly_count = nullptr;  // friendly units already in the hex
  int moving_count = 1;                     // units moving together
  int stack_limit = 0;                      // 0 = no limit at the end of the move
  const ZocField* zoc = nullptr;
  const ZocRules* zoc_rules = nullptr;
  bool started_in_ezoc = false;

  // Makes it an entry from off the map into one of `hexes` (a reinforcement's
  // entry area): no start hex, so not starting in an enemy ZOC either.
  void EnterFrom(std::span<const int> hexes) {
    start = -1;
    entry_hexes = hexes;
    started_in_ezoc = false;
  }
  bool minimum_one_hex = false;  // may always move one hex (not into/across prohibited)
};

// One member of a stack that moves together.
struct StackMember {
  int allowance = 0;
  int move_class = 0;
};
// The stack's query: `base` with the slowest allowance, the union of the classes
// (a hex is enterable only if every class may enter it, at the dearest cost) and
// moving_count = number of members.
MoveQuery StackQuery(MoveQuery base, std::span<const StackMember> members);

// Result of a search. Valid until the next Search on the same Pathfinder.
class Reachable {
 public:
  bool Reached(int hex) const { return key_[static_cast<size_t>(hex)] == settled_; }
  // Cheapest cost in half points (for a minimum-one-hex move: the step's cost, above allowance).
  int Cost(int hex) const { return node_[static_cast<size_t>(hex)].cost; }
  int Predecessor(int hex) const { return node_[static_cast<size_t>(hex)].pred; }  // -1: start/entry
  bool MustStop(int hex) const { return flags_[static_cast<size_t>(hex)] & kMustStop; }
  bool CanEnd(int hex) const { return flags_[static_cast<size_t>(hex)] & kCanEnd; }
  // Reached hexes in the order they were settled (the start first).
  std::span<const int> hexes() const {
    return {order_.data(), static_cast<size_t>(order_size_)};
  }

 private:
  friend class Pathfinder;
  static constexpr uint8_t kMustStop = 1, kCanEnd = 2, kSettled = 4;
  // Per hex, the search's word (pathfinder.cc, Pathfinder::Run): settled_ for a hex the
  // last search settled, so it also says which hexes were reached (no stamp of their own).
  uint32_t generation_ = 0;  // of the last search, never 0xffffffff (settled_ is never 0)
  uint64_t settled_ = static_cast<uint64_t>(~generation_) << 32;
  std::vector<uint64_t> key_;
  // Cost and predecessor side by side: the search writes both of a hex, callers read both.
  struct Node {
    int32_t cost;
    int32_t pred;
  };
  std::vector<Node> node_;
  std::vector<uint8_t> flags_;
  std::vector<int> order_;  // sized to the map; the first order_size_ are valid
  int order_size_ = 0;
};

// Labels (rule numbers) that CheckPath attaches to each kind of refusal.
struct MoveRuleLabels {
  std::string adjacency;
  std::string prohibited;  // terrain, hexside, path-only, ferry
  std::string enemy;
  std::string zoc_stop;
  std::string zoc_leave;
  std::string infiltration;
  std::string allowance;
  std::string stacking;
  std::string entry;
};

struct PathCheck {
  bool ok = false;
  int cost = 0;          // half points, when ok
  int failed_step = -1;  // index into the path of the refused step
  std::string message;   // e.g. "hex 0304: woods prohibited to artillery"
  std::string rule;      // the label from MoveRuleLabels
};

// Fast movement search over one map and cost model. Owns buffers sized to the map;
// after the first query for a class set, Search allocates nothing. Keeps references
// to the map and rules (they must outlive it). One Pathfinder per thread.
// Steps are precomputed per class set into a (hex * 6 + dir) table of (neighbour, cost),
// and the hexes the query's enemy blocks are marked in the search's per-hex words, so
// a direction of the search loop reads that table and one word, and one branch decides
// it (pathfinder.cc, Run::Expand).
class Pathfinder {
 public:
  Pathfinder(const Map& map, const MovementRules& rules);

  const Map& map() const { return map_; }
  const MovementRules& rules() const { return rules_; }

  // Dial's algorithm from the query's start (or entry hexes), bounded by the allowance.
  const Reachable& Search(const MoveQuery& query);
  const Reachable& reachable() const { return reach_; }
  // Hexes entered from the start to `hex` (start not included), from the last Search.
  std::vector<int> Path(int hex) const;

  // Validates a player's path: `path` lists the hexes entered, in order (start not included).
  PathCheck CheckPath(const MoveQuery& query, std::span<const int> path,
                      const MoveRuleLabels& labels = {}) const;

  // Step cost for a class set (the dearest member; kProhibitedCost if any member is refused).
  int StepCostFor(uint32_t classes, int from, int dir, std::string* why = nullptr) const;
  // Per (hex * 6 + dir) step costs for a class set; built on first use and cached.
  const std::vector<int16_t>& CostTable(uint32_t classes);

 private:
  // One step of the search's table, per (hex * 6 + dir): where it leads, as an offset
  // from the hex's index, and its cost; two bytes, where the neighbour table and the
  // int16 costs took six (the search's most missed loads in a game, which evicts the
  // tables between searches). A prohibited step (or an off-map neighbour) leads back to
  // the hex itself (offset 0), settled when it is expanded, so the search's word test
  // refuses it with no test of its own; its cost is kNone (ExpandBeyond asks).
  template <typename Offset, typename Cost>
  struct StepOf {
    static constexpr Cost kNone = std::numeric_limits<Cost>::max();
    Offset offset;
    Cost cost;
  };
  // Every ruleset's map (at most 99 columns: a row's offset fits) with step costs below 255.
  using Step = StepOf<int8_t, uint8_t>;
  using WideStep = StepOf<int32_t, uint32_t>;  // any other map or cost table
  struct Table {
    uint32_t classes = 0;
    int max_cost = 0;
    std::vector<int16_t> cost;         // per (hex * 6 + dir): half points or kProhibitedCost
    std::vector<Step> steps;           // the same as Steps, if every step fits one
    std::vector<WideStep> wide_steps;  // ... else as WideSteps (steps is empty)
  };
  const Table& TableFor(uint32_t classes);
  int EntryCostFor(const MoveQuery& q, int hex) const;
  template <typename S>
  struct Run;  // one Search's working state (pathfinder.cc)
  template <typename S>
  void SearchWith(const MoveQuery& q, const Table& table, const S* steps);

  const Map& map_;
  const MovementRules& rules_;
  std::vector<Table> tables_;
  Reachable reach_;
  std::vector<int32_t> entry_node_, entry_next_;  // the buckets' entries: hex, next entry (pathfinder.cc)
  std::vector<int32_t> head_;
  bool wide_offsets_ = false;  // some neighbour's offset does not fit a Step
  std::vector<uint8_t> zeros_;  // a map's worth of 0: the search's stand-in for a null per-hex array
  int start_ = -1;
  // The hexes an enemy blocks have the word 0 from one search to the next (Block):
  // the hexes, and the query's enemy and overrunnable bytes they were found from.
  void Block(const uint8_t* enemy, const uint8_t* overrunnable);
  std::vector<int32_t> blocked_;
  std::vector<uint8_t> blocked_enemy_, blocked_over_;
  bool blocked_valid_ = false, blocked_enemy_null_ = true, blocked_over_null_ = true;
};

// Boost.Graph dijkstra_shortest_paths reference over the same step costs: terrain,
// hexsides, paths, ferries, enemy-occupied hexes, and EZOC stop/leave/infiltration/rigid
// rules for stop-on-entry games (an EZOC hex other than the start has no out-edges).
// Returns the cost per hex, -1 where unreachable or above the allowance.
std::vector<int> ReferenceCosts(const Pathfinder& pathfinder, const MoveQuery& query);

// The reference graph built once for a query's class set, occupancy and ZOC,
// rerun from several starts (for benchmarks). Run() writes unbounded costs (-1 unreachable);
// a start other than the query's counts as "started in an EZOC" if the ZocField says so.
class ReferenceGraph {
 public:
  ReferenceGraph(const Pathfinder& pathfinder, const MoveQuery& query);
  ~ReferenceGraph();
  void Run(int start, std::vector<int>* costs);
  // The same search stopped at `bound` as a Boost.Graph user writes it: a
  // dijkstra_visitor that throws when the next vertex to settle costs more than
  // the bound. Hexes beyond the bound are left at -1.
  void RunBounded(int start, int bound, std::vector<int>* costs);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace wg
