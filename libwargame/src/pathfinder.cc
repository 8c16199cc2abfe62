#include "wargame/pathfinder.h"

#include <algorithm>
#include <bit>
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/dijkstra_shortest_paths.hpp>
#include <cstring>
#include <limits>
#include <type_traits>

namespace wg {

// --- ZocField ------------------------------------------------------------------

void ZocField::Compute(const Map& map, const ZocRules& rules, std::span<const ZocSource> enemies) {
  bits_.assign(static_cast<size_t>(map.size()), 0);
  for (const ZocSource& e : enemies) {
    if (e.kind == ZocKind::kNone || e.hex < 0 || e.hex >= map.size()) continue;
    bits_[static_cast<size_t>(e.hex)] = 1;
    if (e.kind != ZocKind::kSix) continue;
    for (int d = 0; d < kNumDirections; ++d) {
      const int n = map.grid.NeighborIndex(e.hex, d);
      if (n < 0) continue;
      const FeatureMask side = map.Side(e.hex, d);
      if ((side & rules.blocked_by) && !(side & rules.unblocked_by)) continue;
      if (map.terrain[static_cast<size_t>(n)] & rules.not_into) continue;
      bits_[static_cast<size_t>(n)] = 1;
    }
  }
}

// --- Stack ---------------------------------------------------------------------

MoveQuery StackQuery(MoveQuery base, std::span<const StackMember> members) {
  if (members.empty()) return base;
  base.allowance = members.front().allowance;
  base.classes = 0;
  for (const StackMember& m : members) {
    base.allowance = std::min(base.allowance, m.allowance);
    base.classes |= MoveClassBit(m.move_class);
  }
  base.moving_count = static_cast<int>(members.size());
  return base;
}

// --- Pathfinder ----------------------------------------------------------------

Pathfinder::Pathfinder(const Map& map, const MovementRules& rules) : map_(map), rules_(rules) {
  const size_t n = static_cast<size_t>(map.size());
  reach_.key_.assign(n, ~uint64_t{0});  // older than any search
  reach_.node_.assign(n, Reachable::Node{0, -1});
  reach_.flags_.assign(n, 0);
  reach_.order_.assign(n, -1);
  // The bucket entries: one per successful Relax, at most one per hex and direction
  // plus one per seed (the start, or the entry hexes: grown in Search for a longer list).
  entry_node_.assign(7 * n + 1, -1);
  entry_next_.assign(7 * n + 1, -1);
  head_.assign(64, -1);
  blocked_.reserve(n);
  zeros_.assign(n, 0);
  blocked_enemy_.assign(n, 0);
  blocked_over_.assign(n, 0);
  for (int h = 0; h < map.size(); ++h) {
    for (int d = 0; d < kNumDirections; ++d) {
      const int m = map.grid.NeighborIndex(h, d);
      if (m >= 0 && (m - h < std::numeric_limits<int8_t>::min() || m - h > std::numeric_limits<int8_t>::max())) {
        wide_offsets_ = true;
      }
    }
  }
  tables_.reserve(static_cast<size_t>(rules.num_classes()) + 8);
  for (int c = 0; c < rules.num_classes(); ++c) TableFor(MoveClassBit(c));
}

int Pathfinder::StepCostFor(uint32_t classes, int from, int dir, std::string* why) const {
  int worst = 0;
  for (int c = 0; c < rules_.num_classes(); ++c) {
    if (!((classes >> c) & 1u)) continue;
    const int w = StepCost(map_, rules_, c, from, dir, why);
    if (w < 0) return kProhibitedCost;
    worst = std::max(worst, w);
  }
  return worst;
}

const Pathfinder::Table& Pathfinder::TableFor(uint32_t classes) {
  for (const Table& t : tables_) {
    if (t.classes == classes) return t;
  }
  WG_CHECK(classes != 0 && (rules_.num_classes() >= 32 || (classes >> rules_.num_classes()) == 0),
           "MoveQuery.classes names no valid movement class");
  Table t;
  t.classes = classes;
  t.cost.assign(static_cast<size_t>(map_.size()) * 6, kProhibitedCost);
  for (int h = 0; h < map_.size(); ++h) {
    for (int d = 0; d < kNumDirections; ++d) {
      const int w = StepCostFor(classes, h, d);
      const size_t i = static_cast<size_t>(h) * 6 + static_cast<size_t>(d);
      t.cost[i] = static_cast<int16_t>(w);
      t.max_cost = std::max(t.max_cost, w);
    }
  }
  // The search's cost is the table's int16 (as CostTable reports it).
  auto fill = [&](auto* steps) {
    using S = std::remove_reference_t<decltype((*steps)[0])>;
    steps->assign(t.cost.size(), S{0, S::kNone});
    for (size_t i = 0; i < t.cost.size(); ++i) {
      const int h = static_cast<int>(i / 6), n = map_.grid.NeighborIndex(h, static_cast<int>(i % 6));
      if (t.cost[i] >= 0 && n >= 0) {
        (*steps)[i] = S{static_cast<decltype(S::offset)>(n - h), static_cast<decltype(S::cost)>(t.cost[i])};
      }
    }
  };
  bool wide = wide_offsets_;
  for (const int16_t w : t.cost) wide = wide || w >= Step::kNone;
  if (wide) {
    fill(&t.wide_steps);
  } else {
    fill(&t.steps);
  }
  tables_.push_back(std::move(t));
  return tables_.back();
}

const std::vector<int16_t>& Pathfinder::CostTable(uint32_t classes) {
  return TableFor(classes).cost;
}

int Pathfinder::EntryCostFor(const MoveQuery& q, int hex) const {
  if (q.entry_cost >= 0) return q.entry_cost;
  int worst = 0;
  for (int c = 0; c < rules_.num_classes(); ++c) {
    if (!((q.classes >> c) & 1u)) continue;
    const int w = EntryCost(map_, rules_, c, hex);
    if (w < 0) return kProhibitedCost;
    worst = std::max(worst, w);
  }
  return worst;
}

// The working state of one Search: raw pointers into the Reachable and the
// bucket lists (stores through uint8_t would otherwise force reloading vector
// internals), and the steps of Dial's algorithm.
//
// The start (when there is one) is settled and expanded before the drain
// (SettleStart: Dial pops it first anyway, as the only seed), so every hex the
// drain pops is not the start and its rules need no `h == start` test: it must
// stop if in an EZOC of a stop-on-entry game, it is left at its cost plus
// leave_cost if in an EZOC it may leave, and may end the move if its friendly
// count allows. The query's optional arrays are read through pointers that are
// never null (Pathfinder::zeros_ stands for a missing one).
template <typename S>
struct Pathfinder::Run {
  Run(Pathfinder& pf, const MoveQuery& query, const S* step_table)
      : q(query),
        map(pf.map_),
        gen(pf.reach_.generation_),
        node(pf.reach_.node_.data()),
        flags(pf.reach_.flags_.data()),
        order(pf.reach_.order_.data()),
        steps(step_table),
        zr((query.zoc && query.zoc_rules) ? query.zoc_rules : nullptr),
        ezoc(zr ? query.zoc->data() : pf.zeros_.data()),
        leave(zr ? zr->leave_cost : 0),
        enemy(query.enemy),
        over(query.overrunnable),
        start(query.start),
        stop_on_entry(zr != nullptr && zr->stop_on_entry),
        no_infiltration(zr != nullptr && zr->no_infiltration),
        // An EZOC hex other than the start is never left under these rules.
        ezoc_expands(zr != nullptr && !zr->stop_on_entry && !zr->rigid && !zr->leave_only_if_started),
        friendly(query.stack_limit > 0 && query.friendly_count ? query.friendly_count : pf.zeros_.data()),
        room(query.stack_limit > 0 && query.friendly_count ? query.stack_limit - query.moving_count
                                                           : std::numeric_limits<int>::max()),
        key(pf.reach_.key_.data()),
        settled_key(static_cast<uint64_t>(~gen) << 32),
        queued_max(settled_key | 0xffffffffu),
        bound(settled_key + static_cast<uint64_t>(std::clamp<int64_t>(int64_t{query.allowance} + 2, 1,
                                                                      queued_max - settled_key))) {}

