#include "wargame/tabletop.h"

#include <algorithm>
#include <cctype>
#include <limits>
#include <numbers>

namespace wg {

const Table& EmptyTable() {
  static const Table kEmpty;
  return kEmpty;
}

namespace {

constexpr double kEps = 1e-9;

std::string Normalise(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '-' || c == '_' || c == ' ') continue;
    out.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  }
  return out;
}

constexpr std::array<std::string_view, 8> kHeadingNames = {"N", "NE", "E", "SE",
                                                           "S", "SW", "W", "NW"};
constexpr std::array<std::string_view, 8> kHeadingLong = {
    "north", "northeast", "east", "southeast", "south", "southwest", "west", "northwest"};
constexpr std::array<std::string_view, 4> kEdgeNames = {"north", "east", "south", "west"};

// Sign of the turn a -> b -> c with a tolerance relative to the lengths.
int Orient(Vec2 a, Vec2 b, Vec2 c) {
  const double v = Cross(b - a, c - a);
  const Vec2 u = b - a, w = c - a;
  const double scale = 1e-12 * (1.0 + std::sqrt(Dot(u, u) * Dot(w, w)));  // one root, not two hypots
  if (v > scale) return 1;
  if (v < -scale) return -1;
  return 0;
}

// For collinear p: whether it lies within the bounding box of s.
bool OnSegmentBox(Segment s, Vec2 p) {
  return p.x >= std::min(s.a.x, s.b.x) - kEps && p.x <= std::max(s.a.x, s.b.x) + kEps &&
         p.y >= std::min(s.a.y, s.b.y) - kEps && p.y <= std::max(s.a.y, s.b.y) + kEps;
}

}  // namespace

// --- Headings and edges -----------------------------------------------------

Vec2 HeadingVector(Heading h) { return UnitVector(HeadingAngle(h)); }

double HeadingAngle(Heading h) {
  double a = std::numbers::pi / 2 - static_cast<int>(h) * std::numbers::pi / 4;
  if (a <= -std::numbers::pi) a += 2 * std::numbers::pi;
  return a;
}

std::string_view HeadingName(Heading h) { return kHeadingNames[static_cast<size_t>(h)]; }

std::optional<Heading> ParseHeading(std::string_view name) {
  const std::string n = Normalise(name);
  for (size_t i = 0; i < kHeadingNames.size(); ++i) {
    if (n == Normalise(kHeadingNames[i]) || n == kHeadingLong[i]) return static_cast<Heading>(i);
  }
  return std::nullopt;
}

std::string_view EdgeName(Edge e) { return kEdgeNames[static_cast<size_t>(e)]; }

std::optional<Edge> ParseEdge(std::string_view name) {
  const std::string n = Normalise(name);
  for (size_t i = 0; i < kEdgeNames.size(); ++i) {
    if (n == kEdgeNames[i] || (n.size() == 1 && n[0] == kEdgeNames[i][0])) {
      return static_cast<Edge>(i);
    }
  }
  return std::nullopt;
}

Vec2 EdgeOutward(Edge e) {
  switch (e) {
    case Edge::kNorth: return {0, 1};
    case Edge::kEast: return {1, 0};
    case Edge::kSouth: return {0, -1};
    case Edge::kWest: return {-1, 0};
  }
  return {0, 0};
}

// --- Segments and polygons --------------------------------------------------

bool SegmentsIntersect(Segment s, Segment t) {
  // Boxes more than 2 kEps apart: no crossing and no touch (a touch needs an
  // endpoint within kEps of the other's box), so the orientations are not needed.
  constexpr double kApart = 2 * kEps;
  if (std::max(s.a.x, s.b.x) < std::min(t.a.x, t.b.x) - kApart ||
      std::max(t.a.x, t.b.x) < std::min(s.a.x, s.b.x) - kApart ||
      std::max(s.a.y, s.b.y) < std::min(t.a.y, t.b.y) - kApart ||
      std::max(t.a.y, t.b.y) < std::min(s.a.y, s.b.y) - kApart) {
    return false;
  }
  const int o1 = Orient(s.a, s.b, t.a), o2 = Orient(s.a, s.b, t.b);
  const int o3 = Orient(t.a, t.b, s.a), o4 = Orient(t.a, t.b, s.b);
  if (o1 * o2 < 0 && o3 * o4 < 0) return true;  // proper crossing
  // Touching: an endpoint of one lies on the other.
  if (o1 == 0 && OnSegmentBox(s, t.a)) return true;
  if (o2 == 0 && OnSegmentBox(s, t.b)) return true;
  if (o3 == 0 && OnSegmentBox(t, s.a)) return true;
  if (o4 == 0 && OnSegmentBox(t, s.b)) return true;
  return false;
}

