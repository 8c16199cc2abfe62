// Movement: the cost model and its loader, zones of control, the Dial search
// (golden hand-made maps, one per rule), CheckPath reasons, the Boost.Graph
// reference on random maps, and no heap allocation per query.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>
#include <random>

#include "counting_new.h"  // so a test can prove Search allocates nothing
#include "wargame/movement.h"
#include "wargame/pathfinder.h"

namespace wg {
namespace {

constexpr const char* kRulesYaml = R"(movement:
  classes: [infantry, cavalry, artillery, supply]
  terrain_cost:
    clear: 1
    woods: {infantry: 1, cavalry: 2, artillery: P, supply: P}
    city: 1
    marsh: {all: 2, cavalry: P}
  combine: max
  hexside_cost:
    creek: 1
    river: {infantry: 3, cavalry: 3, artillery: P, supply: P}
    slope: {all: 1, directed: true}
  paths:
    road:  {cost: 0.5, negates_hexside: true, ignores_terrain: true}
    trail: {cost: 1,   negates_hexside: true, ignores_terrain: true}
  path_crossing_cost:
    - {path: trail, feature: river, cost: 1}
  prohibited_unless_path: {artillery: [woods], supply: all}
  road_like_terrain: [city]
  minimum_one_hex: false
)";

enum Cls { kInf = 0, kCav = 1, kArt = 2, kSup = 3 };

MapVocabulary TestVocabulary() {
  MapVocabulary v;
  v.terrain = {"clear", "woods", "city", "marsh"};
  v.features = {"creek", "river", "slope", "road", "trail", "bridge"};
  v.directed = {"slope"};
  v.paths = {"road", "trail"};
  v.default_terrain = "clear";
  return v;
}

// A clear map of cols x rows (flat-top, odd columns shoved down, labels CCRR from 0101).
Map MakeMap(int cols, int rows) {
  Map m;
  MapLayout layout;
  layout.cols = cols;
  layout.rows = rows;
  m.grid = HexGrid(layout);
  m.vocabulary = TestVocabulary();
  const size_t n = static_cast<size_t>(m.grid.size());
  m.terrain.assign(n, 1u << 0);
  m.sides.assign(n * 6, 0);
  m.toward.assign(n * 6, 0);
  m.enter_dirs.assign(n, kAllDirections);
  m.exit_dirs.assign(n, kAllDirections);
  return m;
}

int Idx(const Map& m, const char* label) {
  const int i = m.Index(label);
  EXPECT_GE(i, 0) << label;
  return i;
}
void SetTerrain(Map& m, const char* label, std::initializer_list<const char*> names) {
  TerrainMask t = 0;
  for (const char* n : names) t |= m.TerrainBit(n);
  m.terrain[static_cast<size_t>(Idx(m, label))] = t;
}
int Dir(const Map& m, int a, int b) { return DirectionTo(m.grid.HexAt(a), m.grid.HexAt(b)); }
void AddSideIdx(Map& m, int a, int b, FeatureMask bit) {
  const int d = Dir(m, a, b);
  ASSERT_GE(d, 0);
  m.sides[static_cast<size_t>(a) * 6 + static_cast<size_t>(d)] |= bit;
  m.sides[static_cast<size_t>(b) * 6 + static_cast<size_t>(OppositeDirection(d))] |= bit;
}
void AddSide(Map& m, const char* a, const char* b, const char* feature) {
  AddSideIdx(m, Idx(m, a), Idx(m, b), m.FeatureBit(feature));
}
// A directed feature whose designated (upslope) hex is `upper`.
void AddDirected(Map& m, const char* lower, const char* upper, const char* feature) {
  AddSide(m, lower, upper, feature);
  const int a = Idx(m, lower), b = Idx(m, upper);
  m.toward[static_cast<size_t>(a) * 6 + static_cast<size_t>(Dir(m, a, b))] |= m.FeatureBit(feature);
}
void AddPath(Map& m, const char* feature, std::initializer_list<const char*> labels) {
  const char* prev = nullptr;
  for (const char* l : labels) {
    if (prev) AddSide(m, prev, l, feature);
    prev = l;
  }
}

MovementRules LoadRules(const std::string& text) {
  YamlReader r = YamlReader::FromString(text, "rules.yaml");
  EXPECT_TRUE(r.ok()) << r.errors().ToString();
  auto rules = LoadMovementRules(r, r.root()["movement"], "movement", TestVocabulary());
  EXPECT_TRUE(rules.ok()) << (rules.ok() ? "" : rules.errors().ToString());
  return rules.ok() ? *rules : MovementRules{};
}

MoveQuery Query(const Map& m, const char* start, int allowance, int cls) {
  MoveQuery q;
  q.start = Idx(m, start);
  q.allowance = allowance;
  q.classes = MoveClassBit(cls);
  return q;
}

// Cost to reach `label`, or -1.
int CostTo(const Reachable& r, const Map& m, const char* label) {
  const int h = Idx(m, label);
  return r.Reached(h) ? r.Cost(h) : -1;
}

// --- Loader ----------------------------------------------------------------------

TEST(MovementRulesLoader, ConvertsToHalfPoints) {
  const MovementRules r = LoadRules(kRulesYaml);
  ASSERT_EQ(r.num_classes(), 4);
  EXPECT_EQ(r.terrain_cost[kInf][0], 2);       // clear 1 MP
  EXPECT_EQ(r.terrain_cost[kCav][1], 4);       // woods 2 MP for cavalry
  EXPECT_EQ(r.terrain_cost[kArt][1], kProhibitedCost);
  EXPECT_EQ(r.terrain_cost[kInf][3], 4);       // marsh all: 2
  EXPECT_EQ(r.terrain_cost[kCav][3], kProhibitedCost);
  ASSERT_EQ(r.paths.size(), 2u);
  EXPECT_EQ(r.paths[0].cost[kInf], 1);  // road 0.5 MP
  EXPECT_EQ(r.paths[1].cost[kSup], 2);
  ASSERT_EQ(r.crossings.size(), 1u);
  EXPECT_EQ(r.crossings[0].cost, 2);
  EXPECT_EQ(r.directed_cost, 1u << 2);  // slope
  EXPECT_EQ(r.path_only_terrain[kArt], 1u << 1);
  EXPECT_TRUE(r.path_only_all[kSup]);
  EXPECT_FALSE(r.path_only_all[kInf]);
  EXPECT_EQ(r.road_like, 1u << 2);
  EXPECT_FALSE(r.combine_sum);
}

TEST(MovementRulesLoader, ReportsUnknownNamesAndBadNumbersWithPositions) {
  const std::string text = R"(movement:
  classes: [infantry]
  terrain_cost:
    swamp: 1
    clear: 0.3
    woods: {infantry: 1, horse: 2}
  hexside_cost:
    canal: 1
  paths:
    road: {cost: 0.5}
  prohibited_unless_path: {artillery: [woods]}
  combine: average
  speed: 3
)";
  YamlReader r = YamlReader::FromString(text, "rules.yaml");
  auto rules = LoadMovementRules(r, r.root()["movement"], "movement", TestVocabulary());
  ASSERT_FALSE(rules.ok());
  const std::string all = rules.errors().ToString();
  EXPECT_NE(all.find("rules.yaml:4:5: movement.terrain_cost.swamp: unknown terrain \"swamp\""),
            std::string::npos)
      << all;
  EXPECT_NE(all.find("movement.terrain_cost.clear: expected a non-negative multiple of 0.5"),
            std::string::npos)
      << all;
  EXPECT_NE(all.find("movement.terrain_cost.woods.horse: unknown movement class \"horse\""),
            std::string::npos)
      << all;
  EXPECT_NE(all.find("movement.hexside_cost.canal: unknown feature \"canal\""), std::string::npos)
      << all;
  EXPECT_NE(all.find("movement.prohibited_unless_path.artillery: unknown movement class"),
            std::string::npos)
      << all;
  EXPECT_NE(all.find("movement.combine: expected max or sum"), std::string::npos) << all;
  EXPECT_NE(all.find("movement.speed: unknown key"), std::string::npos) << all;
}