  // The query's scalars are copied into the Run (start, stop_on_entry, ...): read
  // through the MoveQuery reference they would be reloaded after every store into
  // the int arrays, which might alias them.
  // friendly_count[h] + moving_count <= stack_limit, as friendly_count[h] <= room.
  bool CanEnd(int h) const { return friendly[h] <= room; }
  bool BlockedByEnemy(int n) const { return enemy && enemy[n] && !(over && over[n]); }
  bool UsableEntry(int e) const { return e >= 0 && e < map.size() && !BlockedByEnemy(e); }

  // Circular buckets: every queued cost lies in [cur, cur + k), k a power of two.
  // Each bucket is a stack of entries (entry_node, entry_next) taken from a pool;
  // lowering a queued hex's cost pushes a new entry and leaves the old one behind
  // (lazy deletion: Drain skips an entry whose hex is already settled). A hex's
  // cost is lowered only to a different bucket, so the live entries are popped in
  // the order a doubly linked list with unlinking gave (the same search, fewer stores).
  void InitBuckets(Pathfinder& pf, int max_step, int max_seed) {
    int k = 1;
    while (k <= std::max(max_step + leave, max_seed)) k *= 2;
    mask = k - 1;
    if (static_cast<int>(pf.head_.size()) < k) pf.head_.resize(static_cast<size_t>(k));
    std::fill(pf.head_.begin(), pf.head_.begin() + k, -1);  // the last search's stale entries
    entry_node = pf.entry_node_.data();
    entry_next = pf.entry_next_.data();
    head = pf.head_.data();
  }
  // Queues n at cost c; `fresh`: n was not queued before (a lowered cost is not counted again).
  void Link(int n, int c, bool fresh) {
    const int b = c & mask;
    const int e = entries++;
    entry_node[e] = n;
    entry_next[e] = head[b];
    head[b] = e;
    queued += fresh ? 1 : 0;
  }
  // A hex's search state is one word, key[n] = (~generation) << 32 | (settled ? 0 :
  // queued cost + 1), generation that of the last search to reach it: an offer
  // (~gen) << 32 | (c + 1) is better iff it is smaller (a hex of an older search has a
  // larger word), one load and one test where a stamp, flags and a cost took three
  // loads and two. A hex an enemy blocks has the word 0 (Pathfinder::Block), below
  // every offer; a settled hex has settled_key, which is also how the Reachable tells
  // the hexes reached. The predecessor is written when an offer is taken, the cost and
  // flags once, when the hex is settled (Settle).
  //
  // Offers cost c to hex n from `from` (queues it or lowers its queued cost).
  void Relax(int n, int c, int from) {
    const uint64_t offer = settled_key | static_cast<uint32_t>(c + 1);
    const uint64_t was = key[static_cast<size_t>(n)];
    if (offer < was) Queue(n, c, from, offer, was);
  }
  // Relax's stores, once the offer is taken: `was` is n's word before.
  void Queue(int n, int c, int from, uint64_t offer, uint64_t was) {
    const size_t un = static_cast<size_t>(n);
    key[un] = offer;
    node[un].pred = from;
    Link(n, c, was > queued_max);
  }
  bool Settled(int h) const { return key[static_cast<size_t>(h)] == settled_key; }
  // Marks h settled at cost c with flags f, in the search's word and in the Reachable.
  void Settle(int h, int c, uint8_t f) {
    const size_t uh = static_cast<size_t>(h);
    key[uh] = settled_key;
    node[uh].cost = c;
    flags[uh] = f;
    order[order_size++] = h;
  }
  // Offers each neighbour of h (settled) the cost base + the step's: base is h's cost
  // plus any cost to leave its EZOC; `infiltration`: not into another EZOC.
  // One test per direction: the offer is below both the neighbour's word and `bound`
  // (the word of cost allowance + 1). A prohibited step leads back to h, settled, and a
  // blocked hex has the word 0, so the word refuses both; the bound refuses a step
  // beyond the allowance. (The cost's sign, the occupancy and the allowance were three
  // data-dependent branches per direction, the search's most mispredicted.)
  void Expand(int h, int base, bool infiltration) {
    const S* s6 = steps + static_cast<size_t>(h) * 6;
    const uint64_t* const kh = key + h;  // the words, from h's
    const uint64_t offer0 = settled_key + static_cast<uint64_t>(base) + 1;
    if (infiltration) {  // rare: from an EZOC hex (the start, in S&B) under no_infiltration
      for (int d = 0; d < kNumDirections; ++d) {
        const S s = s6[d];
        const uint64_t offer = offer0 + s.cost;
        const uint64_t was = kh[s.offset];
        if (offer < std::min(was, bound) && !ezoc[h + s.offset]) Queue(h + s.offset, base + s.cost, h, offer, was);
      }
      return;
    }
    // Unrolled: each direction's test is a branch of its own (its history predicts it
    // better than one shared branch). Computing the six tests first and queuing the
    // set bits of a mask mispredicted less in callgrind's model but took 11% more
    // instructions and more time.
#pragma GCC unroll 6
    for (int d = 0; d < kNumDirections; ++d) {
      const S s = s6[d];
      const uint64_t offer = offer0 + s.cost;
      const uint64_t was = kh[s.offset];
      if (offer < std::min(was, bound)) Queue(h + s.offset, base + s.cost, h, offer, was);
    }
  }
  // Whether the start is left, as an EZOC hex if it began in one (q.started_in_ezoc).
  bool StartInEzoc() const { return zr != nullptr && q.started_in_ezoc; }
  bool StartLeft() const { return !StartInEzoc() || !zr->rigid; }
  // The start: settled first, at cost 0, never must-stop and always a place to end.
  void SettleStart() {
    node[static_cast<size_t>(start)].pred = -1;
    Settle(start, 0, Reachable::kSettled | Reachable::kCanEnd);
    if (!StartLeft()) return;
    const bool in_ezoc = StartInEzoc();
    Expand(start, in_ezoc ? leave : 0, in_ezoc && no_infiltration);
  }
  // Settles the queued hexes in cost order (none of them is the start).
  void Drain() {
    for (int cur = 0; queued > 0; ++cur) {
      int32_t* const bucket = head + (cur & mask);
      for (int e = *bucket; e >= 0; e = *bucket) {
        *bucket = entry_next[e];
        const int h = entry_node[e];
        if (Settled(h)) continue;  // left behind by a lowered cost
        --queued;
        const bool in_ezoc = ezoc[h] != 0;
        const bool stop = in_ezoc && stop_on_entry;
        Settle(h, cur, static_cast<uint8_t>(Reachable::kSettled | (stop ? Reachable::kMustStop : 0) |
                                            (CanEnd(h) ? Reachable::kCanEnd : 0)));
        if (!in_ezoc) {
          Expand(h, cur, false);
        } else if (ezoc_expands) {
          Expand(h, cur + leave, no_infiltration);
        }
      }
    }
  }
  // Reaches n at cost c beyond the allowance (a minimum-one-hex move): settled, must stop.
  void ReachBeyond(int n, int c, int from) {
    node[static_cast<size_t>(n)].pred = from;
    Settle(n, c, static_cast<uint8_t>(Reachable::kSettled | Reachable::kMustStop |
                                      (n == start || CanEnd(n) ? Reachable::kCanEnd : 0)));
  }
  // A minimum-one-hex move from the start: each neighbour not reached, whatever its step costs.
  void ExpandBeyond() {
    if (!StartLeft()) return;
    const bool in_ezoc = StartInEzoc();
    const bool infiltration = in_ezoc && no_infiltration;
    const int base = in_ezoc ? leave : 0;
    const S* s6 = steps + static_cast<size_t>(start) * 6;
    for (int d = 0; d < kNumDirections; ++d) {
      const S s = s6[d];
      if (s.cost == S::kNone) continue;
      const int n = start + s.offset;
      if (BlockedByEnemy(n)) continue;
      if (infiltration && ezoc[n]) continue;
      if (key[static_cast<size_t>(n)] != settled_key) ReachBeyond(n, base + s.cost, start);
    }
  }

