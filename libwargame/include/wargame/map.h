// Map: a compiled hex map. Terrain per hex and features per hexside are small
// bit sets whose names come from the ruleset (the core names none of them);
// places (houses, objectives, HQs, entry areas, ferries) are named hex sets.
//
// The arrays are dense and indexed by HexGrid index, so the movement search,
// zone-of-control and line-of-sight code read them without hashing.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "wargame/board.h"
#include "wargame/error.h"
#include "wargame/game.h"
#include "wargame/hex.h"

namespace wg {

using TerrainMask = uint32_t;  // bit i: terrain type i (at most 32 types)
using FeatureMask = uint32_t;  // bit i: hexside feature i (at most 32 types)
inline constexpr int kMaxTerrainTypes = 32;
inline constexpr int kMaxFeatureTypes = 32;
inline constexpr uint8_t kAllDirections = 0x3F;

// What the ruleset calls things. The map file may only use these names.
struct MapVocabulary {
  std::vector<std::string> terrain;   // hex terrain types: clear, woods, city...
  std::vector<std::string> features;  // hexside features: creek, river, slope, road, trail...
  // Features that have a side: slope (its upslope hex), redoubt (the hex it
  // protects). Subset of `features`.
  std::vector<std::string> directed;
  // Features given in the map as paths through hexes (roads, trails): each
  // consecutive pair of hexes in a path marks the hexside between them.
  // Subset of `features`.
  std::vector<std::string> paths;
  std::vector<std::string> place_kinds;  // objective, house, army_hq, entry, ferry...
  std::string default_terrain;           // terrain of hexes the map does not list
};

// Place (a named set of hexes: a house, an objective, an army HQ, an entry
// area) is the core's (board.h): victory conditions and events name places.

struct Map {
  std::string file;        // where it was loaded from
  std::string name;
  std::string provenance;  // source of the data, or "reconstruction: ..."
  HexGrid grid;
  MapVocabulary vocabulary;

  std::vector<TerrainMask> terrain;  // per hex
  // Per (hex, direction), index hex * 6 + dir: the features on that hexside.
  // Stored on both hexes, so the two entries of one hexside agree.
  std::vector<FeatureMask> sides;
  // Per (hex, direction): directed features on that hexside whose designated
  // hex (upslope hex, protected hex) is the neighbour in that direction, i.e.
  // crossing from `hex` in `dir` moves toward the designated side.
  std::vector<FeatureMask> toward;
  // Per hex: directions (bit d = moving in direction d) in which a unit may
  // enter / leave the hex. kAllDirections unless restricted (ferries).
  std::vector<uint8_t> enter_dirs;
  std::vector<uint8_t> exit_dirs;
  std::vector<Place> places;

  int size() const { return grid.size(); }
  // Ids by name; -1 if unknown.
  int TerrainId(const std::string& name) const;
  int FeatureId(const std::string& name) const;
  TerrainMask TerrainBit(const std::string& name) const {
    const int id = TerrainId(name);
    return id < 0 ? 0u : (1u << id);
  }
  FeatureMask FeatureBit(const std::string& name) const {
    const int id = FeatureId(name);
    return id < 0 ? 0u : (1u << id);
  }
  bool HasTerrain(int hex, int terrain_id) const {
    return (terrain[static_cast<size_t>(hex)] >> terrain_id) & 1u;
  }
  FeatureMask Side(int hex, int dir) const {
    return sides[static_cast<size_t>(hex) * 6 + static_cast<size_t>(dir)];
  }
  FeatureMask Toward(int hex, int dir) const {
    return toward[static_cast<size_t>(hex) * 6 + static_cast<size_t>(dir)];
  }
  // Union of the features on the hex's six sides (e.g. "has a road").
  FeatureMask SidesOf(int hex) const;
  // The place with this name, or nullptr.
  const Place* FindPlace(const std::string& name) const;
  // All places of a kind.
  std::vector<const Place*> PlacesOfKind(const std::string& kind) const;
  // Grid index for a label, -1 if malformed or off the map.
  int Index(const std::string& label) const { return grid.IndexOfLabel(label); }
  std::string Label(int hex) const { return grid.Label(hex); }
};

// Loads a map file. The vocabulary normally comes from the ruleset; when it is
// null the map file must declare its own under `vocabulary:` (test maps do).
// Every problem is reported as "file:line:col: key.path: message" and no
// partial map is returned. The format is documented in docs/map-format.md.
Result<Map> LoadMap(const std::string& path, const MapVocabulary* vocabulary = nullptr);
Result<Map> LoadMapFromString(const std::string& text, const std::string& name,
                              const MapVocabulary* vocabulary = nullptr);

struct StackingRules {
  int limit = 2;  // units that count, per hex, at the checkpoints
};

// The board of a hex game (board.h): its map and how many units a hex holds. A
// hex game has one (HexBoardOf(game), game.hex_board()); a tabletop game has a
// Table (tabletop.h) instead.
struct HexBoard : Board {
  Map map;
  StackingRules stacking;

  HexBoard() : Board(&kBoardKey<HexBoard>) {}
  int size() const override { return map.size(); }
  bool indexed() const override { return true; }
  std::string Label(int hex) const override { return map.Label(hex); }
  int Index(std::string_view label) const override { return map.Index(std::string(label)); }
  const std::vector<Place>& places() const override { return map.places; }
};

// An empty hex board: no hexes, so no hex index is on it.
const HexBoard& EmptyHexBoard();
// The hex game's board; the empty board for a game without one (a tabletop).
inline const HexBoard& HexBoardOf(const Game& game) {
  const HexBoard* b = game.board<HexBoard>();
  return b != nullptr ? *b : EmptyHexBoard();
}
inline bool HasHexBoard(const Game& game) { return game.board<HexBoard>() != nullptr; }
// The game's hex board, made empty first if the game has none (for loaders); a
// table the game had is gone.
inline HexBoard& MutableHexBoard(Game& game) {
  if (HexBoard* b = game.mutable_board<HexBoard>()) return *b;
  return game.SetBoard(std::make_unique<HexBoard>());
}

}  // namespace wg
