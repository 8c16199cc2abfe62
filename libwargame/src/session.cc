#include "wargame/session.h"

#include <cinttypes>
#include <cstdio>
#include <cstring>

#include "wargame/action_text.h"
#include "wargame/registry.h"
#include "wargame/yaml_reader.h"

namespace wg {

Session::Session(std::shared_ptr<const Game> game, uint64_t seed, bool supplied_dice)
    : game_(std::move(game)), seed_(seed), supplied_only_(supplied_dice) {
  scratch_ = game_->rules->NewScratch();
  // Dice at set-up (if any) come from the seed; a referee supplies later ones.
  state_ = NewInitialState(*game_, seed, nullptr, &log_, scratch_.get());
}

void Session::SupplyDice(const std::vector<int>& values) {
  queue_.insert(queue_.end(), values.begin(), values.end());
}

Status Session::Apply(const Action& a) {
  if (state_.game_over) return Status::Refused("", "the game is over");
  Snapshot snap;
  std::memcpy(static_cast<void*>(&snap.state), &state_, sizeof(State));
  snap.events = log_.events.size();
  snap.supplied = supplied_used_.size();

  std::unique_ptr<DiceStream> dice;
  if (supplied_only_ || !queue_.empty()) {
    dice = supplied_only_ ? std::make_unique<DiceStream>() : std::make_unique<DiceStream>(&state_.rng);
    dice->Supply(std::vector<int>(queue_.begin(), queue_.end()));
  }
  Context ctx(*game_, dice.get(), &log_, scratch_.get());
  Status st = game_->rules->Apply(state_, a, ctx);
  if (st.ok() && ctx.missing_die()) {
    const auto& p = dice->pending();
    st = Status::Refused("", std::string("needs a die value (d") + std::to_string(p ? p->sides : 6) +
                                 (p && p->label && *p->label ? std::string(", ") + p->label : "") +
                                 "): supply it and repeat the action");
  }
  if (!st.ok()) {
    std::memcpy(static_cast<void*>(&state_), &snap.state, sizeof(State));
    log_.events.resize(snap.events);
    return st;
  }
  if (dice) {
    const size_t used = queue_.size() - dice->queued();
    for (size_t i = 0; i < used; ++i) {
      supplied_used_.push_back(queue_.front());
      queue_.pop_front();
    }
  }
  ++state_.action_count;
  actions_.push_back(a);
  undo_.push_back(snap);
  return st;
}

std::vector<Action> Session::LegalActions() {
  std::vector<Action> out;
  if (state_.game_over) return out;
  Context ctx(*game_, nullptr, nullptr, scratch_.get());
  game_->rules->LegalActions(state_, ctx, &out);
  return out;
}

bool Session::Undo() {
  if (undo_.empty()) return false;
  const Snapshot& snap = undo_.back();
  std::memcpy(static_cast<void*>(&state_), &snap.state, sizeof(State));
  log_.events.resize(snap.events);
  // Supplied values the undone action used go back to the front of the queue.
  while (supplied_used_.size() > snap.supplied) {
    queue_.push_front(supplied_used_.back());
    supplied_used_.pop_back();
  }
  undo_.pop_back();
  actions_.pop_back();
  return true;
}

std::vector<std::string> Session::DescribeEvents(size_t from) const {
  std::vector<std::string> out;
  for (size_t i = from; i < log_.events.size(); ++i) out.push_back(Describe(*game_, log_.events[i]));
  return out;
}

namespace {
std::string HashText(uint64_t h) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%016" PRIx64, h);
  return buf;
}
}  // namespace

std::string Session::Save() const {
  std::string out;
  out += "# libwargame saved game: replaying the actions from the seed reproduces the state.\n";
  out += "game: \"" + game_->params.ToString() + "\"\n";
  out += "seed: " + std::to_string(seed_) + "\n";
  out += std::string("dice: ") + (supplied_only_ ? "supplied" : "seeded") + "\n";
  out += "supplied: [";
  for (size_t i = 0; i < supplied_used_.size(); ++i) {
    out += (i ? ", " : "") + std::to_string(supplied_used_[i]);
  }
  out += "]\n";
  out += "actions:\n";
  for (const auto& a : actions_) out += "  - " + ActionToText(*game_, a) + "\n";
  out += "hash: \"" + HashText(HashState(state_)) + "\"\n";
  return out;
}

Result<std::unique_ptr<Session>> Session::Load(const std::string& text, const std::string& name) {
  return Load(text, name, static_cast<size_t>(-1));
}

Result<std::unique_ptr<Session>> Session::Load(const std::string& text, const std::string& name,
                                               size_t max_actions) {
  YamlReader r = YamlReader::FromString(text, name);
  if (!r.ok()) return r.errors();
  const YAML::Node root = r.root();
  // fair_dice: the commit-reveal record of remote dice (`wargame serve`), checked by the program.
  r.CheckKeys(root, "", {"game", "seed", "dice", "supplied", "actions", "hash", "fair_dice"});
  const auto spec = r.RequiredString(root, "", "game");
  const auto seed = r.RequiredString(root, "", "seed");
  const std::string dice = r.OptionalString(root, "", "dice", "seeded");
  if (dice != "seeded" && dice != "supplied") r.Fail(root["dice"], "dice", "expected seeded or supplied");
  if (!r.ok()) return r.errors();
  auto game = LoadGame(*spec);
  if (!game.ok()) {
    ErrorList l;
    for (auto e : game.errors().errors()) {
      if (e.file.empty()) {
        e.file = name;
        e.path = "game";
      }
      l.Add(e);
    }
    return l;
  }
  uint64_t seed_value = 0;
  try {
    seed_value = std::stoull(*seed);
  } catch (...) {
    r.Fail(root["seed"], "seed", "expected a non-negative integer");
    return r.errors();
  }
  auto session = std::make_unique<Session>(*game, seed_value, dice == "supplied");
  if (const YAML::Node sup = root["supplied"]) {
    std::vector<int> values;
    if (r.ExpectSequence(sup, "supplied")) {
      for (size_t i = 0; i < sup.size(); ++i) {
        values.push_back(r.Int(sup[i], YamlReader::Item("supplied", i)).value_or(1));
      }
    }
    session->SupplyDice(values);
  }
  const YAML::Node actions = root["actions"];
  if (actions && r.ExpectSequence(actions, "actions")) {
    for (size_t i = 0; i < actions.size() && i < max_actions; ++i) {
      const std::string p = YamlReader::Item("actions", i);
      auto a = ParseAction(session->game(), r, actions[i], p);
      if (!a.ok()) return a.errors();
      const Status st = session->Apply(*a);
      if (!st.ok()) {
        r.Fail(actions[i], p, "does not replay: " + st.error().ToString());
        return r.errors();
      }
    }
  }
  if (!r.ok()) return r.errors();
  const bool complete = !actions || max_actions >= actions.size();
  if (complete && root["hash"]) {
    const std::string want = root["hash"].Scalar();
    const std::string got = HashText(HashState(session->state()));
    if (want != got) {
      r.Fail(root["hash"], "hash", "replayed state hash " + got + " differs from the saved " + want +
                                       " (the ruleset or its data changed since the game was saved)");
      return r.errors();
    }
  }
  return session;
}

}  // namespace wg