TEST(MovementRulesLoader, RequiresACostForEveryClass) {
  const std::string text =
      "movement:\n  classes: [infantry, cavalry]\n  terrain_cost:\n    woods: {infantry: 1}\n";
  YamlReader r = YamlReader::FromString(text, "rules.yaml");
  auto rules = LoadMovementRules(r, r.root()["movement"], "movement", TestVocabulary());
  ASSERT_FALSE(rules.ok());
  EXPECT_NE(rules.errors().ToString().find("no cost for movement class \"cavalry\""),
            std::string::npos);
}

TEST(MovementRulesLoader, DirectedNeedsADirectedFeature) {
  const std::string text =
      "movement:\n  classes: [infantry]\n  hexside_cost:\n    creek: {all: 1, directed: true}\n";
  YamlReader r = YamlReader::FromString(text, "rules.yaml");
  auto rules = LoadMovementRules(r, r.root()["movement"], "movement", TestVocabulary());
  ASSERT_FALSE(rules.ok());
  EXPECT_NE(rules.errors().ToString().find("not a directed feature"), std::string::npos);
}

// --- Golden costs --------------------------------------------------------------------

class MovementGolden : public ::testing::Test {
 protected:
  MovementRules rules_ = LoadRules(kRulesYaml);
};

TEST_F(MovementGolden, RoadHalfPointsOnlyAlongTheRoad) {
  Map m = MakeMap(4, 6);
  AddPath(m, "road", {"0101", "0102", "0103", "0104"});
  Pathfinder pf(m, rules_);
  const Reachable& r = pf.Search(Query(m, "0101", 20, kInf));
  EXPECT_EQ(CostTo(r, m, "0102"), 1);
  EXPECT_EQ(CostTo(r, m, "0104"), 3);
  EXPECT_EQ(CostTo(r, m, "0105"), 5);  // off the road end: clear 1 MP
  EXPECT_EQ(CostTo(r, m, "0201"), 2);  // beside the road, not along it
  EXPECT_EQ(pf.Path(Idx(m, "0104")), (std::vector<int>{Idx(m, "0102"), Idx(m, "0103"), Idx(m, "0104")}));
}

