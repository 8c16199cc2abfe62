// Movement search speed: the Dial bucket-queue Pathfinder against Boost.Graph's
// dijkstra_shortest_paths on the same queries, on a generated 30x22 map with mixed
// terrain, hexside features, roads and trails, and a few enemy zones of control.
//
//   BM_ReachableFast/MA     bounded per-unit query (MA 4..8 movement points)
//   BM_ReachableBoostBounded/MA  same queries with Boost.Graph stopped at the bound by a
//                           visitor (ReferenceGraph::RunBounded; graph prebuilt): the honest baseline
//   BM_ReachableBoost/MA    same queries run to the end of the map (the bound applied afterwards)
//   BM_FullCostField{Fast,Boost}  unbounded cost field from each start
// items/s = queries per second.
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "wargame/movement.h"
#include "wargame/pathfinder.h"

namespace wg {
namespace {

constexpr const char* kRulesYaml = R"(movement:
  classes: [infantry, cavalry, artillery]
  terrain_cost:
    clear: 1
    woods: {infantry: 2, cavalry: 3, artillery: P}
    city: 1
    marsh: {all: 3, cavalry: P}
  combine: max
  hexside_cost:
    creek: 1
    river: {infantry: 3, cavalry: 3, artillery: P}
    slope: {all: 1, directed: true}
  paths:
    road:  {cost: 0.5}
    trail: {cost: 1}
  path_crossing_cost:
    - {path: trail, feature: river, cost: 1}
  prohibited_unless_path: {artillery: [woods]}
  road_like_terrain: [city]
)";

struct Fixture {
  Map map;
  MovementRules rules;
  ZocRules zoc_rules;
  ZocField zoc;
  std::vector<uint8_t> enemy;
  std::vector<int> starts;

  Fixture() {
    MapVocabulary v;
    v.terrain = {"clear", "woods", "city", "marsh"};
    v.features = {"creek", "river", "slope", "road", "trail"};
    v.directed = {"slope"};
    v.paths = {"road", "trail"};
    v.default_terrain = "clear";
    YamlReader r = YamlReader::FromString(kRulesYaml, "bench.yaml");
    rules = *LoadMovementRules(r, r.root()["movement"], "movement", v);

    MapLayout layout;
    layout.cols = 30;
    layout.rows = 22;
    map.grid = HexGrid(layout);
    map.vocabulary = v;
    const size_t n = static_cast<size_t>(map.size());
    map.terrain.assign(n, 1u);
    map.sides.assign(n * 6, 0);
    map.toward.assign(n * 6, 0);
    map.enter_dirs.assign(n, kAllDirections);
    map.exit_dirs.assign(n, kAllDirections);
    std::mt19937 rng(12345);
    std::uniform_int_distribution<int> pct(0, 99);
    for (size_t h = 0; h < n; ++h) {
      const int p = pct(rng);
      map.terrain[h] = p < 25 ? 2u : p < 32 ? 8u : p < 36 ? 4u : 1u;
    }
    auto add = [&](int a, int d, FeatureMask bit) {
      const int b = map.grid.NeighborIndex(a, d);
      map.sides[static_cast<size_t>(a) * 6 + static_cast<size_t>(d)] |= bit;
      map.sides[static_cast<size_t>(b) * 6 + static_cast<size_t>(OppositeDirection(d))] |= bit;
      return b;
    };
    for (int h = 0; h < map.size(); ++h) {
      for (int d = 0; d < 3; ++d) {
        if (map.grid.NeighborIndex(h, d) < 0) continue;
        const int p = pct(rng);
        if (p < 8) {
          add(h, d, 1u);
        } else if (p < 12) {
          add(h, d, 2u);
        } else if (p < 20) {
          add(h, d, 4u);
          map.toward[static_cast<size_t>(h) * 6 + static_cast<size_t>(d)] |= 4u;
        }
      }
    }
    for (int k = 0; k < 10; ++k) {  // roads and trails
      const FeatureMask bit = k % 2 ? 16u : 8u;
      int h = static_cast<int>(rng() % n);
      int dir = static_cast<int>(rng() % 6);
      for (int step = 0; step < 40; ++step) {
        if (pct(rng) < 30) dir = (dir + (pct(rng) < 50 ? 1 : 5)) % 6;
        if (map.grid.NeighborIndex(h, dir) < 0) {
          dir = OppositeDirection(dir);
          continue;
        }
        h = add(h, dir, bit);
      }
    }
    enemy.assign(n, 0);
    std::vector<ZocSource> sources;
    for (int k = 0; k < 6; ++k) {
      const int h = static_cast<int>(rng() % n);
      enemy[static_cast<size_t>(h)] = 1;
      sources.push_back({h, ZocKind::kSix});
    }
    zoc_rules.blocked_by = 2u;  // river
    zoc.Compute(map, zoc_rules, sources);
    for (int k = 0; k < 64; ++k) {
      const int h = static_cast<int>(rng() % n);
      if (!enemy[static_cast<size_t>(h)]) starts.push_back(h);
    }
  }

