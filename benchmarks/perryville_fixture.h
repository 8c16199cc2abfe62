// The Perryville movement fixture shared by benchmarks/perryville_bench.cc and
// tests/alloc_test.cc: the real Stars and Bars map (rulesets/stars_and_bars/scenarios/perryville/map.yaml)
// with the vocabulary of ruleset.yaml's `terrain:` section and the cost model of its
// `movement:` section, a fixed set of enemy units projecting zones of control
// (blocked by rivers unless a bridge or ford, 6.1), and fixed starts for the queries.
//
// YAML keys read: ruleset.yaml terrain.{types, features, directed, paths, place_kinds,
// default} and movement (LoadMovementRules); map.yaml through LoadMap.
// Needs WG_SOURCE_DIR (the repository root).
#pragma once

#include <random>
#include <string>
#include <vector>

#include "wargame/map.h"
#include "wargame/movement.h"
#include "wargame/pathfinder.h"
#include "wargame/yaml_reader.h"

namespace wg::bench {

struct PerryvilleFixture {
  Map map;
  MovementRules rules;
  ZocRules zoc_rules;
  ZocField zoc;
  std::vector<uint8_t> enemy;
  std::vector<int> starts;
  std::string error;  // non-empty if the data did not load

  PerryvilleFixture() {
    const std::string dir = std::string(WG_SOURCE_DIR) + "/rulesets/stars_and_bars/";
    YamlReader r = YamlReader::FromFile(dir + "ruleset.yaml");
    if (!r.ok()) {
      error = r.errors().ToString();
      return;
    }
    const YAML::Node t = r.root()["terrain"];
    MapVocabulary v;
    v.terrain = r.StringList(t["types"], "terrain.types");
    v.features = r.StringList(t["features"], "terrain.features");
    v.directed = r.StringList(t["directed"], "terrain.directed");
    v.paths = r.StringList(t["paths"], "terrain.paths");
    v.place_kinds = r.StringList(t["place_kinds"], "terrain.place_kinds");
    v.default_terrain = r.OptionalString(t, "terrain", "default", "clear");
    auto m = LoadMap(dir + "scenarios/perryville/map.yaml", &v);
    if (!m.ok()) {
      error = m.errors().ToString();
      return;
    }
    map = std::move(*m);
    auto mr = LoadMovementRules(r, r.root()["movement"], "movement", v);
    if (!mr.ok()) {
      error = mr.errors().ToString();
      return;
    }
    rules = std::move(*mr);
    zoc_rules.blocked_by = FeatureBit(v, "river");
    zoc_rules.unblocked_by = FeatureBit(v, "bridge") | FeatureBit(v, "ford");
    zoc_rules.stop_on_entry = true;

    // 24 enemy units in the middle third of the map (where the armies meet).
    const size_t n = static_cast<size_t>(map.size());
    enemy.assign(n, 0);
    std::mt19937 rng(8101862);
    std::vector<ZocSource> sources;
    while (sources.size() < 24) {
      const int h = static_cast<int>(rng() % n);
      if (enemy[static_cast<size_t>(h)]) continue;
      enemy[static_cast<size_t>(h)] = 1;
      sources.push_back({h, ZocKind::kSix});
    }
    zoc.Compute(map, zoc_rules, sources);
    while (starts.size() < 64) {
      const int h = static_cast<int>(rng() % n);
      if (!enemy[static_cast<size_t>(h)]) starts.push_back(h);
    }
  }

  static FeatureMask FeatureBit(const MapVocabulary& v, const std::string& name) {
    for (size_t i = 0; i < v.features.size(); ++i) {
      if (v.features[i] == name) return FeatureMask{1} << i;
    }
    return 0;
  }

  // Query i of the fixed cycle: start i % 64, class infantry / cavalry / artillery in turn.
  MoveQuery Query(size_t i, int allowance) const {
    MoveQuery q;
    q.start = starts[i % starts.size()];
    q.allowance = allowance;
    q.classes = MoveClassBit(static_cast<int>(i % 3));
    q.enemy = enemy.data();
    q.zoc = &zoc;
    q.zoc_rules = &zoc_rules;
    q.started_in_ezoc = zoc.InEzoc(q.start);
    return q;
  }
};

inline const PerryvilleFixture& Perryville() {
  static const PerryvilleFixture f;
  return f;
}

}  // namespace wg::bench
