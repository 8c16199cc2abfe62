// Tabletop geometry: golden distances, intersections, headings and arcs,
// property tests on random shapes, moves clamped to the table, and the loader.
#include "wargame/tabletop.h"

#include <gtest/gtest.h>

#include <numbers>
#include <random>

namespace wg {
namespace {

constexpr double kTol = 1e-9;
const double kPi = std::numbers::pi;

void ExpectNear(Vec2 a, Vec2 b) {
  EXPECT_NEAR(a.x, b.x, kTol);
  EXPECT_NEAR(a.y, b.y, kTol);
}

TEST(Tabletop, HeadingVectorsAndNames) {
  ExpectNear(HeadingVector(Heading::kN), {0, 1});
  ExpectNear(HeadingVector(Heading::kE), {1, 0});
  ExpectNear(HeadingVector(Heading::kS), {0, -1});
  ExpectNear(HeadingVector(Heading::kW), {-1, 0});
  const double h = std::sqrt(0.5);
  ExpectNear(HeadingVector(Heading::kNE), {h, h});
  ExpectNear(HeadingVector(Heading::kSW), {-h, -h});
  ExpectNear(HeadingVector(Heading::kNW), {-h, h});
  EXPECT_NEAR(HeadingAngle(Heading::kN), kPi / 2, kTol);
  EXPECT_NEAR(HeadingAngle(Heading::kW), kPi, kTol);
  for (int i = 0; i < kNumHeadings; ++i) {
    const auto hd = static_cast<Heading>(i);
    EXPECT_NEAR(HeadingVector(hd).Length(), 1.0, kTol);
    EXPECT_EQ(ParseHeading(HeadingName(hd)), hd);
  }
  EXPECT_EQ(ParseHeading("north-east"), Heading::kNE);
  EXPECT_EQ(ParseHeading("SouthWest"), Heading::kSW);
  EXPECT_EQ(ParseHeading("se"), Heading::kSE);
  EXPECT_FALSE(ParseHeading("up").has_value());
  EXPECT_EQ(ParseEdge("West"), Edge::kWest);
  EXPECT_EQ(ParseEdge("n"), Edge::kNorth);
  EXPECT_FALSE(ParseEdge("left").has_value());
}

TEST(Tabletop, SegmentIntersectionGolden) {
  EXPECT_TRUE(SegmentsIntersect({{0, 0}, {4, 4}}, {{0, 4}, {4, 0}}));    // X
  EXPECT_FALSE(SegmentsIntersect({{0, 0}, {1, 1}}, {{0, 4}, {4, 0}}));   // short of it
  EXPECT_TRUE(SegmentsIntersect({{0, 0}, {2, 2}}, {{0, 4}, {4, 0}}));    // touches at (2,2)
  EXPECT_FALSE(SegmentsIntersect({{0, 0}, {4, 0}}, {{0, 1}, {4, 1}}));   // parallel
  EXPECT_TRUE(SegmentsIntersect({{0, 0}, {4, 0}}, {{3, 0}, {6, 0}}));    // collinear overlap
  EXPECT_FALSE(SegmentsIntersect({{0, 0}, {2, 0}}, {{3, 0}, {6, 0}}));   // collinear apart
  EXPECT_NEAR(PointSegmentDistance({0, 3}, {{-5, 0}, {5, 0}}), 3, kTol);
  EXPECT_NEAR(PointSegmentDistance({8, 4}, {{-5, 0}, {5, 0}}), 5, kTol);  // 3-4-5 to the end
  EXPECT_NEAR(SegmentSegmentDistance({{0, 0}, {0, 10}}, {{3, 2}, {7, 2}}), 3, kTol);
}

TEST(Tabletop, PolygonContainsAndSegmentMeets) {
  const std::vector<Vec2> tri = {{0, 0}, {10, 0}, {0, 10}};
  EXPECT_TRUE(PolygonContains(tri, {2, 2}));
  EXPECT_TRUE(PolygonContains(tri, {5, 5}));  // on the hypotenuse
  EXPECT_FALSE(PolygonContains(tri, {6, 6}));
  EXPECT_FALSE(PolygonContains(tri, {-1, 1}));
  // An L-shaped (non-convex) polygon.
  const std::vector<Vec2> ell = {{0, 0}, {4, 0}, {4, 1}, {1, 1}, {1, 4}, {0, 4}};
  EXPECT_TRUE(PolygonContains(ell, {0.5, 3}));
  EXPECT_FALSE(PolygonContains(ell, {3, 3}));
  EXPECT_TRUE(SegmentMeetsPolygon({{3, 3}, {3, 0.5}}, ell));   // enters the foot
  EXPECT_FALSE(SegmentMeetsPolygon({{2, 2}, {3, 3}}, ell));    // in the notch
  EXPECT_TRUE(SegmentMeetsPolygon({{-1, 2}, {5, 2}}, ell));    // passes through
  EXPECT_TRUE(SegmentMeetsPolygon({{0.2, 0.2}, {0.5, 0.5}}, ell));  // wholly inside
}

// A unit 6" wide and 2" deep at (10, 10) facing north.
Footprint NorthFacing() { return Footprint{{10, 10}, kPi / 2, 6, 2}; }

TEST(Tabletop, FootprintCornersAndContains) {
  const auto c = NorthFacing().Corners();
  ExpectNear(c[0], {7, 11});   // front-left
  ExpectNear(c[1], {13, 11});  // front-right
  ExpectNear(c[2], {13, 9});   // rear-right
  ExpectNear(c[3], {7, 9});    // rear-left
  EXPECT_TRUE(NorthFacing().Contains({12.9, 10.9}));
  EXPECT_FALSE(NorthFacing().Contains({10, 11.5}));
  // Facing east, the same unit is 2" along x and 6" along y.
  const Footprint east{{10, 10}, 0, 6, 2};
  EXPECT_TRUE(east.Contains({10.9, 12.9}));
  EXPECT_FALSE(east.Contains({12, 10}));
  ExpectNear(east.Corners()[0], {11, 13});  // front-left is to the north when facing east
}

TEST(Tabletop, DistancesGolden) {
  const Footprint u = NorthFacing();
  EXPECT_NEAR(DistanceToFootprint({10, 20}, u), 9, kTol);   // straight ahead of the front edge
  EXPECT_NEAR(DistanceToFootprint({16, 15}, u), 5, kTol);   // 3-4-5 from the front-right corner
  EXPECT_NEAR(DistanceToFootprint({10, 10}, u), 0, kTol);
  const Footprint target{{10, 22}, -kPi / 2, 6, 2};  // facing south, front edge at y = 21
  EXPECT_NEAR(FootprintDistance(u, target), 10, kTol);
  EXPECT_NEAR(RangeTo(u, target), 11, kTol);  // from the centre (10,10) to y = 21
  EXPECT_TRUE(WithinRange(u, target, 11));
  EXPECT_FALSE(WithinRange(u, target, 10.9));
  // Rotated 45 degrees: nearest corner.
  const Footprint diamond{{0, 0}, kPi / 4, 2, 2};
  EXPECT_NEAR(DistanceToFootprint({5, 0}, diamond), 5 - std::sqrt(2.0), kTol);
  // Overlapping footprints are at distance 0.
  EXPECT_EQ(FootprintDistance(u, Footprint{{12, 10.5}, 0, 2, 2}), 0);
}

TEST(Tabletop, ArcsGolden) {
  const Footprint u = NorthFacing();  // front edge y = 11, from x = 7 to 13
  EXPECT_EQ(ArcOf(u, {10, 20}), Arc::kFront);
  EXPECT_EQ(ArcOf(u, {17, 15}), Arc::kFront);   // 4 beside, 4 ahead: on the 45 degree line
  EXPECT_EQ(ArcOf(u, {17.5, 15}), Arc::kFlank);
  EXPECT_EQ(ArcOf(u, {20, 10}), Arc::kFlank);   // level with it
  EXPECT_EQ(ArcOf(u, {10, 0}), Arc::kRear);
  EXPECT_EQ(ArcOf(u, {4, 5}), Arc::kRear);      // 3 beside, 4 behind the rear edge y = 9
  EXPECT_EQ(ArcOf(u, {2, 5}), Arc::kFlank);
  EXPECT_EQ(ArcOf(u, {17.5, 15}, /*front_arc_degrees=*/60), Arc::kFront);
  EXPECT_EQ(ArcName(Arc::kRear), "rear");
}

TEST(Tabletop, ArcsPropertyOnRandomUnits) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(-30, 30), ang(-kPi, kPi), sz(0.5, 8);
  for (int i = 0; i < 2000; ++i) {
    const Footprint f{{u(rng), u(rng)}, ang(rng), sz(rng), sz(rng)};
    const Vec2 p{u(rng), u(rng)};
    const Arc a = ArcOf(f, p);
    // Reflection through the unit's centre swaps front and rear.
    const Vec2 mirror = f.center - (p - f.center);
    const Arc b = ArcOf(f, mirror);
    if (!f.Contains(p)) {
      EXPECT_EQ(a == Arc::kFront, b == Arc::kRear);
      EXPECT_EQ(a == Arc::kFlank, b == Arc::kFlank);
    }
    // Far straight ahead is front; far straight behind is rear.
    EXPECT_EQ(ArcOf(f, f.center + f.Forward() * 100), Arc::kFront);
    EXPECT_EQ(ArcOf(f, f.center - f.Forward() * 100), Arc::kRear);
    EXPECT_EQ(ArcOf(f, f.center + f.Right() * 100), Arc::kFlank);
  }
}

TEST(Tabletop, DistancePropertiesOnRandomFootprints) {
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> u(0, 40), ang(-kPi, kPi), sz(0.5, 6);
  for (int i = 0; i < 2000; ++i) {
    const Footprint a{{u(rng), u(rng)}, ang(rng), sz(rng), sz(rng)};
    const Footprint b{{u(rng), u(rng)}, ang(rng), sz(rng), sz(rng)};
    const double d = FootprintDistance(a, b);
    EXPECT_NEAR(d, FootprintDistance(b, a), 1e-9);
    EXPECT_GE(d, 0);
    // Edge-to-edge is never more than centre-to-nearest-part.
    EXPECT_LE(d, DistanceToFootprint(a.center, b) + 1e-9);
    // The point-to-rectangle distance equals the distance to the nearest edge
    // for points outside.
    const Vec2 p{u(rng), u(rng)};
    if (!a.Contains(p)) {
      const auto c = a.Corners();
      double best = 1e300;
      for (size_t k = 0; k < 4; ++k) {
        best = std::min(best, PointSegmentDistance(p, {c[k], c[(k + 1) % 4]}));
      }
      EXPECT_NEAR(DistanceToFootprint(p, a), best, 1e-9);
    } else {
      EXPECT_EQ(DistanceToFootprint(p, a), 0);
    }
  }
}

// The squared and root-free helpers agree with the plain distances (issue 15).
TEST(Tabletop, SquaredHelpersAgreeWithDistancesOnRandomShapes) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(0, 40), ang(-kPi, kPi), sz(0.5, 6);
  for (int i = 0; i < 2000; ++i) {
    const Footprint a{{u(rng), u(rng)}, ang(rng), sz(rng), sz(rng)};
    const Footprint b{{u(rng), u(rng)}, ang(rng), sz(rng), sz(rng)};
    EXPECT_EQ(FootprintsOverlap(a, b), FootprintDistance(a, b) <= 1e-9);
    const Vec2 p{u(rng), u(rng)}, q{u(rng), u(rng)};
    EXPECT_NEAR(std::sqrt(DistanceToFootprintSquared(p, a)), DistanceToFootprint(p, a), 1e-9);
    const Vec2 n = a.NearestPoint(p);
    EXPECT_TRUE(a.Contains(n));
    EXPECT_NEAR(DistanceBetween(p, n), DistanceToFootprint(p, a), 1e-9);
    // A segment meets a footprint exactly when it comes within 0 of its edges or lies inside.
    const auto c = a.Corners();
    bool meets = a.Contains(p) || a.Contains(q);
    for (size_t k = 0; k < 4; ++k) meets = meets || SegmentsIntersect({p, q}, {c[k], c[(k + 1) % 4]});
    EXPECT_EQ(SegmentMeetsFootprint({p, q}, a), meets);
    EXPECT_NEAR(std::sqrt(PointSegmentDistanceSquared(p, {q, a.center})), PointSegmentDistance(p, {q, a.center}),
                1e-9);
  }
  const std::vector<Vec2> square = {{0, 0}, {4, 0}, {4, 4}, {0, 4}};
  EXPECT_EQ(DistanceToPolygon(square, {2, 2}), 0);
  EXPECT_NEAR(DistanceToPolygon(square, {7, 8}), 5.0, 1e-12);
  EXPECT_NEAR(DistanceToPolygon(square, {2, -3}), 3.0, 1e-12);
}

