// The dice of `wargame serve` when every die is supplied (web_game.h): fair
// dice by commit-reveal between the two links (fair_dice.h), or a die the
// page enters (a referee's game continued). The action that needs the die
// waits for it; when it is known the action is applied again with it.
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>

#include "wargame/action_text.h"
#include "web_game.h"

namespace wg::cli {

using nlohmann::json;

namespace {

// The side of a link that plays exactly one side; -1 otherwise.
int OneSide(int sides) { return sides == 1 ? 0 : sides == 2 ? 1 : -1; }

bool NeedsDie(const Status& st) { return !st.ok() && st.error().message.rfind("needs a die value", 0) == 0; }

}  // namespace

void WebGame::SetDiceMode() {
  // Fair dice: each side has its own link (no hot-seat, no computer).
  fair_ = session_->supplied_only() && seats_.size() == 2;
}

std::string WebGame::SaveText() const {
  if (!pending_ || !fair_) return session_->Save() + FairDiceYaml(rounds_);
  FairDicePending p;
  p.action = ActionToText(session_->game(), *pending_);
  p.side = pending_side_;
  p.drawn = drawn_;
  p.round = *round_;
  return session_->Save() + FairDiceYaml(rounds_, &p);
}

std::string WebGame::SetFairDice(std::vector<FairDiceRound> rounds, std::optional<FairDicePending> pending) {
  std::optional<Action> action;
  if (pending) {
    if (!fair_) return "the save waits for a fair die (fair_dice_pending): continue it with a link for each side "
                       "(--players remote,remote)";
    auto a = ParseActionText(session_->game(), pending->action);
    if (!a.ok()) return "fair_dice_pending.action: " + a.errors().ToString();
    if (pending->side != session_->state().decision_side) return "fair_dice_pending.side: it is not that side's decision";
    action = *a;
  }
  rounds_ = std::move(rounds);
  drawn_.clear();
  pending_.reset();
  round_.reset();
  pending_by_ai_ = false;
  if (!pending) return "";
  drawn_ = pending->drawn;
  std::vector<int> values;
  for (const FairDiceRound& r : drawn_) values.push_back(r.value);
  session_->SupplyDice(values);
  pending_ = action;
  pending_side_ = pending->side;
  round_ = pending->round;
  return "";
}

bool WebGame::WaitForDie(const Status& st, const Action& a, int side) {
  if (!NeedsDie(st) || !session_->supplied_only()) return false;
  StartRound(st);
  pending_ = a;
  pending_side_ = side;
  return true;
}

void WebGame::StartRound(const Status& needs_die) {
  FairDiceRound r;
  // "needs a die value (d6, combat): ..."
  const std::string& m = needs_die.error().message;
  const size_t d = m.find("(d");
  if (d != std::string::npos) r.sides = std::max(2, std::atoi(m.c_str() + d + 2));
  const size_t comma = m.find(", ", d), close = m.find(')', d);
  if (comma != std::string::npos && close != std::string::npos && comma < close) r.label = m.substr(comma + 2, close - comma - 2);
  round_ = r;
}

std::string WebGame::Commit(int sides, const std::string& hash, bool* changed) {
  if (!round_ || !fair_) return Refused("", "no die is being rolled by commit-reveal");
  if (const std::string bad = round_->Commit(OneSide(sides), hash); !bad.empty()) return Refused("", bad);
  *changed = true;
  return Answer({{"t", "ok"}, {"action", "commit"}});
}

std::string WebGame::Reveal(int sides, const std::string& secret, bool* changed) {
  if (!round_ || !fair_) return Refused("", "no die is being rolled by commit-reveal");
  if (const std::string bad = round_->Reveal(OneSide(sides), secret); !bad.empty()) return Refused("", bad);
  *changed = true;
  if (round_->revealed()) {
    round_->value = DieFromSecrets(round_->reveal[0], round_->reveal[1], round_->sides);
    drawn_.push_back(*round_);
    DieKnown(round_->value);
  }
  return Answer({{"t", "ok"}, {"action", "reveal"}});
}

// A referee's game: the page enters the die the waiting action needs.
std::string WebGame::EnterDie(int sides, const json& value, bool* changed) {
  if (!round_ || fair_) return Refused("", "no die is to be entered");
  if (!ControlsGame(sides)) return Refused("", "the die is entered at the page that plays the game");
  if (!value.is_number_integer() || value.get<long long>() < 1 || value.get<long long>() > round_->sides) {
    return Refused("", "a d" + std::to_string(round_->sides) + " shows 1 to " + std::to_string(round_->sides));
  }
  *changed = true;
  DieKnown(static_cast<int>(value.get<long long>()));
  return Answer({{"t", "ok"}, {"action", "die"}});
}

// The die is supplied and the waiting action applied again: it may need
// another die (another round). The same action in the same state with more
// dice only gets further, so the only refusal it can meet is another missing die.
void WebGame::DieKnown(int value) {
  round_.reset();
  session_->SupplyDice({value});
  const size_t events_before = session_->events().size();
  const size_t used_before = session_->supplied_used().size();
  const Status st = session_->Apply(*pending_);
  if (NeedsDie(st)) {
    StartRound(st);
    return;
  }
  if (st.ok()) {
    history_.Applied(*session_, pending_by_ai_ ? -1 : pending_side_, events_before);
    // The fair dice of this action are the supplied values it used, in order.
    for (size_t i = 0; i < drawn_.size(); ++i) drawn_[i].at = static_cast<long>(used_before + i);
    rounds_.insert(rounds_.end(), drawn_.begin(), drawn_.end());
  }
  drawn_.clear();
  pending_.reset();
  pending_by_ai_ = false;
}

json WebGame::RoundJson() const {
  if (!round_ || !fair_) return nullptr;
  const FairDiceRound& r = *round_;
  return {{"sides", r.sides},
          {"label", r.label},
          {"action", pending_ ? ActionToText(session_->game(), *pending_) : ""},
          {"commit", {r.commit[0], r.commit[1]}},
          {"revealed", {!r.reveal[0].empty(), !r.reveal[1].empty()}}};
}

}  // namespace wg::cli
