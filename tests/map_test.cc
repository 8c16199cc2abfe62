// Map loader: exact compiled bits of tests/data/maps/small.yaml, both label
// layouts, and one golden "file:line:col: path: message" per error kind.
#include <gtest/gtest.h>

#include <string>

#include "wargame/map.h"

namespace wg {
namespace {

const std::string kSmallMap = std::string(WG_TEST_DATA_DIR) + "/maps/small.yaml";

class SmallMap : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    auto r = LoadMap(kSmallMap);
    ASSERT_TRUE(r.ok()) << r.errors().ToString();
    map_ = new Map(std::move(*r));
  }
  static void TearDownTestSuite() {
    delete map_;
    map_ = nullptr;
  }
  static int H(const char* label) {
    const int i = map_->Index(label);
    EXPECT_GE(i, 0) << label;
    return i;
  }
  static int D(const char* name) {
    const int d = map_->grid.layout().DirectionFromName(name);
    EXPECT_GE(d, 0) << name;
    return d;
  }
  // Bit of `direction names` as a mask.
  static uint8_t Dirs(std::initializer_list<const char*> names) {
    uint8_t m = 0;
    for (const char* n : names) m = static_cast<uint8_t>(m | (1u << D(n)));
    return m;
  }
  static Map* map_;
};
Map* SmallMap::map_ = nullptr;

TEST_F(SmallMap, HeaderAndGrid) {
  EXPECT_EQ(map_->name, "Small test map");
  EXPECT_EQ(map_->provenance, "reconstruction: invented for tests/map_test.cc");
  EXPECT_EQ(map_->file, kSmallMap);
  EXPECT_EQ(map_->size(), 80);
  EXPECT_EQ(map_->vocabulary.terrain.size(), 4u);
  EXPECT_EQ(map_->vocabulary.default_terrain, "clear");
  EXPECT_EQ(map_->Label(H("1008")), "1008");
}

TEST_F(SmallMap, TerrainOfNamedHexes) {
  const TerrainMask clear = map_->TerrainBit("clear"), woods = map_->TerrainBit("woods"),
                    city = map_->TerrainBit("city"), hill = map_->TerrainBit("hill");
  EXPECT_EQ(map_->terrain[H("0101")], clear);  // unlisted: default
  EXPECT_EQ(map_->terrain[H("0203")], woods);  // listed: no default added
  EXPECT_EQ(map_->terrain[H("0204")], woods);
  for (const char* l : {"0301", "0302", "0304", "0305"}) EXPECT_EQ(map_->terrain[H(l)], woods) << l;
  EXPECT_EQ(map_->terrain[H("0306")], clear);  // just past the run
  EXPECT_EQ(map_->terrain[H("0303")], woods | hill);
  EXPECT_EQ(map_->terrain[H("0405")], hill);
  EXPECT_EQ(map_->terrain[H("0606")], city);
}

TEST_F(SmallMap, CreekIsOnBothSidesOfItsHexside) {
  const FeatureMask creek = map_->FeatureBit("creek");
  EXPECT_EQ(map_->Side(H("0203"), D("N")), creek);
  EXPECT_EQ(map_->Side(H("0202"), D("S")), creek);
  EXPECT_EQ(map_->Side(H("0505"), D("S")) & creek, creek);
  EXPECT_EQ(map_->Side(H("0506"), D("N")) & creek, creek);
  // No other side of 0203 or 0202 has it.
  EXPECT_EQ(map_->SidesOf(H("0203")) & ~map_->FeatureBit("road"), creek);
  EXPECT_EQ(map_->Side(H("0202"), D("N")), 0u);
  EXPECT_EQ(map_->SidesOf(H("0202")), creek);
}

TEST_F(SmallMap, RiverBridgeFordAndEdgeHexside) {
  const FeatureMask river = map_->FeatureBit("river"), bridge = map_->FeatureBit("bridge"),
                    ford = map_->FeatureBit("ford"), creek = map_->FeatureBit("creek");
  EXPECT_EQ(map_->Side(H("0801"), D("NE")) & (river | bridge), river | bridge);
  EXPECT_EQ(map_->Side(H("0901"), D("SW")) & (river | bridge), river | bridge);
  EXPECT_EQ(map_->Side(H("1001"), D("NE")), river);  // map edge: off-map neighbour
  EXPECT_EQ(map_->grid.NeighborIndex(H("1001"), D("NE")), -1);
  EXPECT_EQ(map_->Side(H("0505"), D("S")), creek | ford);
  EXPECT_EQ(map_->Side(H("0506"), D("N")), creek | ford);
}

