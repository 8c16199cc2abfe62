// The tabletop ruleset (civil_war_miniatures) in the page of `wargame serve`:
// the table's size and every base's corners (so the page can take clicks and
// drags on the table as the renderer draws it), the active unit's reach, and
// the preview of an action. Every preview is the ruleset's own Apply on a copy
// of the State with no dice at all (an action that would roll one has no
// preview), so the page is shown exactly what the rules would do, and nothing
// about a die to come.
#include <nlohmann/json.hpp>

#include <cmath>

#include "wargame/action_text.h"
#include "wargame/map.h"
#include "wargame/tabletop.h"
#include "web_game.h"

namespace wg::cli {

using nlohmann::json;

namespace {

constexpr int kReachDirections = 48;  // the outline of where the active unit may go
constexpr int kReachBisections = 6;   // a blocked direction: its farthest free point to 1/64 of the move

json Point(Vec2 p) { return json::array({std::round(p.x * 100) / 100, std::round(p.y * 100) / 100}); }

json Corners(const Footprint& f) {
  json out = json::array();
  for (Vec2 p : f.Corners()) out.push_back(Point(p));
  return out;
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

bool IsTabletop(const Game& g) { return g.rules && g.rules->tabletop() != nullptr; }

Status PreviewApply(const Game& g, const State& s, Scratch* scratch, const Action& action, State* out) {
  if (std::string bad = ActionShapeError(action, g.num_units(), g.hex_board().map.size()); !bad.empty()) {
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
  const TabletopQueries& t = *g.rules->tabletop();
  json bases = json::array();
  for (UnitId u = 0; u < static_cast<UnitId>(g.num_units()); ++u) {
    if (s.unit(u).hex == kEliminated) continue;
    json b = {{"id", g.units[static_cast<size_t>(u)].id}, {"side", g.sides[static_cast<size_t>(s.unit(u).side)].id},
              {"corners", Corners(t.BaseOf(s, u))}};
    Footprint line;
    if (t.LineBesideOf(s, u, &line)) b["line"] = Corners(line);
    bases.push_back(b);
  }
  json out = {{"width", g.table().width}, {"depth", g.table().depth}, {"bases", bases},
              {"charge_range", t.ChargeRange()}, {"active", nullptr}, {"reach", nullptr}};
  const UnitId u = t.ActiveUnit(s);
  if (u == kNoUnit) return out;
  out["active"] = g.units[static_cast<size_t>(u)].id;
  // Ranges from the active unit's centre to the nearest part of every enemy (3.1).
  const Footprint me = t.BaseOf(s, u);
  json ranges = json::object();
  for (UnitId o = 0; o < static_cast<UnitId>(g.num_units()); ++o) {
    if (s.unit(o).hex == kEliminated || s.unit(o).side == s.unit(u).side) continue;
    ranges[g.units[static_cast<size_t>(o)].id] = std::round(RangeTo(me, t.BaseOf(s, o)) * 10) / 10;
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
  const TabletopQueries& t = *g.rules->tabletop();
  const double rate = t.MoveRate(s, u);
  State after;
  const Vec2 c = t.BaseOf(s, u).center;
  json outline = json::array(), blocked = json::array();
  for (int k = 0; k < kReachDirections; ++k) {
    const double angle = 2 * M_PI * k / kReachDirections;
    const Vec2 dir{std::cos(angle), std::sin(angle)};
    const double edge = ToTableEdge(g.table(), c, dir);
    Vec2 end = c;
    bool clear = false;
    if (edge > 0.01 && PreviewApply(g, s, scratch, t.MoveToward(u, c + dir * edge), &after).ok()) {
      end = t.BaseOf(after, u).center;
      clear = true;
    } else {
      double lo = 0, hi = std::min(edge, rate);
      for (int i = 0; i < kReachBisections; ++i) {
        const double mid = (lo + hi) / 2;
        if (mid > 0.01 && PreviewApply(g, s, scratch, t.MoveToward(u, c + dir * mid), &after).ok()) {
          lo = mid;
          end = t.BaseOf(after, u).center;
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
    const TabletopQueries& t = *g.rules->tabletop();
    const Footprint f = t.BaseOf(after, u);
    out["unit"] = g.units[static_cast<size_t>(u)].id;
    out["corners"] = Corners(f);
    out["center"] = Point(f.center);
    out["moved"] = std::round(DistanceBetween(t.BaseOf(s, u).center, f.center) * 100) / 100;
  }
  return Answer(out);
}

}  // namespace wg::cli