  MoveQuery Query(int start, int allowance, int move_class) const {
    MoveQuery q;
    q.start = start;
    q.allowance = allowance;
    q.classes = MoveClassBit(move_class);
    q.enemy = enemy.data();
    q.zoc = &zoc;
    q.zoc_rules = &zoc_rules;
    q.started_in_ezoc = zoc.InEzoc(start);
    return q;
  }
};

const Fixture& GetFixture() {
  static const Fixture f;
  return f;
}

void RunFast(benchmark::State& state, int allowance) {
  const Fixture& f = GetFixture();
  Pathfinder pf(f.map, f.rules);
  size_t i = 0;
  int64_t queries = 0;
  for (auto _ : state) {
    const int start = f.starts[i++ % f.starts.size()];
    const Reachable& r = pf.Search(f.Query(start, allowance, static_cast<int>(i % 2)));
    benchmark::DoNotOptimize(r.hexes().size());
    ++queries;
  }
  state.SetItemsProcessed(queries);
}

void RunBoost(benchmark::State& state, int allowance, bool bounded) {
  const Fixture& f = GetFixture();
  Pathfinder pf(f.map, f.rules);
  // One prebuilt graph per class (the ZOC and enemy hexes do not change between queries).
  ReferenceGraph g0(pf, f.Query(f.starts[0], allowance, 0));
  ReferenceGraph g1(pf, f.Query(f.starts[0], allowance, 1));
  std::vector<int> costs;
  size_t i = 0;
  int64_t queries = 0;
  for (auto _ : state) {
    const int start = f.starts[i++ % f.starts.size()];
    if (bounded) {
      (i % 2 ? g1 : g0).RunBounded(start, allowance, &costs);
    } else {
      (i % 2 ? g1 : g0).Run(start, &costs);
    }
    int reached = 0;
    for (int c : costs) reached += (c >= 0 && c <= allowance);
    benchmark::DoNotOptimize(reached);
    ++queries;
  }
  state.SetItemsProcessed(queries);
}

void BM_ReachableFast(benchmark::State& state) {
  RunFast(state, static_cast<int>(state.range(0)) * 2);
}
void BM_ReachableBoost(benchmark::State& state) {
  RunBoost(state, static_cast<int>(state.range(0)) * 2, /*bounded=*/false);
}
void BM_ReachableBoostBounded(benchmark::State& state) {
  RunBoost(state, static_cast<int>(state.range(0)) * 2, /*bounded=*/true);
}
void BM_FullCostFieldFast(benchmark::State& state) { RunFast(state, kUnboundedAllowance); }
void BM_FullCostFieldBoost(benchmark::State& state) { RunBoost(state, kUnboundedAllowance, /*bounded=*/false); }

BENCHMARK(BM_ReachableFast)->DenseRange(4, 8, 2);
BENCHMARK(BM_ReachableBoost)->DenseRange(4, 8, 2);
BENCHMARK(BM_ReachableBoostBounded)->DenseRange(4, 8, 2);
BENCHMARK(BM_FullCostFieldFast);
BENCHMARK(BM_FullCostFieldBoost);

}  // namespace
}  // namespace wg