TEST_F(MovementGolden, RoadNegatesCreek) {
  Map m = MakeMap(1, 6);
  AddPath(m, "road", {"0101", "0102", "0103"});
  AddSide(m, "0102", "0103", "creek");
  AddSide(m, "0103", "0104", "creek");
  Pathfinder pf(m, rules_);
  const Reachable& r = pf.Search(Query(m, "0101", 20, kInf));
  EXPECT_EQ(CostTo(r, m, "0103"), 2);      // 1/2 + 1/2, creek negated
  EXPECT_EQ(CostTo(r, m, "0104"), 2 + 4);  // clear 1 + creek 1
}

TEST_F(MovementGolden, TrailFordCostsExtraAndLetsArtilleryCross) {
  Map m = MakeMap(1, 4);
  AddSide(m, "0102", "0103", "river");
  Pathfinder pf(m, rules_);
  EXPECT_EQ(CostTo(pf.Search(Query(m, "0102", 20, kInf)), m, "0103"), 2 + 6);
  EXPECT_EQ(CostTo(pf.Search(Query(m, "0102", 20, kArt)), m, "0103"), -1);
  AddPath(m, "trail", {"0102", "0103"});
  Pathfinder pf2(m, rules_);
  EXPECT_EQ(CostTo(pf2.Search(Query(m, "0102", 20, kInf)), m, "0103"), 2 + 2);  // trail 1 + ford 1
  EXPECT_EQ(CostTo(pf2.Search(Query(m, "0102", 20, kArt)), m, "0103"), 4);
}

TEST_F(MovementGolden, DirectedSlopeCostsOnlyUpslope) {
  Map m = MakeMap(1, 3);
  AddDirected(m, "0102", "0101", "slope");  // 0101 is upslope
  Pathfinder pf(m, rules_);
  EXPECT_EQ(CostTo(pf.Search(Query(m, "0102", 20, kInf)), m, "0101"), 4);
  EXPECT_EQ(CostTo(pf.Search(Query(m, "0101", 20, kInf)), m, "0102"), 2);
}

TEST_F(MovementGolden, ProhibitedTerrainIsNotEntered) {
  Map m = MakeMap(1, 3);
  SetTerrain(m, "0102", {"marsh"});
  Pathfinder pf(m, rules_);
  EXPECT_EQ(CostTo(pf.Search(Query(m, "0101", 20, kCav)), m, "0102"), -1);
  EXPECT_EQ(CostTo(pf.Search(Query(m, "0101", 20, kCav)), m, "0103"), -1);
  EXPECT_EQ(CostTo(pf.Search(Query(m, "0101", 20, kInf)), m, "0102"), 4);
}

TEST_F(MovementGolden, ArtilleryEntersWoodsOnlyAlongAPath) {
  Map m = MakeMap(2, 3);
  SetTerrain(m, "0102", {"woods"});
  SetTerrain(m, "0202", {"woods"});
  AddPath(m, "trail", {"0101", "0102", "0103"});
  Pathfinder pf(m, rules_);
  const Reachable& r = pf.Search(Query(m, "0101", 20, kArt));
  EXPECT_EQ(CostTo(r, m, "0102"), 2);  // along the trail
  EXPECT_EQ(CostTo(r, m, "0103"), 4);
  EXPECT_EQ(CostTo(r, m, "0202"), -1);  // woods off the trail
  EXPECT_EQ(CostTo(pf.Search(Query(m, "0101", 20, kInf)), m, "0202"), 4);
}

TEST_F(MovementGolden, SupplyMovesOnlyAlongPaths) {
  Map m = MakeMap(2, 4);
  AddPath(m, "road", {"0101", "0102", "0103"});
  Pathfinder pf(m, rules_);
  const Reachable& r = pf.Search(Query(m, "0101", 20, kSup));
  EXPECT_EQ(CostTo(r, m, "0103"), 2);
  EXPECT_EQ(CostTo(r, m, "0104"), -1);
  EXPECT_EQ(CostTo(r, m, "0201"), -1);
  EXPECT_EQ(static_cast<int>(r.hexes().size()), 3);
}

TEST_F(MovementGolden, CityCostsRoadRateFromRoadOrCity) {
  Map m = MakeMap(1, 6);
  AddPath(m, "road", {"0101", "0102"});
  SetTerrain(m, "0103", {"city"});
  SetTerrain(m, "0104", {"city"});
  SetTerrain(m, "0106", {"city"});
  Pathfinder pf(m, rules_);
  const Reachable& r = pf.Search(Query(m, "0101", 20, kInf));
  EXPECT_EQ(CostTo(r, m, "0103"), 2);      // road, then from a road hex into city: 1/2
  EXPECT_EQ(CostTo(r, m, "0104"), 3);      // city to city: 1/2
  EXPECT_EQ(CostTo(r, m, "0105"), 5);      // clear
  EXPECT_EQ(CostTo(r, m, "0106"), 7);      // from clear (no road) into city: 1 MP
}