TEST_F(SmallMap, SlopeTowardBitsPointToTheUpslopeHexOnly) {
  const FeatureMask slope = map_->FeatureBit("slope");
  // [0405, 0406]: 0406 is upslope; crossing 0405 -> 0406 (S) goes up.
  EXPECT_EQ(map_->Side(H("0405"), D("S")), slope);
  EXPECT_EQ(map_->Side(H("0406"), D("N")), slope);
  EXPECT_EQ(map_->Toward(H("0405"), D("S")), slope);
  EXPECT_EQ(map_->Toward(H("0406"), D("N")), 0u);
  // [0707, N]: 0707 is upslope; crossing 0706 -> 0707 (S) goes up.
  EXPECT_EQ(map_->Toward(H("0706"), D("S")), slope);
  EXPECT_EQ(map_->Toward(H("0707"), D("N")), 0u);
  EXPECT_EQ(map_->Side(H("0707"), D("N")), slope);
  // Nowhere else.
  int count = 0;
  for (int h = 0; h < map_->size(); ++h) {
    for (int d = 0; d < 6; ++d) count += (map_->Toward(h, d) & slope) ? 1 : 0;
  }
  EXPECT_EQ(count, 2);
}

TEST_F(SmallMap, RedoubtProtectsTheListedHex) {
  const FeatureMask redoubt = map_->FeatureBit("redoubt");
  EXPECT_EQ(map_->Side(H("0606"), D("SE")), redoubt);
  EXPECT_EQ(map_->Side(H("0707"), D("NW")), redoubt);
  EXPECT_EQ(map_->Toward(H("0707"), D("NW")), redoubt);
  EXPECT_EQ(map_->Toward(H("0606"), D("SE")), 0u);
}

TEST_F(SmallMap, RoadAndTrailHexsides) {
  const FeatureMask road = map_->FeatureBit("road"), trail = map_->FeatureBit("trail");
  EXPECT_EQ(map_->Side(H("0101"), D("S")), road);
  EXPECT_EQ(map_->Side(H("0102"), D("N")), road);
  EXPECT_EQ(map_->Side(H("0102"), D("S")), road);
  EXPECT_EQ(map_->Side(H("0103"), D("SE")), road);
  EXPECT_EQ(map_->Side(H("0203"), D("NW")), road);
  EXPECT_EQ(map_->SidesOf(H("0101")), road);  // only one road hexside
  // The run 0801-0804 is a road down column 08.
  for (const char* l : {"0801", "0802", "0803"}) EXPECT_EQ(map_->Side(H(l), D("S")), road) << l;
  EXPECT_EQ(map_->Side(H("0804"), D("S")), 0u);
  EXPECT_EQ(map_->Side(H("0901"), D("SE")), trail);
  EXPECT_EQ(map_->Side(H("1001"), D("NW")), trail);
  EXPECT_EQ(map_->Toward(H("0101"), D("S")), 0u);  // paths are not directed
}

TEST_F(SmallMap, FerryDirections) {
  EXPECT_EQ(map_->enter_dirs[H("0505")], Dirs({"N"}));
  EXPECT_EQ(map_->exit_dirs[H("0505")], Dirs({"S"}));
  EXPECT_EQ(map_->enter_dirs[H("0506")], kAllDirections);
  EXPECT_EQ(map_->exit_dirs[H("0302")], kAllDirections);
}

