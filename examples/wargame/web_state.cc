// The state message of `wargame serve` (the position, the legal options in
// words with their movement costs, the log) and the odds preview.
#include <nlohmann/json.hpp>

#include <map>

#include "cli.h"
#include "wargame/action_text.h"
#include "wargame/hex_rules.h"
#include "web_game.h"

namespace wg::cli {

using nlohmann::json;

namespace {

constexpr size_t kLogTail = 400;  // events sent with each state (the page shows the latest)

json SidesJson(const Game& g, const std::vector<std::string>& kinds) {
  json out = json::array();
  for (size_t i = 0; i < g.sides.size() && i < 2; ++i) {
    out.push_back({{"id", g.sides[i].id}, {"name", g.sides[i].name}, {"player", i < kinds.size() ? kinds[i] : ""}});
  }
  return out;
}

json TurnsJson(const Game& g) {
  json out = json::array();
  for (const TurnDef& t : g.turns.turns) out.push_back({{"label", t.label}, {"night", t.night}});
  return out;
}

std::string UnitKey(const Action& a) {
  std::string k;
  for (int i = 0; i < a.num_units; ++i) k += std::to_string(a.units[static_cast<size_t>(i)]) + ",";
  return k;
}

}  // namespace

json WebGame::LegalJson(int sides) {
  json out = json::array();
  const State& s = session_->state();
  if (session_->over() || pending_ || !Plays(sides, s.decision_side)) return out;
  const Game& g = session_->game();
  const HexQueries* hex = g.rules->hex();
  const std::vector<Action> legal = session_->LegalActions();
  // Movement costs: one search per moving unit or stack.
  std::map<std::string, std::map<int, double>> costs;
  if (hex && g.has_hex_board()) {
    Context ctx(g, nullptr, nullptr, &session_->scratch());
    for (const Action& a : legal) {
      if (a.type != ActionType::kMove || a.num_hexes == 0 || costs.count(UnitKey(a))) continue;
      const Reachable& r = hex->SearchMoves(s, ctx, a.units.data(), a.num_units);
      auto& c = costs[UnitKey(a)];
      for (int h : r.hexes()) c[h] = r.Cost(h) / 2.0;
    }
  }
  for (const Action& a : legal) {
    json e = {{"text", ActionToText(g, a)}, {"label", ActionLabel(g, s, a)}, {"type", ActionTypeName(a.type)}};
    json units = json::array(), hexes = json::array();
    for (int i = 0; i < a.num_units; ++i) units.push_back(g.units[a.units[static_cast<size_t>(i)]].id);
    for (int i = 0; i < a.num_hexes && g.has_hex_board(); ++i) {
      hexes.push_back(g.hex_board().map.Label(a.hexes[static_cast<size_t>(i)]));
    }
    e["units"] = units;
    e["hexes"] = hexes;
    if (a.type == ActionType::kMove && a.num_hexes > 0) {
      const auto it = costs.find(UnitKey(a));
      const int dest = a.hexes[a.num_hexes - 1u];
      if (it != costs.end() && it->second.count(dest)) e["cost"] = it->second.at(dest);
    }
    out.push_back(e);
  }
  return out;
}

std::string WebGame::StateMessage(int sides) {
  const Game& g = session_->game();
  json j = json::parse(StateJson(*session_), nullptr, false);
  if (j.is_discarded()) j = json::object();
  j["t"] = "state";
  // The seed is every die to come: the host knows it, a remote link never does
  // (nor a page of a game whose dice are all supplied, where it is unused).
  if (!session_->over() && (session_->supplied_only() || RemoteLink(sides))) j.erase("seed");
  json you = json::array();
  for (int i = 0; i < 2; ++i) {
    if (Plays(sides, i)) you.push_back(g.sides[static_cast<size_t>(i)].id);
  }
  j["you"] = you;
  j["sides"] = SidesJson(g, kinds_);
  // JSON objects have no order: the counter's values in the order of the attributes.
  j["attributes"] = g.attributes;
  if (j.contains("units") && j["units"].is_array() && j["units"].size() == static_cast<size_t>(session_->state().num_units)) {
    for (size_t i = 0; i < j["units"].size(); ++i) {
      j["units"][i]["values"] = UnitValues(g, session_->state(), static_cast<UnitId>(i));
    }
  }
  j["turns"] = TurnsJson(g);
  j["hex_map"] = g.has_hex_board();
  j["svg"] = RenderSvg(g, session_->state());
  j["legal"] = LegalJson(sides);
  if (IsTabletop(g)) {
    const State& s = session_->state();
    bool can_move = false;
    if (!session_->over() && !pending_ && Plays(sides, s.decision_side)) {
      for (const Action& a : session_->LegalActions()) can_move |= a.type == ActionType::kMove;
    }
    j["tabletop"] = TabletopJson(g, s, &session_->scratch(), can_move);
  }
  j["can_undo"] = UndoAllowed(sides);
  j["can_import"] = ControlsGame(sides);
  j["ai_to_move"] = AiToMove();
  j["dice_round"] = RoundJson(sides);
  j["fair"] = FairJson(sides);
  // A referee's game: the die the waiting action needs, entered at the page.
  j["die_needed"] = nullptr;
  if (pending_ && !fair_ && round_) {
    j["die_needed"] = {{"sides", round_->sides}, {"label", round_->label},
                       {"action", ActionToText(g, *pending_)}, {"you", ControlsGame(sides)}};
  }
  j["fair_dice"] = rounds_.size() + drawn_.size();  // the dice drawn by commit-reveal so far
  if (!rounds_.empty()) {
    const FairDiceRound& r = rounds_.back();
    j["last_fair_die"] = {{"sides", r.sides}, {"value", r.value}, {"commit", {r.commit[0], r.commit[1]}},
                          {"reveal", {r.reveal[0], r.reveal[1]}}};
  }
  if (j.contains("events") && j["events"].is_array() && j["events"].size() > kLogTail) {
    json& ev = j["events"];
    j["events_skipped"] = ev.size() - kLogTail;
    ev.erase(ev.begin(), ev.end() - static_cast<std::ptrdiff_t>(kLogTail));
  }
  return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

json OddsJson(const Game& g, const HexQueries& hex, const AttackAnalysis& an, const Action& a) {
  const AttackPlan& p = an.plan;
  json mods = json::array();
  for (int i = 0; i < p.mods.num_multipliers; ++i) mods.push_back("defense x" + std::to_string(p.mods.multipliers[i]));
  if (p.mods.drm) mods.push_back(std::string("die roll modifier ") + (p.mods.drm > 0 ? "+" : "") + std::to_string(p.mods.drm));
  if (p.mods.column_shift) mods.push_back("column shift " + std::to_string(p.mods.column_shift));
  json notes = json::array();
  for (int i = 0; i < p.mods.num_notes; ++i) notes.push_back(p.mods.notes[i]);
  json outcomes = json::array();
  for (const auto& o : an.outcomes) {
    outcomes.push_back({{"result", o.result ? o.result->text : "?"},
                        {"numerator", o.numerator},
                        {"denominator", o.denominator},
                        {"probability", o.probability()}});
  }
  json defenders = json::array();
  for (int i = 0; i < p.num_defenders; ++i) defenders.push_back(g.units[p.defenders[i]].id);
  return {{"t", "odds"},        {"action", ActionToText(g, a)},
          {"attack", p.attack}, {"defense", p.defense},
          {"modified_defense", p.modified_defense},
          {"column", hex.ColumnLabel(p.column)},
          {"computed_column", hex.ColumnLabel(p.computed_column)},
          {"modifiers", mods},  {"notes", notes},
          {"defenders", defenders}, {"outcomes", outcomes}};
}

}  // namespace wg::cli
