// Tabletop geometry for miniatures rules: measurements in inches on a
// rectangular table, unit footprints, terrain areas and line obstacles.
//
// Conventions: x runs to the east, y to the north, the origin is the
// south-west corner, so the table is [0, width] x [0, depth]. The north edge
// is y = depth, the south edge y = 0, the west edge x = 0, the east edge
// x = width. Angles are radians measured counterclockwise from east (the
// maths convention), so north is pi/2. Which edge is whose home edge is data
// (Table::home_edges).
//
// YAML (LoadTable):
//   width: 72                # inches, east-west, required, > 0
//   depth: 48                # inches, north-south, required, > 0
//   home_edges: {union: west, confederate: east}   # optional: side -> north|east|south|west
//   areas:                   # optional
//     - {name: Barn, kind: building, rect: [x, y, w, h], capacity: 20, blocks_los: true}
//       # rect: south-west corner (x, y), width w along x, height h along y
//     - {name: Woods, kind: woods, polygon: [[x, y], [x, y], [x, y]], blocks_los: true}
//   obstacles:               # optional
//     - {name: Fence, kind: fence, line: [[x1, y1], [x2, y2]], blocks_los: false}
//       # line: two or more points (a polyline)
// An area has exactly one of rect / polygon; capacity (figures) defaults to 0,
// blocks_los to false. Every coordinate must lie on the table.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "wargame/action.h"
#include "wargame/board.h"
#include "wargame/error.h"
#include "wargame/game.h"
#include "wargame/state.h"
#include "wargame/yaml_reader.h"

namespace wg {

struct Vec2 {
  double x = 0;
  double y = 0;

  friend constexpr Vec2 operator+(Vec2 a, Vec2 b) { return {a.x + b.x, a.y + b.y}; }
  friend constexpr Vec2 operator-(Vec2 a, Vec2 b) { return {a.x - b.x, a.y - b.y}; }
  friend constexpr Vec2 operator*(Vec2 a, double k) { return {a.x * k, a.y * k}; }
  friend constexpr Vec2 operator*(double k, Vec2 a) { return {a.x * k, a.y * k}; }
  friend constexpr bool operator==(Vec2 a, Vec2 b) { return a.x == b.x && a.y == b.y; }
  double Length() const { return std::hypot(x, y); }
};
constexpr double Dot(Vec2 a, Vec2 b) { return a.x * b.x + a.y * b.y; }
// z of the 3D cross product: > 0 if b is counterclockwise from a.
constexpr double Cross(Vec2 a, Vec2 b) { return a.x * b.y - a.y * b.x; }
inline double DistanceBetween(Vec2 a, Vec2 b) { return (a - b).Length(); }
// Squared distance: for comparisons in hot paths (no square root).
constexpr double DistanceSquared(Vec2 a, Vec2 b) { return Dot(a - b, a - b); }
// The unit vector at `radians` counterclockwise from east.
inline Vec2 UnitVector(double radians) { return {std::cos(radians), std::sin(radians)}; }

// --- Headings ---------------------------------------------------------------

enum class Heading : uint8_t { kN, kNE, kE, kSE, kS, kSW, kW, kNW };
inline constexpr int kNumHeadings = 8;
// Unit vector of a heading (NE is (1, 1) / sqrt 2).
Vec2 HeadingVector(Heading h);
// Angle in radians counterclockwise from east (E = 0, N = pi/2).
double HeadingAngle(Heading h);
std::string_view HeadingName(Heading h);  // "N", "NE", ...
// Accepts "N", "NE", ... and "north", "north-east"/"northeast", case-insensitive.
std::optional<Heading> ParseHeading(std::string_view name);

// --- Table edges ------------------------------------------------------------

enum class Edge : uint8_t { kNorth, kEast, kSouth, kWest };
std::string_view EdgeName(Edge e);                          // "north", ...
std::optional<Edge> ParseEdge(std::string_view name);       // "north"/"N", case-insensitive
Vec2 EdgeOutward(Edge e);                                   // unit vector pointing off that edge

// --- Segments and polygons --------------------------------------------------

struct Segment {
  Vec2 a;
  Vec2 b;
};
// Whether two closed segments share a point (touching and collinear overlap count).
bool SegmentsIntersect(Segment s, Segment t);
double PointSegmentDistance(Vec2 p, Segment s);
double SegmentSegmentDistance(Segment s, Segment t);
// The same distances squared (comparisons without a square root).
double PointSegmentDistanceSquared(Vec2 p, Segment s);
double SegmentSegmentDistanceSquared(Segment s, Segment t);
// Closed polygon (points on the boundary are inside); any simple polygon.
bool PolygonContains(const std::vector<Vec2>& polygon, Vec2 p);
// Whether the closed segment meets the closed polygon (crosses an edge or lies inside).
bool SegmentMeetsPolygon(Segment s, const std::vector<Vec2>& polygon);
// Distance from a point to the nearest part of a closed polygon (0 inside).
double DistanceToPolygon(const std::vector<Vec2>& polygon, Vec2 p);

// --- Unit footprints --------------------------------------------------------

// A unit's base: a rectangle `width` inches along its front and `depth` deep,
// centred on `center`, facing `facing` radians (the direction its front looks).
// Formation-dependent sizes come from the ruleset data; the caller passes them.
struct Footprint {
  Vec2 center;
  double facing = 0;
  double width = 0;
  double depth = 0;