TEST_F(SmallMap, Places) {
  ASSERT_EQ(map_->places.size(), 5u);
  const Place* house = map_->FindPlace("Dorsey House");
  ASSERT_NE(house, nullptr);
  EXPECT_EQ(house->kind, "house");
  EXPECT_EQ(house->hexes, std::vector<int>{H("0302")});
  const Place* town = map_->FindPlace("Perryville");
  ASSERT_NE(town, nullptr);
  EXPECT_EQ(town->attributes.size(), 2u);
  EXPECT_EQ(town->attributes.at("points"), "5");
  EXPECT_EQ(town->attributes.at("note"), "town");
  EXPECT_EQ(map_->FindPlace("Union HQ")->hexes, std::vector<int>{H("0302")});
  const Place* edge = map_->FindPlace("West edge");
  ASSERT_NE(edge, nullptr);
  ASSERT_EQ(edge->hexes.size(), 8u);
  EXPECT_EQ(edge->hexes.front(), H("0101"));
  EXPECT_EQ(edge->hexes.back(), H("0108"));
  EXPECT_EQ(map_->PlacesOfKind("ferry").size(), 1u);
  EXPECT_EQ(map_->FindPlace("Nowhere"), nullptr);
}

// --- Layouts ---------------------------------------------------------------

std::string LayoutMap(const std::string& layout, const std::string& body) {
  return "name: L\nprovenance: test\nlayout: " + layout +
         "\nvocabulary:\n  terrain: [clear]\n  features: [road, creek]\n  paths: [road]\n"
         "  default_terrain: clear\n" +
         body;
}

TEST(MapLayouts, FlatEvenColRow) {
  // even-q: even offset columns (labels 01, 03...) are shoved down.
  auto r = LoadMapFromString(
      LayoutMap("{orientation: flat, offset: even, label: col_row, cols: 4, rows: 4}",
                "paths:\n  road:\n    - [0102, 0202]\n"),
      "flat_even.yaml");
  ASSERT_TRUE(r.ok()) << r.errors().ToString();
  const Map& m = *r;
  const int ne = m.grid.layout().DirectionFromName("NE");
  EXPECT_EQ(m.Side(m.Index("0102"), ne), m.FeatureBit("road"));
  // Odd-q would make 0102 -> 0201 the NE step instead; not adjacent as listed there.
  auto odd = LoadMapFromString(
      LayoutMap("{orientation: flat, offset: odd, label: col_row, cols: 4, rows: 4}",
                "paths:\n  road:\n    - [0102, 0202]\n"),
      "flat_odd.yaml");
  ASSERT_TRUE(odd.ok());
  EXPECT_EQ(odd->Side(odd->Index("0102"), odd->grid.layout().DirectionFromName("SE")),
            odd->FeatureBit("road"));
}

TEST(MapLayouts, PointyOddRowCol) {
  // row_col: "0302" is row 03, column 02. odd-r: odd offset rows (labels 02, 04) shoved right.
  auto r = LoadMapFromString(
      LayoutMap("{orientation: pointy, offset: odd, label: row_col, cols: 5, rows: 4}",
                "hexsides:\n  creek:\n    - [0302, E]\n    - [0302, NE]\n"),
      "pointy.yaml");
  ASSERT_TRUE(r.ok()) << r.errors().ToString();
  const Map& m = *r;
  const MapLayout& l = m.grid.layout();
  const FeatureMask creek = m.FeatureBit("creek");
  EXPECT_EQ(m.size(), 20);
  EXPECT_EQ(m.Side(m.Index("0303"), l.DirectionFromName("W")), creek);  // E of 0302 is 0303
  EXPECT_EQ(m.Side(m.Index("0202"), l.DirectionFromName("SW")), creek);  // NE of 0302 is 0202
  EXPECT_EQ(m.Side(m.Index("0203"), l.DirectionFromName("SW")), 0u);
  // Label 0502 has row 05, off a 4-row map; 0205 is row 02, column 05: on it.
  EXPECT_EQ(m.Index("0502"), -1);
  EXPECT_GE(m.Index("0205"), 0);
}