double PointSegmentDistanceSquared(Vec2 p, Segment s) {
  const Vec2 d = s.b - s.a;
  const double len2 = Dot(d, d);
  if (len2 == 0) return DistanceSquared(p, s.a);
  const double t = std::clamp(Dot(p - s.a, d) / len2, 0.0, 1.0);
  return DistanceSquared(p, s.a + d * t);
}

double PointSegmentDistance(Vec2 p, Segment s) { return std::sqrt(PointSegmentDistanceSquared(p, s)); }

double SegmentSegmentDistanceSquared(Segment s, Segment t) {
  if (SegmentsIntersect(s, t)) return 0;
  return std::min({PointSegmentDistanceSquared(s.a, t), PointSegmentDistanceSquared(s.b, t),
                   PointSegmentDistanceSquared(t.a, s), PointSegmentDistanceSquared(t.b, s)});
}

double SegmentSegmentDistance(Segment s, Segment t) { return std::sqrt(SegmentSegmentDistanceSquared(s, t)); }

double DistanceToPolygon(const std::vector<Vec2>& polygon, Vec2 p) {
  if (polygon.empty()) return std::numeric_limits<double>::infinity();
  if (PolygonContains(polygon, p)) return 0;
  double best = std::numeric_limits<double>::infinity();
  for (size_t i = 0, j = polygon.size() - 1; i < polygon.size(); j = i++) {
    best = std::min(best, PointSegmentDistanceSquared(p, Segment{polygon[j], polygon[i]}));
  }
  return std::sqrt(best);
}

bool PolygonContains(const std::vector<Vec2>& polygon, Vec2 p) {
  const size_t n = polygon.size();
  if (n == 0) return false;
  bool inside = false;
  for (size_t i = 0, j = n - 1; i < n; j = i++) {
    const Vec2 a = polygon[i], b = polygon[j];
    // On the boundary: within kEps of the edge, so within 2 kEps of its box first.
    const bool near_box = p.x >= std::min(a.x, b.x) - 2 * kEps && p.x <= std::max(a.x, b.x) + 2 * kEps &&
                          p.y >= std::min(a.y, b.y) - 2 * kEps && p.y <= std::max(a.y, b.y) + 2 * kEps;
    if (near_box && PointSegmentDistanceSquared(p, Segment{a, b}) <= kEps * kEps) return true;
    if ((a.y > p.y) != (b.y > p.y)) {
      const double x = a.x + (p.y - a.y) * (b.x - a.x) / (b.y - a.y);
      if (p.x < x) inside = !inside;
    }
  }
  return inside;
}

bool SegmentMeetsPolygon(Segment s, const std::vector<Vec2>& polygon) {
  const size_t n = polygon.size();
  if (n == 0) return false;
  if (PolygonContains(polygon, s.a) || PolygonContains(polygon, s.b)) return true;
  for (size_t i = 0, j = n - 1; i < n; j = i++) {
    if (SegmentsIntersect(s, Segment{polygon[j], polygon[i]})) return true;
  }
  return false;
}

// --- Footprints -------------------------------------------------------------

std::array<Vec2, 4> Footprint::Corners() const {
  const Vec2 f = Forward() * (depth / 2), r = Right() * (width / 2);
  return {center + f - r, center + f + r, center - f + r, center - f - r};
}

Vec2 Footprint::ToLocal(Vec2 p) const {
  const Vec2 v = p - center;
  return {Dot(v, Right()), Dot(v, Forward())};
}

bool Footprint::Contains(Vec2 p) const {
  const Vec2 l = ToLocal(p);
  return std::abs(l.x) <= width / 2 + kEps && std::abs(l.y) <= depth / 2 + kEps;
}

Vec2 Footprint::NearestPoint(Vec2 p) const {
  const Vec2 l = ToLocal(p);
  const double x = std::clamp(l.x, -width / 2, width / 2), y = std::clamp(l.y, -depth / 2, depth / 2);
  return center + Right() * x + Forward() * y;
}

