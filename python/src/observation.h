// Observation tensors for the Python module (docs/python.md has the layout).
//
// Hex games: a float32 tensor of shape [planes, rows, cols] over the hex grid
// (grid index = row * cols + col), from one player's point of view ("own" is
// that player's side, "other" the opponent):
//   terrain        one plane per terrain type of the map vocabulary (0/1)
//   hexsides       one plane per hexside feature: the share of the hex's six
//                  sides that have it (0, 1/6, ... 1)
//   strength       own units, own attack, own defense, other units, other
//                  attack, other defense (sums over the units in the hex,
//                  current values: markers subtracted)
//   markers        per marker type, own then other: the sum of the counts
//   zoc            hex in the zone of control of own units, of other units
//   control        hex of a tracked place last controlled by own side, by other
//   scalars        constant planes: turn / number of turns, phase / number of
//                  phases, own side is phasing, own side decides, and one plane
//                  per decision type (10, one-hot)
// Tabletop games (a map without hexes): a feature vector of shape
// [units, features + scalars] flattened to [units * per_unit + scalars]:
// per unit: in play, own, x / 100 in, y / 100 in, face, each attribute's
// current value, each marker's count, moved, attacked; then the same scalars.
#pragma once

#include <string>
#include <vector>

#include "wargame/game.h"

namespace wgpy {

struct ObservationLayout {
  bool tabletop = false;
  std::vector<int> shape;            // [planes, rows, cols] or [size]
  std::vector<std::string> names;    // one per plane (hex) or feature (tabletop)
  int size = 1;                      // product of shape
  int terrain = 0, hexsides = 0, strength = 0, markers = 0, zoc = 0, control = 0, scalars = 0;
  int per_unit = 0;                  // tabletop features per unit
};

ObservationLayout MakeLayout(const wg::Game& game);

// Writes the observation of `player` into out[0, layout.size).
void WriteObservation(const wg::Game& game, const ObservationLayout& layout, const wg::State& s,
                      wg::Context& ctx, int player, float* out);

}  // namespace wgpy