TEST(MapLayouts, PointyEvenRowColWithFirstLabelZero) {
  auto r = LoadMapFromString(
      LayoutMap("{orientation: pointy, offset: even, label: row_col, first_label: [0, 0], cols: 3,"
                " rows: 3}",
                "paths:\n  road:\n    - [0000, 0100, 0200]\n"),
      "pointy_even.yaml");
  ASSERT_TRUE(r.ok()) << r.errors().ToString();
  const Map& m = *r;
  const MapLayout& l = m.grid.layout();
  // even-r: row 01 is not shoved, row 00 and 02 are; so 0000 -> 0100 is SW, 0100 -> 0200 is SE.
  EXPECT_EQ(m.Side(m.Index("0000"), l.DirectionFromName("SW")), m.FeatureBit("road"));
  EXPECT_EQ(m.Side(m.Index("0100"), l.DirectionFromName("SE")), m.FeatureBit("road"));
  EXPECT_EQ(m.Index("0300"), -1);
}

// --- Errors ----------------------------------------------------------------

// Nine lines; whatever is appended starts on line 10.
const char* const kHead =
    "name: T\n"
    "provenance: test\n"
    "layout: {orientation: flat, offset: odd, label: col_row, cols: 6, rows: 5}\n"
    "vocabulary:\n"
    "  terrain: [clear, woods]\n"
    "  features: [creek, slope, road]\n"
    "  directed: [slope]\n"
    "  paths: [road]\n"
    "  place_kinds: [house, ferry]\n"
    "  default_terrain: clear\n";

std::string Errors(const std::string& text, const MapVocabulary* v = nullptr) {
  auto r = LoadMapFromString(text, "t.yaml", v);
  EXPECT_FALSE(r.ok());
  return r.ok() ? std::string("(loaded)") : r.errors().ToString();
}

TEST(MapErrors, HeadAloneLoads) {
  auto r = LoadMapFromString(kHead, "t.yaml");
  EXPECT_TRUE(r.ok()) << r.errors().ToString();
}

TEST(MapErrors, EmptySectionsLoad) {
  auto r = LoadMapFromString(std::string(kHead) + "terrain:\nhexsides:\npaths:\nplaces:\n", "t.yaml");
  EXPECT_TRUE(r.ok()) << r.errors().ToString();
}

TEST(MapErrors, PathOfOneHex) {
  EXPECT_EQ(Errors(std::string(kHead) + "paths:\n  road:\n    - [0101]\n"),
            "t.yaml:13:7: paths.road[0]: a path needs at least two hexes\n");
}

TEST(MapErrors, UnknownTopLevelKey) {
  EXPECT_EQ(Errors(std::string(kHead) + "terain:\n  woods: [0101]\n"),
            "t.yaml:11:1: terain: unknown key (expected one of: name, provenance, layout, "
            "vocabulary, terrain, hexsides, paths, places)\n");
}

TEST(MapErrors, UnknownNestedKeys) {
  EXPECT_EQ(Errors("name: T\nprovenance: p\nlayout: {orientation: flat, offset: odd, "
                   "label: col_row, cols: 6, rows: 5, colls: 3}\nvocabulary:\n  terrain: [clear]\n"
                   "  default_terrain: clear\n  featurs: []\n"),
            "t.yaml:7:3: vocabulary.featurs: unknown key (expected one of: terrain, features, "
            "directed, paths, place_kinds, default_terrain)\n"
            "t.yaml:3:76: layout.colls: unknown key (expected one of: orientation, offset, label, "
            "first_label, cols, rows)\n");
  EXPECT_EQ(Errors(std::string(kHead) + "places:\n  - {name: A, kind: house, hexes: [0101], "
                                        "hexs: [0102]}\n"),
            "t.yaml:12:43: places[0].hexs: unknown key (expected one of: name, kind, hexes, "
            "enter, exit, attributes)\n");
}

TEST(MapErrors, MissingRequiredKeys) {
  EXPECT_EQ(Errors("name: T\nlayout: {orientation: flat, offset: odd, label: col_row, rows: 5}\n"
                   "vocabulary: {terrain: [clear], default_terrain: clear}\n"),
            "t.yaml:1:1: provenance: missing required key\n"
            "t.yaml:2:9: layout.cols: missing required key\n");
  EXPECT_EQ(Errors(std::string(kHead) + "places:\n  - {name: A, hexes: [0101]}\n"),
            "t.yaml:12:5: places[0].kind: missing required key\n");
}

