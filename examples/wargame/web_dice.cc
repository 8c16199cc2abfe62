// The dice of `wargame serve` when every die is supplied (web_game.h): fair
// dice by signed commit-reveal between the two links (fair_dice.h), or a die
// the page enters (a referee's game continued). The action that needs the die
// waits for it; when it is known the action is applied again with it.
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <ctime>

#include "wargame/action_text.h"
#include "web_game.h"

namespace wg::cli {

using nlohmann::json;

namespace {

// The side of a link that plays exactly one side; -1 otherwise.
int OneSide(int sides) { return sides == 1 ? 0 : sides == 2 ? 1 : -1; }

bool NeedsDie(const Status& st) { return !st.ok() && st.error().message.rfind("needs a die value", 0) == 0; }

}  // namespace

long WebGame::Now() const { return clock_ ? clock_() : static_cast<long>(std::time(nullptr)); }

void WebGame::SetDiceMode() {
  // Fair dice: each side has its own link (no hot-seat, no computer).
  fair_ = session_->supplied_only() && seats_.size() == 2;
}

FairDiceRecord WebGame::FairRecord() const {
  FairDiceRecord rec;
  rec.game = fair_game_;
  rec.rounds = rounds_;
  rec.voided = voided_;
  if (pending_ && fair_ && round_) {
    FairDicePending p;
    p.action = ActionToText(session_->game(), *pending_);
    p.side = pending_side_;
    p.drawn = drawn_;
    p.round = *round_;
    rec.pending = std::move(p);
  }
  return rec;
}

std::string WebGame::SaveText() const { return session_->Save() + FairDiceYaml(FairRecord()); }

std::string WebGame::SetFairDice(FairDiceRecord rec) {
  std::optional<Action> action;
  if (rec.pending) {
    if (!fair_) return "the save waits for a fair die (fair_dice_pending): continue it with a link for each side "
                       "(--players remote,remote)";
    auto a = ParseActionText(session_->game(), rec.pending->action);
    if (!a.ok()) return "fair_dice_pending.action: " + a.errors().ToString();
    if (rec.pending->side != session_->state().decision_side) return "fair_dice_pending.side: it is not that side's decision";
    action = *a;
  }
  if (!fair_ && rec.fair()) {
    return "this save's dice are drawn by commit-reveal between two remote players: continue it with a link "
           "for each side (--players remote,remote), or replay it";
  }
  if (fair_ && !rec.game.signed_game()) {
    if (rec.fair() || !session_->supplied_used().empty()) {
      return "this save's fair dice are unsigned (written before each step was signed by its player) or its dice "
             "were entered by hand: nothing binds them to the players, so it cannot go on with two remote players "
             "(replay it, or continue it with human or ai players)";
    }
    rec.game.id = RandomHex(16);  // a new fair game
    rec.game.deadline = dice_deadline_;
  }
  fair_game_ = rec.game;
  rounds_ = std::move(rec.rounds);
  voided_ = std::move(rec.voided);
  next_round_ = FairDiceRecord{fair_game_, rounds_, voided_, std::nullopt}.NextRound();
  drawn_.clear();
  pending_.reset();
  round_.reset();
  pending_by_ai_ = false;
  if (!rec.pending) return "";
  drawn_ = rec.pending->drawn;
  std::vector<int> values;
  for (const FairDiceRound& r : drawn_) values.push_back(r.value);
  session_->SupplyDice(values);
  pending_ = action;
  pending_side_ = rec.pending->side;
  round_ = rec.pending->round;
  next_round_ = std::max(next_round_, round_->n + 1);
  return "";
}

void WebGame::set_dice_deadline(long seconds) {
  dice_deadline_ = seconds;
  if (fair_game_.signed_game() && rounds_.empty() && voided_.empty() && !round_) fair_game_.deadline = seconds;
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
  if (d != std::string::npos) r.sides = std::clamp(std::atoi(m.c_str() + d + 2), 2, 1000);
  const size_t comma = m.find(", ", d), close = m.find(')', d);
  if (comma != std::string::npos && close != std::string::npos && comma < close) r.label = m.substr(comma + 2, close - comma - 2);
  NewRound(r.sides, r.label);
}

void WebGame::NewRound(int sides, const std::string& label) {
  FairDiceRound r;
  r.sides = sides;
  r.label = label;
  if (fair_ && fair_game_.signed_game()) r.n = next_round_++;
  r.waiting_since = Now();
  round_ = r;
}

namespace {

std::string StringField(const json& m, const char* key) {
  const auto it = m.find(key);
  return it != m.end() && it->is_string() ? it->get<std::string>() : "";
}

}  // namespace

std::string WebGame::FairMessage(int sides, const std::string& t, const json& m, bool* changed) {
  if (!fair_) return Refused("", "this game's dice are not drawn by commit-reveal");
  const int side = OneSide(sides);
  if (t == "key") {
    if (const std::string bad = fair_game_.Register(side, StringField(m, "key")); !bad.empty()) return Refused("", bad);
    *changed = true;
    return Answer({{"t", "ok"}, {"action", "key"}});
  }
  if (!round_) return Refused("", "no die is being rolled by commit-reveal");
  std::string bad;
  const std::string sig = StringField(m, "sig");
  if (t == "commit") bad = round_->Commit(fair_game_, side, StringField(m, "hash"), sig, Now());
  if (t == "reveal") bad = round_->Reveal(fair_game_, side, StringField(m, "secret"), sig, Now());
  if (t == "void") bad = round_->Void(fair_game_, side, sig);
  if (t == "claim") {
    const auto it = m.find("value"), at = m.find("at");
    const bool number = it != m.end() && it->is_number_integer() && it->get<long long>() >= 1 && it->get<long long>() <= 1000;
    const bool time = at != m.end() && at->is_number_integer() && at->get<long long>() >= 0 &&
                      at->get<long long>() <= 100'000'000'000LL;
    bad = number && time ? round_->Claim(fair_game_, side, static_cast<int>(it->get<long long>()),
                                         static_cast<long>(at->get<long long>()), sig, Now())
                         : "a claim names the die's value and its time (at)";
  }
  if (!bad.empty()) return Refused("", bad);
  *changed = true;
  if (round_->voided()) {  // both agreed: a new round draws the die
    voided_.push_back(*round_);
    NewRound(round_->sides, round_->label);
  } else if (round_->resolved()) {
    if (round_->claimed_by < 0) {
      round_->value = fair_game_.signed_game()
                          ? DieOfRound(fair_game_.id, round_->n, round_->reveal[0], round_->reveal[1], round_->sides)
                          : DieFromSecrets(round_->reveal[0], round_->reveal[1], round_->sides);
    }
    drawn_.push_back(*round_);
    DieKnown(round_->value);
  }
  return Answer({{"t", "ok"}, {"action", t}});
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

json WebGame::FairJson(int sides) const {
  if (!fair_) return nullptr;
  json j = {{"id", fair_game_.id}, {"keys", {fair_game_.keys[0], fair_game_.keys[1]}}, {"deadline", fair_game_.deadline},
            {"now", Now()}};
  if (!round_) return j;
  const FairDiceRound& r = *round_;
  j["round"] = {{"n", r.n},
                {"sides", r.sides},
                {"label", r.label},
                {"action", pending_ ? ActionToText(session_->game(), *pending_) : ""},
                {"commit", {r.commit[0], r.commit[1]}},
                {"revealed", {!r.reveal[0].empty(), !r.reveal[1].empty()}},
                {"void", {!r.void_sig[0].empty(), !r.void_sig[1].empty()}},
                {"waiting_since", r.waiting_since},
                {"claimable_at", r.ClaimableAt(fair_game_, OneSide(sides))}};
  return j;
}

json WebGame::RoundJson(int sides) const {
  const json f = FairJson(sides);
  return f.is_object() && f.contains("round") ? f["round"] : json(nullptr);
}

}  // namespace wg::cli