  const MoveQuery& q;
  const Map& map;
  const uint32_t gen;
  Reachable::Node* const node;
  uint8_t* const flags;
  int* const order;
  int order_size = 0;
  const S* const steps;  // the table's steps, per (hex * 6 + dir)
  const ZocRules* const zr;
  const uint8_t* const ezoc;  // the query's EZOC bytes, or zeros
  const int leave;
  const uint8_t* const enemy;
  const uint8_t* const over;
  const int start;
  const bool stop_on_entry, no_infiltration, ezoc_expands;
  const uint8_t* const friendly;  // the query's friendly_count if it has a stacking limit, else zeros
  const int room;                 // friendly[h] <= room: the move may end in h
  uint64_t* const key;            // Reachable::key_: per hex, its word (Relax)
  const uint64_t settled_key;     // a hex's word once settled in this search: (~gen) << 32
  const uint64_t queued_max;      // the largest word of this search (a larger one is older)
  // The word of cost allowance + 1: an offer must be below it. Clamped: a negative
  // allowance takes no step (every offer is above settled_key + 1), and the word stays
  // in this search's range.
  const uint64_t bound;
  int mask = 0;
  int32_t* entry_node = nullptr;  // Pathfinder::entry_node_, entry_next_
  int32_t* entry_next = nullptr;
  int32_t* head = nullptr;
  int entries = 0;  // pool entries used
  int queued = 0;   // hexes queued and not settled
};

// Gives the word 0 (below any offer of any search: Run::Relax refuses it as it
// refuses a settled hex) to exactly the hexes `enemy` blocks (Run::BlockedByEnemy),
// so the search's direction loop reads no occupancy. The marks outlive the search:
// the enemy and overrunnable bytes are compared with those of the last build, and
// only a change rebuilds them (the queries of one listing share one occupancy).
// The scan reads the enemy array eight bytes at a time (most words have no enemy).
void Pathfinder::Block(const uint8_t* enemy, const uint8_t* over) {
  const size_t n = static_cast<size_t>(map_.size());
  if (blocked_valid_ &&
      (enemy == nullptr ? blocked_enemy_null_
                        : !blocked_enemy_null_ && (over == nullptr) == blocked_over_null_ &&
                              std::memcmp(enemy, blocked_enemy_.data(), n) == 0 &&
                              (over == nullptr || std::memcmp(over, blocked_over_.data(), n) == 0))) {
    return;
  }
  uint64_t* const key = reach_.key_.data();
  for (int32_t h : blocked_) key[h] = ~uint64_t{0};
  blocked_.clear();
  blocked_valid_ = true;
  blocked_enemy_null_ = enemy == nullptr;
  blocked_over_null_ = over == nullptr;
  if (enemy == nullptr) return;
  std::memcpy(blocked_enemy_.data(), enemy, n);
  if (over != nullptr) std::memcpy(blocked_over_.data(), over, n);
  auto block = [&](size_t h) {
    if (over != nullptr && over[h]) return;
    key[h] = 0;
    blocked_.push_back(static_cast<int32_t>(h));  // capacity n: no allocation
  };
  constexpr uint64_t kLow7 = 0x7f7f7f7f7f7f7f7full, kHigh = 0x8080808080808080ull;
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t w;
    std::memcpy(&w, enemy + i, sizeof w);
    // The top bit of each byte that is nonzero.
    for (uint64_t nonzero = (((w & kLow7) + kLow7) | w) & kHigh; nonzero != 0; nonzero &= nonzero - 1) {
      block(i + static_cast<size_t>(std::countr_zero(nonzero)) / 8);
    }
  }
  for (; i < n; ++i) {
    if (enemy[i]) block(i);
  }
}