TEST(MapErrors, WrongTypes) {
  EXPECT_EQ(Errors("name: T\nprovenance: [a, b]\nlayout: {orientation: flat, offset: odd, "
                   "label: col_row, cols: six, rows: 5}\n"
                   "vocabulary: {terrain: [clear], default_terrain: clear}\n"),
            "t.yaml:2:13: provenance: expected a string\n"
            "t.yaml:3:64: layout.cols: expected an integer, got \"six\"\n");
  EXPECT_EQ(Errors(std::string(kHead) + "terrain: [woods]\n"),
            "t.yaml:11:10: terrain: expected a map\n");
  EXPECT_EQ(Errors(std::string(kHead) + "layout2: 1\n").find("layout2: unknown key") !=
                std::string::npos,
            true);
}

TEST(MapErrors, BadLayoutChoice) {
  EXPECT_EQ(Errors("name: T\nprovenance: p\nlayout: {orientation: flat, offset: odd, "
                   "label: colrow, cols: 6, rows: 5}\n"
                   "vocabulary: {terrain: [clear], default_terrain: clear}\n"),
            "t.yaml:3:49: layout.label: expected one of: col_row, row_col (got \"colrow\")\n");
}

TEST(MapErrors, UnknownTerrainName) {
  EXPECT_EQ(Errors(std::string(kHead) + "terrain:\n  swamp: [0101]\n"),
            "t.yaml:12:3: terrain.swamp: unknown terrain \"swamp\" (expected one of: clear, "
            "woods)\n");
}

TEST(MapErrors, UnknownFeatureName) {
  EXPECT_EQ(Errors(std::string(kHead) + "hexsides:\n  stream:\n    - [0101, N]\n"),
            "t.yaml:12:3: hexsides.stream: unknown feature \"stream\" (expected one of: creek, "
            "slope, road)\n");
  EXPECT_EQ(Errors(std::string(kHead) + "paths:\n  creek:\n    - [0101, 0102]\n"),
            "t.yaml:12:3: paths.creek: \"creek\" is not a path feature: list it under hexsides\n");
  EXPECT_EQ(Errors(std::string(kHead) + "hexsides:\n  road:\n    - [0101, 0102]\n"),
            "t.yaml:12:3: hexsides.road: \"road\" is a path feature: list it under paths\n");
}

TEST(MapErrors, UnknownPlaceKind) {
  EXPECT_EQ(Errors(std::string(kHead) + "places:\n  - {name: A, kind: castle, hexes: [0101]}\n"),
            "t.yaml:12:21: places[0].kind: unknown place kind \"castle\" (expected one of: "
            "house, ferry)\n");
}

TEST(MapErrors, MalformedLabel) {
  EXPECT_EQ(Errors(std::string(kHead) + "terrain:\n  woods: [0101, 12a4, 101]\n"),
            "t.yaml:12:17: terrain.woods[1]: \"12a4\" is not a hex label (expected four digits "
            "XXYY)\n"
            "t.yaml:12:23: terrain.woods[2]: \"101\" is not a hex label (expected four digits "
            "XXYY)\n");
}

TEST(MapErrors, HexOffTheMap) {
  EXPECT_EQ(Errors(std::string(kHead) + "terrain:\n  woods: [0606, 0700]\n"),
            "t.yaml:12:11: terrain.woods[0]: hex 0606 is off the map\n"
            "t.yaml:12:17: terrain.woods[1]: hex 0700 is off the map\n");
  EXPECT_EQ(Errors(std::string(kHead) + "terrain:\n  woods: [0103-0106]\n"),
            "t.yaml:12:11: terrain.woods[0]: range 0103-0106: hex 0106 is off the map\n");
}

TEST(MapErrors, HexsideOfNonAdjacentHexes) {
  EXPECT_EQ(Errors(std::string(kHead) + "hexsides:\n  creek:\n    - [0203, 0205]\n"),
            "t.yaml:13:7: hexsides.creek[0]: hexes 0203 and 0205 are not adjacent\n");
}

