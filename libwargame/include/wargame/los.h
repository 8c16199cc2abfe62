// Line of sight on a hex map.
//
// LosRules says what blocks a line: hex terrain types (woods, city...), hexside
// features (a crest, a slope), and what happens when the line runs exactly
// along a hexside (wg::Line reports such a step as two hexes, `hex` and `alt`).
//
// LineOfSight is built once from a Map and LosRules and answers Clear(from, to)
// without allocating. The rules it applies, identical to a plain walk of
// wg::Line(from, to) (the tests check this on random maps):
//  - terrain in the firing hex and the target hex never blocks; units never
//    block (they are not inputs);
//  - every intermediate step with one hex blocks if that hex's terrain blocks;
//  - between two consecutive one-hex steps the line crosses the hexside between
//    them; a blocking feature there blocks (also next to the firer or target);
//  - a step along the hexside between hexes h and a (a "pair" step) applies the
//    policy, where a blocking feature on that hexside counts as being in both
//    hexes: kBlockedIfBoth blocks if (feature) or (h blocks and a blocks);
//    kBlockedIfEither blocks if (feature) or h or a blocks; kNeverBlocked never
//    blocks ("may fire along a blocking hexside, not through a blocking hex").
//    Entering and leaving a pair step goes through a hex vertex and crosses no
//    hexside;
//  - hexes off the map never block.
//
// YAML (LoadLosRules), all names from the map vocabulary:
//   blocking_terrain: [woods, city]      # required (may be [])
//   blocking_features: [crest]           # optional, default none
//   along_hexside: both | either | never # required
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "wargame/error.h"
#include "wargame/map.h"
#include "wargame/yaml_reader.h"

namespace wg {

// What a line running exactly along a hexside does (see the header comment).
enum class AlongHexside : uint8_t { kBlockedIfBoth, kBlockedIfEither, kNeverBlocked };

struct LosRules {
  TerrainMask blocking_terrain = 0;
  FeatureMask blocking_features = 0;
  AlongHexside along_hexside = AlongHexside::kBlockedIfBoth;
};

// Reads LosRules from `node` (a map with the keys above). Errors are recorded in
// `reader` and also returned.
Result<LosRules> LoadLosRules(YamlReader& reader, const YAML::Node& node, const std::string& path,
                              const MapVocabulary& vocabulary);

class LineOfSight {
 public:
  static constexpr int kDefaultMaxRadius = 24;

  // Precomputes a plan per offset up to `max_radius` (farther lines are walked
  // on the fly, still without allocating) and a blocking byte per hex.
  LineOfSight(const Map& map, const LosRules& rules, int max_radius = kDefaultMaxRadius);

  // Whether `from` sees `to` (grid indices). Symmetric for every policy.
  bool Clear(int from, int to) const;
  // Range in hexes: counts the target hex, not the firer's (the hex distance).
  int Range(int from, int to) const {
    const Hex a = hexes_[static_cast<size_t>(from)];
    const Hex b = hexes_[static_cast<size_t>(to)];
    return Distance(a, b);
  }
  // Whether the hex's own terrain blocks lines through it.
  bool TerrainBlocks(int hex) const { return (cells_[CellOf(hex)] & kTerrainBit) != 0; }
  int max_radius() const { return max_radius_; }
  const LosRules& rules() const { return rules_; }

 private:
  // A check: blocked if (cell[a] & ma) && (cell[b] & mb); a, b are cell offsets
  // relative to the firer's cell.
  struct Op {
    int32_t a;
    int32_t b;
    uint8_t ma;
    uint8_t mb;
  };
  static constexpr uint8_t kTerrainBit = 0x40;  // bits 0..5: blocking hexside in that direction

  size_t CellOf(int hex) const { return static_cast<size_t>(cell_of_[static_cast<size_t>(hex)]); }
  int CellIndex(Hex h) const;  // -1 outside the padded box
  bool ClearFar(Hex a, Hex b) const;

  LosRules rules_;
  int max_radius_ = 0;
  int width_ = 0;  // 2 * max_radius + 1
  int q0_ = 0, r0_ = 0, q_span_ = 0, r_span_ = 0;
  std::vector<Hex> hexes_;         // per grid index
  std::vector<int32_t> cell_of_;   // grid index -> cell
  std::vector<uint8_t> cells_;     // padded axial box, row-major in q then r
  std::vector<Op> ops_;
  std::vector<uint32_t> plan_;     // width_*width_ + 1 begin offsets into ops_
};

}  // namespace wg
