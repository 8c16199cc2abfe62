#include "wargame/los.h"

#include <algorithm>
#include <cmath>

namespace wg {

namespace {

// One step of wg::Line at a time (hex.h LineStepAt), no allocation.
LineStep StepAt(Hex a, Hex b, int i, int n) { return LineStepAt(a, b, i, n); }

// Emits the checks for the line a -> b as emit(Hex x, mask x, Hex y, mask y):
// the line is blocked if any emitted (cell(x) & mx) && (cell(y) & my) holds.
// Stops early when emit returns false.
template <typename Emit>
void PlanLine(Hex a, Hex b, AlongHexside policy, uint8_t terrain_bit, Emit&& emit) {
  const int n = Distance(a, b);
  if (n == 0) return;
  LineStep cur = StepAt(a, b, 0, n);
  for (int i = 0; i < n; ++i) {
    const LineStep nxt = StepAt(a, b, i + 1, n);
    if (!cur.along_hexside) {
      uint8_t mask = i > 0 ? terrain_bit : 0;
      if (!nxt.along_hexside) {
        const int d = DirectionTo(cur.hex, nxt.hex);
        WG_CHECK(d >= 0, "line steps are not adjacent");
        mask = static_cast<uint8_t>(mask | (1u << d));
      }
      if (mask != 0 && !emit(cur.hex, mask, cur.hex, mask)) return;
    } else {
      const int d = DirectionTo(cur.hex, cur.alt);
      WG_CHECK(d >= 0, "hexside pair not adjacent");
      const uint8_t side = static_cast<uint8_t>(1u << d);
      switch (policy) {
        case AlongHexside::kBlockedIfBoth:
          if (!emit(cur.hex, side, cur.hex, side)) return;
          if (!emit(cur.hex, terrain_bit, cur.alt, terrain_bit)) return;
          break;
        case AlongHexside::kBlockedIfEither: {
          const uint8_t m = static_cast<uint8_t>(side | terrain_bit);
          if (!emit(cur.hex, m, cur.hex, m)) return;
          if (!emit(cur.alt, terrain_bit, cur.alt, terrain_bit)) return;
          break;
        }
        case AlongHexside::kNeverBlocked:
          break;
      }
    }
    cur = nxt;
  }
}

std::string Known(const std::vector<std::string>& names) {
  std::string s;
  for (const auto& n : names) s += (s.empty() ? "" : ", ") + n;
  return s;
}

}  // namespace

Result<LosRules> LoadLosRules(YamlReader& reader, const YAML::Node& node, const std::string& path,
                              const MapVocabulary& vocabulary) {
  const size_t before = reader.errors().size();
  LosRules rules;
  if (reader.CheckKeys(node, path, {"blocking_terrain", "blocking_features", "along_hexside"})) {
    const std::string tpath = YamlReader::Child(path, "blocking_terrain");
    const YAML::Node t = node["blocking_terrain"];
    if (!t) {
      reader.Fail(node, tpath, "missing required key");
    } else {
      const auto names = reader.StringList(t, tpath);
      for (size_t i = 0; i < names.size(); ++i) {
        const auto it = std::find(vocabulary.terrain.begin(), vocabulary.terrain.end(), names[i]);
        if (it == vocabulary.terrain.end()) {
          reader.Fail(t.IsSequence() ? t[i] : t, t.IsSequence() ? YamlReader::Item(tpath, i) : tpath,
                      "unknown terrain \"" + names[i] + "\" (known: " + Known(vocabulary.terrain) +
                          ")");
        } else {
          rules.blocking_terrain |= 1u << (it - vocabulary.terrain.begin());
        }
      }
    }
    const std::string fpath = YamlReader::Child(path, "blocking_features");
    if (const YAML::Node f = node["blocking_features"]) {
      const auto names = reader.StringList(f, fpath);
      for (size_t i = 0; i < names.size(); ++i) {
        const auto it =
            std::find(vocabulary.features.begin(), vocabulary.features.end(), names[i]);
        if (it == vocabulary.features.end()) {
          reader.Fail(f.IsSequence() ? f[i] : f, f.IsSequence() ? YamlReader::Item(fpath, i) : fpath,
                      "unknown hexside feature \"" + names[i] + "\" (known: " +
                          Known(vocabulary.features) + ")");
        } else {
          rules.blocking_features |= 1u << (it - vocabulary.features.begin());
        }
      }
    }
    if (auto policy = reader.RequiredString(node, path, "along_hexside")) {
      if (*policy == "both") {
        rules.along_hexside = AlongHexside::kBlockedIfBoth;
      } else if (*policy == "either") {
        rules.along_hexside = AlongHexside::kBlockedIfEither;
      } else if (*policy == "never") {
        rules.along_hexside = AlongHexside::kNeverBlocked;
      } else {
        reader.Fail(node["along_hexside"], YamlReader::Child(path, "along_hexside"),
                    "expected both, either or never, got \"" + *policy + "\"");
      }
    }
  }
  if (reader.errors().size() == before) return rules;
  return reader.ErrorsSince(before);
}

LineOfSight::LineOfSight(const Map& map, const LosRules& rules, int max_radius)
    : rules_(rules), max_radius_(std::max(0, max_radius)), width_(2 * max_radius_ + 1) {
  const int n = map.size();
  hexes_.resize(static_cast<size_t>(n));
  int qmin = 0, qmax = -1, rmin = 0, rmax = -1;
  for (int i = 0; i < n; ++i) {
    const Hex h = map.grid.HexAt(i);
    hexes_[static_cast<size_t>(i)] = h;
    if (i == 0) {
      qmin = qmax = h.q;
      rmin = rmax = h.r;
    }
    qmin = std::min<int>(qmin, h.q);
    qmax = std::max<int>(qmax, h.q);
    rmin = std::min<int>(rmin, h.r);
    rmax = std::max<int>(rmax, h.r);
  }
  // Rounded line points stay within one hex of the endpoints' bounding box.
  q0_ = qmin - 1;
  r0_ = rmin - 1;
  q_span_ = qmax - qmin + 3;
  r_span_ = rmax - rmin + 3;
  cells_.assign(static_cast<size_t>(q_span_) * static_cast<size_t>(r_span_), 0);
  cell_of_.resize(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) {
    const int c = CellIndex(hexes_[static_cast<size_t>(i)]);
    cell_of_[static_cast<size_t>(i)] = c;
    uint8_t bits = (map.terrain[static_cast<size_t>(i)] & rules.blocking_terrain) ? kTerrainBit : 0;
    for (int d = 0; d < 6; ++d) {
      if (map.Side(i, d) & rules.blocking_features) bits = static_cast<uint8_t>(bits | (1u << d));
    }
    cells_[static_cast<size_t>(c)] = bits;
  }
  // Off-map cells next to the map still need the blocking sides they share
  // with on-map hexes, for lines along the edge.
  for (int i = 0; i < n; ++i) {
    for (int d = 0; d < 6; ++d) {
      if (!(map.Side(i, d) & rules.blocking_features)) continue;
      const int c = CellIndex(Neighbor(hexes_[static_cast<size_t>(i)], d));
      if (c >= 0 && map.grid.NeighborIndex(i, d) < 0) {
        cells_[static_cast<size_t>(c)] |= static_cast<uint8_t>(1u << OppositeDirection(d));
      }
    }
  }
  // Plans per offset, translation invariant: cell(h + (dq, dr)) = cell(h) + dq * r_span_ + dr.
  plan_.assign(static_cast<size_t>(width_) * static_cast<size_t>(width_) + 1, 0);
  for (int dq = -max_radius_; dq <= max_radius_; ++dq) {
    for (int dr = -max_radius_; dr <= max_radius_; ++dr) {
      const size_t slot = static_cast<size_t>((dq + max_radius_) * width_ + dr + max_radius_);
      plan_[slot] = static_cast<uint32_t>(ops_.size());
      const Hex target(dq, dr);
      if (Length(target) > max_radius_) continue;
      PlanLine(Hex(0, 0), target, rules.along_hexside, kTerrainBit,
               [&](Hex x, uint8_t mx, Hex y, uint8_t my) {
                 ops_.push_back(Op{x.q * r_span_ + x.r, y.q * r_span_ + y.r, mx, my});
                 return true;
               });
    }
  }
  plan_.back() = static_cast<uint32_t>(ops_.size());
}

int LineOfSight::CellIndex(Hex h) const {
  const int q = h.q - q0_, r = h.r - r0_;
  if (q < 0 || r < 0 || q >= q_span_ || r >= r_span_) return -1;
  return q * r_span_ + r;
}

bool LineOfSight::Clear(int from, int to) const {
  const Hex a = hexes_[static_cast<size_t>(from)];
  const Hex b = hexes_[static_cast<size_t>(to)];
  const int dq = b.q - a.q, dr = b.r - a.r;
  if (Length(Hex(dq, dr)) > max_radius_) return ClearFar(a, b);
  const size_t slot = static_cast<size_t>((dq + max_radius_) * width_ + dr + max_radius_);
  const uint8_t* base = cells_.data() + CellOf(from);
  const Op* op = ops_.data() + plan_[slot];
  const Op* end = ops_.data() + plan_[slot + 1];
  for (; op != end; ++op) {
    if ((base[op->a] & op->ma) && (base[op->b] & op->mb)) return false;
  }
  return true;
}

bool LineOfSight::ClearFar(Hex a, Hex b) const {
  bool clear = true;
  PlanLine(a, b, rules_.along_hexside, kTerrainBit, [&](Hex x, uint8_t mx, Hex y, uint8_t my) {
    const int cx = CellIndex(x), cy = CellIndex(y);
    if (cx < 0 || cy < 0) return true;
    if ((cells_[static_cast<size_t>(cx)] & mx) && (cells_[static_cast<size_t>(cy)] & my)) {
      clear = false;
      return false;
    }
    return true;
  });
  return clear;
}

}  // namespace wg