double DistanceToFootprintSquared(Vec2 p, const Footprint& f) {
  const Vec2 l = f.ToLocal(p);
  const double dx = std::max(std::abs(l.x) - f.width / 2, 0.0);
  const double dy = std::max(std::abs(l.y) - f.depth / 2, 0.0);
  return dx * dx + dy * dy;
}

double DistanceToFootprint(Vec2 p, const Footprint& f) { return std::sqrt(DistanceToFootprintSquared(p, f)); }

FootprintFrame::FootprintFrame(const Footprint& f) : base(f), forward(f.Forward()), right(f.Right()) {
  half_forward = forward * (f.depth / 2);
  half_right = right * (f.width / 2);
  radius = f.Radius();
}

FootprintFrame::FootprintFrame(const Footprint& f, Vec2 fwd) : base(f), forward(fwd), right{fwd.y, -fwd.x} {
  half_forward = forward * (f.depth / 2);
  half_right = right * (f.width / 2);
  radius = f.Radius();
}

FootprintFrame FootprintFrame::Resized(double width, double depth) const {
  FootprintFrame out = *this;
  out.base.width = width;
  out.base.depth = depth;
  out.half_forward = forward * (depth / 2);
  out.half_right = right * (width / 2);
  out.radius = out.base.Radius();
  return out;
}

std::array<Vec2, 4> FootprintFrame::Corners() const {
  const Vec2 c = base.center;  // Footprint::Corners, term by term
  return {c + half_forward - half_right, c + half_forward + half_right, c - half_forward + half_right,
          c - half_forward - half_right};
}

bool FootprintFrame::Contains(Vec2 p) const {
  const Vec2 v = p - base.center;  // Footprint::ToLocal
  return std::abs(Dot(v, right)) <= base.width / 2 + kEps && std::abs(Dot(v, forward)) <= base.depth / 2 + kEps;
}

namespace {

// Squared distance between the nearest parts of two footprints (0 if they overlap).
double FootprintDistanceSquared(const FootprintFrame& a, const FootprintFrame& b) {
  const auto ca = a.Corners(), cb = b.Corners();
  for (const Vec2 c : ca) {
    if (b.Contains(c)) return 0;
  }
  for (const Vec2 c : cb) {
    if (a.Contains(c)) return 0;
  }
  double best = std::numeric_limits<double>::infinity();
  for (size_t i = 0; i < 4; ++i) {
    const Segment s{ca[i], ca[(i + 1) % 4]};
    for (size_t j = 0; j < 4; ++j) {
      best = std::min(best, SegmentSegmentDistanceSquared(s, Segment{cb[j], cb[(j + 1) % 4]}));
    }
  }
  return best;
}

// Whether the unit vector `axis` separates the two bases by more than a
// millionth of an inch: then no point of one is within kEps of the other, so
// FootprintDistanceSquared would exceed kEps * kEps (a projection on a unit
// vector never lengthens a distance).
bool SeparatedAlong(const FootprintFrame& a, const FootprintFrame& b, Vec2 axis) {
  const double ra = std::abs(Dot(a.half_forward, axis)) + std::abs(Dot(a.half_right, axis));
  const double rb = std::abs(Dot(b.half_forward, axis)) + std::abs(Dot(b.half_right, axis));
  return std::abs(Dot(b.base.center - a.base.center, axis)) > ra + rb + 1e-6;
}

}  // namespace

double FootprintDistance(const Footprint& a, const Footprint& b) {
  return std::sqrt(FootprintDistanceSquared(FootprintFrame(a), FootprintFrame(b)));
}

bool FootprintsOverlap(const FootprintFrame& a, const FootprintFrame& b) {
  const double reach = a.radius + b.radius;
  if (DistanceSquared(a.base.center, b.base.center) > reach * reach + kEps) return false;  // too far apart to touch
  // Two rectangles apart are separated along one of their four edge directions.
  if (SeparatedAlong(a, b, a.forward) || SeparatedAlong(a, b, a.right) || SeparatedAlong(a, b, b.forward) ||
      SeparatedAlong(a, b, b.right)) {
    return false;
  }
  return FootprintDistanceSquared(a, b) <= kEps * kEps;
}

bool FootprintsOverlap(const FootprintFrame& a, const Footprint& b) {
  const double reach = a.radius + b.Radius();
  if (DistanceSquared(a.base.center, b.center) > reach * reach + kEps) return false;  // as above, before b's frame
  return FootprintsOverlap(a, FootprintFrame(b));
}

bool FootprintsOverlap(const Footprint& a, const Footprint& b) { return FootprintsOverlap(FootprintFrame(a), b); }

