// Movement cost model: what it costs a unit of a given movement class to step
// from one hex into an adjacent one, compiled from the ruleset's `movement:`
// YAML section. Terrain, feature and class names all come from data.
//
// All costs are integers in HALF movement points (1 MP = 2, "1/2 MP" = 1).
//
// YAML keys read by LoadMovementRules (under the node passed in):
//   classes: [infantry, cavalry, ...]          movement classes (required, at most 16)
//   terrain_cost: {terrain: COST}              COST = number | "P" | {class: number|"P", all: ...}
//                                              a terrain not listed costs nothing extra
//   combine: max | sum                          how several terrains of one hex combine (default max)
//   hexside_cost: {feature: COST}              extra cost to cross a hexside with the feature;
//                                              the map form may add `directed: true` (cost only
//                                              when crossing toward the feature's designated side)
//   paths: {feature: {cost: COST, negates_hexside: bool, ignores_terrain: bool}}  (defaults true)
//                                              the FIRST entry is "the road" for road_like_terrain
//   path_crossing_cost: [{path: p, feature: f, cost: number}]
//   prohibited_unless_path: {class: [terrain...] | all}
//   road_like_terrain: [terrain...]
//   minimum_one_hex: bool                       (default false; the caller copies it into MoveQuery)
// Numbers must be multiples of 0.5 and not negative.
//
// Step rules (StepCost): the cheapest of
//   * along each path feature on the crossed hexside: path cost (+ hexside extras unless it
//     negates them, + terrain cost unless it ignores terrain) + path_crossing_cost entries;
//   * road-like terrain: entering a road-like hex from a hex with the first path on any side
//     or with road-like terrain costs the first path's rate plus hexside extras;
//   * ordinary movement: combined terrain cost + hexside extras; refused if the class may
//     enter that terrain (or move at all) only along a path.
// Any "P" on the way refuses that option. Ferries: map.exit_dirs / enter_dirs are honoured.
// Every allowed step costs at least 1 (half a movement point).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "wargame/error.h"
#include "wargame/map.h"
#include "wargame/yaml_reader.h"

namespace wg {

inline constexpr int kMaxMoveClasses = 16;
inline constexpr int16_t kProhibitedCost = -1;

struct MovementRules {
  struct PathRule {
    int feature = -1;
    FeatureMask bit = 0;
    std::vector<int16_t> cost;  // per class, half points or kProhibitedCost
    bool negates_hexside = true;
    bool ignores_terrain = true;
  };
  struct Crossing {
    int path = -1;  // index into `paths`
    FeatureMask features = 0;
    int16_t cost = 0;
  };

  std::vector<std::string> classes;
  bool combine_sum = false;
  // Per class, per terrain id: half points or kProhibitedCost; 0 = not listed.
  std::vector<std::array<int16_t, kMaxTerrainTypes>> terrain_cost;
  // Per class, per feature id: extra half points to cross, or kProhibitedCost.
  std::vector<std::array<int16_t, kMaxFeatureTypes>> hexside_cost;
  FeatureMask hexside_costed = 0;  // features that have an entry in hexside_cost
  FeatureMask directed_cost = 0;   // ... whose cost applies only toward the designated side
  std::vector<PathRule> paths;
  FeatureMask path_features = 0;
  std::vector<Crossing> crossings;
  std::vector<TerrainMask> path_only_terrain;  // per class
  std::vector<uint8_t> path_only_all;          // per class: may move only along paths
  TerrainMask road_like = 0;
  bool minimum_one_hex = false;

  int num_classes() const { return static_cast<int>(classes.size()); }
  // Class id by name, -1 if unknown.
  int ClassId(const std::string& name) const;
};

inline constexpr uint32_t MoveClassBit(int move_class) { return 1u << move_class; }

// Compiles the `movement:` section. Unknown terrain, feature and class names are errors.
Result<MovementRules> LoadMovementRules(YamlReader& reader, const YAML::Node& node,
                                        const std::string& path, const MapVocabulary& vocabulary);

// Cost in half points for a unit of `move_class` to move from `from` in direction `dir`
// (into the adjacent hex), or kProhibitedCost (also when the neighbour is off the map).
// When the step is refused and `why` is not null, a reason is written there, e.g.
// "hex 0304: woods prohibited to artillery".
int StepCost(const Map& map, const MovementRules& rules, int move_class, int from, int dir,
             std::string* why = nullptr);

// Cost of entering `hex` from off the map (reinforcements): the hex's terrain cost, or the
// cheapest path rate if a path feature touches the hex and the path is usable by the class.
int EntryCost(const Map& map, const MovementRules& rules, int move_class, int hex);

// "3", "7/2": half points as a printed movement-point figure.
std::string FormatHalfPoints(int half_points);

}  // namespace wg