TEST(MapErrors, BadDirectionName) {
  EXPECT_EQ(Errors(std::string(kHead) + "hexsides:\n  creek:\n    - [0203, E]\n"),
            "t.yaml:13:14: hexsides.creek[0][1]: unknown direction \"E\" (expected one of: N, NE, "
            "SE, S, SW, NW)\n");
  EXPECT_EQ(Errors(std::string(kHead) + "places:\n  - {name: F, kind: ferry, hexes: [0101], "
                                        "exit: [S, up]}\n"),
            "t.yaml:12:53: places[0].exit[1]: unknown direction \"up\" (expected one of: N, NE, "
            "SE, S, SW, NW)\n");
}

TEST(MapErrors, PathThatJumps) {
  EXPECT_EQ(Errors(std::string(kHead) + "paths:\n  road:\n    - [0101, 0102, 0104]\n"),
            "t.yaml:13:20: paths.road[0][2]: path jumps from 0102 to 0104 (not adjacent)\n");
}

TEST(MapErrors, RangeEndsShareNoDigitPair) {
  EXPECT_EQ(Errors(std::string(kHead) + "terrain:\n  woods: [0102-0203]\n"),
            "t.yaml:12:11: terrain.woods[0]: range 0102-0203: the ends share neither digit "
            "pair\n");
  EXPECT_EQ(Errors(std::string(kHead) + "terrain:\n  woods: [0104-0102]\n"),
            "t.yaml:12:11: terrain.woods[0]: range 0104-0102: must count up from the first end "
            "to the second\n");
}

TEST(MapErrors, DirectedFeatureWithOppositeDesignations) {
  EXPECT_EQ(Errors(std::string(kHead) + "hexsides:\n  slope:\n    - [0203, 0204]\n"
                                        "    - [0204, 0203]\n"),
            "t.yaml:14:7: hexsides.slope[1]: \"slope\" on this hexside is already listed at "
            "13:7 with the opposite designated hex 0204\n");
  // [hex, DIR] designates the hex itself: [0204, N] is the same as [0203, 0204].
  EXPECT_EQ(Errors(std::string(kHead) + "hexsides:\n  slope:\n    - [0204, N]\n"
                                        "    - [0204, 0203]\n"),
            "t.yaml:14:7: hexsides.slope[1]: \"slope\" on this hexside is already listed at "
            "13:7 with the opposite designated hex 0204\n");
  // The same designation twice is fine.
  auto ok = LoadMapFromString(std::string(kHead) + "hexsides:\n  slope:\n    - [0204, N]\n"
                                                   "    - [0203, 0204]\n",
                              "t.yaml");
  EXPECT_TRUE(ok.ok()) << ok.errors().ToString();
}

TEST(MapErrors, DuplicatePlaceName) {
  EXPECT_EQ(Errors(std::string(kHead) + "places:\n  - {name: A, kind: house, hexes: [0101]}\n"
                                        "  - {name: A, kind: ferry, hexes: [0102]}\n"),
            "t.yaml:13:12: places[1].name: duplicate place name \"A\"\n");
}

TEST(MapErrors, VocabularyGivenTwiceOrMissing) {
  MapVocabulary v;
  v.terrain = {"clear"};
  v.default_terrain = "clear";
  EXPECT_EQ(Errors(kHead, &v),
            "t.yaml:4:1: vocabulary: not allowed here: the ruleset supplies the vocabulary\n");
  EXPECT_EQ(Errors("name: T\nprovenance: p\nlayout: {orientation: flat, offset: odd, "
                   "label: col_row, cols: 6, rows: 5}\n"),
            "t.yaml:1:1: vocabulary: missing required key (no ruleset vocabulary was passed in)\n");
}

TEST(MapErrors, BadVocabulary) {
  std::string names;
  for (int i = 0; i < 33; ++i) names += (i ? ", t" : "t") + std::to_string(i);
  EXPECT_EQ(Errors("name: T\nprovenance: p\nlayout: {orientation: flat, offset: odd, "
                   "label: col_row, cols: 6, rows: 5}\nvocabulary:\n  terrain: [" +
                   names + "]\n  directed: [slope]\n  default_terrain: mud\n"),
            "t.yaml:5:12: vocabulary.terrain: at most 32 terrain names are allowed, got 33\n"
            "t.yaml:6:14: vocabulary.directed[0]: \"slope\" is not listed under "
            "vocabulary.features\n"
            "t.yaml:7:20: vocabulary.default_terrain: unknown terrain \"mud\" (expected one of: " +
                [&] {
                  std::string s;
                  for (int i = 0; i < 33; ++i) s += (i ? ", t" : "t") + std::to_string(i);
                  return s;
                }() +
                ")\n");
}

