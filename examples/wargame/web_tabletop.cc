// The tabletop ruleset (civil_war_miniatures) in the page of `wargame serve`:
// the table's size and every base's corners (so the page can take clicks and
// drags on the table as the renderer draws it), the active unit's reach, and
// the preview of an action. Every preview is the ruleset's own Apply on a copy
// of the State with no dice at all (an action that would roll one has no
// preview), so the page is shown exactly what the rules would do, and nothing
// about a die to come.
#include <nlohmann/json.hpp>

#include <cmath>
#include <typeinfo>

#include "civil_war_miniatures/rules.h"
#include "wargame/action_text.h"
#include "web_game.h"

namespace wg::civil_war_miniatures {
std::unique_ptr<Rules> MakeMiniRules(const Game* game);  // rules.cc
}  // namespace wg::civil_war_miniatures

namespace wg::cli {

using nlohmann::json;
namespace cwm = wg::civil_war_miniatures;

namespace {

constexpr int kReachDirections = 48;  // the outline of where the active unit may go
constexpr int kReachBisections = 6;   // a blocked direction: its farthest free point to 1/64 of the move

json Point(Vec2 p) { return json::array({std::round(p.x * 100) / 100, std::round(p.y * 100) / 100}); }

json Corners(const Footprint& f) {
  json out = json::array();
  for (Vec2 p : f.Corners()) out.push_back(Point(p));
  return out;
}

// The active unit (the one whose card is up, no charge pending), or kNoUnit.
UnitId ActiveUnit(const State& s) {
  const auto& m = Ext<cwm::MiniState>(s);
  return m.active == cwm::kNone || m.charger != cwm::kNone ? kNoUnit : static_cast<UnitId>(m.active);
}

Action MoveToward(UnitId u, Vec2 p) {
  Action a = Action::Of(ActionType::kMove).AddUnit(u);
  a.value = static_cast<int>(std::lround(p.x * 100));
  a.value2 = static_cast<int>(std::lround(p.y * 100));
  return a;
}

// Where the ray from `c` along `dir` leaves the table (just inside it).
double ToTableEdge(const Table& t, Vec2 c, Vec2 dir) {
  double best = 1e9;
  if (dir.x > 1e-9) best = std::min(best, (t.width - c.x) / dir.x);
  if (dir.x < -1e-9) best = std::min(best, -c.x / dir.x);
  if (dir.y > 1e-9) best = std::min(best, (t.depth - c.y) / dir.y);
  if (dir.y < -1e-9) best = std::min(best, -c.y / dir.y);
  return std::max(0.0, best - 0.01);
}

}  // namespace

bool IsTabletop(const Game& g) {
  static const auto* const kMiniType = [] {
    const auto r = cwm::MakeMiniRules(nullptr);
    return &typeid(*r);
  }();
  return g.rules && typeid(*g.rules) == *kMiniType;
}

Status PreviewApply(const Game& g, const State& s, Scratch* scratch, const Action& action, State* out) {
  if (std::string bad = ActionShapeError(action, g.num_units(), g.map.size()); !bad.empty()) {
    return Status::Refused("", "malformed action: " + bad);
  }
  Action a = action;
  if (Status st = CanonicalAction(g, &a); !st.ok()) return st;
  *out = s;
  DiceStream none;  // supplied only, nothing supplied: a die needed is a missing die, never a roll
  Context ctx(g, &none, nullptr, scratch);
  Status st = g.rules->Apply(*out, a, ctx);
  if (st.ok() && ctx.missing_die()) return Status::Refused("", "this action rolls dice: it has no preview");
  return st;
}

json TabletopJson(const Game& g, const State& s, Scratch* scratch, bool can_move) {
  const auto& d = g.Data<cwm::MiniData>();
  json bases = json::array();
  for (UnitId u = 0; u < static_cast<UnitId>(g.num_units()); ++u) {
    if (s.unit(u).hex == kEliminated) continue;
    json b = {{"id", g.units[static_cast<size_t>(u)].id}, {"side", g.sides[static_cast<size_t>(s.unit(u).side)].id},
              {"corners", Corners(cwm::FootprintOf(g, s, u))}};
    Footprint line;
    if (cwm::LineBesideOf(g, s, u, &line)) b["line"] = Corners(line);
    bases.push_back(b);
  }
  json out = {{"width", d.table.width}, {"depth", d.table.depth}, {"bases", bases},
              {"charge_range", d.charge_range}, {"active", nullptr}, {"reach", nullptr}};
  const UnitId u = ActiveUnit(s);
  if (u == kNoUnit) return out;
  out["active"] = g.units[static_cast<size_t>(u)].id;
  // Ranges from the active unit's centre to the nearest part of every enemy (3.1).
  const Footprint me = cwm::FootprintOf(g, s, u);
  json ranges = json::object();
  for (UnitId o = 0; o < static_cast<UnitId>(g.num_units()); ++o) {
    if (s.unit(o).hex == kEliminated || s.unit(o).side == s.unit(u).side) continue;
    ranges[g.units[static_cast<size_t>(o)].id] = std::round(RangeTo(me, cwm::FootprintOf(g, s, o)) * 10) / 10;
  }
  out["ranges"] = ranges;
  if (can_move) out["reach"] = ReachJson(g, s, scratch, u);
  return out;
}

// The outline of where the unit may move now: in each of kReachDirections
// headings, the end point of a move toward the table's edge (the rules stop it
// at the unit's rate after terrain), or, where that move is refused (another
// unit or an enemy building in the way), the farthest point that is not.
json ReachJson(const Game& g, const State& s, Scratch* scratch, UnitId u) {
  const auto& d = g.Data<cwm::MiniData>();
  const cwm::UnitType& t = d.types[static_cast<size_t>(d.info[static_cast<size_t>(u)].type)];
  const double rate = s.unit(u).face == 1 ? t.move_line : t.move_column;
  State after;
  const Vec2 c = cwm::CenterOf(s, u);
  json outline = json::array(), blocked = json::array();
  for (int k = 0; k < kReachDirections; ++k) {
    const double angle = 2 * M_PI * k / kReachDirections;
    const Vec2 dir{std::cos(angle), std::sin(angle)};
    const double edge = ToTableEdge(d.table, c, dir);
    Vec2 end = c;
    bool clear = false;
    if (edge > 0.01 && PreviewApply(g, s, scratch, MoveToward(u, c + dir * edge), &after).ok()) {
      end = cwm::CenterOf(after, u);
      clear = true;
    } else {
      double lo = 0, hi = std::min(edge, rate);
      for (int i = 0; i < kReachBisections; ++i) {
        const double mid = (lo + hi) / 2;
        if (mid > 0.01 && PreviewApply(g, s, scratch, MoveToward(u, c + dir * mid), &after).ok()) {
          lo = mid;
          end = cwm::CenterOf(after, u);
        } else {
          hi = mid;
        }
      }
    }
    outline.push_back(Point(end));
    blocked.push_back(!clear);
  }
  return {{"unit", g.units[static_cast<size_t>(u)].id}, {"rate", rate}, {"outline", outline}, {"blocked", blocked}};
}

std::string TabletopLabel(const Game& g, const State& s, const Action& a) {
  auto name = [&](int i) {
    return i < a.num_units ? g.units[static_cast<size_t>(a.units[static_cast<size_t>(i)])].name : std::string("?");
  };
  const auto& d = g.Data<cwm::MiniData>();
  const bool artillery = a.num_units > 0 && d.types[static_cast<size_t>(d.info[static_cast<size_t>(a.units[0])].type)].artillery;
  switch (a.type) {
    case ActionType::kEndPhase: {
      const UnitId u = ActiveUnit(s);
      if (u == kNoUnit) return "end";
      return "end the activation of " + g.units[static_cast<size_t>(u)].name +
             (s.unit(u).Has(cwm::kRouted) ? " (it falls back 12\")" : "");
    }
    case ActionType::kChangeMode:
      return (artillery ? (a.value ? "unlimber " : "limber ") : (a.value ? "form line: " : "form column: ")) + name(0);
    case ActionType::kBombard:
      if (a.value >= cwm::kHerdTarget) {
        return name(0) + " fires at the " + (a.value - cwm::kHerdTarget < 4 ? "cows" : "pigs");
      }
      return name(0) + " fires at " + name(1) + (a.value == cwm::kAtLineBeside ? " (its line beside the building)" : "");
    case ActionType::kAttack: return name(0) + " charges " + name(1);
    case ActionType::kChoice: return a.value == 0 ? "stand: fire, then melee" : "countercharge";
    case ActionType::kCustom:
      switch (a.value) {
        case cwm::kRally: return "rally " + name(0);
        case cwm::kFace: return name(0) + " faces " + std::to_string(a.value2) + " degrees";
        case cwm::kManGuns: return "spare crew of " + name(0) + " man the guns of " + name(1);
        case cwm::kOfficerPlace: return "officers of " + name(0) + (a.value2 ? " outside" : " inside") + " the building";
        case cwm::kFormBeside:
          return name(0) + ": " + std::to_string(a.value2) + " stands in line beside the building, the rest behind";
        default: break;
      }
      break;
    default: break;
  }
  return "";
}

std::string WebGame::Preview(int sides, const std::string& text) {
  const Game& g = session_->game();
  if (!IsTabletop(g)) return Answer({{"t", "error"}, {"message", "a preview is for the tabletop ruleset"}});
  if (text.size() > kMaxActionText) return Refused("", "action too long");
  auto a = ParseActionText(g, text);
  if (!a.ok()) return Refused("", a.errors().ToString());
  const State& s = session_->state();
  if (session_->over()) return Refused("", "the game is over");
  if (!Plays(sides, s.decision_side)) return Refused("", "it is not this link's decision");
  State after;
  const Status st = PreviewApply(g, s, &session_->scratch(), *a, &after);
  json out = {{"t", "preview"}, {"action", ActionToText(g, *a)}, {"ok", st.ok()}};
  if (!st.ok()) {
    out["rule"] = st.error().rule;
    out["message"] = st.error().message;
    return Answer(out);
  }
  if (a->num_units > 0) {
    const UnitId u = a->units[0];
    const Footprint f = cwm::FootprintOf(g, after, u);
    out["unit"] = g.units[static_cast<size_t>(u)].id;
    out["corners"] = Corners(f);
    out["center"] = Point(f.center);
    out["moved"] = std::round(DistanceBetween(cwm::CenterOf(s, u), f.center) * 100) / 100;
  }
  return Answer(out);
}

}  // namespace wg::cli