const Reachable& Pathfinder::Search(const MoveQuery& q) {
  const Table& table = TableFor(q.classes);
  if (table.steps.empty()) {
    SearchWith(q, table, table.wide_steps.data());
  } else {
    SearchWith(q, table, table.steps.data());
  }
  return reach_;
}

template <typename S>
void Pathfinder::SearchWith(const MoveQuery& q, const Table& table, const S* steps) {
  Reachable& R = reach_;
  if (++R.generation_ == 0xffffffffu) {
    std::fill(R.key_.begin(), R.key_.end(), ~uint64_t{0});
    R.generation_ = 1;
    blocked_.clear();  // their words are reset too
    blocked_valid_ = false;
  }
  R.settled_ = static_cast<uint64_t>(~R.generation_) << 32;
  Block(q.enemy, q.overrunnable);
  // The start is searched from even if an enemy blocks it: its word becomes this
  // search's, so the next search rebuilds the marks.
  if (q.start >= 0 && R.key_[static_cast<size_t>(q.start)] == 0) blocked_valid_ = false;
  start_ = q.start;
  const size_t pool = 6 * static_cast<size_t>(map_.size()) + q.entry_hexes.size() + 1;  // Run::Link's bound
  if (entry_node_.size() < pool) {
    entry_node_.resize(pool);
    entry_next_.resize(pool);
  }
  Run<S> run(*this, q, steps);
  // Seeds.
  int max_seed = 0;
  if (q.start < 0) {
    for (int e : q.entry_hexes) {
      if (!run.UsableEntry(e)) continue;
      const int c = EntryCostFor(q, e);
      if (c >= 0) max_seed = std::max(max_seed, c);
    }
  }
  run.InitBuckets(*this, table.max_cost, max_seed);
  if (q.start >= 0) {
    run.SettleStart();
  } else {
    for (int e : q.entry_hexes) {
      if (!run.UsableEntry(e)) continue;
      const int c = EntryCostFor(q, e);
      if (c >= 0 && c <= q.allowance) run.Relax(e, c, -1);
    }
  }
  run.Drain();
  if (q.minimum_one_hex) {
    if (q.start >= 0) {
      run.ExpandBeyond();
    } else {
      for (int e : q.entry_hexes) {
        if (!run.UsableEntry(e)) continue;
        const int c = EntryCostFor(q, e);
        if (c < 0 || run.key[static_cast<size_t>(e)] == run.settled_key) continue;
        run.ReachBeyond(e, c, -1);
      }
    }
  }
  R.order_size_ = run.order_size;
}