bool SegmentMeetsFootprint(Segment s, const Footprint& f) {
  const double r = f.Radius();
  if (PointSegmentDistanceSquared(f.center, s) > r * r + kEps) return false;
  if (f.Contains(s.a) || f.Contains(s.b)) return true;
  const auto c = f.Corners();
  for (size_t i = 0; i < 4; ++i) {
    if (SegmentsIntersect(s, Segment{c[i], c[(i + 1) % 4]})) return true;
  }
  return false;
}

Arc ArcOf(const Footprint& target, Vec2 firer, double front_arc_degrees) {
  const Vec2 l = target.ToLocal(firer);
  const double hw = target.width / 2, hd = target.depth / 2;
  if (std::abs(l.x) <= hw + kEps && std::abs(l.y) <= hd + kEps) return Arc::kFront;
  const double spread = std::tan(front_arc_degrees * std::numbers::pi / 180.0);
  const double beside = std::max(std::abs(l.x) - hw, 0.0);
  if (l.y >= hd && beside <= (l.y - hd) * spread + kEps) return Arc::kFront;
  if (l.y <= -hd && beside <= (-hd - l.y) * spread + kEps) return Arc::kRear;
  return Arc::kFlank;
}

std::string_view ArcName(Arc a) {
  switch (a) {
    case Arc::kFront: return "front";
    case Arc::kFlank: return "flank";
    case Arc::kRear: return "rear";
  }
  return "";
}

// --- Table ------------------------------------------------------------------

bool LineObstacle::Crosses(Segment s) const {
  for (size_t i = 1; i < points.size(); ++i) {
    if (SegmentsIntersect(s, Segment{points[i - 1], points[i]})) return true;
  }
  return false;
}

Vec2 Table::Clamp(Vec2 p) const {
  return {std::clamp(p.x, 0.0, width), std::clamp(p.y, 0.0, depth)};
}

double Table::DistanceToEdge(Vec2 p, Edge e) const {
  switch (e) {
    case Edge::kNorth: return depth - p.y;
    case Edge::kEast: return width - p.x;
    case Edge::kSouth: return p.y;
    case Edge::kWest: return p.x;
  }
  return 0;
}

namespace {
// Largest t >= 0 with p + d * t inside [0, w] x [0, h] (d a unit vector).
double RoomAlong(Vec2 p, Vec2 d, double w, double h) {
  double t = std::numeric_limits<double>::infinity();
  if (d.x > kEps) t = std::min(t, (w - p.x) / d.x);
  if (d.x < -kEps) t = std::min(t, -p.x / d.x);
  if (d.y > kEps) t = std::min(t, (h - p.y) / d.y);
  if (d.y < -kEps) t = std::min(t, -p.y / d.y);
  return std::max(t, 0.0);
}
}  // namespace

Move Table::MoveAlong(Vec2 p, Vec2 direction, double inches) const {
  const Vec2 start = Clamp(p);
  const double len = direction.Length();
  if (len == 0 || inches <= 0) return Move{start, 0, false};
  const Vec2 d = direction * (1.0 / len);
  const double room = RoomAlong(start, d, width, depth);
  const double moved = std::min(inches, room);
  return Move{Clamp(start + d * moved), moved, room <= inches};
}

Move Table::MoveToward(Vec2 p, Vec2 target, double inches) const {
  const double len = DistanceBetween(p, target);
  return MoveAlong(p, target - p, std::min(inches, len));
}

Move Table::MoveTowardEdge(Vec2 p, Edge e, double inches) const {
  return MoveAlong(p, EdgeOutward(e), inches);
}

Footprint Table::MoveFootprint(const Footprint& f, Vec2 direction, double inches, double* moved,
                               bool* at_edge) const {
  return MoveFootprint(FootprintFrame(f), direction, inches, moved, at_edge);
}

Footprint Table::MoveFootprint(const FootprintFrame& frame, Vec2 direction, double inches, double* moved,
                               bool* at_edge) const {
  const Footprint& f = frame.base;
  const double len = direction.Length();
  double go = 0;
  bool edge = false;
  if (len > 0 && inches > 0) {
    const Vec2 d = direction * (1.0 / len);
    double room = std::numeric_limits<double>::infinity();
    for (const Vec2 c : frame.Corners()) room = std::min(room, RoomAlong(c, d, width, depth));
    go = std::min(inches, room);
    edge = room <= inches;
    Footprint out = f;
    out.center = f.center + d * go;
    if (moved) *moved = go;
    if (at_edge) *at_edge = edge;
    return out;
  }
  if (moved) *moved = 0;
  if (at_edge) *at_edge = false;
  return f;
}

