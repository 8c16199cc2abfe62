// The Outpost ruleset's only hook: the computer player's knowledge of rule
// O.1 (the side that controls the outpost, the fort hex, when the game ends
// scores 3 VP). O.1 itself is data (victory.points in data/ruleset.yaml), on
// the standard hex-game flow like everything else, so the folder also plays
// without this build (`wargame play examples/outpost/data`).
#include <memory>

#include "wargame/hex_rules.h"
#include "wargame/registry.h"

namespace outpost {

class OutpostRules : public wg::HexRules {
 public:
  explicit OutpostRules(const wg::Game& game) : HexRules(game) {
    const wg::Place* p = game.hex_board().map.FindPlace("Outpost");
    outpost_ = p ? static_cast<int>(p - game.hex_board().map.places.data()) : -1;
  }

  // O.1, for the computer player (ai.h): holding the outpost is worth its 3 VP
  // to the holder, and as much against its enemy.
  double Evaluate(const wg::State& s, int side) const override {
    if (outpost_ < 0 || outpost_ >= wg::kMaxPlaces || s.place_control[outpost_] == 0) return 0.0;
    return s.place_control[outpost_] == side + 1 ? 3.0 : -3.0;
  }

 private:
  int outpost_ = -1;
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