// FootprintFrame (issue 15: the geometry a sliding base computes once) answers
// exactly what Footprint's own functions answer, bit for bit, and its overlap
// test (with its separating-axis shortcut) agrees with the plain definition,
// "the nearest parts are within 1e-9", also for bases a hair apart or touching.
TEST(Tabletop, FootprintFrameAgreesWithFootprintExactly) {
  std::mt19937 rng(17);
  std::uniform_real_distribution<double> u(0, 40), ang(-kPi, kPi), sz(0.3, 6);
  for (int i = 0; i < 2000; ++i) {
    const Footprint a{{u(rng), u(rng)}, ang(rng), sz(rng), sz(rng)};
    FootprintFrame fa(a);
    const auto c = a.Corners();
    for (size_t k = 0; k < 4; ++k) EXPECT_TRUE(fa.Corners()[k] == c[k]);
    EXPECT_EQ(fa.radius, a.Radius());
    const Vec2 p{u(rng), u(rng)};
    EXPECT_EQ(fa.Contains(p), a.Contains(p));
    EXPECT_EQ(fa.Contains(c[i % 4]), a.Contains(c[i % 4]));
    Footprint moved = a;
    moved.center = p;
    fa.MoveTo(p);
    const FootprintFrame fresh(moved);
    for (size_t k = 0; k < 4; ++k) EXPECT_TRUE(fa.Corners()[k] == fresh.Corners()[k]);
    const Footprint b{{u(rng), u(rng)}, ang(rng), sz(rng), sz(rng)};
    EXPECT_EQ(FootprintsOverlap(fa, FootprintFrame(b)), FootprintDistance(moved, b) <= 1e-9);
    Footprint resized = moved;
    resized.width = b.width;
    resized.depth = b.depth;
    const FootprintFrame r = fa.Resized(b.width, b.depth), rf(resized);
    for (size_t k = 0; k < 4; ++k) EXPECT_TRUE(r.Corners()[k] == rf.Corners()[k]);
    EXPECT_EQ(r.radius, rf.radius);
    Table table;  // 40 x 40 inches, no terrain
    table.width = 40;
    table.depth = 40;
    double m1 = 0, m2 = 0;
    bool e1 = false, e2 = false;
    const Vec2 dir{u(rng) - 20, u(rng) - 20};
    const double inches = sz(rng) * 4;
    const Footprint g1 = table.MoveFootprint(moved, dir, inches, &m1, &e1);
    const Footprint g2 = table.MoveFootprint(fa, dir, inches, &m2, &e2);
    EXPECT_TRUE(g1.center == g2.center);
    EXPECT_EQ(m1, m2);
    EXPECT_EQ(e1, e2);
  }
  // A hair apart, touching, a hair over: side by side, end to end, and a corner on an edge.
  for (const double gap : {-1e-3, -1e-9, 0.0, 1e-10, 5e-10, 2e-9, 1e-7, 9e-7, 1e-6, 2e-6, 1e-3}) {
    for (const double facing : {0.0, 0.3, kPi / 2, 2.0}) {
      const Footprint a{{20, 20}, facing, 4, 0.75};
      const Vec2 fwd = a.Forward(), right = a.Right();
      const Footprint ahead{a.center + fwd * ((0.75 + 1.5) / 2 + gap), facing, 2, 1.5};
      const Footprint beside{a.center + right * ((4 + 3) / 2 + gap), facing, 3, 0.75};
      Footprint corner{a.center + fwd * (0.75 / 2 + gap) + right * 1.0, facing + kPi / 4, 1, 1};
      corner.center = corner.center + corner.Forward() * (std::sqrt(0.5));  // its rear corner on a's front edge
      for (const Footprint& b : {ahead, beside, corner}) {
        EXPECT_EQ(FootprintsOverlap(FootprintFrame(a), FootprintFrame(b)), FootprintDistance(a, b) <= 1e-9)
            << "gap " << gap << " facing " << facing;
        EXPECT_EQ(FootprintsOverlap(a, b), FootprintsOverlap(b, a)) << "gap " << gap << " facing " << facing;
      }
    }
  }
}

