// Line of sight: the precomputed LineOfSight against the straightforward
// baseline (draw wg::Line, look every step up in the Map), at range 3 and 20.
#include <benchmark/benchmark.h>

#include <random>
#include <utility>
#include <vector>

#include "wargame/los.h"

namespace wg {
namespace {

constexpr int kWoods = 1, kCrest = 0;

Map BenchMap() {
  Map m;
  MapLayout layout;
  layout.cols = 60;
  layout.rows = 50;
  m.grid = HexGrid(layout);
  m.vocabulary.terrain = {"clear", "woods"};
  m.vocabulary.features = {"crest"};
  const size_t n = static_cast<size_t>(m.size());
  m.terrain.assign(n, 1u);
  m.sides.assign(n * 6, 0);
  m.toward.assign(n * 6, 0);
  m.enter_dirs.assign(n, kAllDirections);
  m.exit_dirs.assign(n, kAllDirections);
  std::mt19937 rng(1);
  std::uniform_int_distribution<int> pct(0, 99);
  // Sparse blocking terrain so that most long lines are walked to the end.
  for (size_t i = 0; i < n; ++i) {
    if (pct(rng) < 2) m.terrain[i] = 1u << kWoods;
  }
  for (int i = 0; i < m.size(); ++i) {
    for (int d = 0; d < 3; ++d) {
      const int j = m.grid.NeighborIndex(i, d);
      if (j >= 0 && pct(rng) < 1) {
        m.sides[static_cast<size_t>(i) * 6 + static_cast<size_t>(d)] |= 1u << kCrest;
        m.sides[static_cast<size_t>(j) * 6 + static_cast<size_t>(OppositeDirection(d))] |=
            1u << kCrest;
      }
    }
  }
  return m;
}

LosRules BenchRules() {
  LosRules r;
  r.blocking_terrain = 1u << kWoods;
  r.blocking_features = 1u << kCrest;
  r.along_hexside = AlongHexside::kBlockedIfBoth;
  return r;
}

// Pairs of on-map hexes exactly `range` apart.
std::vector<std::pair<int, int>> Pairs(const Map& m, int range) {
  std::vector<std::pair<int, int>> out;
  std::mt19937 rng(2);
  std::uniform_int_distribution<int> idx(0, m.size() - 1);
  while (out.size() < 4096) {
    const int a = idx(rng);
    const auto ring = Ring(m.grid.HexAt(a), range);
    const Hex h = ring[static_cast<size_t>(idx(rng)) % ring.size()];
    const int b = m.grid.Index(h);
    if (b >= 0) out.emplace_back(a, b);
  }
  return out;
}

// The baseline: line drawing (allocates) and a Map lookup per step.
bool BaselineClear(const Map& m, const LosRules& rules, int from, int to) {
  const auto steps = Line(m.grid.HexAt(from), m.grid.HexAt(to));
  auto blocks = [&](Hex h) {
    const int i = m.grid.Index(h);
    return i >= 0 && (m.terrain[static_cast<size_t>(i)] & rules.blocking_terrain) != 0;
  };
  auto side = [&](Hex h, int d) {
    const int i = m.grid.Index(h), j = m.grid.Index(Neighbor(h, d));
    const FeatureMask f = i >= 0 ? m.Side(i, d) : j >= 0 ? m.Side(j, OppositeDirection(d)) : 0;
    return (f & rules.blocking_features) != 0;
  };
  for (size_t i = 0; i < steps.size(); ++i) {
    const LineStep& s = steps[i];
    const bool end = i == 0 || i + 1 == steps.size();
    if (!s.along_hexside) {
      if (!end && blocks(s.hex)) return false;
    } else {
      const bool f = side(s.hex, DirectionTo(s.hex, s.alt));
      if (f || (blocks(s.hex) && blocks(s.alt))) return false;
    }
    if (i + 1 < steps.size() && !s.along_hexside && !steps[i + 1].along_hexside &&
        side(s.hex, DirectionTo(s.hex, steps[i + 1].hex))) {
      return false;
    }
  }
  return true;
}

void BM_LosFast(benchmark::State& state) {
  const Map m = BenchMap();
  const LineOfSight los(m, BenchRules());
  const auto pairs = Pairs(m, static_cast<int>(state.range(0)));
  size_t k = 0;
  int clear = 0;
  for (auto _ : state) {
    const auto& p = pairs[k++ & 4095];
    clear += los.Clear(p.first, p.second);
    benchmark::DoNotOptimize(clear);
  }
  state.counters["clear_fraction"] =
      benchmark::Counter(static_cast<double>(clear) / static_cast<double>(state.iterations()));
}
BENCHMARK(BM_LosFast)->Arg(3)->Arg(20);

void BM_LosBaseline(benchmark::State& state) {
  const Map m = BenchMap();
  const LosRules rules = BenchRules();
  const auto pairs = Pairs(m, static_cast<int>(state.range(0)));
  size_t k = 0;
  int clear = 0;
  for (auto _ : state) {
    const auto& p = pairs[k++ & 4095];
    clear += BaselineClear(m, rules, p.first, p.second);
    benchmark::DoNotOptimize(clear);
  }
  state.counters["clear_fraction"] =
      benchmark::Counter(static_cast<double>(clear) / static_cast<double>(state.iterations()));
}
BENCHMARK(BM_LosBaseline)->Arg(3)->Arg(20);

}  // namespace
}  // namespace wg
