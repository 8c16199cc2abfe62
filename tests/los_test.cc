// Line of sight: golden cases per policy, endpoints, hexside features, the YAML
// loader, and agreement with a plain wg::Line walk on random maps.
#include "wargame/los.h"

#include <gtest/gtest.h>

#include <random>

namespace wg {
namespace {

constexpr int kClear = 0, kWoods = 1, kCity = 2;
constexpr int kCrest = 0, kCreek = 1;

// A hand-built map (the loader is not needed): all clear, no features.
Map MakeMap(int cols, int rows, Orientation o = Orientation::kFlatTop) {
  Map m;
  MapLayout layout;
  layout.orientation = o;
  layout.cols = cols;
  layout.rows = rows;
  m.grid = HexGrid(layout);
  m.vocabulary.terrain = {"clear", "woods", "city"};
  m.vocabulary.features = {"crest", "creek"};
  m.vocabulary.default_terrain = "clear";
  const size_t n = static_cast<size_t>(m.size());
  m.terrain.assign(n, 1u << kClear);
  m.sides.assign(n * 6, 0);
  m.toward.assign(n * 6, 0);
  m.enter_dirs.assign(n, kAllDirections);
  m.exit_dirs.assign(n, kAllDirections);
  return m;
}

int At(const Map& m, Hex h) {
  const int i = m.grid.Index(h);
  EXPECT_GE(i, 0) << "hex off the test map";
  return i;
}
void SetTerrain(Map& m, Hex h, int t) { m.terrain[static_cast<size_t>(At(m, h))] = 1u << t; }
void SetSide(Map& m, Hex a, int dir, int feature) {
  const int i = m.grid.Index(a), j = m.grid.Index(Neighbor(a, dir));
  if (i >= 0) m.sides[static_cast<size_t>(i) * 6 + static_cast<size_t>(dir)] |= 1u << feature;
  if (j >= 0) {
    m.sides[static_cast<size_t>(j) * 6 + static_cast<size_t>(OppositeDirection(dir))] |=
        1u << feature;
  }
}

LosRules Rules(AlongHexside policy) {
  LosRules r;
  r.blocking_terrain = (1u << kWoods) | (1u << kCity);
  r.blocking_features = 1u << kCrest;
  r.along_hexside = policy;
  return r;
}

// The straightforward reference: walk wg::Line and check each step.
bool ReferenceClear(const Map& m, const LosRules& rules, int from, int to) {
  const auto steps = Line(m.grid.HexAt(from), m.grid.HexAt(to));
  auto terrain_blocks = [&](Hex h) {
    const int i = m.grid.Index(h);
    return i >= 0 && (m.terrain[static_cast<size_t>(i)] & rules.blocking_terrain) != 0;
  };
  auto side_blocks = [&](Hex h, int d) {
    const int i = m.grid.Index(h), j = m.grid.Index(Neighbor(h, d));
    FeatureMask f = 0;
    if (i >= 0) f = m.Side(i, d);
    else if (j >= 0) f = m.Side(j, OppositeDirection(d));
    return (f & rules.blocking_features) != 0;
  };
  for (size_t i = 0; i < steps.size(); ++i) {
    const LineStep& s = steps[i];
    const bool end = i == 0 || i + 1 == steps.size();
    if (!s.along_hexside) {
      if (!end && terrain_blocks(s.hex)) return false;
    } else {
      const bool f = side_blocks(s.hex, DirectionTo(s.hex, s.alt));
      const bool h = terrain_blocks(s.hex), a = terrain_blocks(s.alt);
      switch (rules.along_hexside) {
        case AlongHexside::kBlockedIfBoth:
          if (f || (h && a)) return false;
          break;
        case AlongHexside::kBlockedIfEither:
          if (f || h || a) return false;
          break;
        case AlongHexside::kNeverBlocked:
          break;
      }
    }
    if (i + 1 < steps.size() && !s.along_hexside && !steps[i + 1].along_hexside &&
        side_blocks(s.hex, DirectionTo(s.hex, steps[i + 1].hex))) {
      return false;
    }
  }
  return true;
}

TEST(Los, ClearMapSeesEverything) {
  Map m = MakeMap(12, 10);
  LineOfSight los(m, Rules(AlongHexside::kBlockedIfEither));
  for (int a = 0; a < m.size(); a += 7) {
    for (int b = 0; b < m.size(); ++b) EXPECT_TRUE(los.Clear(a, b));
  }
}

TEST(Los, WoodsOnTheLineBlocks) {
  Map m = MakeMap(12, 12);
  const Hex a(2, 4), b(6, 4);  // straight along direction 0
  SetTerrain(m, Hex(4, 4), kWoods);
  for (auto p : {AlongHexside::kBlockedIfBoth, AlongHexside::kBlockedIfEither,
                 AlongHexside::kNeverBlocked}) {
    LineOfSight los(m, Rules(p));
    EXPECT_FALSE(los.Clear(At(m, a), At(m, b)));
    EXPECT_FALSE(los.Clear(At(m, b), At(m, a)));
    // A line beside it is clear.
    EXPECT_TRUE(los.Clear(At(m, Hex(2, 5)), At(m, Hex(6, 5))));
  }
}

TEST(Los, EndpointsNeverBlock) {
  Map m = MakeMap(12, 12);
  const Hex a(2, 4), b(6, 4);
  SetTerrain(m, a, kWoods);
  SetTerrain(m, b, kCity);
  LineOfSight los(m, Rules(AlongHexside::kBlockedIfEither));
  EXPECT_TRUE(los.Clear(At(m, a), At(m, b)));
  EXPECT_TRUE(los.Clear(At(m, b), At(m, a)));
  // Adjacent hexes both in woods see each other.
  EXPECT_TRUE(los.Clear(At(m, a), At(m, Neighbor(a, 5))));
  EXPECT_TRUE(los.Clear(At(m, a), At(m, a)));
}

// (2,2) -> (4,4) runs along the hexside between (3,2) and (2,3) and then along
// the one between (4,3) and (3,4), passing through (3,3).
TEST(Los, AlongHexsideOneHexBlocking) {
  Map m = MakeMap(12, 12);
  SetTerrain(m, Hex(3, 2), kWoods);
  const int a = At(m, Hex(2, 2)), b = At(m, Hex(4, 4));
  EXPECT_TRUE(LineOfSight(m, Rules(AlongHexside::kBlockedIfBoth)).Clear(a, b));
  EXPECT_FALSE(LineOfSight(m, Rules(AlongHexside::kBlockedIfEither)).Clear(a, b));
  EXPECT_TRUE(LineOfSight(m, Rules(AlongHexside::kNeverBlocked)).Clear(a, b));
}

TEST(Los, AlongHexsideBothHexesBlocking) {
  Map m = MakeMap(12, 12);
  SetTerrain(m, Hex(3, 2), kWoods);
  SetTerrain(m, Hex(2, 3), kCity);
  const int a = At(m, Hex(2, 2)), b = At(m, Hex(4, 4));
  EXPECT_FALSE(LineOfSight(m, Rules(AlongHexside::kBlockedIfBoth)).Clear(a, b));
  EXPECT_FALSE(LineOfSight(m, Rules(AlongHexside::kBlockedIfEither)).Clear(a, b));
  EXPECT_TRUE(LineOfSight(m, Rules(AlongHexside::kNeverBlocked)).Clear(a, b));
  // Under "never" the hex the line passes through still blocks.
  SetTerrain(m, Hex(3, 3), kWoods);
  EXPECT_FALSE(LineOfSight(m, Rules(AlongHexside::kNeverBlocked)).Clear(a, b));
}

TEST(Los, BlockingFeatureOnCrossedHexside) {
  Map m = MakeMap(12, 12);
  const int a = At(m, Hex(2, 4)), b = At(m, Hex(6, 4));
  SetSide(m, Hex(4, 4), 0, kCrest);  // between (4,4) and (5,4)
  LineOfSight los(m, Rules(AlongHexside::kBlockedIfBoth));
  EXPECT_FALSE(los.Clear(a, b));
  EXPECT_FALSE(los.Clear(b, a));
  // Next to the firer it blocks too.
  EXPECT_FALSE(los.Clear(At(m, Hex(5, 4)), At(m, Hex(4, 4))));
  // A non-blocking feature (creek) does not.
  Map m2 = MakeMap(12, 12);
  SetSide(m2, Hex(4, 4), 0, kCreek);
  EXPECT_TRUE(LineOfSight(m2, Rules(AlongHexside::kBlockedIfBoth)).Clear(a, b));
}

TEST(Los, BlockingFeatureAlongTheHexside) {
  Map m = MakeMap(12, 12);
  // The hexside between (3,2) and (2,3): direction 4 from (3,2).
  SetSide(m, Hex(3, 2), 4, kCrest);
  const int a = At(m, Hex(2, 2)), b = At(m, Hex(4, 4));
  EXPECT_FALSE(LineOfSight(m, Rules(AlongHexside::kBlockedIfBoth)).Clear(a, b));
  EXPECT_FALSE(LineOfSight(m, Rules(AlongHexside::kBlockedIfEither)).Clear(a, b));
  EXPECT_TRUE(LineOfSight(m, Rules(AlongHexside::kNeverBlocked)).Clear(a, b));
}

TEST(Los, RangeCountsTargetNotFirer) {
  Map m = MakeMap(12, 12);
  LineOfSight los(m, Rules(AlongHexside::kBlockedIfBoth));
  EXPECT_EQ(los.Range(At(m, Hex(2, 2)), At(m, Hex(2, 2))), 0);
  EXPECT_EQ(los.Range(At(m, Hex(2, 2)), At(m, Hex(3, 2))), 1);
  EXPECT_EQ(los.Range(At(m, Hex(2, 2)), At(m, Hex(4, 4))), 4);
}

Map RandomMap(std::mt19937& rng, int cols, int rows, Orientation o) {
  Map m = MakeMap(cols, rows, o);
  std::uniform_int_distribution<int> pct(0, 99);
  for (int i = 0; i < m.size(); ++i) {
    const int p = pct(rng);
    m.terrain[static_cast<size_t>(i)] = 1u << (p < 20 ? kWoods : p < 25 ? kCity : kClear);
  }
  for (int i = 0; i < m.size(); ++i) {
    for (int d = 0; d < 3; ++d) {
      const int p = pct(rng);
      if (p < 4) SetSide(m, m.grid.HexAt(i), d, kCrest);
      else if (p < 8) SetSide(m, m.grid.HexAt(i), d, kCreek);
    }
  }
  return m;
}

TEST(Los, AgreesWithReferenceOnRandomMaps) {
  std::mt19937 rng(12345);
  int blocked = 0, clear = 0;
  for (auto o : {Orientation::kFlatTop, Orientation::kPointyTop}) {
    for (auto p : {AlongHexside::kBlockedIfBoth, AlongHexside::kBlockedIfEither,
                   AlongHexside::kNeverBlocked}) {
      const Map m = RandomMap(rng, 30, 26, o);
      const LosRules rules = Rules(p);
      // A small radius so both the precomputed plans and the far walk are exercised.
      LineOfSight los(m, rules, /*max_radius=*/12);
      std::uniform_int_distribution<int> idx(0, m.size() - 1);
      for (int k = 0; k < 6000; ++k) {
        const int a = idx(rng), b = idx(rng);
        const bool ref = ReferenceClear(m, rules, a, b);
        ASSERT_EQ(los.Clear(a, b), ref) << m.Label(a) << " -> " << m.Label(b);
        (ref ? clear : blocked)++;
      }
    }
  }
  // The random maps must exercise both answers.
  EXPECT_GT(blocked, 1000);
  EXPECT_GT(clear, 1000);
}

TEST(Los, AgreesWithReferenceOnAlongHexsideLines) {
  // Lines in the six hexside directions (cube multiples of (1,1,-2)) are the
  // ones that run along hexsides; test them all from every hex.
  std::mt19937 rng(99);
  for (auto p : {AlongHexside::kBlockedIfBoth, AlongHexside::kBlockedIfEither,
                 AlongHexside::kNeverBlocked}) {
    const Map m = RandomMap(rng, 16, 16, Orientation::kFlatTop);
    const LosRules rules = Rules(p);
    LineOfSight los(m, rules);
    const Hex diag[6] = {Hex(1, 1), Hex(2, -1), Hex(1, -2), Hex(-1, -1), Hex(-2, 1), Hex(-1, 2)};
    for (int a = 0; a < m.size(); ++a) {
      for (const Hex d : diag) {
        for (int k = 1; k <= 6; ++k) {
          const int b = m.grid.Index(m.grid.HexAt(a) + d * k);
          if (b < 0) continue;
          ASSERT_EQ(los.Clear(a, b), ReferenceClear(m, rules, a, b)) << m.Label(a) << "->"
                                                                     << m.Label(b);
        }
      }
    }
  }
}

TEST(Los, SymmetricOnRandomMaps) {
  std::mt19937 rng(777);
  for (auto p : {AlongHexside::kBlockedIfBoth, AlongHexside::kBlockedIfEither,
                 AlongHexside::kNeverBlocked}) {
    const Map m = RandomMap(rng, 24, 20, Orientation::kPointyTop);
    LineOfSight los(m, Rules(p));
    std::uniform_int_distribution<int> idx(0, m.size() - 1);
    for (int k = 0; k < 5000; ++k) {
      const int a = idx(rng), b = idx(rng);
      ASSERT_EQ(los.Clear(a, b), los.Clear(b, a)) << m.Label(a) << " <-> " << m.Label(b);
    }
  }
}

TEST(LosRulesLoader, ReadsNamesAndPolicy) {
  Map m = MakeMap(2, 2);
  auto reader = YamlReader::FromString(
      "los: {blocking_terrain: [woods, city], blocking_features: [crest], along_hexside: never}\n",
      "rules.yaml");
  auto r = LoadLosRules(reader, reader.root()["los"], "los", m.vocabulary);
  ASSERT_TRUE(r.ok()) << r.errors().ToString();
  EXPECT_EQ(r->blocking_terrain, (1u << kWoods) | (1u << kCity));
  EXPECT_EQ(r->blocking_features, 1u << kCrest);
  EXPECT_EQ(r->along_hexside, AlongHexside::kNeverBlocked);
}

TEST(LosRulesLoader, ReportsUnknownNamesWithPosition) {
  Map m = MakeMap(2, 2);
  auto reader = YamlReader::FromString(
      "los:\n  blocking_terrain: [woods, swamp]\n  along_hexside: sometimes\n  colour: red\n",
      "rules.yaml");
  auto r = LoadLosRules(reader, reader.root()["los"], "los", m.vocabulary);
  ASSERT_FALSE(r.ok());
  const std::string text = r.errors().ToString();
  EXPECT_NE(text.find("rules.yaml:2:29: los.blocking_terrain[1]: unknown terrain \"swamp\""),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("los.along_hexside: expected both, either or never"), std::string::npos)
      << text;
  EXPECT_NE(text.find("los.colour: unknown key"), std::string::npos) << text;
  EXPECT_EQ(r.errors().size(), 3u);
}

TEST(LosRulesLoader, RequiresPolicy) {
  Map m = MakeMap(2, 2);
  auto reader = YamlReader::FromString("los: {blocking_terrain: []}\n", "r.yaml");
  auto r = LoadLosRules(reader, reader.root()["los"], "los", m.vocabulary);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.errors().ToString().find("los.along_hexside: missing required key"),
            std::string::npos);
}

}  // namespace
}  // namespace wg
