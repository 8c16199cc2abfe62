#include "wargame/session.h"

#include <algorithm>
#include <charconv>
#include <cinttypes>
#include <climits>
#include <map>
#include <optional>
#include <cstdio>
#include <cstring>

#include "wargame/action_text.h"
#include "wargame/registry.h"
#include "wargame/yaml_reader.h"

namespace wg {

Session::Session(std::shared_ptr<const Game> game, uint64_t seed, bool supplied_dice, const State& state)
    : game_(std::move(game)), seed_(seed), supplied_only_(supplied_dice), state_(state) {
  scratch_ = game_->rules->TakeScratch();
}

Session::Session(std::shared_ptr<const Game> game, uint64_t seed, bool supplied_dice)
    : game_(std::move(game)), seed_(seed), supplied_only_(supplied_dice) {
  scratch_ = game_->rules->TakeScratch();
  // Dice at set-up (if any) come from the seed; a referee supplies later ones.
  state_ = NewInitialState(*game_, seed, nullptr, &log_, scratch_.get());
}

// The scratch goes back to the game's pool, for the next Session (Rules::TakeScratch).
Session::~Session() {
  if (game_ && game_->rules) game_->rules->ReturnScratch(std::move(scratch_));
}

std::unique_ptr<Session> Session::Clone() const {
  std::unique_ptr<Session> c(new Session(game_, seed_, supplied_only_, state_));
  c->queue_ = queue_;
  c->log_ = log_;
  c->actions_ = actions_;
  c->supplied_used_ = supplied_used_;
  return c;
}

void Session::SupplyDice(const std::vector<int>& values) {
  queue_.insert(queue_.end(), values.begin(), values.end());
}

Status Session::Apply(const Action& action) {
  if (state_.game_over) return Status::Refused("", "the game is over");
  // Untrusted actions: nothing reads a unit id or a hex before this.
  if (std::string bad = ActionShapeError(action, game_->num_units(), game_->num_positions()); !bad.empty()) {
    return Status::Refused("", "malformed action: " + bad);
  }
  // What is applied is what the save will write.
  Action a = action;
  if (Status st = CanonicalAction(*game_, &a); !st.ok()) return st;
  Snapshot snap;
  // In playout mode (no undo snapshot is kept) what rules read and write: not the unit
  // slots past num_units, which no rule changes (CopyLiveState); a refusal restores
  // exactly the State it was given. Otherwise the whole State: it becomes the undo
  // snapshot.
  if (playout_) {
    CopyLiveState(&backup_, state_);
  } else {
    std::memcpy(static_cast<void*>(&backup_), &state_, sizeof(State));
  }
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
    CopyLiveState(&state_, backup_);
    log_.events.resize(snap.events);
    // A supplied value out of range for its die is dropped, so it cannot
    // block every later roll.
    if (dice && dice->rejected() && *dice->rejected() < queue_.size()) {
      const auto at = queue_.begin() + static_cast<std::ptrdiff_t>(*dice->rejected());
      const int v = *at;
      queue_.erase(at);
      const auto& p = dice->pending();
      return Status::Refused("", "supplied die value " + std::to_string(v) + " is out of range for a d" +
                                     std::to_string(p ? p->sides : 6) +
                                     " and was dropped: supply another and repeat the action");
    }
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
  if (!playout_) {
    undo_states_.push_back(backup_);
  }
  return st;
}

std::vector<Action> Session::LegalActions() {
  std::vector<Action> out;
  LegalActions(&out);
  return out;
}

void Session::LegalActions(std::vector<Action>* out) {
  out->clear();
  if (state_.game_over) return;
  Context ctx(*game_, nullptr, nullptr, scratch_.get());
  game_->rules->LegalActions(state_, ctx, out);
}

void Session::LegalActions(LegalActionList* out) {
  out->clear();
  if (state_.game_over) return;
  Context ctx(*game_, nullptr, nullptr, scratch_.get());
  game_->rules->ListLegal(state_, ctx, out);
}

void Session::set_playout(bool on) {
  playout_ = on;
  if (on) {
    undo_states_.clear();
    undo_states_.shrink_to_fit();
  }
}

bool Session::Undo() {
  if (undo_.empty() || undo_states_.empty()) return false;
  const Snapshot& snap = undo_.back();
  std::memcpy(static_cast<void*>(&state_), &undo_states_.back(), sizeof(State));
  log_.events.resize(snap.events);
  // Supplied values the undone action used go back to the front of the queue.
  while (supplied_used_.size() > snap.supplied) {
    queue_.push_front(supplied_used_.back());
    supplied_used_.pop_back();
  }
  undo_.pop_back();
  undo_states_.pop_back();
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

// A YAML double-quoted scalar holding exactly `text`.
std::string YamlQuote(const std::string& text) {
  std::string out = "\"";
  for (unsigned char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20 || c == 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

std::string IntList(const std::vector<int>& v, size_t from, size_t to) {
  std::string out = "[";
  for (size_t i = from; i < to; ++i) out += (i > from ? ", " : "") + std::to_string(v[i]);
  return out + "]";
}

// The hash a save of `format` holds for its final state (format 1: the bytes
// before the step stack; 2 and later: the whole State). `on_hex_0`: as it was before
// tabletop units had their own placement (issue 11), when a unit on the table
// stood on hex 0, so saves written then still load.
uint64_t SaveHash(const State& state, int format, bool on_hex_0) {
  State s = state;
  if (on_hex_0) {
    for (UnitState& u : s.units) {
      if (u.hex == kOnTable) u.hex = 0;
    }
  }
  return format == 1 ? HashStatePrefix(s) : HashState(s);
}

// Whether `want` is the hash a save of `format` holds for `state`: for an older
// format, also of the States the ruleset says such a save may have hashed.
bool SaveHashMatches(const Game& game, const State& state, int format, const std::string& want) {
  if (format == Session::kSaveFormat) return want == HashText(SaveHash(state, format, false));
  // Format 4 hashed as 3; 3 and 4 hashed what a combat owed where the older code kept it
  // (before its script steps, format 5): the ruleset gives the States such a save may have hashed.
  std::vector<State> forms{state};
  game.rules->LegacySaveStates(state, format, &forms);
  for (const State& s : forms) {
    if (want == HashText(SaveHash(s, format, false)) || want == HashText(SaveHash(s, format, true))) return true;
  }
  return false;
}

}  // namespace

std::string Session::Save() const {
  std::string out;
  out += "# libwargame saved game: replaying the actions from the seed reproduces the state.\n";
  out += "format: " + std::to_string(kSaveFormat) + "\n";
  out += "game: " + YamlQuote(game_->params.ToString()) + "\n";
  out += "seed: " + std::to_string(seed_) + "\n";
  out += std::string("dice: ") + (supplied_only_ ? "supplied" : "seeded") + "\n";
  if (supplied_only_) {
    out += "supplied: " + IntList(supplied_used_, 0, supplied_used_.size()) + "\n";
  } else {
    // Values a referee supplied in a seeded game, at the action that used them.
    std::string at;
    for (size_t i = 0; i < undo_.size(); ++i) {
      const size_t to = i + 1 < undo_.size() ? undo_[i + 1].supplied : supplied_used_.size();
      if (to > undo_[i].supplied) at += "  " + std::to_string(i) + ": " + IntList(supplied_used_, undo_[i].supplied, to) + "\n";
    }
    if (!at.empty()) out += "supplied_at:\n" + at;
  }
  // Values supplied and not used yet: a continued game uses them as this one would.
  if (!queue_.empty()) {
    const std::vector<int> queued(queue_.begin(), queue_.end());
    out += "queued: " + IntList(queued, 0, queued.size()) + "\n";
  }
  out += actions_.empty() ? "actions: []\n" : "actions:\n";
  for (const auto& a : actions_) out += "  - " + ActionToText(*game_, a) + "\n";
  out += "hash: \"" + HashText(HashState(state_)) + "\"\n";
  return out;
}

Result<std::unique_ptr<Session>> Session::Load(const std::string& text, const std::string& name) {
  return Load(text, name, static_cast<size_t>(-1));
}

namespace {

// `seed:` is a whole unsigned 64-bit number: "4abc" is not seed 4.
std::optional<uint64_t> ReadSeed(YamlReader& r, const YAML::Node& n) {
  const auto text = r.String(n, "seed");
  if (!text) return std::nullopt;
  uint64_t v = 0;
  const char* end = text->data() + text->size();
  const auto [p, ec] = std::from_chars(text->data(), end, v, 10);
  if (ec != std::errc() || p != end || text->empty()) {
    r.Fail(n, "seed", "expected an integer from 0 to 18446744073709551615, got \"" + *text + "\"");
    return std::nullopt;
  }
  return v;
}

// A list of die values (supplied:, queued:), each 1 to kMaxDieValue. Its length is
// bounded by the reader's node budget (YamlReader::kMaxNodes).
std::vector<int> ReadDieValues(YamlReader& r, const YAML::Node& n, const std::string& path) {
  std::vector<int> values;
  if (!n || !r.ExpectSequence(n, path)) return values;
  values.reserve(n.size());
  for (size_t i = 0; i < n.size(); ++i) {
    if (auto v = r.Int(n[i], YamlReader::Item(path, i), 1, Session::kMaxDieValue)) values.push_back(*v);
  }
  return values;
}

// supplied_at: {ACTION_INDEX: [values], ...}
std::map<size_t, std::vector<int>> ReadSuppliedAt(YamlReader& r, const YAML::Node& n, size_t num_actions) {
  std::map<size_t, std::vector<int>> out;
  if (!n || !r.ExpectMap(n, "supplied_at")) return out;
  for (const auto& kv : n) {
    const std::string p = YamlReader::Child("supplied_at", YamlReader::KeyText(kv.first));
    const auto index = r.Int(kv.first, p, 0, num_actions == 0 ? -1 : static_cast<int>(std::min<size_t>(num_actions - 1, INT_MAX)));
    if (!index || !r.ExpectSequence(kv.second, p)) continue;
    auto& values = out[static_cast<size_t>(*index)];
    const std::vector<int> read = ReadDieValues(r, kv.second, p);
    values.insert(values.end(), read.begin(), read.end());
  }
  return out;
}

// `game` if the save's spec names it, else why not (LoadFor).
Result<std::shared_ptr<const Game>> GameOfSpec(std::shared_ptr<const Game> game, const std::string& spec) {
  auto params = ParseGameSpec(spec);
  if (!params.ok()) return params.errors();
  const std::string want = game->params.ToString();
  if (params->ToString() != want) {
    return Error{"", 0, 0, "", "the save is a game of \"" + params->ToString() + "\", not of \"" + want + "\"", ""};
  }
  return game;
}

// The spec of a save of `format` as the game it was today. A choice of the ruleset that the
// players make from a later format (PlayerChoice::since_format) was, in the save, made by
// the players if its spec named the choice in `optional` (an optional rule then): it leaves
// `optional`; else by the program: it joins `auto`. The choices are `given`'s (LoadFor), or
// those of the spec's ruleset and scenario loaded without its options; a spec that does not
// parse or load is returned as it is (loading it says why).
std::string UpgradeSpecOfSave(const std::string& spec, int format, const Game* given) {
  auto params = ParseGameSpec(spec);
  if (!params.ok()) return spec;
  std::shared_ptr<const Game> plain_game;
  const std::vector<PlayerChoice>* choices = nullptr;
  if (given) {
    if (given->params.ruleset != params->ruleset) return spec;
    choices = &given->choices;
  } else {
    GameParams plain = *params;
    plain.optional.clear();
    plain.automated.clear();
    auto loaded = RulesetRegistry::Get().Make(plain);
    if (!loaded.ok()) return spec;
    plain_game = *loaded;
    choices = &plain_game->choices;
  }
  bool changed = false;
  for (const PlayerChoice& c : *choices) {
    if (format >= c.since_format) continue;
    std::vector<std::string>& optional = params->optional;
    std::vector<std::string>& automated = params->automated;
    if (auto it = std::find(optional.begin(), optional.end(), c.id); it != optional.end()) {
      optional.erase(it);
      changed = true;
    } else if (std::find(automated.begin(), automated.end(), c.id) == automated.end()) {
      automated.push_back(c.id);
      changed = true;
    }
  }
  return changed ? params->ToString() : spec;
}

}  // namespace

Result<std::unique_ptr<Session>> Session::Load(const std::string& text, const std::string& name,
                                               size_t max_actions) {
  return Guarded(text, name, max_actions, nullptr);
}

Result<std::unique_ptr<Session>> Session::LoadFor(std::shared_ptr<const Game> game, const std::string& text,
                                                  const std::string& name) {
  if (!game || !game->rules) return Error{name, 0, 0, "", "cannot load: no game to replay on", ""};
  return Guarded(text, name, static_cast<size_t>(-1), std::move(game));
}

Result<std::unique_ptr<Session>> Session::Guarded(const std::string& text, const std::string& name,
                                                  size_t max_actions, std::shared_ptr<const Game> game) {
  try {
    return LoadUnguarded(text, name, max_actions, std::move(game));
  } catch (const std::exception& e) {
    // Defence in depth: a ruleset hook that throws on a replayed action.
    return Error{name, 0, 0, "", std::string("cannot load: ") + e.what(), ""};
  }
}

Result<std::unique_ptr<Session>> Session::LoadUnguarded(const std::string& text, const std::string& name,
                                                        size_t max_actions, std::shared_ptr<const Game> given) {
  YamlReader r = YamlReader::FromString(text, name);
  if (!r.ok()) return r.errors();
  const YAML::Node root = r.root();
  // fair_dice, fair_dice_pending, fair_dice_game, fair_dice_void: the signed commit-reveal
  // record of remote dice (`wargame serve`), checked by the program (examples/wargame/fair_dice.h).
  if (!r.CheckKeys(root, "", {"format", "game", "seed", "dice", "supplied", "supplied_at", "queued", "actions",
                              "hash", "fair_dice", "fair_dice_pending", "fair_dice_game", "fair_dice_void"})) {
    return r.errors();
  }
  const auto spec = r.RequiredString(root, "", "game");
  const YAML::Node seed_node = root["seed"];
  std::optional<uint64_t> seed;
  if (!seed_node) {
    r.Fail(root, "seed", "missing required key");
  } else {
    seed = ReadSeed(r, seed_node);
  }
  // format: 1 (no key: written before the State had its step stack) hashed the bytes
  // that are now HashStatePrefix's; 2 and later hash the whole State (kSaveFormat).
  int format = 1;
  if (const YAML::Node f = root["format"]) {
    if (auto v = r.Int(f, "format", 1, kSaveFormat)) format = *v;
  }
  const std::string dice = r.OptionalString(root, "", "dice", "seeded");
  if (dice != "seeded" && dice != "supplied") r.Fail(root["dice"], "dice", "expected seeded or supplied");
  // A save is checked against the hash of its final state: without one, a
  // changed ruleset or a hand-edited action would replay silently.
  const auto want_hash = r.RequiredString(root, "", "hash");
  const YAML::Node actions = root["actions"];
  if (actions && !actions.IsNull()) r.ExpectSequence(actions, "actions");
  if (!r.ok()) return r.errors();
  const size_t num_actions = actions.IsSequence() ? actions.size() : 0;
  // A save older than a choice of the players was written while the program made it (or
  // with the choice an optional rule): its spec says so now, and the game continued saves so.
  const std::string game_spec = format < kSaveFormat ? UpgradeSpecOfSave(*spec, format, given.get()) : *spec;
  auto game = given ? GameOfSpec(std::move(given), game_spec) : LoadGame(game_spec);
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
  auto session = std::make_unique<Session>(*game, *seed, dice == "supplied");
  session->SupplyDice(ReadDieValues(r, root["supplied"], "supplied"));
  const auto supplied_at = ReadSuppliedAt(r, root["supplied_at"], num_actions);
  const std::vector<int> queued = ReadDieValues(r, root["queued"], "queued");
  if (!r.ok()) return r.errors();
  for (size_t i = 0; i < num_actions && i < max_actions; ++i) {
    const std::string p = YamlReader::Item("actions", i);
    auto a = ParseAction(session->game(), r, actions[i], p);
    if (!a.ok()) return a.errors();
    if (auto it = supplied_at.find(i); it != supplied_at.end()) session->SupplyDice(it->second);
    const Status st = session->Apply(*a);
    if (!st.ok()) {
      r.Fail(actions[i], p, "does not replay: " + st.error().ToString());
      return r.errors();
    }
  }
  if (!r.ok()) return r.errors();
  // Stopped early (--to N): the referee's values of the actions not replayed stay
  // queued, in order, before the values no action had used (as `supplied` does).
  if (max_actions < num_actions) {
    for (auto it = supplied_at.lower_bound(max_actions); it != supplied_at.end(); ++it) session->SupplyDice(it->second);
  }
  // The values supplied and not used yet. A save waiting for fair dice holds them
  // again as fair_dice_pending.drawn, which the program supplies (fair_dice.h).
  if (const YAML::Node pending = YamlReader::Get(root, "fair_dice_pending"); !pending || pending.IsNull()) {
    session->SupplyDice(queued);
  }
  if (max_actions >= num_actions) {
    const std::string got = HashText(SaveHash(session->state(), format, false));
    if (!SaveHashMatches(session->game(), session->state(), format, *want_hash)) {
      r.Fail(root["hash"], "hash", "replayed state hash " + got + " differs from the saved " + *want_hash +
                                       " (the ruleset or its data changed since the game was saved)");
      return r.errors();
    }
  }
  return session;
}

}  // namespace wg
