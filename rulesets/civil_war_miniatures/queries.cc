// The tabletop queries (wargame/tabletop.h: TabletopQueries) of the miniatures
// ruleset, which MiniRules::tabletop() returns: what `wargame serve`'s page and
// any other program ask of the table without including this ruleset's header.
#include <cmath>
#include <memory>
#include <string>

#include "rules.h"

namespace wg::civil_war_miniatures {
namespace {

class MiniTabletop : public TabletopQueries {
 public:
  explicit MiniTabletop(const Game& game) : g_(game) {}

  Footprint BaseOf(const State& s, UnitId u) const override { return FootprintOf(g_, s, u); }
  bool LineBesideOf(const State& s, UnitId u, Footprint* out) const override {
    return civil_war_miniatures::LineBesideOf(g_, s, u, out);
  }
  // T.1: the unit whose card is up, unless a charge (2.4) waits for its target's answer.
  UnitId ActiveUnit(const State& s) const override {
    const uint8_t active = ActiveCard(s);
    return active == kNone || PendingChargeOf(s).charger != kNone ? kNoUnit : static_cast<UnitId>(active);
  }
  // 1.1: the rate of its formation (face 1 = line / unlimbered).
  double MoveRate(const State& s, UnitId u) const override {
    const UnitType& t = TypeOf(g_, u);
    return s.unit(u).face == 1 ? t.move_line : t.move_column;
  }
  double ChargeRange() const override { return D(g_).charge_range; }  // 2.1
  // T.2: {move: [u], value: x, value2: y} in hundredths of an inch.
  Action MoveToward(UnitId u, Vec2 p) const override {
    Action a = Action::Of(ActionType::kMove).AddUnit(u);
    a.value = static_cast<int>(std::lround(p.x * 100));
    a.value2 = static_cast<int>(std::lround(p.y * 100));
    return a;
  }
  std::string ActionLabel(const State& s, const Action& a) const override;

 private:
  std::string Name(const Action& a, int i) const {
    return i < a.num_units ? g_.units[static_cast<size_t>(a.units[static_cast<size_t>(i)])].name : std::string("?");
  }
  std::string CustomLabel(const Action& a) const;

  const Game& g_;
};

std::string MiniTabletop::CustomLabel(const Action& a) const {
  switch (a.value) {
    case kRally: return "rally " + Name(a, 0);
    case kFace: return Name(a, 0) + " faces " + std::to_string(a.value2) + " degrees";
    case kManGuns: return "spare crew of " + Name(a, 0) + " man the guns of " + Name(a, 1);
    case kOfficerPlace: return "officers of " + Name(a, 0) + (a.value2 ? " outside" : " inside") + " the building";
    case kFormBeside:
      return Name(a, 0) + ": " + std::to_string(a.value2) + " stands in line beside the building, the rest behind";
    default: return "";
  }
}

std::string MiniTabletop::ActionLabel(const State& s, const Action& a) const {
  const bool artillery = a.num_units > 0 && TypeOf(g_, a.units[0]).artillery;
  switch (a.type) {
    case ActionType::kEndPhase: {
      const UnitId u = ActiveUnit(s);
      if (u == kNoUnit) return "end";
      return "end the activation of " + g_.units[static_cast<size_t>(u)].name +
             (s.unit(u).Has(kRouted) ? " (it falls back 12\")" : "");
    }
    case ActionType::kChangeMode:
      if (artillery) return (a.value ? "unlimber " : "limber ") + Name(a, 0);
      return (a.value ? "form line: " : "form column: ") + Name(a, 0);
    case ActionType::kBombard:
      if (a.value >= kHerdTarget) return Name(a, 0) + " fires at the " + (a.value - kHerdTarget < 4 ? "cows" : "pigs");
      return Name(a, 0) + " fires at " + Name(a, 1) +
             (a.value == kAtLineBeside ? " (its line beside the building)" : "");
    case ActionType::kAttack: return Name(a, 0) + " charges " + Name(a, 1);
    case ActionType::kChoice: return a.value == 0 ? "stand: fire, then melee" : "countercharge";
    case ActionType::kCustom: return CustomLabel(a);
    default: return "";
  }
}

}  // namespace

std::unique_ptr<TabletopQueries> MakeMiniTabletop(const Game& game) { return std::make_unique<MiniTabletop>(game); }

}  // namespace wg::civil_war_miniatures