TEST_F(MovementGolden, CombineMaxOrSum) {
  Map m = MakeMap(1, 2);
  SetTerrain(m, "0102", {"clear", "woods"});
  {
    Pathfinder pf(m, rules_);
    EXPECT_EQ(CostTo(pf.Search(Query(m, "0101", 20, kCav)), m, "0102"), 4);
  }
  std::string text = kRulesYaml;
  text.replace(text.find("combine: max"), 12, "combine: sum");
  const MovementRules sum = LoadRules(text);
  ASSERT_TRUE(sum.combine_sum);
  Pathfinder pf(m, sum);
  EXPECT_EQ(CostTo(pf.Search(Query(m, "0101", 20, kCav)), m, "0102"), 6);
}

TEST_F(MovementGolden, MinimumOneHex) {
  Map m = MakeMap(1, 4);
  SetTerrain(m, "0103", {"woods"});
  Pathfinder pf(m, rules_);
  MoveQuery q = Query(m, "0102", 1, kInf);
  EXPECT_EQ(CostTo(pf.Search(q), m, "0101"), -1);
  q.minimum_one_hex = true;
  const Reachable& r = pf.Search(q);
  ASSERT_EQ(CostTo(r, m, "0101"), 2);
  EXPECT_TRUE(r.MustStop(Idx(m, "0101")));
  EXPECT_EQ(CostTo(r, m, "0104"), -1);  // only one hex
  MoveQuery a = Query(m, "0102", 1, kArt);
  a.minimum_one_hex = true;
  const Reachable& ra = pf.Search(a);
  EXPECT_EQ(CostTo(ra, m, "0103"), -1);  // never into prohibited terrain
  EXPECT_EQ(CostTo(ra, m, "0101"), 2);
}

TEST_F(MovementGolden, FerryEnterAndExitDirections) {
  Map m = MakeMap(1, 6);
  const int ferry = Idx(m, "0103");
  const int south = Dir(m, Idx(m, "0102"), ferry);
  m.enter_dirs[static_cast<size_t>(ferry)] = static_cast<uint8_t>(1u << south);
  Pathfinder pf(m, rules_);
  EXPECT_EQ(CostTo(pf.Search(Query(m, "0101", 20, kInf)), m, "0103"), 4);
  EXPECT_EQ(CostTo(pf.Search(Query(m, "0105", 20, kInf)), m, "0103"), -1);
  m.exit_dirs[static_cast<size_t>(ferry)] = static_cast<uint8_t>(1u << OppositeDirection(south));
  Pathfinder pf2(m, rules_);
  EXPECT_EQ(CostTo(pf2.Search(Query(m, "0101", 20, kInf)), m, "0104"), -1);
  EXPECT_EQ(CostTo(pf2.Search(Query(m, "0103", 20, kInf)), m, "0102"), 2);
}

TEST_F(MovementGolden, EnemyOccupiedRefusedOverrunnableAllowed) {
  Map m = MakeMap(1, 5);
  std::vector<uint8_t> enemy(static_cast<size_t>(m.size()), 0), over(enemy.size(), 0);
  enemy[static_cast<size_t>(Idx(m, "0103"))] = 1;
  Pathfinder pf(m, rules_);
  MoveQuery q = Query(m, "0101", 20, kInf);
  q.enemy = enemy.data();
  EXPECT_EQ(CostTo(pf.Search(q), m, "0103"), -1);
  EXPECT_EQ(CostTo(pf.Search(q), m, "0104"), -1);
  over[static_cast<size_t>(Idx(m, "0103"))] = 1;
  q.overrunnable = over.data();
  EXPECT_EQ(CostTo(pf.Search(q), m, "0103"), 4);
  EXPECT_EQ(CostTo(pf.Search(q), m, "0104"), 6);
}

TEST_F(MovementGolden, ReinforcementsEnterFromOffMap) {
  Map m = MakeMap(2, 4);
  SetTerrain(m, "0201", {"woods"});
  const std::vector<int> entry = {Idx(m, "0101"), Idx(m, "0201")};
  Pathfinder pf(m, rules_);
  MoveQuery q;
  q.start = -1;
  q.entry_hexes = entry;
  q.allowance = 6;
  q.classes = MoveClassBit(kCav);
  const Reachable& r = pf.Search(q);
  EXPECT_EQ(CostTo(r, m, "0101"), 2);
  EXPECT_EQ(CostTo(r, m, "0201"), 4);  // woods 2 MP for cavalry
  EXPECT_EQ(CostTo(r, m, "0103"), 6);
  EXPECT_EQ(pf.Path(Idx(m, "0103")), (std::vector<int>{Idx(m, "0101"), Idx(m, "0102"), Idx(m, "0103")}));
  q.entry_cost = 4;
  EXPECT_EQ(CostTo(pf.Search(q), m, "0101"), 4);
  EXPECT_EQ(CostTo(pf.Search(q), m, "0103"), -1);
}