std::vector<int> Pathfinder::Path(int hex) const {
  std::vector<int> out;
  if (hex < 0 || hex >= map_.size() || !reach_.Reached(hex)) return out;
  for (int h = hex; h >= 0 && h != start_; h = reach_.Predecessor(h)) out.push_back(h);
  std::reverse(out.begin(), out.end());
  return out;
}

PathCheck Pathfinder::CheckPath(const MoveQuery& q, std::span<const int> path,
                                const MoveRuleLabels& labels) const {
  PathCheck r;
  auto fail = [&r](size_t i, std::string message, const std::string& rule) {
    r.ok = false;
    r.failed_step = static_cast<int>(i);
    r.message = std::move(message);
    r.rule = rule;
    return r;
  };
  const ZocRules* zr = (q.zoc && q.zoc_rules) ? q.zoc_rules : nullptr;
  auto in_ezoc = [&](int h) { return zr && q.zoc->InEzoc(h); };
  // The search's cost table for these classes, if built (TableFor: StepCostFor of every
  // step); the message of a prohibited step is still worked out by StepCostFor.
  const int16_t* table = nullptr;
  for (const Table& t : tables_) {
    if (t.classes == q.classes) {
      table = t.cost.data();
      break;
    }
  }
  int prev = q.start;
  int cost = 0;
  for (size_t i = 0; i < path.size(); ++i) {
    const int h = path[i];
    if (h < 0 || h >= map_.size()) return fail(i, "step " + std::to_string(i) + ": not a hex of the map", labels.adjacency);
    // Labels only for a refusal's message (formatting them per step was a hot spot).
    auto hl = [&] { return map_.Label(h); };
    int w = 0;
    if (prev < 0) {
      if (std::find(q.entry_hexes.begin(), q.entry_hexes.end(), h) == q.entry_hexes.end()) {
        return fail(i, "hex " + hl() + " is not an entry hex", labels.entry);
      }
      w = EntryCostFor(q, h);
      if (w < 0) {
        std::string why = "hex " + hl() + ": cannot be entered from off the map";
        for (int c = 0; c < rules_.num_classes(); ++c) {
          if (((q.classes >> c) & 1u) && EntryCost(map_, rules_, c, h) < 0) {
            why = "hex " + hl() + ": " + "prohibited to " + rules_.classes[static_cast<size_t>(c)];
            break;
          }
        }
        return fail(i, why, labels.prohibited);
      }
    } else {
      auto pl = [&] { return map_.Label(prev); };
      const int d = DirectionTo(map_.grid.HexAt(prev), map_.grid.HexAt(h));
      if (d < 0) return fail(i, pl() + " and " + hl() + " are not adjacent", labels.adjacency);
      const bool at_start = i == 0;
      const bool prev_ezoc = at_start ? (zr && q.started_in_ezoc) : in_ezoc(prev);
      if (!at_start && prev_ezoc && zr->stop_on_entry) {
        return fail(i, "hex " + pl() + ": must stop on entering an enemy zone of control",
                    labels.zoc_stop);
      }
      if (prev_ezoc) {
        if (zr->rigid || (zr->leave_only_if_started && !(at_start && q.started_in_ezoc))) {
          return fail(i, "hex " + pl() + ": cannot leave an enemy zone of control", labels.zoc_leave);
        }
        if (zr->no_infiltration && in_ezoc(h)) {
          return fail(i, "hex " + hl() + ": cannot move directly from one enemy zone of control to another",
                      labels.infiltration);
        }
        w += zr->leave_cost;
      }
      int s = table != nullptr ? table[static_cast<size_t>(prev) * 6 + static_cast<size_t>(d)] : -1;
      if (s < 0) {
        std::string why;
        s = StepCostFor(q.classes, prev, d, &why);
        if (s < 0) return fail(i, why, labels.prohibited);
      }
      w += s;
    }
    if (q.enemy && q.enemy[h] && !(q.overrunnable && q.overrunnable[h])) {
      return fail(i, "hex " + hl() + " is occupied by the enemy", labels.enemy);
    }
    cost += w;
    prev = h;
  }
  const bool minimum_move = q.minimum_one_hex && path.size() == 1;
  if (cost > q.allowance && !minimum_move) {
    return fail(path.size() - 1,
                "insufficient movement points: path costs " + FormatHalfPoints(cost) +
                    ", allowance " + FormatHalfPoints(q.allowance),
                labels.allowance);
  }
  if (!path.empty() && q.friendly_count && q.stack_limit > 0) {
    const int last = path.back();
    if (last != q.start && q.friendly_count[last] + q.moving_count > q.stack_limit) {
      return fail(path.size() - 1,
                  "hex " + map_.Label(last) + ": stacking limit of " +
                      std::to_string(q.stack_limit) + " exceeded",
                  labels.stacking);
    }
  }
  r.ok = true;
  r.cost = cost;
  return r;
}

