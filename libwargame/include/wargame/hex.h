// Hex geometry: axial/cube coordinates, directions, distance, rings, ranges,
// line drawing with hexside ties, hexside identity, and the printed XXYY labels.
//
// Conventions follow Red Blob Games' "Hexagonal Grids" guide. A Hex is an
// axial coordinate (q, r); the third cube coordinate is s = -q - r.
// Directions are numbered 0..5 in Red Blob's axial order:
//   0: (+1, 0)  1: (+1,-1)  2: (0,-1)  3: (-1, 0)  4: (-1,+1)  5: (0,+1)
// Direction d and (d + 3) % 6 are opposite. On a flat-top map these are
// SE, NE, N, NW, SW, S; on a pointy-top map E, NE, NW, W, SW, SE.
#pragma once

#include <array>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace wg {

struct Hex {
  int16_t q = 0;
  int16_t r = 0;

  constexpr Hex() = default;
  constexpr Hex(int q_, int r_) : q(static_cast<int16_t>(q_)), r(static_cast<int16_t>(r_)) {}
  constexpr int s() const { return -q - r; }

  friend constexpr bool operator==(Hex a, Hex b) { return a.q == b.q && a.r == b.r; }
  friend constexpr bool operator!=(Hex a, Hex b) { return !(a == b); }
  friend constexpr bool operator<(Hex a, Hex b) { return a.q != b.q ? a.q < b.q : a.r < b.r; }
  friend constexpr Hex operator+(Hex a, Hex b) { return Hex(a.q + b.q, a.r + b.r); }
  friend constexpr Hex operator-(Hex a, Hex b) { return Hex(a.q - b.q, a.r - b.r); }
  friend constexpr Hex operator*(Hex a, int k) { return Hex(a.q * k, a.r * k); }
};

inline constexpr int kNumDirections = 6;
inline constexpr std::array<Hex, 6> kHexDirections = {
    Hex(1, 0), Hex(1, -1), Hex(0, -1), Hex(-1, 0), Hex(-1, 1), Hex(0, 1)};

constexpr int OppositeDirection(int dir) { return (dir + 3) % 6; }
constexpr Hex Neighbor(Hex h, int dir) { return h + kHexDirections[static_cast<size_t>(dir)]; }

constexpr int Length(Hex h) {
  const int q = h.q < 0 ? -h.q : h.q;
  const int r = h.r < 0 ? -h.r : h.r;
  const int s = h.s() < 0 ? -h.s() : h.s();
  return (q + r + s) / 2;
}
constexpr int Distance(Hex a, Hex b) { return Length(a - b); }

// The least Distance from `from` to the hexes (q[k], r[k]), k < n; `none` when n is 0.
// Coordinates in two flat arrays: a loop the compiler vectorises (the AI's evaluation).
inline int NearestDistance(Hex from, const int* q, const int* r, int n, int none) {
  int best = none;
  for (int k = 0; k < n; ++k) {
    const int dq = from.q - q[k], dr = from.r - r[k], ds = dq + dr;
    const int d = ((dq < 0 ? -dq : dq) + (dr < 0 ? -dr : dr) + (ds < 0 ? -ds : ds)) / 2;
    best = d < best ? d : best;
  }
  return best;
}

// The direction from a to an adjacent hex b, or -1 if they are not adjacent. Inline,
// by a table of the 3 x 3 offsets (path checks ask it of every step).
constexpr int DirectionTo(Hex a, Hex b) {
  const int dq = b.q - a.q + 1, dr = b.r - a.r + 1;  // 0..2 for a neighbour
  if (static_cast<unsigned>(dq) > 2u || static_cast<unsigned>(dr) > 2u) return -1;
  // [dq][dr]: the index in kHexDirections of (dq - 1, dr - 1), -1 for no direction.
  constexpr int8_t kByOffset[3][3] = {{-1, 3, 4}, {2, -1, 5}, {1, 0, -1}};
  return kByOffset[dq][dr];
}

// Hexes at exactly `radius` from center, starting in direction 4 and walking
// counterclockwise as Red Blob's ring algorithm does. Radius 0 gives {center}.
std::vector<Hex> Ring(Hex center, int radius);
// All hexes within `radius` of center (inclusive), ordered by q then r.
std::vector<Hex> Range(Hex center, int radius);

// One step of a hex line. When the exact line runs along the hexside between
// two hexes, both are touched: `hex` and `alt` differ and `along_hexside` is set.
struct LineStep {
  Hex hex;
  Hex alt;
  bool along_hexside = false;
};
// The hexes on the straight line from a to b, both ends included
// (Distance(a,b)+1 steps). Red Blob's method: linear interpolation in cube
// space, rounded, computed twice with the endpoints nudged in opposite
// directions; where the two roundings disagree the line is on a hexside.
std::vector<LineStep> Line(Hex a, Hex b);
// Step i of the n-step line from a to b (n = Distance(a, b)), without allocating.
LineStep LineStepAt(Hex a, Hex b, int i, int n);
// Rounds fractional cube coordinates to the nearest hex (Red Blob's cube_round).
Hex CubeRound(double q, double r, double s);