TEST(MapErrors, SyntaxErrorHasAPosition) {
  const std::string e = Errors("name: T\nprovenance: [unclosed\n");
  EXPECT_EQ(e.rfind("t.yaml:", 0), 0u) << e;
  EXPECT_NE(e.find(":3:"), std::string::npos) << e;
}

TEST(MapErrors, MissingFileIsAnError) {
  auto r = LoadMap(std::string(WG_TEST_DATA_DIR) + "/maps/no_such_map.yaml");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.errors().ToString().find("no_such_map.yaml: cannot open file"), std::string::npos);
}

TEST(MapErrors, SeveralErrorsAreAllReported) {
  auto r = LoadMapFromString(std::string(kHead) +
                                 "terrain:\n"
                                 "  woods: [0101, 9999]\n"
                                 "  swamp: [0102]\n"
                                 "hexsides:\n"
                                 "  creek:\n"
                                 "    - [0101, X]\n"
                                 "paths:\n"
                                 "  road:\n"
                                 "    - [0101, 0103]\n"
                                 "places:\n"
                                 "  - {name: A, kind: hut, hexes: [0101]}\n",
                             "t.yaml");
  ASSERT_FALSE(r.ok());
  ASSERT_EQ(r.errors().size(), 5u) << r.errors().ToString();
  const auto& e = r.errors().errors();
  EXPECT_EQ(e[0].path, "terrain.woods[1]");
  EXPECT_EQ(e[1].path, "terrain.swamp");
  EXPECT_EQ(e[2].path, "hexsides.creek[0][1]");
  EXPECT_EQ(e[3].path, "paths.road[0][1]");
  EXPECT_EQ(e[4].path, "places[0].kind");
  EXPECT_EQ(e[4].line, 21);
}

// --- A vocabulary from the ruleset -------------------------------------------

TEST(MapVocabularyPassedIn, IsUsedAndRefusesOtherTerrain) {
  MapVocabulary v;
  v.terrain = {"open", "forest", "town"};
  v.features = {"stream", "pike"};
  v.paths = {"pike"};
  v.place_kinds = {"objective"};
  v.default_terrain = "open";
  const std::string base =
      "name: R\nprovenance: p\n"
      "layout: {orientation: flat, offset: odd, label: col_row, cols: 4, rows: 4}\n";
  auto r = LoadMapFromString(base +
                                 "terrain: {forest: [0202], town: [0303]}\n"
                                 "paths: {pike: [[0101, 0102]]}\n"
                                 "places: [{name: O, kind: objective, hexes: [0303]}]\n",
                             "r.yaml", &v);
  ASSERT_TRUE(r.ok()) << r.errors().ToString();
  EXPECT_EQ(r->vocabulary.terrain, v.terrain);
  EXPECT_EQ(r->TerrainId("town"), 2);
  EXPECT_EQ(r->terrain[r->Index("0303")], 1u << 2);
  EXPECT_EQ(r->terrain[r->Index("0404")], 1u << 0);  // default "open"
  EXPECT_EQ(r->Side(r->Index("0101"), r->grid.layout().DirectionFromName("S")), 1u << 1);

  EXPECT_EQ(Errors(base + "terrain: {woods: [0202]}\n", &v),
            "t.yaml:4:11: terrain.woods: unknown terrain \"woods\" (expected one of: open, "
            "forest, town)\n");
}

TEST(MapVocabularyPassedIn, BadDefaultTerrainIsAnError) {
  MapVocabulary v;
  v.terrain = {"open"};
  v.default_terrain = "clear";
  EXPECT_EQ(Errors("name: R\nprovenance: p\n"
                   "layout: {orientation: flat, offset: odd, label: col_row, cols: 4, rows: 4}\n",
                   &v),
            "t.yaml: vocabulary.default_terrain: the ruleset's default terrain \"clear\" is not "
            "one of its terrain names\n");
}

}  // namespace
}  // namespace wg
