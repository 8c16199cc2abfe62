// The hex engine's features for the computer player's evaluation (ai.h:
// AiBoardFeatures): the hex game data's combat attributes, control kinds,
// mandatory combat and stacking check, and the map's neighbours and distances.
#include "wargame/ai.h"
#include "wargame/hex_rules.h"

namespace wg {

namespace {

class HexAiFeatures final : public AiBoardFeatures {
 public:
  Terms TermsOf(const Game& game) const override {
    const HexGameData& d = game.rules->hex()->hex_data();
    const HexBoard& board = HexBoardOf(game);
    Terms t;
    t.attack = d.attack;
    t.defense = d.defense;
    t.control_kinds = d.control_kinds;
    t.mandatory = d.mandatory;
    t.eliminate_over_stacking = d.stacking_check == HexGameData::StackingCheck::kEliminate;
    t.stacking_limit = board.stacking.limit;
    t.adjacency = board.map.size() > 0 ? board.map.grid.Neighbors(0) : nullptr;
    return t;
  }
  int AttackAttribute(const Game& game) const override { return game.rules->hex()->hex_data().attack; }
  void Coordinates(const Game& game, int position, int* q, int* r) const override {
    const Hex h = HexBoardOf(game).map.grid.HexAt(position);
    *q = h.q;
    *r = h.r;
  }
  int NearestDistance(const Game& game, int position, const int* q, const int* r, int n, int none) const override {
    return wg::NearestDistance(HexBoardOf(game).map.grid.HexAt(position), q, r, n, none);
  }
  int StackingCountOf(const Game& game, const State& s, int position, int side) const override {
    return game.rules->hex()->StackingCountOf(s, position, side);
  }
};

}  // namespace

const AiBoardFeatures* HexRules::ai_features() const {
  static const HexAiFeatures kFeatures;
  return &kFeatures;
}

}  // namespace wg