TEST_F(MovementGolden, StackMovesAtSlowestAllowanceAndMostRestrictiveClass) {
  Map m = MakeMap(2, 4);
  SetTerrain(m, "0102", {"woods"});
  Pathfinder pf(m, rules_);
  MoveQuery base = Query(m, "0101", 0, kInf);
  const StackMember members[] = {{10, kCav}, {6, kInf}};
  const MoveQuery q = StackQuery(base, members);
  EXPECT_EQ(q.allowance, 6);
  EXPECT_EQ(q.moving_count, 2);
  const Reachable& r = pf.Search(q);
  EXPECT_EQ(CostTo(r, m, "0102"), 4);  // cavalry's woods cost
  const StackMember with_guns[] = {{10, kCav}, {8, kArt}};
  EXPECT_EQ(CostTo(pf.Search(StackQuery(base, with_guns)), m, "0102"), -1);
}

TEST_F(MovementGolden, StackingLimitAtEndOfMove) {
  Map m = MakeMap(1, 4);
  std::vector<uint8_t> friendly(static_cast<size_t>(m.size()), 0);
  friendly[static_cast<size_t>(Idx(m, "0102"))] = 2;
  Pathfinder pf(m, rules_);
  MoveQuery q = Query(m, "0101", 20, kInf);
  q.friendly_count = friendly.data();
  q.stack_limit = 2;
  const Reachable& r = pf.Search(q);
  EXPECT_TRUE(r.Reached(Idx(m, "0102")));
  EXPECT_FALSE(r.CanEnd(Idx(m, "0102")));  // may pass through, not stop
  EXPECT_TRUE(r.CanEnd(Idx(m, "0103")));
  EXPECT_EQ(CostTo(r, m, "0103"), 4);
}

// --- Zones of control ----------------------------------------------------------------

class ZocTest : public MovementGolden {
 protected:
  void SetUp() override { m_ = MakeMap(1, 8); }
  const ZocField& Field(std::initializer_list<const char*> sources) {
    std::vector<ZocSource> s;
    for (const char* l : sources) s.push_back({Idx(m_, l), ZocKind::kSix});
    field_.Compute(m_, zoc_, s);
    return field_;
  }
  MoveQuery Q(const char* start, bool started_in_ezoc) {
    MoveQuery q = Query(m_, start, 40, kInf);
    q.zoc = &field_;
    q.zoc_rules = &zoc_;
    q.started_in_ezoc = started_in_ezoc;
    return q;
  }
  Map m_;
  ZocRules zoc_;
  ZocField field_;
};

TEST_F(ZocTest, EnteringAnEzocStopsTheUnit) {
  Field({"0105"});
  Pathfinder pf(m_, rules_);
  const Reachable& r = pf.Search(Q("0101", false));
  EXPECT_EQ(CostTo(r, m_, "0104"), 6);
  EXPECT_TRUE(r.MustStop(Idx(m_, "0104")));
  EXPECT_EQ(CostTo(r, m_, "0105"), -1);  // reachable only through a terminal hex
  EXPECT_EQ(CostTo(r, m_, "0107"), -1);
  zoc_.stop_on_entry = false;
  EXPECT_EQ(CostTo(pf.Search(Q("0101", false)), m_, "0107"), 12);
}

TEST_F(ZocTest, LeavingCostsExtraOnlyWhenStartedInEzoc) {
  zoc_.leave_cost = 2;
  Field({"0105"});
  Pathfinder pf(m_, rules_);
  EXPECT_EQ(CostTo(pf.Search(Q("0104", true)), m_, "0103"), 4);
  EXPECT_EQ(CostTo(pf.Search(Q("0104", true)), m_, "0101"), 8);
  EXPECT_EQ(CostTo(pf.Search(Q("0103", false)), m_, "0102"), 2);
}

TEST_F(ZocTest, LeaveOnlyIfStartedThere) {
  zoc_.stop_on_entry = false;
  zoc_.leave_only_if_started = true;
  Field({"0105"});
  Pathfinder pf(m_, rules_);
  const Reachable& r = pf.Search(Q("0101", false));
  EXPECT_EQ(CostTo(r, m_, "0104"), 6);
  EXPECT_EQ(CostTo(r, m_, "0105"), -1);  // entered 0104 during the move: may not leave it
  EXPECT_EQ(CostTo(pf.Search(Q("0104", true)), m_, "0102"), 4);
}

TEST_F(ZocTest, NoInfiltrationFromEzocToEzoc) {
  Field({"0102", "0105"});  // 0101-0103 and 0104-0106
  Pathfinder pf(m_, rules_);
  EXPECT_EQ(CostTo(pf.Search(Q("0103", true)), m_, "0104"), 2);
  zoc_.no_infiltration = true;
  const Reachable& r = pf.Search(Q("0103", true));
  EXPECT_EQ(CostTo(r, m_, "0104"), -1);
  EXPECT_EQ(CostTo(r, m_, "0102"), -1);
  EXPECT_EQ(static_cast<int>(r.hexes().size()), 1);
}

