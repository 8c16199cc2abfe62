#include "wargame/movement.h"

#include <algorithm>
#include <cmath>

namespace wg {

namespace {

int IndexOf(const std::vector<std::string>& names, const std::string& name) {
  for (size_t i = 0; i < names.size(); ++i) {
    if (names[i] == name) return static_cast<int>(i);
  }
  return -1;
}

// A number (multiple of 0.5, not negative) or "P" -> half points / kProhibitedCost.
std::optional<int16_t> ReadHalfPoints(YamlReader& r, const YAML::Node& n, const std::string& path,
                                      bool allow_prohibited) {
  if (n.IsScalar() && allow_prohibited && n.Scalar() == "P") return kProhibitedCost;
  const auto d = r.Double(n, path);
  if (!d) return std::nullopt;
  const double half = *d * 2.0;
  if (*d < 0 || half > 10000 || std::fabs(half - std::round(half)) > 1e-9) {
    r.Fail(n, path, "expected a non-negative multiple of 0.5, got \"" + n.Scalar() + "\"");
    return std::nullopt;
  }
  return static_cast<int16_t>(std::lround(half));
}

// COST = number | "P" | {class: number|"P", all: ...}; `extra_keys` may appear in the map form.
// Fills one value per class. False on error.
bool ReadClassCosts(YamlReader& r, const YAML::Node& n, const std::string& path,
                    const std::vector<std::string>& classes, std::vector<int16_t>* out,
                    std::initializer_list<std::string_view> extra_keys = {}) {
  out->assign(classes.size(), 0);
  if (!n.IsMap()) {
    const auto v = ReadHalfPoints(r, n, path, true);
    if (!v) return false;
    std::fill(out->begin(), out->end(), *v);
    return true;
  }
  std::vector<uint8_t> set(classes.size(), 0);
  bool ok = true;
  if (const YAML::Node all = n["all"]) {
    const auto v = ReadHalfPoints(r, all, YamlReader::Child(path, "all"), true);
    if (!v) return false;
    std::fill(out->begin(), out->end(), *v);
    std::fill(set.begin(), set.end(), 1);
  }
  for (const auto& kv : n) {
    const std::string key = kv.first.Scalar();
    if (key == "all") continue;
    bool extra = false;
    for (auto k : extra_keys) extra = extra || k == key;
    if (extra) continue;
    const int c = IndexOf(classes, key);
    if (c < 0) {
      r.Fail(kv.first, YamlReader::Child(path, key), "unknown movement class \"" + key + "\"");
      ok = false;
      continue;
    }
    const auto v = ReadHalfPoints(r, kv.second, YamlReader::Child(path, key), true);
    if (!v) {
      ok = false;
      continue;
    }
    (*out)[static_cast<size_t>(c)] = *v;
    set[static_cast<size_t>(c)] = 1;
  }
  for (size_t c = 0; c < classes.size() && ok; ++c) {
    if (!set[c]) {
      r.Fail(n, path, "no cost for movement class \"" + classes[c] + "\" (give it or `all`)");
      ok = false;
    }
  }
  return ok;
}

std::string TerrainNames(const Map& map, TerrainMask m) {
  std::string s;
  for (int t = 0; t < kMaxTerrainTypes; ++t) {
    if (!((m >> t) & 1u)) continue;
    if (!s.empty()) s += "+";
    s += static_cast<size_t>(t) < map.vocabulary.terrain.size()
             ? map.vocabulary.terrain[static_cast<size_t>(t)]
             : "terrain" + std::to_string(t);
  }
  return s;
}

std::string FeatureName(const Map& map, int f) {
  return static_cast<size_t>(f) < map.vocabulary.features.size()
             ? map.vocabulary.features[static_cast<size_t>(f)]
             : "feature" + std::to_string(f);
}

int TerrainIdOf(YamlReader& r, const MapVocabulary& vocab, const YAML::Node& key_node, const std::string& name,
                const std::string& p) {
  const int t = IndexOf(vocab.terrain, name);
  if (t < 0 || t >= kMaxTerrainTypes) r.Fail(key_node, p, "unknown terrain \"" + name + "\"");
  return t < kMaxTerrainTypes ? t : -1;
}

int FeatureIdOf(YamlReader& r, const MapVocabulary& vocab, const YAML::Node& key_node, const std::string& name,
                const std::string& p) {
  const int f = IndexOf(vocab.features, name);
  if (f < 0 || f >= kMaxFeatureTypes) r.Fail(key_node, p, "unknown feature \"" + name + "\"");
  return f < kMaxFeatureTypes ? f : -1;
}

// `terrain_cost: {terrain: COST}`.
void ReadTerrainCosts(YamlReader& r, const MapVocabulary& vocab, const YAML::Node& node, const std::string& path,
                      MovementRules& m) {
  using Y = YamlReader;
  std::vector<int16_t> costs;
  if (const YAML::Node tc = node["terrain_cost"]; tc && r.ExpectMap(tc, Y::Child(path, "terrain_cost"))) {
    for (const auto& kv : tc) {
      const std::string name = kv.first.Scalar();
      const std::string p = Y::Child(Y::Child(path, "terrain_cost"), name);
      const int t = TerrainIdOf(r, vocab, kv.first, name, p);
      if (ReadClassCosts(r, kv.second, p, m.classes, &costs) && t >= 0) {
        for (size_t c = 0; c < m.classes.size(); ++c) m.terrain_cost[c][static_cast<size_t>(t)] = costs[c];
      }
    }
  }
}

// `hexside_cost: {feature: COST}` (the map form may add `directed: true`).
void ReadHexsideCosts(YamlReader& r, const MapVocabulary& vocab, const YAML::Node& node, const std::string& path,
                      MovementRules& m) {
  using Y = YamlReader;
  std::vector<int16_t> costs;
  if (const YAML::Node hc = node["hexside_cost"]; hc && r.ExpectMap(hc, Y::Child(path, "hexside_cost"))) {
    for (const auto& kv : hc) {
      const std::string name = kv.first.Scalar();
      const std::string p = Y::Child(Y::Child(path, "hexside_cost"), name);
      const int f = FeatureIdOf(r, vocab, kv.first, name, p);
      bool directed = false;
      if (kv.second.IsMap() && kv.second["directed"]) {
        directed = r.OptionalBool(kv.second, p, "directed", false);
        if (directed && IndexOf(vocab.directed, name) < 0) {
          r.Fail(kv.second["directed"], Y::Child(p, "directed"),
                 "feature \"" + name + "\" is not a directed feature of the map vocabulary");
        }
      }
      if (ReadClassCosts(r, kv.second, p, m.classes, &costs, {"directed"}) && f >= 0) {
        for (size_t c = 0; c < m.classes.size(); ++c) m.hexside_cost[c][static_cast<size_t>(f)] = costs[c];
        m.hexside_costed |= 1u << f;
        if (directed) m.directed_cost |= 1u << f;
      }
    }
  }
}

// `paths: {feature: {cost, negates_hexside, ignores_terrain}}`.
void ReadPathRules(YamlReader& r, const MapVocabulary& vocab, const YAML::Node& node, const std::string& path,
                   MovementRules& m) {
  using Y = YamlReader;
  if (const YAML::Node ps = node["paths"]; ps && r.ExpectMap(ps, Y::Child(path, "paths"))) {
    for (const auto& kv : ps) {
      const std::string name = kv.first.Scalar();
      const std::string p = Y::Child(Y::Child(path, "paths"), name);
      const int f = FeatureIdOf(r, vocab, kv.first, name, p);
      if (!r.CheckKeys(kv.second, p, {"cost", "negates_hexside", "ignores_terrain"})) continue;
      MovementRules::PathRule rule;
      rule.feature = f;
      rule.bit = f >= 0 ? (1u << f) : 0u;
      rule.negates_hexside = r.OptionalBool(kv.second, p, "negates_hexside", true);
      rule.ignores_terrain = r.OptionalBool(kv.second, p, "ignores_terrain", true);
      if (!kv.second["cost"]) {
        r.Fail(kv.second, Y::Child(p, "cost"), "missing required key");
        continue;
      }
      if (!ReadClassCosts(r, kv.second["cost"], Y::Child(p, "cost"), m.classes, &rule.cost)) continue;
      if (f < 0) continue;
      m.path_features |= rule.bit;
      m.paths.push_back(std::move(rule));
    }
  }
}

// `path_crossing_cost: [{path, feature, cost}]`.
void ReadPathCrossings(YamlReader& r, const MapVocabulary& vocab, const YAML::Node& node, const std::string& path,
                       MovementRules& m) {
  using Y = YamlReader;
  if (const YAML::Node pc = node["path_crossing_cost"];
      pc && r.ExpectSequence(pc, Y::Child(path, "path_crossing_cost"))) {
    for (size_t i = 0; i < pc.size(); ++i) {
      const std::string p = Y::Item(Y::Child(path, "path_crossing_cost"), i);
      const YAML::Node e = pc[i];
      if (!r.CheckKeys(e, p, {"path", "feature", "cost"})) continue;
      const auto pn = r.RequiredString(e, p, "path");
      const auto fn = r.RequiredString(e, p, "feature");
      std::optional<int16_t> cost;
      if (e["cost"]) {
        cost = ReadHalfPoints(r, e["cost"], Y::Child(p, "cost"), false);
      } else {
        r.Fail(e, Y::Child(p, "cost"), "missing required key");
      }
      if (!pn || !fn || !cost) continue;
      const int f = FeatureIdOf(r, vocab, e["feature"], *fn, Y::Child(p, "feature"));
      int path_index = -1;
      for (size_t k = 0; k < m.paths.size(); ++k) {
        if (m.paths[k].feature >= 0 && vocab.features[static_cast<size_t>(m.paths[k].feature)] == *pn) {
          path_index = static_cast<int>(k);
        }
      }
      if (path_index < 0) {
        r.Fail(e["path"], Y::Child(p, "path"), "\"" + *pn + "\" is not listed under paths");
        continue;
      }
      if (f < 0) continue;
      m.crossings.push_back({path_index, 1u << f, *cost});
    }
  }
}

// `prohibited_unless_path: {class: [terrain...] | all}`.
void ReadPathOnly(YamlReader& r, const MapVocabulary& vocab, const YAML::Node& node, const std::string& path,
                  MovementRules& m) {
  using Y = YamlReader;
  if (const YAML::Node pu = node["prohibited_unless_path"];
      pu && r.ExpectMap(pu, Y::Child(path, "prohibited_unless_path"))) {
    for (const auto& kv : pu) {
      const std::string cname = kv.first.Scalar();
      const std::string p = Y::Child(Y::Child(path, "prohibited_unless_path"), cname);
      const int c = m.ClassId(cname);
      if (c < 0) {
        r.Fail(kv.first, p, "unknown movement class \"" + cname + "\"");
        continue;
      }
      if (kv.second.IsScalar() && kv.second.Scalar() == "all") {
        m.path_only_all[static_cast<size_t>(c)] = 1;
        continue;
      }
      const auto names = r.StringList(kv.second, p);
      for (size_t i = 0; i < names.size(); ++i) {
        const YAML::Node item = kv.second.IsSequence() ? kv.second[i] : kv.second;
        const int t = TerrainIdOf(r, vocab, item, names[i], Y::Item(p, i));
        if (t >= 0) m.path_only_terrain[static_cast<size_t>(c)] |= 1u << t;
      }
    }
  }
}

// `road_like_terrain: [terrain...]` (needs a path: the road rate).
void ReadRoadLike(YamlReader& r, const MapVocabulary& vocab, const YAML::Node& node, const std::string& path,
                  MovementRules& m) {
  using Y = YamlReader;
  if (const YAML::Node rl = node["road_like_terrain"]) {
    const std::string p = Y::Child(path, "road_like_terrain");
    const auto names = r.StringList(rl, p);
    for (size_t i = 0; i < names.size(); ++i) {
      const YAML::Node item = rl.IsSequence() ? rl[i] : rl;
      const int t = TerrainIdOf(r, vocab, item, names[i], Y::Item(p, i));
      if (t >= 0) m.road_like |= 1u << t;
    }
    if (m.road_like && m.paths.empty()) {
      r.Fail(rl, p, "road_like_terrain needs at least one entry under paths (the road rate)");
    }
  }
}

}  // namespace

int MovementRules::ClassId(const std::string& name) const { return IndexOf(classes, name); }

Result<MovementRules> LoadMovementRules(YamlReader& r, const YAML::Node& node,
                                        const std::string& path, const MapVocabulary& vocab) {
  const size_t errors_before = r.errors().size();
  MovementRules m;
  using Y = YamlReader;
  if (!r.CheckKeys(node, path,
                   {"classes", "terrain_cost", "combine", "hexside_cost", "paths",
                    "path_crossing_cost", "prohibited_unless_path", "road_like_terrain",
                    "minimum_one_hex", "provenance"})) {
    return r.errors().errors().back();
  }
  // classes
  if (const YAML::Node c = node["classes"]) {
    m.classes = r.StringList(c, Y::Child(path, "classes"));
  }
  if (m.classes.empty()) {
    r.Fail(node, Y::Child(path, "classes"), "at least one movement class is required");
  } else if (m.classes.size() > static_cast<size_t>(kMaxMoveClasses)) {
    r.Fail(node["classes"], Y::Child(path, "classes"), "at most 16 movement classes");
    m.classes.resize(kMaxMoveClasses);
  }
  const size_t nc = m.classes.size();
  std::array<int16_t, kMaxTerrainTypes> zero_t{};
  std::array<int16_t, kMaxFeatureTypes> zero_f{};
  m.terrain_cost.assign(nc, zero_t);
  m.hexside_cost.assign(nc, zero_f);
  m.path_only_terrain.assign(nc, 0);
  m.path_only_all.assign(nc, 0);
  ReadTerrainCosts(r, vocab, node, path, m);
  if (const YAML::Node cb = node["combine"]) {
    const auto s = r.String(cb, Y::Child(path, "combine"));
    if (s && *s == "sum") {
      m.combine_sum = true;
    } else if (s && *s != "max") {
      r.Fail(cb, Y::Child(path, "combine"), "expected max or sum, got \"" + *s + "\"");
    }
  }
  ReadHexsideCosts(r, vocab, node, path, m);
  ReadPathRules(r, vocab, node, path, m);
  ReadPathCrossings(r, vocab, node, path, m);
  ReadPathOnly(r, vocab, node, path, m);
  ReadRoadLike(r, vocab, node, path, m);
  m.minimum_one_hex = r.OptionalBool(node, path, "minimum_one_hex", false);

  if (r.errors().size() != errors_before) return r.ErrorsSince(errors_before);
  return m;
}

namespace {

// Hexside extra cost for crossing `side` (with directed bits `toward`), or kProhibitedCost.
// `*bad` gets the prohibiting feature id.
int HexsideExtra(const MovementRules& rules, size_t cls, FeatureMask side, FeatureMask toward,
                 int* bad) {
  FeatureMask m = side & rules.hexside_costed;
  m &= ~(rules.directed_cost & ~toward);  // directed costs only toward the designated side
  int extra = 0;
  while (m) {
    const int f = __builtin_ctz(m);
    m &= m - 1;
    const int c = rules.hexside_cost[cls][static_cast<size_t>(f)];
    if (c < 0) {
      *bad = f;
      return kProhibitedCost;
    }
    extra += c;
  }
  return extra;
}

// Combined terrain cost of entering a hex with terrain `t`, or kProhibitedCost (*bad = terrain).
int TerrainCost(const MovementRules& rules, size_t cls, TerrainMask t, int* bad) {
  int total = 0;
  while (t) {
    const int id = __builtin_ctz(t);
    t &= t - 1;
    const int c = rules.terrain_cost[cls][static_cast<size_t>(id)];
    if (c < 0) {
      *bad = id;
      return kProhibitedCost;
    }
    total = rules.combine_sum ? total + c : std::max(total, c);
  }
  return total;
}

}  // namespace

int StepCost(const Map& map, const MovementRules& rules, int move_class, int from, int dir,
             std::string* why) {
  const int to = map.grid.NeighborIndex(from, dir);
  if (to < 0) {
    if (why) *why = "hex " + map.Label(from) + ": no hex in that direction";
    return kProhibitedCost;
  }
  const size_t cls = static_cast<size_t>(move_class);
  const size_t uto = static_cast<size_t>(to);
  if (!((map.exit_dirs[static_cast<size_t>(from)] >> dir) & 1u)) {
    if (why) *why = "hex " + map.Label(from) + ": may not be left in that direction";
    return kProhibitedCost;
  }
  if (!((map.enter_dirs[uto] >> dir) & 1u)) {
    if (why) *why = "hex " + map.Label(to) + ": may not be entered from " + map.Label(from);
    return kProhibitedCost;
  }
  const FeatureMask side = map.Side(from, dir);
  const FeatureMask toward = map.Toward(from, dir);
  const TerrainMask terrain = map.terrain[uto];
  int bad_feature = -1, bad_terrain = -1;
  const int hexside = HexsideExtra(rules, cls, side, toward, &bad_feature);
  const int tcost = TerrainCost(rules, cls, terrain, &bad_terrain);

  int best = kProhibitedCost;
  auto consider = [&best](int c) {
    if (c >= 0 && (best < 0 || c < best)) best = c;
  };
  // Along a path.
  const FeatureMask paths_here = side & rules.path_features;
  if (paths_here) {
    for (size_t k = 0; k < rules.paths.size(); ++k) {
      const auto& p = rules.paths[k];
      if (!(paths_here & p.bit)) continue;
      int c = p.cost[cls];
      if (c < 0) continue;
      if (!p.negates_hexside) {
        if (hexside < 0) continue;
        c += hexside;
      }
      if (!p.ignores_terrain) {
        if (tcost < 0) continue;
        c += tcost;
      }
      for (const auto& x : rules.crossings) {
        if (x.path == static_cast<int>(k) && (side & x.features)) c += x.cost;
      }
      consider(c);
    }
  }
  // Road-like terrain (city): entering from a road hex or a road-like hex at the road rate.
  if ((terrain & rules.road_like) && !rules.paths.empty() && hexside >= 0) {
    const auto& road = rules.paths.front();
    const bool from_road = (map.SidesOf(from) & road.bit) != 0 ||
                           (map.terrain[static_cast<size_t>(from)] & rules.road_like) != 0;
    if (from_road && road.cost[cls] >= 0) consider(road.cost[cls] + hexside);
  }
  // Ordinary movement.
  const bool path_only = rules.path_only_all[cls] || (terrain & rules.path_only_terrain[cls]);
  if (!path_only && hexside >= 0 && tcost >= 0) consider(hexside + tcost);

  if (best >= 0) return std::max(best, 1);
  if (why) {
    const std::string& cname = rules.classes[cls];
    if (rules.path_only_all[cls]) {
      *why = "hex " + map.Label(to) + ": " + cname + " may move only along paths";
    } else if (hexside < 0) {
      *why = "hexside " + map.Label(from) + "-" + map.Label(to) + ": " +
             FeatureName(map, bad_feature) + " prohibited to " + cname;
    } else if (tcost < 0) {
      *why = "hex " + map.Label(to) + ": " + TerrainNames(map, 1u << bad_terrain) +
             " prohibited to " + cname;
    } else if (path_only) {
      *why = "hex " + map.Label(to) + ": " + cname + " may enter " +
             TerrainNames(map, terrain & rules.path_only_terrain[cls]) + " only along a path";
    } else {
      *why = "hex " + map.Label(to) + ": prohibited to " + cname;
    }
  }
  return kProhibitedCost;
}

int EntryCost(const Map& map, const MovementRules& rules, int move_class, int hex) {
  const size_t cls = static_cast<size_t>(move_class);
  const TerrainMask terrain = map.terrain[static_cast<size_t>(hex)];
  int bad = -1;
  int best = kProhibitedCost;
  const FeatureMask sides = map.SidesOf(hex);
  for (const auto& p : rules.paths) {
    if (!(sides & p.bit) || p.cost[cls] < 0) continue;
    int c = p.cost[cls];
    if (!p.ignores_terrain) {
      const int t = TerrainCost(rules, cls, terrain, &bad);
      if (t < 0) continue;
      c += t;
    }
    if (best < 0 || c < best) best = c;
  }
  const bool path_only = rules.path_only_all[cls] || (terrain & rules.path_only_terrain[cls]);
  if (!path_only) {
    const int t = TerrainCost(rules, cls, terrain, &bad);
    if (t >= 0 && (best < 0 || t < best)) best = t;
  }
  return best < 0 ? kProhibitedCost : std::max(best, 1);
}

std::string FormatHalfPoints(int half_points) {
  if (half_points % 2 == 0) return std::to_string(half_points / 2);
  return std::to_string(half_points) + "/2";
}

}  // namespace wg
