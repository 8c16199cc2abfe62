#include "wargame/action_space.h"

#include <algorithm>

#include "wargame/error.h"

namespace wg {

namespace {

constexpr int kMoveKinds = 2;
constexpr int kFaces = 2;
constexpr int kAttackForms = 2;  // 0: one target hex or unit, 1: several target hexes
constexpr int kRulesetTargets = 16;
constexpr int kBombardVariants = 2;
constexpr int kAmounts = 9;  // 0..8 (a ruleset may list a loss of 0 steps: B&G 8.3 EX)
constexpr int kLossMarkers = 8;
constexpr int kChoices = 64;
constexpr int kColumns = 8;
constexpr int kCustomCodes = 8;
constexpr int kCustomValues = 360;  // value2 mod 360: a facing in degrees (the tabletop), a count, a place

int Mod(int v, int m) { return ((v % m) + m) % m; }
bool In(int v, int n) { return v >= 0 && v < n; }
// An amount 0..kAmounts-1 as its field, -1 if out of range.
int AmountField(int v) { return In(v, kAmounts) ? v : -1; }

}  // namespace

ActionSpace::ActionSpace(const Game& game)
    : units_(std::max(1, game.num_units())),
      positions_(game.num_positions()),
      tabletop_(game.board() == nullptr || !game.board()->indexed()) {
  if (tabletop_) positions_ = kTableCellsX * kTableCellsY;
  const int U = units_, P = positions_;
  // Targets: hexes then units on a hex map; only units on a tabletop, whose
  // moves are the only actions with a position (no entries or retreats by path).
  target_units_ = tabletop_ ? 0 : P;
  const int T = target_units_ + U, H = tabletop_ ? 0 : P;
  auto set = [&](ActionType t, int a, int b, int c) {
    segments_[static_cast<int>(t)].radix[0] = a;
    segments_[static_cast<int>(t)].radix[1] = b;
    segments_[static_cast<int>(t)].radix[2] = c;
  };
  set(ActionType::kMove, U, P, kMoveKinds);
  set(ActionType::kEnter, U, H, 1);
  set(ActionType::kChangeMode, U, kFaces, 1);
  set(ActionType::kAttack, U + 1, T, kAttackForms);
  set(ActionType::kBombard, U + 1, T + kRulesetTargets, kBombardVariants);
  set(ActionType::kLoss, U, kAmounts, kLossMarkers);
  set(ActionType::kRetreat, U, H, 1);
  set(ActionType::kAdvance, U + 1, H + 1, 1);  // the hex named (B&G 8.6), H: none
  set(ActionType::kChoice, kChoices, 1, 1);
  set(ActionType::kDetach, U, U, 1);
  set(ActionType::kRecombine, U, U, 1);
  set(ActionType::kDestroy, U, 1, 1);
  set(ActionType::kConvert, U, kAmounts, 1);
  set(ActionType::kOddsReduction, kColumns, 1, 1);
  set(ActionType::kCustom, kCustomCodes, U + 1, U + kCustomValues);
  int next = 0;
  for (int t = 0; t < kNumActionTypes; ++t) {
    start_[t] = next;
    next += SegmentSize(static_cast<ActionType>(t));
  }
  start_[kNumActionTypes] = next;
  size_ = next;
}

int ActionSpace::SegmentSize(ActionType t) const {
  const Segment& s = segments_[static_cast<int>(t)];
  return s.radix[0] * s.radix[1] * s.radix[2];
}

int ActionSpace::Destination(const Action& a) const {
  if (a.num_hexes > 0) {
    const int h = a.hexes[static_cast<size_t>(a.num_hexes - 1)];
    return !tabletop_ && In(h, positions_) ? h : -1;
  }
  if (!tabletop_) return -1;
  // A tabletop move: (value, value2) in hundredths of an inch, one-inch cells.
  const int x = Mod(a.value >= 0 ? a.value / 100 : -((-a.value + 99) / 100), kTableCellsX);
  const int y = Mod(a.value2 >= 0 ? a.value2 / 100 : -((-a.value2 + 99) / 100), kTableCellsY);
  return y * kTableCellsX + x;
}

int ActionSpace::Attacker(const Action& a) const {
  if (a.num_units == 0) return -1;
  const int attackers = a.num_hexes > 0 ? a.num_units : (a.num_units >= 2 ? a.num_units - 1 : 1);
  // A group against one target; against several hexes the first unit names it.
  if (attackers > 1 && a.num_hexes <= 1) return units_;
  return In(a.units[0], units_) ? a.units[0] : -1;
}

int ActionSpace::Target(const Action& a) const {
  if (a.num_hexes > 0) {
    const int h = a.hexes[0];
    return !tabletop_ && In(h, positions_) ? h : -1;
  }
  if (a.num_units >= 2) {
    const int u = a.units[static_cast<size_t>(a.num_units - 1)];
    return In(u, units_) ? target_units_ + u : -1;
  }
  return -1;
}

// The fields of `a` in its segment, false if they do not fit.
bool ActionSpace::Fields(const Action& a, int f[3]) const {
  const int U = units_;
  const int u0 = a.num_units > 0 && In(a.units[0], U) ? a.units[0] : -1;
  const int u1 = a.num_units > 1 && In(a.units[1], U) ? a.units[1] : -1;
  f[0] = f[1] = f[2] = 0;
  switch (a.type) {
    case ActionType::kEndPhase:
    case ActionType::kStand:
    case ActionType::kConcede:
      return true;
    case ActionType::kMove:
      f[0] = u0, f[1] = Destination(a), f[2] = a.num_hexes > 0 ? a.value : 0;
      return u0 >= 0 && f[1] >= 0 && In(f[2], kMoveKinds);
    case ActionType::kEnter:
    case ActionType::kRetreat:
      f[0] = u0, f[1] = a.num_hexes > 0 && !tabletop_ ? Destination(a) : -1;
      return u0 >= 0 && f[1] >= 0;
    case ActionType::kChangeMode:
      f[0] = u0, f[1] = a.value;
      return u0 >= 0 && In(a.value, kFaces);
    case ActionType::kAttack:
      // Attacks at voluntarily reduced odds (value < 0) are not listed: no id.
      f[0] = Attacker(a), f[1] = Target(a), f[2] = a.num_hexes > 1 ? 1 : 0;
      return f[0] >= 0 && f[1] >= 0 && a.value == 0;
    case ActionType::kBombard: {
      f[0] = Attacker(a), f[1] = Target(a), f[2] = a.value;
      if (f[1] < 0 && a.num_hexes == 0 && a.num_units <= 1) {
        // No hex and no unit: a target the ruleset names by value (a herd...).
        f[1] = target_units_ + U + Mod(a.value, kRulesetTargets), f[2] = 0;
      }
      return f[0] >= 0 && f[1] >= 0 && In(f[2], kBombardVariants);
    }
    case ActionType::kLoss:
      f[0] = u0, f[1] = AmountField(a.value), f[2] = a.value2;
      return u0 >= 0 && f[1] >= 0 && In(a.value2, kLossMarkers);
    case ActionType::kAdvance: {
      // The unit (U: declines) and, where the player names it (B&G 8.6: one of
      // several cleared hexes), the hex it advances into; H when none is named.
      const int H = tabletop_ ? 0 : positions_;
      f[0] = a.num_units == 0 ? U : u0;
      f[1] = H;
      if (a.num_hexes > 0) {
        f[1] = a.hexes[static_cast<size_t>(a.num_hexes - 1)];
        if (!In(f[1], H)) return false;
      }
      return f[0] >= 0;
    }
    case ActionType::kChoice:
      f[0] = a.value;
      return In(a.value, kChoices);
    case ActionType::kDetach:
    case ActionType::kRecombine:
      f[0] = u0, f[1] = u1;
      return u0 >= 0 && u1 >= 0;
    case ActionType::kDestroy:
      f[0] = u0;
      return u0 >= 0;
    case ActionType::kConvert:
      f[0] = u0, f[1] = AmountField(a.value);
      return u0 >= 0 && f[1] >= 0;
    case ActionType::kOddsReduction:
      f[0] = -a.value - 1;
      return In(f[0], kColumns);
    case ActionType::kCustom:
      f[0] = a.value, f[1] = a.num_units > 0 ? u0 : U;
      f[2] = a.num_units > 1 ? u1 : U + Mod(a.value2, kCustomValues);
      return In(a.value, kCustomCodes) && f[1] >= 0 && f[2] >= 0;
  }
  return false;
}

ActionId ActionSpace::Id(const Action& a) const {
  int f[3];
  if (static_cast<int>(a.type) >= kNumActionTypes || !Fields(a, f)) return kNoActionId;
  const Segment& s = segments_[static_cast<int>(a.type)];
  return start_[static_cast<int>(a.type)] + (f[0] * s.radix[1] + f[1]) * s.radix[2] + f[2];
}

ActionKey ActionSpace::Key(ActionId id) const {
  WG_CHECK(id >= 0 && id < size_, "action id out of range: " + std::to_string(id));
  int t = 0;
  while (start_[t + 1] <= id) ++t;
  const Segment& s = segments_[t];
  int rest = id - start_[t];
  ActionKey k;
  k.type = static_cast<ActionType>(t);
  k.fields[2] = rest % s.radix[2];
  rest /= s.radix[2];
  k.fields[1] = rest % s.radix[1];
  k.fields[0] = rest / s.radix[1];
  return k;
}

const Action* ActionSpace::Find(const std::vector<Action>& legal, ActionId id) const {
  for (const Action& a : legal) {
    if (Id(a) == id) return &a;
  }
  return nullptr;
}

void ActionSpace::Ids(const std::vector<Action>& legal, std::vector<ActionId>* out) const {
  out->clear();
  for (const Action& a : legal) {
    const ActionId id = Id(a);
    if (id != kNoActionId) out->push_back(id);
  }
  SortUnique(out);
}

void ActionSpace::SortUnique(std::vector<ActionId>* ids) const {
  std::vector<ActionId>& v = *ids;
  if (v.size() < 128) {
    std::sort(v.begin(), v.end());
  } else {
    // LSD radix sort on 11-bit digits: a listing of a thousand moves sorts in
    // a few microseconds (std::sort took ten times as long).
    constexpr int kBits = 11, kBuckets = 1 << kBits;
    std::vector<ActionId> tmp(v.size());
    for (int shift = 0; (size_ >> shift) > 0; shift += kBits) {
      size_t count[kBuckets + 1] = {};
      for (ActionId id : v) ++count[((id >> shift) & (kBuckets - 1)) + 1];
      for (int b = 0; b < kBuckets; ++b) count[b + 1] += count[b];
      for (ActionId id : v) tmp[count[(id >> shift) & (kBuckets - 1)]++] = id;
      v.swap(tmp);
    }
  }
  v.erase(std::unique(v.begin(), v.end()), v.end());
}

void ActionSpace::Mask(const std::vector<Action>& legal, uint8_t* mask) const {
  std::fill(mask, mask + size_, uint8_t{0});
  for (const Action& a : legal) {
    const ActionId id = Id(a);
    if (id != kNoActionId) mask[id] = 1;
  }
}

std::string ActionSpace::Describe(const Game& game, ActionId id) const {
  const ActionKey k = Key(id);
  auto unit = [&](int u) {
    return u < game.num_units() ? game.units[static_cast<size_t>(u)].id : std::string("group");
  };
  auto pos = [&](int p) {
    if (p >= positions_) return "unit " + unit(p - positions_);
    if (tabletop_ && (k.type == ActionType::kAttack || k.type == ActionType::kBombard)) return "unit " + unit(p);
    if (!tabletop_) return game.HexLabel(p);
    return std::to_string(p % kTableCellsX) + "," + std::to_string(p / kTableCellsX) + " in";
  };
  std::string s(ActionTypeName(k.type));
  const int* f = k.fields;
  switch (k.type) {
    case ActionType::kMove:
      return s + "(unit=" + unit(f[0]) + ", dest=" + pos(f[1]) + ", kind=" + std::to_string(f[2]) + ")";
    case ActionType::kEnter:
    case ActionType::kRetreat:
      return s + "(unit=" + unit(f[0]) + ", dest=" + pos(f[1]) + ")";
    case ActionType::kAttack:
    case ActionType::kBombard: {
      const std::string target = f[1] >= target_units_ + units_
                                     ? "value " + std::to_string(f[1] - target_units_ - units_)
                                     : pos(f[1]);
      return s + "(attacker=" + unit(f[0]) + ", target=" + target + ", variant=" + std::to_string(f[2]) + ")";
    }
    case ActionType::kAdvance: {
      const int H = tabletop_ ? 0 : positions_;
      return s + "(unit=" + (f[0] == units_ ? std::string("none") : unit(f[0])) +
             (f[1] < H ? ", dest=" + pos(f[1]) : std::string()) + ")";
    }
    case ActionType::kEndPhase:
    case ActionType::kStand:
    case ActionType::kConcede:
      return s;
    default:
      return s + "(" + std::to_string(f[0]) + ", " + std::to_string(f[1]) + ", " + std::to_string(f[2]) + ")";
  }
}

}  // namespace wg