// --- Boost.Graph reference -----------------------------------------------------

struct ReferenceGraph::Impl {
  using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS, boost::no_property,
                                      boost::property<boost::edge_weight_t, int>>;
  Impl(const Pathfinder& p, const MoveQuery& query)
      : pf(&p), q(query), g(static_cast<size_t>(p.map().size()) + 1), n(p.map().size()) {}
  const Pathfinder* pf;
  MoveQuery q;
  Graph g;  // vertex n is the source
  int n;
  std::vector<int> dist;
  std::vector<Graph::vertex_descriptor> pred;

  bool Ezoc(int h) const { return q.zoc && q.zoc_rules && q.zoc->InEzoc(h); }
  bool Enemy(int h) const {
    return q.enemy && q.enemy[h] && !(q.overrunnable && q.overrunnable[h]);
  }
  void Seed(int start);
  void Collect(int start, int bound, std::vector<int>* costs) const;
  // Adds the out-edges of hex h to vertex `from` (h itself or the source vertex).
  void AddOutEdges(int h, int from, bool h_ezoc, bool at_start) {
    const ZocRules* zr = (q.zoc && q.zoc_rules) ? q.zoc_rules : nullptr;
    int extra = 0;
    if (h_ezoc) {
      if (zr->rigid || (zr->leave_only_if_started && !at_start)) return;
      extra = zr->leave_cost;
    }
    for (int d = 0; d < kNumDirections; ++d) {
      const int w = pf->StepCostFor(q.classes, h, d);
      if (w < 0) continue;
      const int to = pf->map().grid.NeighborIndex(h, d);
      if (Enemy(to)) continue;
      if (h_ezoc && zr->no_infiltration && Ezoc(to)) continue;
      boost::add_edge(static_cast<size_t>(from), static_cast<size_t>(to), w + extra, g);
    }
  }
};

