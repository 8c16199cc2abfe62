#include "wargame/map.h"

namespace wg {

namespace {
int IndexOf(const std::vector<std::string>& names, const std::string& name) {
  for (size_t i = 0; i < names.size(); ++i) {
    if (names[i] == name) return static_cast<int>(i);
  }
  return -1;
}
}  // namespace

int Map::TerrainId(const std::string& name) const { return IndexOf(vocabulary.terrain, name); }
int Map::FeatureId(const std::string& name) const { return IndexOf(vocabulary.features, name); }

FeatureMask Map::SidesOf(int hex) const {
  FeatureMask m = 0;
  for (int d = 0; d < 6; ++d) m |= Side(hex, d);
  return m;
}

const HexBoard& EmptyHexBoard() {
  static const HexBoard kEmpty;
  return kEmpty;
}

const Place* Map::FindPlace(const std::string& name) const { return FindPlaceIn(places, name); }

std::vector<const Place*> Map::PlacesOfKind(const std::string& kind) const {
  std::vector<const Place*> out;
  for (const auto& p : places) {
    if (p.kind == kind) out.push_back(&p);
  }
  return out;
}

}  // namespace wg