TEST(Tabletop, SegmentIntersectionIsSymmetricOnRandomSegments) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(0, 10);
  int hits = 0;
  for (int i = 0; i < 5000; ++i) {
    const Segment s{{u(rng), u(rng)}, {u(rng), u(rng)}};
    const Segment t{{u(rng), u(rng)}, {u(rng), u(rng)}};
    const bool x = SegmentsIntersect(s, t);
    EXPECT_EQ(x, SegmentsIntersect(t, s));
    EXPECT_EQ(x, SegmentsIntersect({s.b, s.a}, t));
    EXPECT_EQ(x, SegmentSegmentDistance(s, t) == 0);
    hits += x;
  }
  EXPECT_GT(hits, 500);
  EXPECT_LT(hits, 4500);
}

Table SmallTable() {
  Table t;
  t.width = 72;
  t.depth = 48;
  return t;
}

TEST(Tabletop, MovesStopAtTheTableEdge) {
  const Table t = SmallTable();
  Move m = t.MoveAlong({10, 10}, Heading::kN, 6);
  ExpectNear(m.position, {10, 16});
  EXPECT_NEAR(m.moved, 6, kTol);
  EXPECT_FALSE(m.stopped_at_edge);
  m = t.MoveAlong({10, 45}, Heading::kN, 6);
  ExpectNear(m.position, {10, 48});
  EXPECT_NEAR(m.moved, 3, kTol);
  EXPECT_TRUE(m.stopped_at_edge);
  m = t.MoveAlong({2, 2}, Heading::kSW, 10);  // stops at the corner
  ExpectNear(m.position, {0, 0});
  EXPECT_NEAR(m.moved, 2 * std::sqrt(2.0), kTol);
  m = t.MoveToward({0, 0}, {3, 4}, 10);  // never past the target
  ExpectNear(m.position, {3, 4});
  EXPECT_NEAR(m.moved, 5, kTol);
  m = t.MoveToward({0, 0}, {3, 4}, 2.5);
  ExpectNear(m.position, {1.5, 2});
  m = t.MoveTowardEdge({60, 20}, Edge::kEast, 18);  // retreat off the east edge
  ExpectNear(m.position, {72, 20});
  EXPECT_TRUE(m.stopped_at_edge);
  EXPECT_NEAR(t.DistanceToEdge({60, 20}, Edge::kEast), 12, kTol);
  EXPECT_NEAR(t.DistanceToEdge({60, 20}, Edge::kSouth), 20, kTol);
}

