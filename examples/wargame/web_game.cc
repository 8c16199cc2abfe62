// The game behind `wargame serve` (web_game.h).
#include "web_game.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <random>

#include "cli.h"
#include "wargame/action_text.h"
#include "wargame/ai.h"
#include "wargame/hex_rules.h"

namespace wg::cli {

using nlohmann::json;

bool Plays(int sides, int side) { return side >= 0 && side < 2 && ((sides >> side) & 1); }

namespace {

// (turn, phase, phasing side): undo stays within one of these.
int PhaseKey(const State& s) { return (s.turn * 64 + s.phase) * 2 + (s.phasing_side & 1); }

}  // namespace

std::string Answer(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

std::string Refused(const std::string& rule, const std::string& message) {
  return Answer({{"t", "refused"}, {"rule", rule}, {"message", message}});
}

std::string ErrorAnswer(const std::string& message) { return Answer({{"t", "error"}, {"message", message}}); }

std::string NewToken() {
  std::random_device rd;
  std::string t;
  for (int i = 0; i < 4; ++i) {
    char b[9];
    std::snprintf(b, sizeof b, "%08x", static_cast<unsigned>(rd()));
    t += b;
  }
  return t;
}

WebGame::WebGame(std::unique_ptr<Session> session, std::vector<std::string> kinds, uint64_t seed, int ai_budget)
    : session_(std::move(session)), kinds_(std::move(kinds)), seed_(seed), ai_budget_(ai_budget) {
  kinds_.resize(2, "human");
  int human = 0;
  for (int i = 0; i < 2; ++i) {
    if (kinds_[static_cast<size_t>(i)] == "human") human |= 1 << i;
    if (kinds_[static_cast<size_t>(i)] == "remote") seats_.push_back({NewToken(), 1 << i});
  }
  if (human) seats_.insert(seats_.begin(), Seat{NewToken(), human});
  SetDiceMode();
  if (fair_) fair_game_.id = RandomHex(16);
  MakePlayers();
  history_.Reset(*session_);
}

void WebGame::MakePlayers() {
  for (int i = 0; i < 2; ++i) {
    ai_[i].reset();
    if (kinds_[static_cast<size_t>(i)] != "ai") continue;
    AiOptions options;
    if (ai_budget_ > 0) options.budget = ai_budget_;
    // The seeds of `wargame play`'s players.
    ai_[i] = std::make_unique<AiPlayer>(session_->game_ptr(), seed_ * 2654435761ULL + 17 + static_cast<uint64_t>(i),
                                        options);
  }
}

int WebGame::SidesOf(const std::string& token) const {
  if (token.empty()) return 0;
  for (const Seat& s : seats_) {
    if (s.token == token) return s.sides;
  }
  return 0;
}

bool WebGame::AiToMove() const {
  const State& s = session_->state();
  return !session_->over() && !pending_ && ai_[s.decision_side & 1] != nullptr;
}

bool WebGame::AiStep() {
  if (!AiToMove()) return false;
  const std::vector<Action> legal = session_->LegalActions();
  if (legal.empty()) return false;
  const State& s = session_->state();
  const Action a = ai_[s.decision_side & 1]->Choose(session_->game(), s, legal);
  const size_t events_before = session_->events().size();
  const int side = s.decision_side;
  const Status st = session_->Apply(a);
  if (!st.ok()) {
    pending_by_ai_ = true;
    if (WaitForDie(st, a, side)) return true;  // the computer's action waits for the page's die
    pending_by_ai_ = false;
    return false;
  }
  history_.Applied(*session_, -1, events_before);
  return true;
}

std::string WebGame::Handle(int sides, const std::string& message, bool* changed) {
  *changed = false;
  if (message.size() > kMaxMessageBytes) return ErrorAnswer("message too long");
  const json m = json::parse(message, nullptr, /*allow_exceptions=*/false);
  if (!m.is_object() || !m.contains("t") || !m["t"].is_string()) {
    return ErrorAnswer("expected a JSON object with a \"t\" field");
  }
  const std::string t = m["t"].get<std::string>();
  auto text = [&](const char* key) -> const std::string* {
    const auto it = m.find(key);
    return it != m.end() && it->is_string() ? it->get_ptr<const std::string*>() : nullptr;
  };
  if (t == "state") return StateMessage(sides);
  if (t == "replay") return Replay(m);
  if ((sides & 3) == 0 && t != "odds") return Refused("", "a spectator's link reads the game and acts for no side");
  if (t == "act" || t == "odds" || t == "preview") {
    const std::string* action = text("action");
    if (!action) return ErrorAnswer("\"" + t + "\" needs an \"action\" string");
    if (t == "preview") return Preview(sides, *action);
    return t == "act" ? Act(sides, *action, changed) : Odds(*action);
  }
  if (t == "undo") return Undo(sides, changed);
  if (t == "why") return text("unit") ? Why(sides, *text("unit")) : ErrorAnswer("\"why\" needs a \"unit\" string");
  if (t == "die") return m.contains("value") ? EnterDie(sides, m["value"], changed) : ErrorAnswer("\"die\" needs a \"value\"");
  if (t == "export") return Export(sides);
  if (t == "key" || t == "commit" || t == "reveal" || t == "void" || t == "claim") {
    const char* need = t == "key" ? "key" : t == "commit" ? "hash" : t == "reveal" ? "secret" : "sig";
    if (!text(need)) return ErrorAnswer("\"" + t + "\" needs a \"" + need + "\" string");
    return FairMessage(sides, t, m, changed);
  }
  if (t == "import") {
    const std::string* save = text("save");
    if (!save) return ErrorAnswer("\"import\" needs a \"save\" string");
    return Import(sides, *save, changed);
  }
  return ErrorAnswer("unknown message \"" + t + "\"");
}

std::string WebGame::Act(int sides, const std::string& text, bool* changed) {
  if (text.size() > kMaxActionText) return Refused("", "action too long");
  const Game& g = session_->game();
  auto a = ParseActionText(g, text);
  if (!a.ok()) return Refused("", a.errors().ToString());
  const State& s = session_->state();
  if (session_->over()) return Refused("", "the game is over");
  if (pending_) {
    return Refused("", fair_ ? "a die is being rolled (commit-reveal): wait for both sides' secrets"
                             : "the die of " + ActionToText(g, *pending_) + " is to be entered first");
  }
  if (!Plays(sides, s.decision_side)) {
    return Refused("", "it is " + SideName(g, s.decision_side) + "'s decision, and this link does not play " +
                           SideName(g, s.decision_side));
  }
  const size_t events_before = session_->events().size();
  const int side = s.decision_side;
  const Status st = session_->Apply(*a);
  if (!st.ok() && WaitForDie(st, *a, side)) {
    *changed = true;
    return Answer({{"t", "ok"}, {"action", ActionToText(g, *a)},
                   {"pending", fair_ ? "a fair die (commit-reveal)" : "the die, entered at the page"}});
  }
  if (!st.ok()) return Refused(st.error().rule, st.error().message);
  history_.Applied(*session_, side, events_before);
  *changed = true;
  return Answer({{"t", "ok"}, {"action", ActionToText(g, *a)}});
}

// Not while an action waits for its die: it was declared in this position.
bool WebGame::UndoAllowed(int sides) const { return !pending_ && history_.CanUndo(*session_, sides); }

void UndoHistory::Reset(const Session& s) {
  entries_.clear();
  reset_actions_ = phase_start_ = s.actions().size();
  phase_key_ = PhaseKey(s.state());
}

void UndoHistory::Applied(const Session& s, int side, size_t events_before) {
  bool rolled = false;
  for (size_t i = events_before; i < s.events().size(); ++i) rolled |= s.events()[i].type == EventType::kDieRoll;
  entries_.push_back({side, rolled});
  const int key = PhaseKey(s.state());
  if (key != phase_key_) {
    phase_key_ = key;
    phase_start_ = s.actions().size();
  }
}

bool UndoHistory::CanUndo(const Session& s, int sides) const {
  const size_t n = s.actions().size();
  if (entries_.empty() || n <= phase_start_ || n <= reset_actions_ || n != reset_actions_ + entries_.size()) {
    return false;
  }
  return !entries_.back().rolled && Plays(sides, entries_.back().side);
}

std::string WebGame::Undo(int sides, bool* changed) {
  if (!UndoAllowed(sides)) {
    return Refused("", "nothing to undo: undo takes back your own actions in this phase, and none that rolled a die");
  }
  if (!session_->Undo()) return Refused("", "nothing to undo");
  history_.Undone();
  *changed = true;
  return Answer({{"t", "ok"}, {"action", "undo"}});
}

// A seeded game's save holds the seed of every die to come: a remote link
// (another player's machine) gets it only when the game is over.
bool WebGame::RemoteLink(int sides) const {
  bool remote = sides != 0;
  for (int i = 0; i < 2; ++i) remote &= !Plays(sides, i) || kinds_[static_cast<size_t>(i)] == "remote";
  return remote;
}

std::string WebGame::Export(int sides) const {
  if (RemoteLink(sides) && !session_->supplied_only() && !session_->over()) {
    return Refused("", "this game's dice are seeded and its save holds the seed (every die to come): a remote "
                       "player's link exports it when the game is over; the host's page may export it now");
  }
  return Answer({{"t", "save"}, {"save", SaveText()}});
}

bool WebGame::ControlsGame(int sides) const {
  for (int i = 0; i < 2; ++i) {
    if (!Plays(sides, i) && kinds_[static_cast<size_t>(i)] != "ai") return false;
  }
  return true;
}

std::string WebGame::Import(int sides, const std::string& save, bool* changed) {
  if (!ControlsGame(sides)) {
    return Refused("", "import needs a link that plays both sides (hot-seat): a remote player cannot replace the game");
  }
  if (const std::string bad = Restore(save); !bad.empty()) return Refused("", bad);
  *changed = true;
  return Answer({{"t", "ok"}, {"action", "import"}});
}

std::string WebGame::Restore(const std::string& save) {
  // The save is replayed on this game: a `game:` naming anything else (a path on
  // the host) is refused before anything is looked up, so no file is read.
  auto loaded = Session::LoadFor(session_->game_ptr(), save, "imported save");
  if (!loaded.ok()) return loaded.errors().ToString();
  FairDiceRecord record;
  if (const std::string bad = VerifyFairDice(save, "imported save", &record); !bad.empty()) return bad;
  std::unique_ptr<Session> old = std::move(session_);
  session_ = std::move(*loaded);
  SetDiceMode();
  if (const std::string bad = SetFairDice(std::move(record)); !bad.empty()) {
    session_ = std::move(old);  // nothing changes
    SetDiceMode();
    return bad;
  }
  MakePlayers();
  history_.Reset(*session_);
  return "";
}

std::string WebGame::Odds(const std::string& text) {
  if (text.size() > kMaxActionText) return Refused("", "action too long");
  const Game& g = session_->game();
  const HexQueries* hex = g.rules->hex();
  if (!hex) return Refused("", "this ruleset has no odds table on a hex map");
  auto a = ParseActionText(g, text);
  if (!a.ok()) return Refused("", a.errors().ToString());
  if (a->type != ActionType::kAttack) return Refused("", "odds are for an attack: {attack: [ids], target: [hexes]}");
  Context ctx(g, nullptr, nullptr, &session_->scratch());
  const AttackAnalysis an = hex->AnalyzeAttack(session_->state(), ctx, *a);
  if (!an.status.ok()) return Refused(an.status.error().rule, an.status.error().message);
  return Answer(OddsJson(g, *hex, an, *a));
}

}  // namespace wg::cli