TEST_F(ZocTest, RigidZocCannotBeLeft) {
  zoc_.rigid = true;
  Field({"0105"});
  Pathfinder pf(m_, rules_);
  const Reachable& r = pf.Search(Q("0104", true));
  EXPECT_EQ(static_cast<int>(r.hexes().size()), 1);
  EXPECT_EQ(CostTo(r, m_, "0103"), -1);
  EXPECT_EQ(CostTo(pf.Search(Q("0102", false)), m_, "0101"), 2);  // outside an EZOC: free
}

TEST_F(ZocTest, ZocDoesNotCrossRiverUnlessBridgedNorEnterExcludedTerrain) {
  zoc_.blocked_by = m_.FeatureBit("river");
  zoc_.unblocked_by = m_.FeatureBit("bridge");
  zoc_.not_into = m_.TerrainBit("woods");
  AddSide(m_, "0104", "0105", "river");
  SetTerrain(m_, "0106", {"woods"});
  const ZocField& f = Field({"0105"});
  EXPECT_TRUE(f.InEzoc(Idx(m_, "0105")));
  EXPECT_FALSE(f.InEzoc(Idx(m_, "0104")));
  EXPECT_FALSE(f.InEzoc(Idx(m_, "0106")));
  EXPECT_FALSE(f.InEzoc(Idx(m_, "0103")));
  AddSide(m_, "0104", "0105", "bridge");
  EXPECT_TRUE(Field({"0105"}).InEzoc(Idx(m_, "0104")));
  std::vector<ZocSource> own = {{Idx(m_, "0102"), ZocKind::kOwnHex}, {Idx(m_, "0107"), ZocKind::kNone}};
  field_.Compute(m_, zoc_, own);
  EXPECT_TRUE(field_.InEzoc(Idx(m_, "0102")));
  EXPECT_FALSE(field_.InEzoc(Idx(m_, "0101")));
  EXPECT_FALSE(field_.InEzoc(Idx(m_, "0107")));
}

// --- CheckPath --------------------------------------------------------------------------

class CheckPathTest : public ZocTest {
 protected:
  MoveRuleLabels labels_ = {"4.1", "5.2", "4.3", "6.1", "6.2", "6.3", "5.1", "9.1", "12.4"};
  std::vector<int> P(std::initializer_list<const char*> labels) {
    std::vector<int> out;
    for (const char* l : labels) out.push_back(m_.Index(l));
    return out;
  }
};

TEST_F(CheckPathTest, LegalPathCostMatchesSearch) {
  AddPath(m_, "road", {"0101", "0102", "0103"});
  Pathfinder pf(m_, rules_);
  const MoveQuery q = Query(m_, "0101", 20, kInf);
  const PathCheck c = pf.CheckPath(q, P({"0102", "0103", "0104"}), labels_);
  ASSERT_TRUE(c.ok) << c.message;
  EXPECT_EQ(c.cost, 4);
  EXPECT_EQ(c.cost, CostTo(pf.Search(q), m_, "0104"));
}

TEST_F(CheckPathTest, ReasonsAndRuleLabels) {
  Map wide = MakeMap(3, 6);
  SetTerrain(wide, "0204", {"woods"});
  AddPath(wide, "road", {"0101", "0102"});
  Pathfinder pf(wide, rules_);
  auto path = [&](std::initializer_list<const char*> labels) {
    std::vector<int> out;
    for (const char* l : labels) out.push_back(wide.Index(l));
    return out;
  };
  PathCheck c = pf.CheckPath(Query(wide, "0203", 20, kArt), path({"0204"}), labels_);
  EXPECT_FALSE(c.ok);
  EXPECT_EQ(c.message, "hex 0204: woods prohibited to artillery");
  EXPECT_EQ(c.rule, "5.2");
  c = pf.CheckPath(Query(wide, "0101", 20, kInf), path({"0102", "0104"}), labels_);
  EXPECT_EQ(c.message, "0102 and 0104 are not adjacent");
  EXPECT_EQ(c.rule, "4.1");
  EXPECT_EQ(c.failed_step, 1);
  c = pf.CheckPath(Query(wide, "0101", 6, kInf), path({"0102", "0103", "0104", "0105"}), labels_);
  EXPECT_EQ(c.message, "insufficient movement points: path costs 7/2, allowance 3");
  EXPECT_EQ(c.rule, "5.1");
  c = pf.CheckPath(Query(wide, "0101", 20, kSup), path({"0102", "0103"}), labels_);
  EXPECT_EQ(c.message, "hex 0103: supply may move only along paths");
  std::vector<uint8_t> enemy(static_cast<size_t>(wide.size()), 0);
  enemy[static_cast<size_t>(wide.Index("0103"))] = 1;
  MoveQuery q = Query(wide, "0101", 20, kInf);
  q.enemy = enemy.data();
  c = pf.CheckPath(q, path({"0102", "0103"}), labels_);
  EXPECT_EQ(c.message, "hex 0103 is occupied by the enemy");
  EXPECT_EQ(c.rule, "4.3");
}