TEST(Tabletop, FootprintMoveKeepsWholeBaseOnTable) {
  const Table t = SmallTable();
  double moved = 0;
  bool edge = false;
  const Footprint f{{10, 44}, kPi / 2, 6, 2};  // front edge at y = 45
  const Footprint g = t.MoveFootprint(f, HeadingVector(Heading::kN), 12, &moved, &edge);
  ExpectNear(g.center, {10, 47});
  EXPECT_NEAR(moved, 3, kTol);
  EXPECT_TRUE(edge);
  EXPECT_EQ(g.facing, f.facing);
  const Footprint h = t.MoveFootprint(f, HeadingVector(Heading::kS), 12, &moved, &edge);
  ExpectNear(h.center, {10, 32});
  EXPECT_FALSE(edge);
}

Table LoadedTable() {
  auto r = LoadTableFromString(
      "width: 72\n"
      "depth: 48\n"
      "home_edges: {union: west, confederate: east}\n"
      "areas:\n"
      "  - {name: Barn, kind: building, rect: [30, 20, 6, 4], capacity: 20, blocks_los: true}\n"
      "  - {name: Woods, kind: woods, polygon: [[50, 30], [60, 30], [60, 40], [50, 40]], "
      "blocks_los: true}\n"
      "  - {name: Cornfield, kind: field, polygon: [[10, 10], [20, 10], [15, 18]]}\n"
      "obstacles:\n"
      "  - {name: Fence, kind: fence, line: [[0, 5], [40, 5]]}\n"
      "  - {name: Wall, kind: wall, line: [[40, 0], [40, 10], [45, 12]], blocks_los: true}\n",
      "table.yaml");
  EXPECT_TRUE(r.ok()) << r.errors().ToString();
  return r.ok() ? *r : Table{};
}