std::vector<int> Table::AreasAt(Vec2 p) const {
  std::vector<int> out;
  for (size_t i = 0; i < areas.size(); ++i) {
    if (areas[i].Contains(p)) out.push_back(static_cast<int>(i));
  }
  return out;
}

std::vector<int> Table::AreasCrossed(Segment s) const {
  std::vector<int> out;
  for (size_t i = 0; i < areas.size(); ++i) {
    if (areas[i].Meets(s)) out.push_back(static_cast<int>(i));
  }
  return out;
}

std::vector<int> Table::ObstaclesCrossed(Segment s) const {
  std::vector<int> out;
  for (size_t i = 0; i < obstacles.size(); ++i) {
    if (obstacles[i].Crosses(s)) out.push_back(static_cast<int>(i));
  }
  return out;
}

bool Table::LineOfSightClear(Vec2 a, Vec2 b) const {
  const Segment s{a, b};
  for (const auto& area : areas) {
    if (!area.blocks_los || area.Contains(a) || area.Contains(b)) continue;
    if (area.Meets(s)) return false;
  }
  for (const auto& o : obstacles) {
    if (o.blocks_los && o.Crosses(s)) return false;
  }
  return true;
}

const TerrainArea* Table::FindArea(const std::string& name) const {
  for (const auto& a : areas) {
    if (a.name == name) return &a;
  }
  return nullptr;
}

// --- Loader -----------------------------------------------------------------

namespace {

std::optional<Vec2> ReadPoint(YamlReader& r, const YAML::Node& n, const std::string& path,
                              const Table& t) {
  if (!n.IsSequence() || n.size() != 2) {
    r.Fail(n, path, "expected a point [x, y]");
    return std::nullopt;
  }
  const auto x = r.Double(n[0], YamlReader::Item(path, 0));
  const auto y = r.Double(n[1], YamlReader::Item(path, 1));
  if (!x || !y) return std::nullopt;
  const Vec2 p{*x, *y};
  if (t.width > 0 && t.depth > 0 && !t.Contains(p)) {
    r.Fail(n, path, "point is off the table");
    return std::nullopt;
  }
  return p;
}

std::optional<std::vector<Vec2>> ReadPoints(YamlReader& r, const YAML::Node& n,
                                            const std::string& path, const Table& t,
                                            size_t min_points) {
  if (!r.ExpectSequence(n, path)) return std::nullopt;
  if (n.size() < min_points) {
    r.Fail(n, path, "expected at least " + std::to_string(min_points) + " points");
    return std::nullopt;
  }
  std::vector<Vec2> out;
  bool ok = true;
  for (size_t i = 0; i < n.size(); ++i) {
    if (auto p = ReadPoint(r, n[i], YamlReader::Item(path, i), t)) {
      out.push_back(*p);
    } else {
      ok = false;
    }
  }
  if (!ok) return std::nullopt;
  return out;
}

double ReadPositive(YamlReader& r, const YAML::Node& map, const std::string& path,
                    const char* key) {
  const std::string p = YamlReader::Child(path, key);
  const YAML::Node n = map[key];
  if (!n) {
    r.Fail(map, p, "missing required key");
    return 0;
  }
  const auto v = r.Double(n, p);
  if (v && *v <= 0) r.Fail(n, p, "must be greater than 0");
  return v && *v > 0 ? *v : 0;
}

void ReadArea(YamlReader& r, const YAML::Node& n, const std::string& path, Table& t) {
  if (!r.CheckKeys(n, path, {"name", "kind", "rect", "polygon", "capacity", "blocks_los"})) return;
  TerrainArea a;
  a.name = r.RequiredString(n, path, "name").value_or("");
  a.kind = r.RequiredString(n, path, "kind").value_or("");
  a.capacity = r.OptionalInt(n, path, "capacity", 0);
  if (a.capacity < 0) r.Fail(n["capacity"], YamlReader::Child(path, "capacity"), "must be >= 0");
  a.blocks_los = r.OptionalBool(n, path, "blocks_los", false);
  const YAML::Node rect = n["rect"], poly = n["polygon"];
  if (rect && poly) {
    r.Fail(n, path, "give either rect or polygon, not both");
    return;
  }
  if (rect) {
    const std::string p = YamlReader::Child(path, "rect");
    if (!rect.IsSequence() || rect.size() != 4) {
      r.Fail(rect, p, "expected [x, y, w, h]");
      return;
    }
    double v[4];
    for (size_t i = 0; i < 4; ++i) {
      const auto d = r.Double(rect[i], YamlReader::Item(p, i));
      if (!d) return;
      v[i] = *d;
    }
    if (v[2] <= 0 || v[3] <= 0) {
      r.Fail(rect, p, "width and height must be greater than 0");
      return;
    }
    a.polygon = {{v[0], v[1]}, {v[0] + v[2], v[1]}, {v[0] + v[2], v[1] + v[3]}, {v[0], v[1] + v[3]}};
    a.is_rect = true;
    for (const Vec2 c : a.polygon) {
      if (t.width > 0 && t.depth > 0 && !t.Contains(c)) {
        r.Fail(rect, p, "rectangle extends off the table");
        return;
      }
    }
  } else if (poly) {
    auto pts = ReadPoints(r, poly, YamlReader::Child(path, "polygon"), t, 3);
    if (!pts) return;
    a.polygon = std::move(*pts);
  } else {
    r.Fail(n, path, "an area needs rect or polygon");
    return;
  }
  t.areas.push_back(std::move(a));
}

void ReadObstacle(YamlReader& r, const YAML::Node& n, const std::string& path, Table& t) {
  if (!r.CheckKeys(n, path, {"name", "kind", "line", "blocks_los"})) return;
  LineObstacle o;
  o.name = r.RequiredString(n, path, "name").value_or("");
  o.kind = r.RequiredString(n, path, "kind").value_or("");
  o.blocks_los = r.OptionalBool(n, path, "blocks_los", false);
  const YAML::Node line = n["line"];
  if (!line) {
    r.Fail(n, YamlReader::Child(path, "line"), "missing required key");
    return;
  }
  auto pts = ReadPoints(r, line, YamlReader::Child(path, "line"), t, 2);
  if (!pts) return;
  o.points = std::move(*pts);
  t.obstacles.push_back(std::move(o));
}

}  // namespace

