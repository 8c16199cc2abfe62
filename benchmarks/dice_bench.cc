// Dice and table lookups: the per-roll costs the engine and AI search pay.
#include <benchmark/benchmark.h>

#include "wargame/combat_table.h"
#include "wargame/dice.h"

namespace wg {
namespace {

void BM_RollD6(benchmark::State& state) {
  RngState rng = SeedRng(1);
  int sum = 0;
  for (auto _ : state) sum += RollDie(rng, 6);
  benchmark::DoNotOptimize(sum);
}
BENCHMARK(BM_RollD6);

CombatTable BlueAndGray() {
  YamlReader reader = YamlReader::FromString(R"yaml(crt:
  kind: odds
  columns: ["1-5","1-4","1-3","1-2","1-1","2-1","3-1","4-1","5-1","6-1"]
  die: d6
  rows: [1, 6]
  results:
    - [AR, AR, DR, DR, DR, DR, DE, DE, DE, DE]
    - [AR, AR, AR, DR, DR, DR, DR, DR, DE, DE]
    - [AR, AR, AR, AR, DR, DR, DR, DR, DR, DE]
    - [AE, AR, AR, AR, AR, DR, DR, DR, DR, DR]
    - [AE, AE, AR, AR, AR, AR, DR, EX, EX, DR]
    - [AE, AE, AE, AE, AR, AR, EX, EX, EX, EX]
)yaml", "bench");
  return *LoadCombatTable(reader, reader.root()["crt"], "crt");
}

void BM_CrtColumnAndLookup(benchmark::State& state) {
  const CombatTable t = BlueAndGray();
  RngState rng = SeedRng(2);
  int attack = 1;
  for (auto _ : state) {
    attack = attack % 40 + 1;
    const int col = t.ColumnFor(attack, 7);
    benchmark::DoNotOptimize(&t.Lookup(col, RollDie(rng, 6)));
  }
}
BENCHMARK(BM_CrtColumnAndLookup);

}  // namespace
}  // namespace wg