TEST(Tabletop, LoaderReadsAreasAndObstacles) {
  const Table t = LoadedTable();
  EXPECT_EQ(t.width, 72);
  EXPECT_EQ(t.depth, 48);
  ASSERT_EQ(t.areas.size(), 3u);
  ASSERT_EQ(t.obstacles.size(), 2u);
  EXPECT_EQ(t.home_edges.at("union"), Edge::kWest);
  EXPECT_EQ(t.home_edges.at("confederate"), Edge::kEast);
  const TerrainArea* barn = t.FindArea("Barn");
  ASSERT_NE(barn, nullptr);
  EXPECT_TRUE(barn->is_rect);
  EXPECT_EQ(barn->capacity, 20);
  EXPECT_TRUE(barn->Contains({33, 22}));
  EXPECT_FALSE(barn->Contains({37, 22}));
  EXPECT_EQ(t.AreasAt({15, 12}), std::vector<int>{2});
  EXPECT_TRUE(t.AreasAt({1, 1}).empty());
  EXPECT_EQ(t.ObstaclesCrossed({{10, 0}, {10, 10}}), std::vector<int>{0});
  EXPECT_EQ(t.ObstaclesCrossed({{42, 5}, {44, 20}}), std::vector<int>{1});
  EXPECT_EQ(t.AreasCrossed({{25, 22}, {70, 35}}), (std::vector<int>{0, 1}));
}