  Vec2 Forward() const { return UnitVector(facing); }
  Vec2 Right() const { return {std::sin(facing), -std::cos(facing)}; }
  // Front-left, front-right, rear-right, rear-left.
  std::array<Vec2, 4> Corners() const;
  // Closed: points on the edge are inside.
  bool Contains(Vec2 p) const;
  // p in the footprint's frame: x along Right(), y along Forward().
  Vec2 ToLocal(Vec2 p) const;
  // Half the diagonal: every point of the footprint is within it of the centre.
  double Radius() const { return 0.5 * std::sqrt(width * width + depth * depth); }
  // The point of the footprint nearest to p (p itself when inside).
  Vec2 NearestPoint(Vec2 p) const;
};

// A footprint with its frame, corners and radius computed once, for the many
// overlap tests of a base sliding past the same others (C.1 of a tabletop
// ruleset). Every answer is the one Footprint's own functions give, by the same
// arithmetic: FootprintsOverlap(a, b) is FootprintsOverlap(FootprintFrame(a), FootprintFrame(b)).
struct FootprintFrame {
  Footprint base;
  Vec2 forward, right;            // base.Forward(), base.Right()
  Vec2 half_forward, half_right;  // forward * (depth / 2), right * (width / 2)
  double radius = 0;              // base.Radius()

  FootprintFrame() = default;
  explicit FootprintFrame(const Footprint& f);
  // The same frame from f and its forward vector known beforehand (`forward` must be
  // f.Forward(), e.g. from a table of whole-degree facings): no cosine or sine computed.
  // Right() is (sin, -cos) of the facing, so it is (forward.y, -forward.x) exactly.
  FootprintFrame(const Footprint& f, Vec2 forward);
  // The same base with its centre at `center` (facing and size unchanged).
  void MoveTo(Vec2 center) { base.center = center; }
  // The same base, `width` by `depth` (centre and facing unchanged): FootprintFrame
  // of that footprint, without computing the facing's vectors again.
  FootprintFrame Resized(double width, double depth) const;
  std::array<Vec2, 4> Corners() const;  // base.Corners()
  bool Contains(Vec2 p) const;          // base.Contains(p)
};
bool FootprintsOverlap(const FootprintFrame& a, const FootprintFrame& b);
// The same, b's frame computed only when the two are near enough to touch.
bool FootprintsOverlap(const FootprintFrame& a, const Footprint& b);

// Distance from a point to the nearest part of a footprint (0 inside).
double DistanceToFootprint(Vec2 p, const Footprint& f);
double DistanceToFootprintSquared(Vec2 p, const Footprint& f);
// Distance between the nearest parts of two footprints (0 if they overlap).
double FootprintDistance(const Footprint& a, const Footprint& b);
// Whether two footprints share any point (touching counts), without a square root.
bool FootprintsOverlap(const Footprint& a, const Footprint& b);
// Whether a closed segment meets the footprint (crosses it or lies inside).
bool SegmentMeetsFootprint(Segment s, const Footprint& f);
// Range as most miniatures charts measure it: from the firer's centre to the
// nearest part of the target.
inline double RangeTo(const Footprint& firer, const Footprint& target) {
  return DistanceToFootprint(firer.center, target);
}
inline bool WithinRange(const Footprint& firer, const Footprint& target, double range) {
  return RangeTo(firer, target) <= range + 1e-9;
}

// Where a firer stands relative to a target's facing. The front arc is the
// area ahead of the front edge spreading out `front_arc_degrees` beyond each
// front corner (45: the usual "45 degrees from the front corners"); the rear arc
// is the same behind the rear edge; everything else (beside the unit, or ahead
// but outside that spread) is flank. A point inside the target counts as front.
enum class Arc : uint8_t { kFront, kFlank, kRear };
Arc ArcOf(const Footprint& target, Vec2 firer, double front_arc_degrees = 45.0);
std::string_view ArcName(Arc a);

// --- The table --------------------------------------------------------------

// A terrain area: woods and fields as polygons, buildings and pens as
// rectangles (stored as their four corners, `is_rect` set).
struct TerrainArea {
  std::string name;
  std::string kind;
  std::vector<Vec2> polygon;
  bool is_rect = false;
  int capacity = 0;  // figures it can hold (buildings); 0 if not given
  bool blocks_los = false;