TEST_F(CheckPathTest, ZocReasons) {
  Field({"0105"});
  Pathfinder pf(m_, rules_);
  PathCheck c = pf.CheckPath(Q("0102", false), P({"0103", "0104", "0103"}), labels_);
  EXPECT_EQ(c.message, "hex 0104: must stop on entering an enemy zone of control");
  EXPECT_EQ(c.rule, "6.1");
  zoc_.rigid = true;
  c = pf.CheckPath(Q("0104", true), P({"0103"}), labels_);
  EXPECT_EQ(c.message, "hex 0104: cannot leave an enemy zone of control");
  EXPECT_EQ(c.rule, "6.2");
  zoc_.rigid = false;
  zoc_.no_infiltration = true;
  Field({"0102", "0105"});
  c = pf.CheckPath(Q("0103", true), P({"0104"}), labels_);
  EXPECT_EQ(c.message, "hex 0104: cannot move directly from one enemy zone of control to another");
  EXPECT_EQ(c.rule, "6.3");
}

TEST_F(CheckPathTest, MinimumOneHexAndEntryAndStacking) {
  SetTerrain(m_, "0103", {"marsh"});
  Pathfinder pf(m_, rules_);
  MoveQuery q = Query(m_, "0102", 2, kInf);
  EXPECT_FALSE(pf.CheckPath(q, P({"0103"}), labels_).ok);
  q.minimum_one_hex = true;
  EXPECT_TRUE(pf.CheckPath(q, P({"0103"}), labels_).ok);
  EXPECT_FALSE(pf.CheckPath(q, P({"0101", "0102"}), labels_).ok);

  const std::vector<int> entry = {Idx(m_, "0101")};
  MoveQuery r;
  r.start = -1;
  r.entry_hexes = entry;
  r.allowance = 10;
  PathCheck c = pf.CheckPath(r, P({"0102"}), labels_);
  EXPECT_EQ(c.message, "hex 0102 is not an entry hex");
  EXPECT_EQ(c.rule, "12.4");
  c = pf.CheckPath(r, P({"0101", "0102"}), labels_);
  EXPECT_TRUE(c.ok) << c.message;
  EXPECT_EQ(c.cost, 4);

  std::vector<uint8_t> friendly(static_cast<size_t>(m_.size()), 0);
  friendly[static_cast<size_t>(Idx(m_, "0101"))] = 2;
  MoveQuery s = Query(m_, "0102", 10, kInf);
  s.friendly_count = friendly.data();
  s.stack_limit = 2;
  c = pf.CheckPath(s, P({"0101"}), labels_);
  EXPECT_EQ(c.message, "hex 0101: stacking limit of 2 exceeded");
  EXPECT_EQ(c.rule, "9.1");
}

// --- Random maps: fast search equals Boost.Graph -----------------------------------------

Map RandomMap(uint32_t seed, int cols, int rows) {
  std::mt19937 rng(seed);
  Map m = MakeMap(cols, rows);
  std::uniform_int_distribution<int> pct(0, 99);
  for (int h = 0; h < m.size(); ++h) {
    const int p = pct(rng);
    TerrainMask t = 1u << 0;
    if (p < 25) t = 1u << 1;
    else if (p < 35) t = 1u << 3;
    else if (p < 40) t = 1u << 2;
    else if (p < 48) t = (1u << 0) | (1u << 1);
    m.terrain[static_cast<size_t>(h)] = t;
    if (pct(rng) < 2) m.enter_dirs[static_cast<size_t>(h)] = static_cast<uint8_t>(pct(rng) % 64);
  }
  const FeatureMask creek = m.FeatureBit("creek"), river = m.FeatureBit("river"),
                    slope = m.FeatureBit("slope");
  for (int h = 0; h < m.size(); ++h) {
    for (int d = 0; d < 3; ++d) {
      const int n = m.grid.NeighborIndex(h, d);
      if (n < 0) continue;
      const int p = pct(rng);
      if (p < 8) AddSideIdx(m, h, n, creek);
      else if (p < 13) AddSideIdx(m, h, n, river);
      else if (p < 23) {
        AddSideIdx(m, h, n, slope);
        const bool up = pct(rng) < 50;
        const int a = up ? h : n, b = up ? n : h;
        m.toward[static_cast<size_t>(a) * 6 + static_cast<size_t>(Dir(m, a, b))] |= slope;
      }
    }
  }
  // Roads and trails as random walks.
  for (int k = 0; k < 8; ++k) {
    const FeatureMask bit = m.FeatureBit(k % 2 ? "trail" : "road");
    int h = static_cast<int>(rng() % static_cast<uint32_t>(m.size()));
    for (int step = 0; step < 25; ++step) {
      const int n = m.grid.NeighborIndex(h, static_cast<int>(rng() % 6));
      if (n < 0) continue;
      AddSideIdx(m, h, n, bit);
      h = n;
    }
  }
  return m;
}