TEST(Tabletop, LineOfSightBlockedByAreasExceptThoseHoldingAnEndpoint) {
  const Table t = LoadedTable();
  EXPECT_FALSE(t.LineOfSightClear({25, 22}, {40, 22}));  // through the barn
  EXPECT_TRUE(t.LineOfSightClear({25, 26}, {40, 26}));   // just north of it
  EXPECT_TRUE(t.LineOfSightClear({33, 22}, {45, 22}));   // firing out of the barn
  EXPECT_TRUE(t.LineOfSightClear({45, 22}, {33, 22}));   // and into it
  EXPECT_FALSE(t.LineOfSightClear({45, 35}, {65, 35}));  // through the woods
  EXPECT_TRUE(t.LineOfSightClear({55, 35}, {65, 35}));   // from inside the woods
  EXPECT_TRUE(t.LineOfSightClear({5, 14}, {25, 14}));    // the cornfield does not block
  EXPECT_TRUE(t.LineOfSightClear({10, 0}, {10, 10}));    // nor does the fence
  EXPECT_FALSE(t.LineOfSightClear({38, 5}, {42, 5}));    // the wall does
}

TEST(Tabletop, LoaderReportsErrorsWithPositions) {
  auto r = LoadTableFromString(
      "width: 72\n"
      "depth: -1\n"
      "areas:\n"
      "  - {name: Barn, kind: building, rect: [70, 20, 6, 4]}\n"
      "  - {name: Woods, kind: woods, polygon: [[1, 1], [2, 2]]}\n"
      "  - {name: Pen, kind: pen}\n"
      "obstacles:\n"
      "  - {name: Fence, kind: fence, line: [[0, 5], [x, 5]], colour: red}\n"
      "home_edges: {union: left}\n",
      "bad.yaml");
  ASSERT_FALSE(r.ok());
  const std::string text = r.errors().ToString();
  EXPECT_NE(text.find("bad.yaml:2:8: depth: must be greater than 0"), std::string::npos) << text;
  EXPECT_NE(text.find("areas[1].polygon: expected at least 3 points"), std::string::npos) << text;
  EXPECT_NE(text.find("areas[2]: an area needs rect or polygon"), std::string::npos) << text;
  EXPECT_NE(text.find("obstacles[0].colour: unknown key"), std::string::npos) << text;
  EXPECT_NE(text.find("home_edges.union: expected north, east, south or west"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("areas[0]"), std::string::npos)
      << "depth invalid, so bounds cannot be checked\n" << text;
}

TEST(Tabletop, LoaderRejectsShapesOffTheTable) {
  auto r = LoadTableFromString(
      "width: 72\ndepth: 48\nareas:\n  - {name: Barn, kind: building, rect: [70, 20, 6, 4]}\n"
      "obstacles:\n  - {name: Fence, kind: fence, line: [[0, 5], [80, 5]]}\n",
      "off.yaml");
  ASSERT_FALSE(r.ok());
  const std::string text = r.errors().ToString();
  EXPECT_NE(text.find("off.yaml:4:40: areas[0].rect: rectangle extends off the table"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("obstacles[0].line[1]: point is off the table"), std::string::npos) << text;
}

}  // namespace
}  // namespace wg