Result<Table> LoadTable(YamlReader& reader, const YAML::Node& node, const std::string& path) {
  const size_t before = reader.errors().size();
  Table t;
  t.file = reader.file();
  if (reader.CheckKeys(node, path, {"width", "depth", "home_edges", "areas", "obstacles"})) {
    t.width = ReadPositive(reader, node, path, "width");
    t.depth = ReadPositive(reader, node, path, "depth");
    if (const YAML::Node e = node["home_edges"]) {
      const std::string p = YamlReader::Child(path, "home_edges");
      if (reader.ExpectMap(e, p)) {
        for (const auto& kv : e) {
          const std::string side = kv.first.Scalar();
          const auto name = reader.String(kv.second, YamlReader::Child(p, side));
          if (!name) continue;
          if (auto edge = ParseEdge(*name)) {
            t.home_edges[side] = *edge;
          } else {
            reader.Fail(kv.second, YamlReader::Child(p, side),
                        "expected north, east, south or west, got \"" + *name + "\"");
          }
        }
      }
    }
    if (const YAML::Node areas = node["areas"]) {
      const std::string p = YamlReader::Child(path, "areas");
      if (reader.ExpectSequence(areas, p)) {
        for (size_t i = 0; i < areas.size(); ++i) {
          ReadArea(reader, areas[i], YamlReader::Item(p, i), t);
        }
      }
    }
    if (const YAML::Node obs = node["obstacles"]) {
      const std::string p = YamlReader::Child(path, "obstacles");
      if (reader.ExpectSequence(obs, p)) {
        for (size_t i = 0; i < obs.size(); ++i) {
          ReadObstacle(reader, obs[i], YamlReader::Item(p, i), t);
        }
      }
    }
  }
  if (reader.errors().size() == before) return t;
  return reader.ErrorsSince(before);
}

Result<Table> LoadTableFromString(const std::string& text, const std::string& name) {
  YamlReader reader = YamlReader::FromString(text, name);
  if (!reader.ok()) return reader.errors();
  return LoadTable(reader, reader.root(), "");
}

Result<Table> LoadTableFile(const std::string& file) {
  YamlReader reader = YamlReader::FromFile(file);
  if (!reader.ok()) return reader.errors();
  return LoadTable(reader, reader.root(), "");
}

}  // namespace wg