TEST(MovementRandom, FastSearchEqualsBoostReferenceOnRandomMaps) {
  const MovementRules rules = LoadRules(kRulesYaml);
  for (uint32_t seed : {1u, 7u, 42u, 2026u}) {
    const Map m = RandomMap(seed, 14, 11);
    Pathfinder pf(m, rules);
    std::mt19937 rng(seed * 31u + 5u);
    std::vector<uint8_t> enemy(static_cast<size_t>(m.size()), 0);
    std::vector<ZocSource> sources;
    for (int k = 0; k < 4; ++k) {
      const int h = static_cast<int>(rng() % static_cast<uint32_t>(m.size()));
      enemy[static_cast<size_t>(h)] = 1;
      sources.push_back({h, k == 0 ? ZocKind::kOwnHex : ZocKind::kSix});
    }
    ZocRules zr;
    zr.blocked_by = m.FeatureBit("river");
    zr.leave_cost = 2;
    zr.no_infiltration = (seed % 2) == 0;
    ZocField field;
    field.Compute(m, zr, sources);
    std::vector<uint8_t> over(enemy.size(), 0);
    over[static_cast<size_t>(sources[1].hex)] = 1;  // one enemy hex may be overrun
    std::vector<int> west_edge;
    for (int row = 0; row < 11; ++row) west_edge.push_back(row * 14);
    int compared = 0;
    for (int trial = 0; trial < 28; ++trial) {
      MoveQuery q;
      q.start = static_cast<int>(rng() % static_cast<uint32_t>(m.size()));
      if (enemy[static_cast<size_t>(q.start)]) continue;
      if (trial % 7 == 6) {  // reinforcements from the west edge
        q.start = -1;
        q.entry_hexes = west_edge;
        q.entry_cost = trial % 2 ? -1 : 3;
      }
      if (trial % 4 == 1) q.overrunnable = over.data();
      q.classes = MoveClassBit(static_cast<int>(rng() % 4));
      if (trial % 5 == 0) q.classes |= MoveClassBit(kCav);
      q.allowance = trial % 3 == 0 ? kUnboundedAllowance : 4 + static_cast<int>(rng() % 14);
      q.enemy = enemy.data();
      if (trial % 2) {
        q.zoc = &field;
        q.zoc_rules = &zr;
        q.started_in_ezoc = q.start >= 0 && field.InEzoc(q.start);
      }
      const std::vector<int> ref = ReferenceCosts(pf, q);
      // The benchmarks' bounded baseline (a visitor that stops at the bound) settles the same set.
      std::vector<int> bounded;
      ReferenceGraph(pf, q).RunBounded(q.start, q.allowance, &bounded);
      const Reachable& r = pf.Search(q);
      for (int h = 0; h < m.size(); ++h) {
        const int fast = r.Reached(h) ? r.Cost(h) : -1;
        ASSERT_EQ(fast, ref[static_cast<size_t>(h)])
            << "seed " << seed << " trial " << trial << " hex " << m.Label(h);
        ASSERT_EQ(bounded[static_cast<size_t>(h)], ref[static_cast<size_t>(h)])
            << "bounded BGL, seed " << seed << " trial " << trial << " hex " << m.Label(h);
        if (fast > 0) {
          const std::vector<int> path = pf.Path(h);
          const PathCheck c = pf.CheckPath(q, path);
          ASSERT_TRUE(c.ok) << c.message;
          ASSERT_EQ(c.cost, fast);
          ++compared;
        }
      }
    }
    EXPECT_GT(compared, 100) << "seed " << seed;
  }
}

TEST(MovementRandom, SearchAllocatesNothingAfterWarmUp) {
  const MovementRules rules = LoadRules(kRulesYaml);
  const Map m = RandomMap(99, 30, 22);
  Pathfinder pf(m, rules);
  ZocRules zr;
  ZocField field;
  const std::vector<ZocSource> sources = {{40, ZocKind::kSix}, {300, ZocKind::kSix}};
  field.Compute(m, zr, sources);
  std::vector<uint8_t> enemy(static_cast<size_t>(m.size()), 0);
  enemy[40] = enemy[300] = 1;
  MoveQuery q;
  q.classes = MoveClassBit(kInf) | MoveClassBit(kCav);
  q.enemy = enemy.data();
  q.zoc = &field;
  q.zoc_rules = &zr;
  q.start = 100;
  pf.Search(q);  // warm-up builds the stack's cost table
  long reached = 0;
  const long before = g_allocations.load();
  for (int start = 0; start < m.size(); start += 7) {
    q.start = start;
    q.allowance = start % 2 ? kUnboundedAllowance : 12;
    q.minimum_one_hex = start % 3 == 0;
    reached += static_cast<long>(pf.Search(q).hexes().size());
    field.Compute(m, zr, sources);
  }
  EXPECT_EQ(g_allocations.load() - before, 0);
  EXPECT_GT(reached, 1000);
}

}  // namespace
}  // namespace wg
