// Movement search on the real Perryville map (Stars and Bars data): the Dial
// Pathfinder against Boost.Graph's dijkstra_shortest_paths, in the same run.
//
//   BM_PerryReachableFast/MA, BM_PerryReachableBoost/MA   one unit's reachable set,
//       MA 4..8 movement points, enemy ZOCs, hexside costs; classes infantry,
//       cavalry, artillery in turn, 64 fixed starts. Boost graph prebuilt per class.
//   BM_PerryReachableBoostBounded/MA   Boost.Graph stopped at the bound by a visitor that
//       throws (ReferenceGraph::RunBounded): the like-for-like baseline. The unbounded row
//       runs to the end of the map and applies the bound after (kept for comparison).
//   BM_PerryCostFieldFast, BM_PerryCostFieldBoost   the full-map cost field from one hex.
// items/s = queries per second.
#include <benchmark/benchmark.h>

#include <vector>

#include "perryville_fixture.h"

namespace wg::bench {
namespace {

bool Loaded(benchmark::State& state) {
  const PerryvilleFixture& f = Perryville();
  if (!f.error.empty()) {
    state.SkipWithError(("Perryville data did not load: " + f.error).c_str());
    return false;
  }
  return true;
}

void RunFast(benchmark::State& state, int allowance) {
  if (!Loaded(state)) return;
  const PerryvilleFixture& f = Perryville();
  Pathfinder pf(f.map, f.rules);
  for (size_t c = 0; c < 3; ++c) pf.Search(f.Query(c, allowance));  // build the cost tables
  size_t i = 0;
  long reached = 0;
  for (auto _ : state) {
    const Reachable& r = pf.Search(f.Query(i++, allowance));
    reached += static_cast<long>(r.hexes().size());
    benchmark::DoNotOptimize(reached);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
  state.counters["hexes_reached"] =
      benchmark::Counter(static_cast<double>(reached) / static_cast<double>(state.iterations()));
}

// bounded: stop at the allowance with a visitor (ReferenceGraph::RunBounded), as a
// Boost.Graph user writes a bounded query; otherwise run to the end of the map.
void RunBoost(benchmark::State& state, int allowance, bool bounded) {
  if (!Loaded(state)) return;
  const PerryvilleFixture& f = Perryville();
  Pathfinder pf(f.map, f.rules);
  ReferenceGraph g0(pf, f.Query(0, allowance));
  ReferenceGraph g1(pf, f.Query(1, allowance));
  ReferenceGraph g2(pf, f.Query(2, allowance));
  ReferenceGraph* graphs[3] = {&g0, &g1, &g2};
  std::vector<int> costs;
  size_t i = 0;
  long reached = 0;
  for (auto _ : state) {
    const MoveQuery q = f.Query(i, allowance);
    if (bounded) {
      graphs[i % 3]->RunBounded(q.start, allowance, &costs);
    } else {
      graphs[i % 3]->Run(q.start, &costs);
    }
    ++i;
    for (int c : costs) reached += (c >= 0 && c <= allowance);
    benchmark::DoNotOptimize(reached);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
  state.counters["hexes_reached"] =
      benchmark::Counter(static_cast<double>(reached) / static_cast<double>(state.iterations()));
}

void BM_PerryReachableFast(benchmark::State& state) { RunFast(state, static_cast<int>(state.range(0)) * 2); }
void BM_PerryReachableBoost(benchmark::State& state) {
  RunBoost(state, static_cast<int>(state.range(0)) * 2, /*bounded=*/false);
}
void BM_PerryReachableBoostBounded(benchmark::State& state) {
  RunBoost(state, static_cast<int>(state.range(0)) * 2, /*bounded=*/true);
}
void BM_PerryCostFieldFast(benchmark::State& state) { RunFast(state, kUnboundedAllowance); }
void BM_PerryCostFieldBoost(benchmark::State& state) { RunBoost(state, kUnboundedAllowance, /*bounded=*/false); }

BENCHMARK(BM_PerryReachableFast)->DenseRange(4, 8, 2);
BENCHMARK(BM_PerryReachableBoost)->DenseRange(4, 8, 2);
BENCHMARK(BM_PerryReachableBoostBounded)->DenseRange(4, 8, 2);
BENCHMARK(BM_PerryCostFieldFast);
BENCHMARK(BM_PerryCostFieldBoost);

}  // namespace
}  // namespace wg::bench