// A hexside, canonical so that both hexes it separates name the same one:
// `hex` is the hex the side belongs to and `dir` is 0, 1 or 2.
struct Hexside {
  Hex hex;
  uint8_t dir = 0;

  static constexpr Hexside Of(Hex h, int dir) {
    return dir < 3 ? Hexside{h, static_cast<uint8_t>(dir)}
                   : Hexside{Neighbor(h, dir), static_cast<uint8_t>(dir - 3)};
  }
  // The two hexes either side of it.
  constexpr Hex first() const { return hex; }
  constexpr Hex second() const { return Neighbor(hex, dir); }
  friend constexpr bool operator==(Hexside a, Hexside b) { return a.hex == b.hex && a.dir == b.dir; }
  friend constexpr bool operator<(Hexside a, Hexside b) {
    return a.hex != b.hex ? a.hex < b.hex : a.dir < b.dir;
  }
};
// The hexside between two adjacent hexes, or nullopt if they are not adjacent.
std::optional<Hexside> HexsideBetween(Hex a, Hex b);

// --- Printed maps -----------------------------------------------------------

enum class Orientation : uint8_t { kFlatTop, kPointyTop };
// Which offset columns (flat-top) or rows (pointy-top) are shoved out by half a hex.
enum class OffsetParity : uint8_t { kOdd, kEven };
// Which pair of digits of an XXYY label is the column (left to right on the
// printed map) and which the row (top to bottom).
enum class LabelOrder : uint8_t { kColRow, kRowCol };

// How a printed hex map is numbered and drawn. Offset coordinates (col, row)
// start at 0 in the top-left; labels add `first_label` (usually 1) to each.
struct MapLayout {
  Orientation orientation = Orientation::kFlatTop;
  OffsetParity parity = OffsetParity::kOdd;
  LabelOrder label_order = LabelOrder::kColRow;
  int first_col_label = 1;
  int first_row_label = 1;
  int cols = 0;
  int rows = 0;

  Hex FromOffset(int col, int row) const;
  void ToOffset(Hex h, int* col, int* row) const;
  bool Contains(Hex h) const;
  // "XXYY" for the hex (always four digits, zero padded).
  std::string Label(Hex h) const;
  // Parses a four-digit label; nullopt if malformed. Does not check bounds.
  std::optional<Hex> Parse(std::string_view label) const;
  // Direction names in the map's own compass: flat-top N NE SE S SW NW,
  // pointy-top NE E SE SW W NW. Returns -1 for an unknown name.
  int DirectionFromName(std::string_view name) const;
  std::string_view DirectionName(int dir) const;
  // Centre of the hex in units of hex size (outer radius 1), y downwards.
  void Center(Hex h, double* x, double* y) const;
};

// A dense, precomputed view of a rectangular map: each on-map hex has an
// index in [0, size()); neighbours are looked up in a table (-1 off map).
class HexGrid {
 public:
  HexGrid() = default;
  explicit HexGrid(const MapLayout& layout);

  const MapLayout& layout() const { return layout_; }
  int size() const { return static_cast<int>(hexes_.size()); }
  // Index of a hex, or -1 if it is off the map.
  int Index(Hex h) const {
    int col, row;
    layout_.ToOffset(h, &col, &row);
    if (col < 0 || row < 0 || col >= layout_.cols || row >= layout_.rows) return -1;
    return row * layout_.cols + col;
  }
  Hex HexAt(int index) const { return hexes_[static_cast<size_t>(index)]; }
  // Neighbour index in direction dir, or -1 if off the map.
  int NeighborIndex(int index, int dir) const {
    return neighbors_[static_cast<size_t>(index) * 6 + static_cast<size_t>(dir)];
  }
  const int32_t* Neighbors(int index) const { return &neighbors_[static_cast<size_t>(index) * 6]; }
  std::string Label(int index) const { return layout_.Label(HexAt(index)); }
  // Index for a label, or -1 if malformed or off the map.
  int IndexOfLabel(std::string_view label) const;
  // Distance between two indexed hexes.
  int DistanceIdx(int a, int b) const { return Distance(HexAt(a), HexAt(b)); }
  bool OnEdge(int index) const;

 private:
  MapLayout layout_;
  std::vector<Hex> hexes_;
  std::vector<int32_t> neighbors_;
};

}  // namespace wg

template <>
struct std::hash<wg::Hex> {
  size_t operator()(wg::Hex h) const noexcept {
    return std::hash<uint32_t>()((static_cast<uint32_t>(static_cast<uint16_t>(h.q)) << 16) |
                                 static_cast<uint16_t>(h.r));
  }
};
