// The replay of `wargame serve`'s page and the reason a unit may not be chosen.
//
// {"t":"replay","to":N}: the position after the game's first N actions, replayed
// on a second session from the same seed and the same supplied dice (a fair
// game's dice), as `wargame replay --to N` does: the answer carries what the
// page draws (the map, the header, the events of action N) and the action
// index at which each turn starts (jump to turn). A replay shows only what has
// been played (never the seed, so never a die to come), so every link may ask,
// a spectator's too. One replay session per game is kept and stepped forward;
// a step back replays from the start (a whole game is a few milliseconds).
//
// {"t":"why","unit":"harris"}: why this unit is not in the legal options of
// the decision: the engine's refusal, with its rule, of the simplest action
// the unit would take (a move to each neighbouring hex, an attack on each
// adjacent enemy hex), each tried on a copy without dice (PreviewApply).
#include <nlohmann/json.hpp>

#include "cli.h"
#include "wargame/action_text.h"
#include "wargame/hex_rules.h"
#include "web_game.h"

namespace wg::cli {

using nlohmann::json;

namespace {

std::unique_ptr<Session> NewReplay(const Session& live) {
  auto r = std::make_unique<Session>(live.game_ptr(), live.seed(), live.supplied_only());
  r->set_playout(true);  // no undo snapshots; play is the same
  if (!live.supplied_used().empty()) r->SupplyDice(live.supplied_used());
  return r;
}

}  // namespace

// The index (turn starts, events per action) of the game as it is now, rebuilt when it changed.
std::string WebGame::ReplayIndex() {
  const size_t total = session_->actions().size();
  const uint64_t key = HashState(session_->state()) ^ (total * 0x9e3779b97f4a7c15ULL);
  if (replay_ && key == replay_key_) return "";
  replay_.reset();
  replay_events_.assign(1, 0);
  replay_turns_.assign(1, 0);
  replay_by_.clear();
  auto r = NewReplay(*session_);
  replay_events_[0] = r->events().size();
  replay_turns_[0] = r->state().turn;
  for (size_t i = 0; i < total; ++i) {
    replay_by_.push_back(r->state().decision_side);
    if (const Status st = r->Apply(session_->actions()[i]); !st.ok()) {
      return "action " + std::to_string(i + 1) + " does not replay: " + st.ToString();
    }
    replay_events_.push_back(r->events().size());
    replay_turns_.push_back(r->state().turn);
  }
  if (HashState(r->state()) != HashState(session_->state())) return "the replay does not reach the game's position";
  replay_ = std::move(r);
  replay_key_ = key;
  return "";
}

std::string WebGame::Replay(const json& m) {
  if (!m.contains("to") || !m["to"].is_number_integer()) return ErrorAnswer("\"replay\" needs \"to\": a number of actions");
  if (const std::string bad = ReplayIndex(); !bad.empty()) return ErrorAnswer("no replay: " + bad);
  const size_t total = session_->actions().size();
  const long long want = m["to"].get<long long>();
  const size_t n = want < 0 ? 0 : static_cast<size_t>(std::min<long long>(want, static_cast<long long>(total)));
  if (replay_->actions().size() > n) replay_ = NewReplay(*session_);
  while (replay_->actions().size() < n) {
    if (!replay_->Apply(session_->actions()[replay_->actions().size()]).ok()) {
      replay_.reset();
      return ErrorAnswer("no replay: the game does not replay");
    }
  }
  const Game& g = session_->game();
  const State& s = replay_->state();
  json j = json::parse(StateJson(*replay_), nullptr, false);
  if (j.is_discarded()) return ErrorAnswer("no replay");
  j.erase("seed");
  j["t"] = "replay";
  j["n"] = n;
  j["total"] = total;
  json starts = json::array();
  for (size_t i = 0; i < replay_turns_.size(); ++i) {
    if (i == 0 || replay_turns_[i] != replay_turns_[i - 1]) starts.push_back({{"turn", replay_turns_[i]}, {"at", i}});
  }
  j["turn_starts"] = starts;
  // The events of action n (the set-up's before the first action).
  json events = json::array();
  const size_t from = n == 0 ? 0 : replay_events_[n - 1], to = replay_events_[n];
  const std::vector<std::string> lines = replay_->DescribeEvents(from);
  for (size_t i = 0; i < lines.size() && i < to - from; ++i) events.push_back(lines[i]);
  j["events"] = events;
  if (n > 0) {
    const Action& a = session_->actions()[n - 1];
    j["action"] = ActionToText(g, a);
    json units = json::array(), hexes = json::array();
    for (int i = 0; i < a.num_units; ++i) units.push_back(g.units[a.units[static_cast<size_t>(i)]].id);
    for (int i = 0; i < a.num_hexes && g.has_hex_board(); ++i) {
      if (a.hexes[static_cast<size_t>(i)] >= 0 && a.hexes[static_cast<size_t>(i)] < g.hex_board().map.size()) {
        hexes.push_back(g.hex_board().map.Label(a.hexes[static_cast<size_t>(i)]));
      }
    }
    j["action_units"] = units;
    j["action_hexes"] = hexes;
    const int by = replay_by_[n - 1];
    if (by >= 0 && by < static_cast<int>(g.sides.size())) j["by"] = g.sides[static_cast<size_t>(by)].id;
  }
  if (j.contains("units") && j["units"].is_array() && j["units"].size() == static_cast<size_t>(s.num_units)) {
    for (size_t i = 0; i < j["units"].size(); ++i) j["units"][i]["values"] = UnitValues(g, s, static_cast<UnitId>(i));
  }
  j["svg"] = RenderSvg(g, s);
  return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string WebGame::Why(int sides, const std::string& id) {
  const Game& g = session_->game();
  const State& s = session_->state();
  const int u = id.size() <= 64 ? g.UnitIndex(id) : -1;
  if (u < 0) return ErrorAnswer("no unit \"" + id.substr(0, 64) + "\"");
  const std::string name = g.units[static_cast<size_t>(u)].name;
  json out = {{"t", "why"}, {"unit", id}, {"ok", false}, {"rule", ""}};
  const auto answer = [&](const std::string& rule, const std::string& message) {
    out["rule"] = rule;
    out["message"] = message;
    return Answer(out);
  };
  if (session_->over()) return answer("", "the game is over");
  if (pending_) return answer("", "an action waits for its die");
  if (!Plays(sides, s.decision_side)) return answer("", "it is " + SideName(g, s.decision_side) + "'s decision");
  const UnitState& us = s.unit(static_cast<UnitId>(u));
  if ((us.side & 1) != s.decision_side) {
    return answer("", name + " is " + SideName(g, us.side & 1) + "'s: " + SideName(g, s.decision_side) + " decides now (" +
                          g.rules->DescribeDecision(s) + ")");
  }
  for (const Action& a : session_->LegalActions()) {
    for (int i = 0; i < a.num_units; ++i) {
      if (a.units[static_cast<size_t>(i)] == u) {
        out["ok"] = true;
        return answer("", name + " may be chosen");
      }
    }
  }
  if (!us.OnMap() || !g.has_hex_board() || us.hex >= g.hex_board().map.size()) {
    return answer("", name + " has no option in this decision (" + g.rules->DescribeDecision(s) + ")");
  }
  // The simplest action the unit would take, on a copy: the engine's refusal names the rule.
  const auto& map = g.hex_board().map;
  std::vector<std::string> tries;
  for (int h = 0; h < map.size(); ++h) {
    if (map.grid.DistanceIdx(us.hex, h) != 1) continue;
    bool enemy = false;
    for (int i = 0; i < s.num_units; ++i) {
      const UnitState& o = s.units[static_cast<size_t>(i)];
      enemy |= o.OnMap() && o.hex == h && (o.side & 1) != (us.side & 1);
    }
    if (s.decision == DecisionType::kCombat && enemy) tries.push_back("{attack: [" + id + "], target: [" + map.Label(h) + "]}");
    if (s.decision == DecisionType::kMovement && !enemy) tries.push_back("{move: [" + id + "], path: [" + map.Label(h) + "]}");
  }
  std::string rule, message;
  for (const std::string& text : tries) {
    auto a = ParseActionText(g, text);
    if (!a.ok()) continue;
    State after;
    const Status st = PreviewApply(g, s, &session_->scratch(), *a, &after);
    if (st.ok() || !st.error().rule.empty() || message.empty()) {
      if (st.ok()) continue;
      rule = st.error().rule;
      message = st.error().message;
      if (!rule.empty()) break;
    }
  }
  if (message.empty()) {
    message = name + " has no option in this decision (" + g.rules->DescribeDecision(s) + ")" +
              (s.decision == DecisionType::kCombat ? ": no enemy it may attack is adjacent" : "");
  }
  return answer(rule, message);
}

}  // namespace wg::cli
