// Hex geometry: golden values (Red Blob Games' worked examples) and properties.
#include "wargame/hex.h"

#include <gtest/gtest.h>

#include <random>
#include <set>

namespace wg {
namespace {

TEST(Hex, DirectionsAreOppositePairs) {
  for (int d = 0; d < 6; ++d) {
    EXPECT_EQ(Neighbor(Neighbor(Hex(3, -2), d), OppositeDirection(d)), Hex(3, -2));
    EXPECT_EQ(DirectionTo(Hex(0, 0), kHexDirections[static_cast<size_t>(d)]), d);
  }
  EXPECT_EQ(DirectionTo(Hex(0, 0), Hex(2, 0)), -1);
  // Every offset of a 5 x 5 square around a hex: a direction exactly for the six neighbours.
  for (int dq = -2; dq <= 2; ++dq) {
    for (int dr = -2; dr <= 2; ++dr) {
      const Hex a(7, -3), b(7 + dq, -3 + dr);
      const int d = DirectionTo(a, b);
      if (Distance(a, b) == 1) {
        ASSERT_GE(d, 0);
        EXPECT_EQ(Neighbor(a, d), b);
      } else {
        EXPECT_EQ(d, -1) << dq << "," << dr;
      }
    }
  }
}

TEST(Hex, DistanceGolden) {
  EXPECT_EQ(Distance(Hex(0, 0), Hex(0, 0)), 0);
  EXPECT_EQ(Distance(Hex(0, 0), Hex(3, -3)), 3);
  EXPECT_EQ(Distance(Hex(-1, 2), Hex(2, -1)), 3);
  EXPECT_EQ(Distance(Hex(1, -3), Hex(-2, 3)), 6);
  EXPECT_EQ(Distance(Hex(0, 0), Hex(2, 1)), 3);
}

TEST(Hex, RingAndRangeSizes) {
  for (int r = 0; r <= 6; ++r) {
    const auto ring = Ring(Hex(2, -1), r);
    EXPECT_EQ(ring.size(), r == 0 ? 1u : static_cast<size_t>(6 * r));
    for (Hex h : ring) EXPECT_EQ(Distance(h, Hex(2, -1)), r);
    const auto range = Range(Hex(2, -1), r);
    EXPECT_EQ(range.size(), static_cast<size_t>(3 * r * (r + 1) + 1));
    std::set<Hex> unique(range.begin(), range.end());
    EXPECT_EQ(unique.size(), range.size());
  }
}

TEST(Hex, LineGolden) {
  // Red Blob's example: a line of length 5 touches exactly 6 hexes.
  const auto line = Line(Hex(0, 0), Hex(5, -2));
  ASSERT_EQ(line.size(), 6u);
  EXPECT_EQ(line.front().hex, Hex(0, 0));
  EXPECT_EQ(line.back().hex, Hex(5, -2));
  for (size_t i = 1; i < line.size(); ++i) {
    EXPECT_EQ(Distance(line[i - 1].hex, line[i].hex), 1);
  }
}

TEST(Hex, LineAlongHexsideReportsBothHexes) {
  // From (0,0) to (1,1) (cube (1,1,-2)): the midpoint lies exactly on the
  // hexside between (1,0) and (0,1).
  const auto line = Line(Hex(0, 0), Hex(1, 1));
  ASSERT_EQ(line.size(), 3u);
  EXPECT_FALSE(line[0].along_hexside);
  EXPECT_TRUE(line[1].along_hexside);
  std::set<Hex> both = {line[1].hex, line[1].alt};
  EXPECT_EQ(both, (std::set<Hex>{Hex(1, 0), Hex(0, 1)}));
  EXPECT_FALSE(line[2].along_hexside);
  // A straight line along a hex axis touches no hexside.
  for (const auto& s : Line(Hex(0, 0), Hex(4, 0))) EXPECT_FALSE(s.along_hexside);
}

TEST(Hex, HexsideIdentitySharedByBothHexes) {
  const Hex a(2, 3);
  for (int d = 0; d < 6; ++d) {
    const Hex b = Neighbor(a, d);
    EXPECT_EQ(Hexside::Of(a, d), Hexside::Of(b, OppositeDirection(d)));
    EXPECT_EQ(HexsideBetween(a, b), HexsideBetween(b, a));
    EXPECT_LT(Hexside::Of(a, d).dir, 3);
  }
  EXPECT_FALSE(HexsideBetween(a, Hex(5, 5)).has_value());
}

TEST(Hex, PropertiesOnRandomHexes) {
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> c(-30, 30);
  for (int i = 0; i < 2000; ++i) {
    const Hex a(c(rng), c(rng)), b(c(rng), c(rng)), x(c(rng), c(rng));
    EXPECT_EQ(Distance(a, b), Distance(b, a));
    EXPECT_LE(Distance(a, b), Distance(a, x) + Distance(x, b));
    const auto line = Line(a, b);
    ASSERT_EQ(line.size(), static_cast<size_t>(Distance(a, b)) + 1);
    EXPECT_EQ(line.front().hex, a);
    EXPECT_EQ(line.back().hex, b);
    for (size_t k = 0; k < line.size(); ++k) {
      EXPECT_EQ(Distance(a, line[k].hex), static_cast<int>(k));
      if (line[k].along_hexside) {
        EXPECT_EQ(Distance(line[k].hex, line[k].alt), 1);
      }
    }
  }
}

MapLayout MakeLayout(Orientation o, OffsetParity p, LabelOrder l) {
  MapLayout m;
  m.orientation = o;
  m.parity = p;
  m.label_order = l;
  m.cols = 30;
  m.rows = 22;
  return m;
}

TEST(MapLayout, LabelsRoundTripInEveryLayout) {
  for (auto o : {Orientation::kFlatTop, Orientation::kPointyTop}) {
    for (auto p : {OffsetParity::kOdd, OffsetParity::kEven}) {
      for (auto l : {LabelOrder::kColRow, LabelOrder::kRowCol}) {
        const MapLayout m = MakeLayout(o, p, l);
        const HexGrid grid(m);
        ASSERT_EQ(grid.size(), 30 * 22);
        for (int i = 0; i < grid.size(); ++i) {
          const std::string label = grid.Label(i);
          EXPECT_EQ(grid.IndexOfLabel(label), i) << label;
          // Offset neighbours are at distance 1 in axial space.
          for (int d = 0; d < 6; ++d) {
            const int n = grid.NeighborIndex(i, d);
            if (n >= 0) {
              EXPECT_EQ(Distance(grid.HexAt(i), grid.HexAt(n)), 1);
            }
          }
        }
      }
    }
  }
}

TEST(MapLayout, GoldenFlatTopOddColumns) {
  const MapLayout m = MakeLayout(Orientation::kFlatTop, OffsetParity::kOdd, LabelOrder::kColRow);
  // Column index 0 (label 01) is even; index 1 (label 02) is shoved down.
  EXPECT_EQ(m.Label(*m.Parse("0101")), "0101");
  const Hex a = *m.Parse("0101"), b = *m.Parse("0201"), c = *m.Parse("0202");
  EXPECT_EQ(Distance(a, b), 1);  // 0201 sits lower, touching 0101's SE side
  EXPECT_EQ(DirectionTo(a, b), m.DirectionFromName("SE"));
  EXPECT_EQ(Distance(a, c), 2);
  EXPECT_EQ(Distance(*m.Parse("0101"), *m.Parse("0304")), 4);
  EXPECT_EQ(m.DirectionName(2), "N");
  EXPECT_FALSE(m.Parse("01a1").has_value());
  EXPECT_FALSE(m.Parse("101").has_value());
}

TEST(MapLayout, RowColLabelsSwapPairs) {
  const MapLayout cr = MakeLayout(Orientation::kFlatTop, OffsetParity::kOdd, LabelOrder::kColRow);
  const MapLayout rc = MakeLayout(Orientation::kFlatTop, OffsetParity::kOdd, LabelOrder::kRowCol);
  EXPECT_EQ(*cr.Parse("0512"), *rc.Parse("1205"));
}

TEST(HexGrid, EdgeAndOffMap) {
  const HexGrid grid(MakeLayout(Orientation::kFlatTop, OffsetParity::kOdd, LabelOrder::kColRow));
  EXPECT_TRUE(grid.OnEdge(grid.IndexOfLabel("0101")));
  EXPECT_FALSE(grid.OnEdge(grid.IndexOfLabel("0505")));
  EXPECT_EQ(grid.IndexOfLabel("3101"), -1);
  EXPECT_EQ(grid.IndexOfLabel("0123"), -1);
}

}  // namespace
}  // namespace wg