ReferenceGraph::ReferenceGraph(const Pathfinder& pf, const MoveQuery& q)
    : impl_(std::make_unique<Impl>(pf, q)) {
  Impl& m = *impl_;
  const bool stop = q.zoc && q.zoc_rules && q.zoc_rules->stop_on_entry;
  for (int h = 0; h < m.n; ++h) {
    if (stop && m.Ezoc(h)) continue;  // terminal
    m.AddOutEdges(h, h, m.Ezoc(h), /*at_start=*/false);
  }
  m.dist.resize(static_cast<size_t>(m.n) + 1);
  m.pred.resize(static_cast<size_t>(m.n) + 1);
}

ReferenceGraph::~ReferenceGraph() = default;

namespace {
// Thrown by the bounded search's visitor to stop dijkstra_shortest_paths at the bound
// (the Boost.Graph documentation's way to end a search early).
struct BoundReached {};

struct StopAtBound : boost::default_dijkstra_visitor {
  StopAtBound(const int* d, int b) : dist(d), bound(b) {}
  template <typename Vertex, typename Graph>
  void examine_vertex(Vertex v, const Graph&) const {
    if (dist[v] > bound) throw BoundReached{};
  }
  const int* dist;
  int bound;
};
}  // namespace

// Points the source vertex (index n) at the start hex or the entry hexes.
void ReferenceGraph::Impl::Seed(int start) {
  const size_t src = static_cast<size_t>(n);
  boost::clear_vertex(src, g);
  if (start >= 0) {
    const bool started = start == q.start ? (q.zoc && q.zoc_rules && q.started_in_ezoc) : Ezoc(start);
    AddOutEdges(start, n, started, /*at_start=*/true);
    return;
  }
  for (int e : q.entry_hexes) {
    if (e < 0 || e >= n || Enemy(e)) continue;
    int c = q.entry_cost;
    if (c < 0) {
      c = 0;
      for (int k = 0; k < pf->rules().num_classes(); ++k) {
        if (!((q.classes >> k) & 1u)) continue;
        const int w = EntryCost(pf->map(), pf->rules(), k, e);
        c = (w < 0 || c < 0) ? -1 : std::max(c, w);
      }
    }
    if (c >= 0) boost::add_edge(src, static_cast<size_t>(e), c, g);
  }
}

