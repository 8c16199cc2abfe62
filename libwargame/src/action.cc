#include "wargame/action.h"

#include <array>

namespace wg {

namespace {
constexpr std::array<std::string_view, kNumActionTypes> kNames = {
    "end", "move", "enter", "mode", "attack", "bombard", "loss", "stand", "retreat",
    "advance", "choose", "detach", "recombine", "destroy", "convert", "reduce_odds",
    "custom", "concede"};
}  // namespace

std::string_view ActionTypeName(ActionType t) {
  const auto i = static_cast<size_t>(t);
  return i < kNames.size() ? kNames[i] : std::string_view("?");
}

std::string ActionShapeError(const Action& a, int num_units, int num_hexes) {
  if (static_cast<int>(a.type) >= kNumActionTypes) return "unknown action type";
  if (a.num_units > kMaxActionUnits) {
    return "more than " + std::to_string(kMaxActionUnits) + " units in one action";
  }
  if (a.num_hexes > kMaxActionHexes) {
    return "more than " + std::to_string(kMaxActionHexes) + " hexes in one action";
  }
  for (int i = 0; i < a.num_units; ++i) {
    const UnitId u = a.units[static_cast<size_t>(i)];
    if (u < 0 || u >= num_units) {
      return "unit id " + std::to_string(u) + " is out of range (0 to " + std::to_string(num_units - 1) + ")";
    }
    // Detach and recombine name a parent and a detachment, two roles the
    // ruleset judges (naming one unit as both breaks a rule it cites).
    const bool roles = a.type == ActionType::kDetach || a.type == ActionType::kRecombine;
    for (int j = 0; j < i && !roles; ++j) {
      if (a.units[static_cast<size_t>(j)] == u) return "names the same unit twice";
    }
  }
  for (int i = 0; i < a.num_hexes; ++i) {
    const int h = a.hexes[static_cast<size_t>(i)];
    if (h < 0 || h >= num_hexes) {
      return "hex index " + std::to_string(h) + " is out of range (0 to " + std::to_string(num_hexes - 1) + ")";
    }
  }
  return "";
}

int ActionTypeFromName(std::string_view name) {
  for (size_t i = 0; i < kNames.size(); ++i) {
    if (kNames[i] == name) return static_cast<int>(i);
  }
  return -1;
}

Action CandidateForest::Build(uint32_t i) const {
  int16_t tail[kMaxActionHexes];
  size_t n = 0;
  auto j = static_cast<int32_t>(i);
  while (link[j] >= 0 && n < static_cast<size_t>(kMaxActionHexes)) {
    tail[n++] = ends[j];
    j = link[j];
  }
  Action a = roots[static_cast<size_t>(-1 - link[j])];
  while (n > 0 && a.num_hexes < kMaxActionHexes) a.hexes[a.num_hexes++] = tail[--n];
  return a;
}

}  // namespace wg
