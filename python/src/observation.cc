#include "observation.h"

#include <algorithm>
#include <cstring>

#include "wargame/ai.h"
#include "wargame/hex_rules.h"
#include "wargame/tabletop.h"

namespace wgpy {

namespace {

constexpr int kDecisionTypes = 10;  // wg::DecisionType::kNone .. kSetup
constexpr int kScalars = 4 + kDecisionTypes;

void ScalarNames(std::vector<std::string>* names) {
  for (const char* n : {"turn", "phase", "own_phasing", "own_decides"}) names->push_back(n);
  for (int d = 0; d < kDecisionTypes; ++d) names->push_back("decision_" + std::to_string(d));
}

void Scalars(const wg::Game& game, const wg::State& s, int player, float* out) {
  const int turns = std::max(1, game.turns.num_turns());
  const int phases = std::max(1, static_cast<int>(game.turns.phases.size()));
  out[0] = static_cast<float>(s.turn) / static_cast<float>(turns);
  out[1] = static_cast<float>(s.phase) / static_cast<float>(phases);
  out[2] = s.phasing_side == player ? 1.0f : 0.0f;
  out[3] = s.decision_side == player && !s.game_over ? 1.0f : 0.0f;
  for (int d = 0; d < kDecisionTypes; ++d) out[4 + d] = static_cast<int>(s.decision) == d ? 1.0f : 0.0f;
}

int DefenseAttribute(const wg::Game& game) {
  if (const wg::HexQueries* hex = game.rules->hex()) return hex->hex_data().defense;
  return -1;
}

void WriteHex(const wg::Game& game, const ObservationLayout& L, const wg::State& s, wg::Context& ctx,
              int player, float* out) {
  const int n = game.hex_board().map.size();
  auto plane = [&](int p) { return out + static_cast<size_t>(p) * static_cast<size_t>(n); };
  const wg::Map& map = game.hex_board().map;
  const int num_terrain = L.hexsides - L.terrain;
  const int num_features = L.strength - L.hexsides;
  for (int h = 0; h < n; ++h) {
    for (int t = 0; t < num_terrain; ++t) plane(L.terrain + t)[h] = map.HasTerrain(h, t) ? 1.0f : 0.0f;
    for (int d = 0; d < 6; ++d) {
      const wg::FeatureMask m = map.Side(h, d);
      for (int f = 0; f < num_features; ++f) {
        if ((m >> f) & 1u) plane(L.hexsides + f)[h] += 1.0f / 6.0f;
      }
    }
  }
  const int defense = DefenseAttribute(game);
  const int num_markers = static_cast<int>(game.markers.size());
  for (int i = 0; i < s.num_units; ++i) {
    const wg::UnitState& us = s.units[static_cast<size_t>(i)];
    if (!us.OnMap() || us.hex >= n) continue;
    const int rel = us.side == player ? 0 : 1;
    const auto u = static_cast<wg::UnitId>(i);
    plane(L.strength + 3 * rel)[us.hex] += 1.0f;
    plane(L.strength + 3 * rel + 1)[us.hex] += static_cast<float>(wg::UnitStrength(game, s, u));
    if (defense >= 0) plane(L.strength + 3 * rel + 2)[us.hex] += static_cast<float>(game.Current(s, u, defense));
    for (int m = 0; m < num_markers && m < wg::kMaxMarkers; ++m) {
      plane(L.markers + 2 * m + rel)[us.hex] += static_cast<float>(us.markers[m]);
    }
  }
  if (const wg::HexQueries* hex = game.rules->hex()) {
    for (int rel = 0; rel < 2; ++rel) {
      const int owner = rel == 0 ? player : 1 - player;  // whose units exert the zone
      const wg::ZocField& z = hex->EnemyZocOf(s, ctx, 1 - owner);
      for (int h = 0; h < n && h < z.size(); ++h) plane(L.zoc + rel)[h] = z.InEzoc(h) ? 1.0f : 0.0f;
    }
  }
  for (size_t p = 0; p < map.places.size() && p < static_cast<size_t>(wg::kMaxPlaces); ++p) {
    const int c = s.place_control[p];
    if (c == 0) continue;
    const int rel = c - 1 == player ? 0 : 1;
    for (int h : map.places[p].hexes) plane(L.control + rel)[h] = 1.0f;
  }
  float scalars[kScalars];
  Scalars(game, s, player, scalars);
  for (int k = 0; k < kScalars; ++k) std::fill(plane(L.scalars + k), plane(L.scalars + k) + n, scalars[k]);
}

void WriteTabletop(const wg::Game& game, const ObservationLayout& L, const wg::State& s, int player,
                   float* out) {
  const int attributes = static_cast<int>(game.attributes.size());
  const int markers = static_cast<int>(game.markers.size());
  for (int i = 0; i < game.num_units(); ++i) {
    float* f = out + static_cast<size_t>(i) * static_cast<size_t>(L.per_unit);
    const auto u = static_cast<wg::UnitId>(i);
    const wg::UnitState& us = s.unit(u);
    // Where its base stands, in inches (the tabletop engine's typed query, not display text).
    const wg::TabletopQueries* table = game.rules->tabletop();
    const bool placed = us.InPlay() && table != nullptr;
    const wg::Vec2 at = placed ? table->BaseOf(s, u).center : wg::Vec2{};
    const double x = at.x, y = at.y;
    f[0] = placed ? 1.0f : 0.0f;
    f[1] = us.side == player ? 1.0f : 0.0f;
    f[2] = static_cast<float>(x / 100.0);
    f[3] = static_cast<float>(y / 100.0);
    f[4] = static_cast<float>(us.face);
    for (int a = 0; a < attributes; ++a) f[5 + a] = static_cast<float>(game.Current(s, u, a));
    for (int m = 0; m < markers && m < wg::kMaxMarkers; ++m) f[5 + attributes + m] = us.markers[m];
    f[5 + attributes + markers] = us.Has(wg::kUnitMoved) ? 1.0f : 0.0f;
    f[6 + attributes + markers] = us.Has(wg::kUnitAttacked) ? 1.0f : 0.0f;
  }
  Scalars(game, s, player, out + static_cast<size_t>(game.num_units()) * static_cast<size_t>(L.per_unit));
}

}  // namespace

ObservationLayout MakeLayout(const wg::Game& game) {
  ObservationLayout L;
  const wg::Map& map = game.hex_board().map;
  L.tabletop = !game.has_hex_board();
  const int markers = std::min(static_cast<int>(game.markers.size()), wg::kMaxMarkers);
  if (L.tabletop) {
    for (const char* n : {"in_play", "own", "x", "y", "face"}) L.names.push_back(n);
    for (const auto& a : game.attributes) L.names.push_back(a);
    for (int m = 0; m < markers; ++m) L.names.push_back("marker_" + game.markers[static_cast<size_t>(m)].id);
    L.names.push_back("moved");
    L.names.push_back("attacked");
    L.per_unit = static_cast<int>(L.names.size());
    ScalarNames(&L.names);
    L.size = game.num_units() * L.per_unit + kScalars;
    L.shape = {L.size};
    return L;
  }
  L.terrain = 0;
  for (const auto& t : map.vocabulary.terrain) L.names.push_back("terrain_" + t);
  L.hexsides = static_cast<int>(L.names.size());
  for (const auto& f : map.vocabulary.features) L.names.push_back("hexside_" + f);
  L.strength = static_cast<int>(L.names.size());
  for (const char* who : {"own", "other"}) {
    for (const char* what : {"units", "attack", "defense"}) L.names.push_back(std::string(who) + "_" + what);
  }
  L.markers = static_cast<int>(L.names.size());
  for (int m = 0; m < markers; ++m) {
    for (const char* who : {"own", "other"}) L.names.push_back(std::string(who) + "_" + game.markers[static_cast<size_t>(m)].id);
  }
  L.zoc = static_cast<int>(L.names.size());
  L.names.push_back("own_zoc");
  L.names.push_back("other_zoc");
  L.control = static_cast<int>(L.names.size());
  L.names.push_back("own_control");
  L.names.push_back("other_control");
  L.scalars = static_cast<int>(L.names.size());
  ScalarNames(&L.names);
  const int planes = static_cast<int>(L.names.size());
  const int rows = map.grid.layout().rows, cols = map.grid.layout().cols;
  if (rows * cols == map.size()) {
    L.shape = {planes, rows, cols};
  } else {
    L.shape = {planes, map.size()};
  }
  L.size = planes * map.size();
  return L;
}

void WriteObservation(const wg::Game& game, const ObservationLayout& layout, const wg::State& s,
                      wg::Context& ctx, int player, float* out) {
  std::memset(out, 0, sizeof(float) * static_cast<size_t>(layout.size));
  if (layout.tabletop) {
    WriteTabletop(game, layout, s, player, out);
  } else {
    WriteHex(game, layout, s, ctx, player, out);
  }
}

}  // namespace wgpy