// Copies the settled distances (at most `bound`) into costs.
void ReferenceGraph::Impl::Collect(int start, int bound, std::vector<int>* costs) const {
  costs->assign(static_cast<size_t>(n), -1);
  for (int h = 0; h < n; ++h) {
    const int d = dist[static_cast<size_t>(h)];
    if (d != std::numeric_limits<int>::max() && d <= bound) (*costs)[static_cast<size_t>(h)] = d;
  }
  if (start >= 0) (*costs)[static_cast<size_t>(start)] = 0;
}

void ReferenceGraph::Run(int start, std::vector<int>* costs) {
  Impl& m = *impl_;
  m.Seed(start);
  boost::dijkstra_shortest_paths(m.g, static_cast<size_t>(m.n),
                                 boost::predecessor_map(m.pred.data()).distance_map(m.dist.data()));
  m.Collect(start, std::numeric_limits<int>::max() - 1, costs);
}

void ReferenceGraph::RunBounded(int start, int bound, std::vector<int>* costs) {
  Impl& m = *impl_;
  m.Seed(start);
  try {
    boost::dijkstra_shortest_paths(m.g, static_cast<size_t>(m.n),
                                   boost::predecessor_map(m.pred.data())
                                       .distance_map(m.dist.data())
                                       .visitor(StopAtBound(m.dist.data(), bound)));
  } catch (const BoundReached&) {
    // Every vertex still queued costs more than the bound: the search is complete.
  }
  m.Collect(start, bound, costs);
}

std::vector<int> ReferenceCosts(const Pathfinder& pf, const MoveQuery& q) {
  ReferenceGraph graph(pf, q);
  std::vector<int> costs;
  graph.Run(q.start, &costs);
  for (int& c : costs) {
    if (c > q.allowance) c = -1;
  }
  return costs;
}

}  // namespace wg