  bool Contains(Vec2 p) const { return PolygonContains(polygon, p); }
  bool Meets(Segment s) const { return SegmentMeetsPolygon(s, polygon); }
};

// A fence, wall or hedge: a polyline of two or more points.
struct LineObstacle {
  std::string name;
  std::string kind;
  std::vector<Vec2> points;
  bool blocks_los = false;

  bool Crosses(Segment s) const;
};

// The result of a move: where it ended and how far it went.
struct Move {
  Vec2 position;
  double moved = 0;
  bool stopped_at_edge = false;  // the move was cut short by the table edge
};

struct Table : Board {
  Table() : Board(&kBoardKey<Table>) {}
  std::string file;
  double width = 0;
  double depth = 0;
  std::map<std::string, Edge> home_edges;  // side name -> edge
  std::vector<TerrainArea> areas;
  std::vector<LineObstacle> obstacles;

  bool Contains(Vec2 p) const {
    return p.x >= 0 && p.y >= 0 && p.x <= width && p.y <= depth;
  }
  Vec2 Clamp(Vec2 p) const;
  double DistanceToEdge(Vec2 p, Edge e) const;

  // Moves a point `inches` along a direction (normalised here), stopping
  // where it would leave the table (a start off the table is clamped onto it
  // first; zero or negative inches do not move).
  Move MoveAlong(Vec2 p, Vec2 direction, double inches) const;
  Move MoveAlong(Vec2 p, Heading h, double inches) const {
    return MoveAlong(p, HeadingVector(h), inches);
  }
  // Moves up to `inches` straight toward `target`, never past it.
  Move MoveToward(Vec2 p, Vec2 target, double inches) const;
  // Moves up to `inches` straight toward an edge (a retreat); stopped_at_edge
  // says it reached the edge.
  Move MoveTowardEdge(Vec2 p, Edge e, double inches) const;
  // The same for a whole footprint (facing unchanged): it stops when any
  // corner would leave the table. Sets *moved / *at_edge if given.
  Footprint MoveFootprint(const Footprint& f, Vec2 direction, double inches,
                          double* moved = nullptr, bool* at_edge = nullptr) const;
  Footprint MoveFootprint(const FootprintFrame& f, Vec2 direction, double inches,
                          double* moved = nullptr, bool* at_edge = nullptr) const;

  // Indices of the areas containing p.
  std::vector<int> AreasAt(Vec2 p) const;
  // Indices of the areas / obstacles a straight segment meets / crosses.
  std::vector<int> AreasCrossed(Segment s) const;
  std::vector<int> ObstaclesCrossed(Segment s) const;
  // Line of sight between two points: blocked by any blocks_los area the
  // segment meets, except areas containing either endpoint, and by any
  // blocks_los obstacle it crosses.
  bool LineOfSightClear(Vec2 a, Vec2 b) const;
  const TerrainArea* FindArea(const std::string& name) const;
};

// An empty table (0 x 0 inches).
const Table& EmptyTable();
// The tabletop game's table (its board, board.h); the empty table for a game
// without one (a hex game).
inline const Table& TableOf(const Game& game) {
  const Table* t = game.board<Table>();
  return t != nullptr ? *t : EmptyTable();
}
inline bool HasTable(const Game& game) { return game.board<Table>() != nullptr; }
// Makes this a tabletop game: a hex board the game had is gone.
inline void SetTable(Game& game, Table table) { game.SetBoard(std::make_unique<Table>(std::move(table))); }

// Reads a table (keys above). Errors are recorded in `reader` and returned.
Result<Table> LoadTable(YamlReader& reader, const YAML::Node& node, const std::string& path);
Result<Table> LoadTableFromString(const std::string& text, const std::string& name);
Result<Table> LoadTableFile(const std::string& file);

// --- The queries a tabletop game answers --------------------------------------

// What a program asks of a game played on a table measured in inches, the
// sibling of hex_rules.h's HexQueries, through Rules::tabletop() (game.h):
// never by casting to the ruleset's class or including its header.
class TabletopQueries {
 public:
  virtual ~TabletopQueries() = default;
  // A unit's base as it stands (its main body), and the line it formed beside a
  // building if it has one (false when not).
  virtual Footprint BaseOf(const State& s, UnitId u) const = 0;
  virtual bool LineBesideOf(const State& s, UnitId u, Footprint* out) const = 0;
  // The unit whose activation is under way (it may move, fire, charge), or kNoUnit.
  virtual UnitId ActiveUnit(const State& s) const = 0;
  // How far the unit may move now, in inches (its rate in its formation).
  virtual double MoveRate(const State& s, UnitId u) const = 0;
  // The range at which a charge may be declared, in inches.
  virtual double ChargeRange() const = 0;
  // The move action that sends u straight toward p (the rules stop it short).
  virtual Action MoveToward(UnitId u, Vec2 p) const = 0;
  // A readable label for an action (for buttons and menus), "" for the generic text.
  virtual std::string ActionLabel(const State& s, const Action& a) const = 0;
};

}  // namespace wg
