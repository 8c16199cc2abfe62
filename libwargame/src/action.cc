#include "wargame/action.h"

#include <array>

namespace wg {

namespace {
constexpr std::array<std::string_view, kNumActionTypes> kNames = {
    "end", "move", "enter", "mode", "attack", "bombard", "loss", "stand", "retreat",
    "advance", "choose", "detach", "recombine", "destroy", "convert", "reduce_odds",
    "custom", "concede"};
}  // namespace

std::string_view ActionTypeName(ActionType t) { return kNames[static_cast<size_t>(t)]; }

int ActionTypeFromName(std::string_view name) {
  for (size_t i = 0; i < kNames.size(); ++i) {
    if (kNames[i] == name) return static_cast<int>(i);
  }
  return -1;
}

bool Action::operator==(const Action& o) const {
  if (type != o.type || num_units != o.num_units || num_hexes != o.num_hexes ||
      value != o.value || value2 != o.value2) {
    return false;
  }
  for (int i = 0; i < num_units; ++i) {
    if (units[static_cast<size_t>(i)] != o.units[static_cast<size_t>(i)]) return false;
  }
  for (int i = 0; i < num_hexes; ++i) {
    if (hexes[static_cast<size_t>(i)] != o.hexes[static_cast<size_t>(i)]) return false;
  }
  return true;
}

}  // namespace wg
