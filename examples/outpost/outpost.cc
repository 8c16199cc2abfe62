// The Outpost ruleset's only hook: rule O.1, the side that controls the
// outpost (the fort hex, place "Outpost") when the game ends scores 3 VP.
// Everything else is data (data/ruleset.yaml) on the standard hex-game flow.
#include <memory>

#include "wargame/hex_rules.h"
#include "wargame/registry.h"

namespace outpost {

class OutpostRules : public wg::HexRules {
 public:
  explicit OutpostRules(const wg::Game& game) : HexRules(game) {}

 protected:
  // O.1: 3 VP to the side controlling the outpost at the end of the game.
  void OnGameEnd(wg::State& s, wg::Context& ctx) const override {
    const auto& places = game().map.places;
    for (size_t p = 0; p < places.size() && p < static_cast<size_t>(wg::kMaxPlaces); ++p) {
      if (places[p].name != "Outpost" || s.place_control[p] == 0) continue;
      AwardVp(s, ctx, s.place_control[p] - 1, 3, "O.1", "holds the outpost");
    }
  }
};

wg::Result<std::shared_ptr<const wg::Game>> MakeOutpost(const wg::GameParams& params) {
  return wg::LoadHexGame(wg::FindRulesetFolder(WARGAME_RULESET_DATA_DIR), params, {},
                         [](const wg::Game& g, wg::RulesetDocument&, wg::ErrorList*) -> std::unique_ptr<wg::Rules> {
                           return std::make_unique<OutpostRules>(g);
                         });
}

// The folder is absolute (wargame_add_ruleset's WARGAME_RULESET_DATA_DIR).
WG_REGISTER_RULESET((wg::RulesetInfo{"outpost", "Outpost (an out-of-tree example ruleset)", WARGAME_RULESET_DATA_DIR}),
                    MakeOutpost);

}  // namespace outpost
