// The `wargame` Python module (pybind11): libwargame with OpenSpiel's API.
// docs/python.md documents every call; python/wargame/__init__.py re-exports
// this extension (_wargame) and adds the PettingZoo-style environment.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "observation.h"
#include "simulate.h"
#include "wargame/action_space.h"
#include "wargame/ai.h"
#include "wargame/action_text.h"
#include "wargame/map.h"
#include "wargame/registry.h"
#include "wargame/session.h"
#include "wargame/steps.h"
#include "wargame/tabletop.h"

namespace py = pybind11;

namespace wgpy {

namespace {

constexpr int kChancePlayer = -1;    // OpenSpiel's kChancePlayerId
constexpr int kTerminalPlayer = -4;  // OpenSpiel's kTerminalPlayerId
constexpr const char* kPendingTag = "# wargame-python pending: ";
constexpr const char* kGivenTag = "# wargame-python given:";

constexpr const char* kEventNames[] = {
    "game_start", "turn_start", "phase_start", "move",    "enter",          "mode_change",
    "release",    "attack",     "die_roll",    "combat_result", "loss",     "recover",
    "retreat",    "advance",    "eliminated",  "captured", "bombard",       "victory_points",
    "control",    "choice",     "note",        "game_end"};

[[noreturn]] void Fail(const wg::ErrorList& errors) { throw std::invalid_argument(errors.ToString()); }

// "needs a die value (d6, combat): ..." -> 6; 0 if the refusal is something else.
int MissingDieSides(const wg::Status& st) {
  const std::string& m = st.error().message;
  const std::string tag = "needs a die value (d";
  if (m.rfind(tag, 0) != 0) return 0;
  return std::max(2, std::atoi(m.c_str() + tag.size()));
}

}  // namespace

struct PyGame {
  explicit PyGame(std::shared_ptr<const wg::Game> g) : game(std::move(g)), space(*game), layout(MakeLayout(*game)) {}
  std::shared_ptr<const wg::Game> game;
  wg::ActionSpace space;
  ObservationLayout layout;
};
using GamePtr = std::shared_ptr<PyGame>;

struct PyEvent {
  std::string type, rule, text, description;
  int side = -1, a = 0, b = 0;
  py::object unit, unit2, hex, hex2;
};

class PyState {
 public:
  PyState(GamePtr g, std::unique_ptr<wg::Session> s, bool explicit_chance)
      : g_(std::move(g)), s_(std::move(s)), explicit_chance_(explicit_chance) {}

  const PyGame& game() const { return *g_; }
  const GamePtr& game_ptr() const { return g_; }
  wg::Session& session() { return *s_; }

  bool IsTerminal() const { return s_->over(); }
  bool IsChanceNode() const { return chance_sides_ > 0; }
  int CurrentPlayer() const {
    if (IsTerminal()) return kTerminalPlayer;
    if (IsChanceNode()) return kChancePlayer;
    return s_->state().decision_side;
  }

  // Sorted ids of the listed legal actions (die faces 1..sides at a chance node).
  const std::vector<wg::ActionId>& LegalActions() {
    Refresh();
    return sorted_;
  }
  void Mask(uint8_t* out) {
    Refresh();
    std::fill(out, out + g_->space.size(), uint8_t{0});
    if (IsChanceNode()) return;
    for (wg::ActionId id : ids_) {
      if (id != wg::kNoActionId) out[id] = 1;
    }
  }

  void ApplyAction(wg::ActionId id) {
    if (IsChanceNode()) return ApplyOutcome(id);
    Refresh();
    size_t i = 0;
    while (i < ids_.size() && ids_[i] != id) ++i;
    if (i == ids_.size()) {
      throw std::invalid_argument("action " + std::to_string(id) + " is not legal now (" +
                                  (id >= 0 && id < g_->space.size() ? g_->space.Describe(*g_->game, id) : "out of range") +
                                  ")");
    }
    ApplyListed(legal_[i], id);
  }
  // Applies an action given in the script language (also one that is not listed).
  void ApplyText(const std::string& text) {
    if (IsChanceNode()) throw std::invalid_argument("a chance node: apply a die outcome");
    auto a = wg::ParseActionText(*g_->game, text);
    if (!a.ok()) Fail(a.errors());
    ApplyListed(*a, g_->space.Id(*a));
  }

  // A chance step's dice (their sum), or one die rolled inside the action.
  std::vector<std::pair<int, double>> ChanceOutcomes() const {
    return wg::ChanceOutcomes(wg::ChanceDef{chance_sides_, chance_count_, ""});
  }

  std::string ActionToString(wg::ActionId id) {
    if (IsChanceNode()) return "die " + std::to_string(id);
    Refresh();
    for (size_t i = 0; i < ids_.size(); ++i) {
      if (ids_[i] == id) return wg::ActionToText(*g_->game, legal_[i]);
    }
    if (id < 0 || id >= g_->space.size()) throw std::invalid_argument("action id out of range");
    return g_->space.Describe(*g_->game, id);
  }
  wg::ActionId StringToAction(const std::string& text) {
    auto a = wg::ParseActionText(*g_->game, text);
    if (!a.ok()) Fail(a.errors());
    const wg::ActionId id = g_->space.Id(*a);
    if (id == wg::kNoActionId) throw std::invalid_argument("\"" + text + "\" has no action id");
    return id;
  }

  std::vector<double> Returns() const {
    const wg::State& s = s_->state();
    if (!s.game_over || s.winner < 0) return {0.0, 0.0};
    return s.winner == 0 ? std::vector<double>{1.0, -1.0} : std::vector<double>{-1.0, 1.0};
  }

  std::unique_ptr<PyState> Clone() const {
    auto c = std::make_unique<PyState>(g_, s_->Clone(), explicit_chance_);
    c->chance_sides_ = chance_sides_;
    c->chance_count_ = chance_count_;
    c->given_ = given_;
    c->pending_ = pending_;
    c->history_ = history_;
    return c;
  }

  std::string Serialize() const {
    std::string out = s_->Save();
    if (!IsChanceNode()) return out;
    out += std::string(kPendingTag) + wg::ActionToText(*g_->game, pending_) + "\n";
    if (!given_.empty()) {  // the dice the pending action was given before this node
      out += kGivenTag;
      for (int v : given_) out += " " + std::to_string(v);
      out += "\n";
    }
    return out;
  }
  // Gives a pending action the dice it was given before (a serialized state's),
  // node by node as apply_action would.
  void GiveAgain(const std::vector<int>& faces) {
    size_t i = 0;
    while (i < faces.size()) {
      if (!IsChanceNode()) throw std::invalid_argument("the serialized dice are more than the pending action rolls");
      int sum = 0;
      for (int k = 0; k < chance_count_; ++k, ++i) {
        if (i >= faces.size()) throw std::invalid_argument("the serialized dice end inside a chance step's roll");
        sum += faces[i];
      }
      ApplyOutcome(sum);
    }
  }

  std::vector<PyEvent> Events(size_t from) const {
    std::vector<PyEvent> out;
    const wg::Game& g = *g_->game;
    const auto& log = s_->events();
    auto unit = [&](wg::UnitId u) -> py::object {
      if (u < 0 || u >= g.num_units()) return py::none();
      return py::str(g.units[static_cast<size_t>(u)].id);
    };
    auto hex = [&](int h) -> py::object {
      if (h < 0 || h >= g.hex_board().map.size()) return py::none();
      return py::str(g.HexLabel(h));
    };
    for (size_t i = from; i < log.size(); ++i) {
      const wg::Event& e = log[i];
      PyEvent p;
      const auto t = static_cast<size_t>(e.type);
      p.type = t < std::size(kEventNames) ? kEventNames[t] : "event";
      p.rule = e.rule ? e.rule : "";
      p.text = e.text ? e.text : "";
      p.description = wg::Describe(g, e);
      p.side = e.side, p.a = e.a, p.b = e.b;
      p.unit = unit(e.unit), p.unit2 = unit(e.unit2), p.hex = hex(e.hex), p.hex2 = hex(e.hex2);
      out.push_back(std::move(p));
    }
    return out;
  }

  void Observation(int player, float* out) {
    wg::Context ctx(*g_->game, nullptr, nullptr, &s_->scratch());
    WriteObservation(*g_->game, g_->layout, s_->state(), ctx, player, out);
  }

  const std::vector<wg::ActionId>& history() const { return history_; }
  bool explicit_chance() const { return explicit_chance_; }
  void set_pending(const wg::Action& a, int sides) {
    pending_ = a;
    chance_sides_ = sides;
    chance_count_ = 1;
    given_.clear();
    FromStep();
    cached_ = -1;
  }

 private:
  void Refresh() {
    if (cached_ == static_cast<long>(s_->actions().size()) && cached_chance_ == chance_sides_) return;
    legal_.clear();
    ids_.clear();
    sorted_.clear();
    if (IsChanceNode()) {
      for (const auto& [v, p] : ChanceOutcomes()) sorted_.push_back(v);
    } else {
      legal_ = s_->LegalActions();
      ids_.reserve(legal_.size());
      for (const wg::Action& a : legal_) {
        ids_.push_back(g_->space.Id(a));
        if (ids_.back() != wg::kNoActionId) sorted_.push_back(ids_.back());
      }
      g_->space.SortUnique(&sorted_);  // as ActionSpace::Ids, from the ids at hand
    }
    cached_ = static_cast<long>(s_->actions().size());
    cached_chance_ = chance_sides_;
  }

  void ApplyListed(const wg::Action& a, wg::ActionId id) {
    const wg::Status st = s_->Apply(a);
    if (st.ok()) {
      history_.push_back(id);
      return;
    }
    const int sides = MissingDieSides(st);
    if (sides == 0 || !explicit_chance_) throw std::invalid_argument(st.error().ToString());
    history_.push_back(id);
    set_pending(a, sides);
  }

  void ApplyOutcome(int value) {
    if (value < chance_count_ || value > chance_count_ * chance_sides_) {
      throw std::invalid_argument("die outcome " + std::to_string(value) + " not in " + std::to_string(chance_count_) +
                                  ".." + std::to_string(chance_count_ * chance_sides_));
    }
    // A chance step's sum is given as its dice (the session rolls them one by one).
    std::vector<int> faces;
    for (int i = 0, left = value; i < chance_count_; ++i) {
      const int rest = chance_count_ - 1 - i;
      faces.push_back(std::min(chance_sides_, left - rest));
      left -= faces.back();
    }
    s_->SupplyDice(faces);
    given_.insert(given_.end(), faces.begin(), faces.end());
    history_.push_back(value);
    const wg::Status st = s_->Apply(pending_);
    if (st.ok()) {
      chance_sides_ = 0;
      chance_count_ = 1;
      given_.clear();
      return;
    }
    const int sides = MissingDieSides(st);
    if (sides == 0) throw std::invalid_argument(st.error().ToString());
    chance_sides_ = sides;  // another die for the same action
    chance_count_ = 1;
    FromStep();
    cached_ = -1;
  }

  // Where the pending action, with the dice given so far, reaches a chance step
  // (wargame/steps.h: the combat roll) on top, the chance node is that step's:
  // its dice and their sum's distribution. A die rolled inside an action (the
  // tabletop's fire) stays a node per die, as the refusal named it.
  void FromStep() {
    const wg::Game& g = *g_->game;
    const wg::StepTable& t = g.rules->steps();
    wg::State st = s_->state();
    wg::DiceStream dice;  // supplied only: the dice given so far
    dice.Supply(given_);
    wg::Context ctx(g, &dice, nullptr, &s_->scratch());
    ctx.StopAtChance(true);
    if (!g.rules->Apply(st, pending_, ctx).ok()) return;
    for (int guard = 0; guard < 64 && !ctx.missing_die(); ++guard) {
      const wg::ChanceDef* c = wg::PendingChance(t, st);
      if (c == nullptr) return;
      if (dice.queued() < static_cast<size_t>(std::max(1, c->count))) {
        chance_sides_ = c->sides;
        chance_count_ = std::max(1, c->count);
        return;
      }
      if (!wg::ResolveChance(t, st, ctx, 0).ok()) return;
    }
  }

  GamePtr g_;
  std::unique_ptr<wg::Session> s_;
  bool explicit_chance_ = false;
  int chance_sides_ = 0;  // > 0: a chance node, the pending action needs a die of this many faces
  int chance_count_ = 1;  // dice summed at the node (a chance step of 2d6: 2)
  std::vector<int> given_;  // the dice given to the pending action so far
  wg::Action pending_;
  std::vector<wg::ActionId> history_;
  long cached_ = -1;
  int cached_chance_ = -1;
  std::vector<wg::Action> legal_;
  std::vector<wg::ActionId> ids_;  // parallel to legal_
  std::vector<wg::ActionId> sorted_;
};

}  // namespace wgpy

namespace wgpy {
namespace {

GamePtr LoadGame(const std::string& spec) {
  auto g = wg::LoadGame(spec);
  if (!g.ok()) Fail(g.errors());
  return std::make_shared<PyGame>(*g);
}

// One more than the largest outcome of a chance node (outcomes are die faces
// 1..N, or a chance step's sums count..count x sides), so an array of this size
// is indexed by outcome: the largest die a hook rolls inside an action
// (Rules::MaxDieFaces) and every chance step's dice.
int MaxChanceOutcomes(const PyGame& g) {
  int most = g.game->rules->MaxDieFaces();
  const wg::StepTable& t = g.game->rules->steps();
  for (int k = 0; k < t.size(); ++k) {
    const wg::ChanceDef& c = t.Def(static_cast<wg::StepKind>(k)).chance;
    most = std::max(most, std::max(1, c.count) * c.sides);
  }
  return most + 1;
}

std::unique_ptr<PyState> NewInitialState(const GamePtr& g, uint64_t seed, bool explicit_chance) {
  return std::make_unique<PyState>(g, std::make_unique<wg::Session>(g->game, seed, explicit_chance),
                                   explicit_chance);
}

std::unique_ptr<PyState> DeserializeState(const GamePtr& g, const std::string& text) {
  std::string save = text;
  std::string pending;
  std::vector<int> given;
  if (const size_t at = save.find(kGivenTag); at != std::string::npos) {
    const size_t end = save.find('\n', at);
    std::istringstream faces(save.substr(at + std::strlen(kGivenTag), end == std::string::npos ? end : end - at - std::strlen(kGivenTag)));
    for (int v; faces >> v;) given.push_back(v);
    if (!faces.eof()) throw std::invalid_argument("the serialized dice are not numbers");
    save.erase(at, end == std::string::npos ? end : end - at + 1);
  }
  if (const size_t at = save.find(kPendingTag); at != std::string::npos) {
    const size_t end = save.find('\n', at);
    pending = save.substr(at + std::strlen(kPendingTag), end == std::string::npos ? end : end - at - std::strlen(kPendingTag));
    save.erase(at);
  }
  // Replayed on this Game (a save of another spec is refused): the State's session and
  // its action ids, observation and AiPlayer checks all use the same Game.
  auto s = wg::Session::LoadFor(g->game, save, "<serialized state>");
  if (!s.ok()) Fail(s.errors());
  // At a chance node the dice given to the pending action are its queued values
  // (`queued:`); GiveAgain gives them again, node by node.
  if (!pending.empty()) (*s)->ClearQueuedDice();
  const bool supplied = save.find("\ndice: supplied") != std::string::npos;
  auto state = std::make_unique<PyState>(g, std::move(*s), supplied);
  if (!pending.empty()) state->ApplyText(pending);
  state->GiveAgain(given);
  return state;
}

py::array_t<float> ObservationTensor(PyState& st, py::object player) {
  const int p = player.is_none() ? std::max(0, st.CurrentPlayer()) : player.cast<int>();
  if (p < 0 || p > 1) throw std::invalid_argument("player must be 0 or 1");
  const ObservationLayout& L = st.game().layout;
  py::array_t<float> out(std::vector<py::ssize_t>(L.shape.begin(), L.shape.end()));
  st.Observation(p, out.mutable_data());
  return out;
}

// Objects of two games never meet: a State, an action id or a player of one Game
// read with another's units, map and action space would index past them. The Game
// is the object load_game returned (two loads of one spec are two games).
void CheckSameGame(const PyGame& want, const PyState& st, const char* what) {
  if (&st.game() == &want) return;
  throw std::invalid_argument(std::string(what) + ": the state belongs to another game (" +
                              st.game().game->params.ToString() + ", not this " + want.game->params.ToString() +
                              " object): use the Game the state came from");
}

// The engine's computer player (wg::AiPlayer) choosing for a State.
class PyAi {
 public:
  PyAi(const GamePtr& g, uint64_t seed, int budget) : g_(g) {
    if (!g) throw std::invalid_argument("AiPlayer: game is None");
    if (budget < 0) throw std::invalid_argument("AiPlayer: budget must be >= 0 (0: the default)");
    wg::AiOptions o;
    if (budget > 0) o.budget = budget;
    ai_ = std::make_unique<wg::AiPlayer>(g->game, seed, o);
  }
  const GamePtr& game() const { return g_; }
  wg::ActionId Choose(PyState& st) {
    CheckSameGame(*g_, st, "AiPlayer.choose");
    if (st.IsTerminal() || st.IsChanceNode()) throw std::invalid_argument("no decision to take");
    const std::vector<wg::Action> legal = st.session().LegalActions();
    const wg::Action a = ai_->Choose(*g_->game, st.session().state(), legal);
    return g_->space.Id(a);
  }

 private:
  GamePtr g_;
  std::unique_ptr<wg::AiPlayer> ai_;
};

// Bounds of simulate's counts, checked before anything is allocated: the result
// arrays take 26 bytes a game (kMaxGames: 260 MB, twice that while numpy copies
// them), each thread a player pair and a session.
constexpr long long kMaxGames = 10'000'000;
constexpr long long kMaxThreads = 1024;
constexpr long long kMaxActions = 1'000'000'000;

// An integer argument (any Python int or numpy integer) in [lo, hi], else ValueError
// (TypeError if it is not an integer): a huge value is compared, never narrowed.
long long CountArg(const py::handle& v, const char* name, long long lo, long long hi) {
  const std::string range = std::to_string(lo) + " to " + std::to_string(hi);
  if (PyBool_Check(v.ptr())) throw py::type_error(std::string(name) + " must be an integer");
  const auto index = py::reinterpret_steal<py::object>(PyNumber_Index(v.ptr()));
  if (!index) {
    PyErr_Clear();
    throw py::type_error(std::string(name) + " must be an integer, " + range);
  }
  if (index < py::int_(lo) || index > py::int_(hi)) {
    throw std::invalid_argument(std::string(name) + " must be " + range + ", got " + py::str(index).cast<std::string>());
  }
  return index.cast<long long>();
}

py::dict SimulateGames(const GamePtr& g, const py::object& games_arg, uint64_t seed, const py::object& threads_arg,
                       std::vector<std::string> players, const py::object& max_actions_arg) {
  const long long games = CountArg(games_arg, "games", 0, kMaxGames);
  const long long threads = CountArg(threads_arg, "threads", 0, kMaxThreads);
  const long long max_actions = CountArg(max_actions_arg, "max_actions", 0, kMaxActions);
  SimulateOptions o;
  o.games = static_cast<int>(games);
  o.seed = seed;
  o.threads = static_cast<int>(threads);
  o.max_actions = static_cast<long>(max_actions);
  if (players.size() != 2) throw std::invalid_argument("players: two of \"random\", \"ai\"");
  for (int i = 0; i < 2; ++i) {
    if (players[static_cast<size_t>(i)] != "random" && players[static_cast<size_t>(i)] != "ai") {
      throw std::invalid_argument("unknown player \"" + players[static_cast<size_t>(i)] + "\" (random, ai)");
    }
    o.players[i] = players[static_cast<size_t>(i)];
  }
  SimulateResult r;
  {
    py::gil_scoped_release release;
    r = wgpy::Simulate(g->game, o);
  }
  auto arr = [](const auto& v) { return py::array(static_cast<py::ssize_t>(v.size()), v.data()); };
  py::dict d;
  d["winner"] = arr(r.winner);
  d["finished"] = arr(r.finished).attr("astype")("bool");
  d["actions"] = arr(r.actions);
  d["turns"] = arr(r.turns);
  d["vp"] = arr(r.vp).attr("reshape")(static_cast<py::ssize_t>(games), 2);
  d["state_hash"] = arr(r.hash);
  return d;
}

}  // namespace
}  // namespace wgpy

PYBIND11_MODULE(_wargame, m) {
  using wgpy::GamePtr;
  using wgpy::PyGame;
  using wgpy::PyState;
  m.doc() = "libwargame: hex-and-counter and tabletop wargames by their printed rules (OpenSpiel-style API)";
  m.attr("CHANCE_PLAYER") = wgpy::kChancePlayer;
  m.attr("TERMINAL_PLAYER") = wgpy::kTerminalPlayer;
  m.attr("INVALID_ACTION") = wg::kNoActionId;

  m.def("load_game", &wgpy::LoadGame, py::arg("spec"),
        "A game from a spec: \"stars_and_bars(optional=12.1)\", \"blue_and_gray(scenario=chattanooga)\", a folder.");
  m.def("registered_games", [] {
    std::vector<std::string> out;
    for (const auto& info : wg::RulesetRegistry::Get().List()) out.push_back(info.name);
    return out;
  });
  m.def("add_ruleset_search_path", &wg::AddRulesetSearchPath, py::arg("root"),
        "Adds a folder searched first for <root>/<name>/ruleset.yaml.");
  m.def("ruleset_search_path", &wg::RulesetSearchPath);
  m.def("find_ruleset_folder", &wg::FindRulesetFolder, py::arg("name"),
        "The data folder of a ruleset (the first on the search path with a ruleset.yaml).");

  py::class_<wgpy::PyAi>(m, "AiPlayer")
      .def(py::init<const GamePtr&, uint64_t, int>(), py::arg("game"), py::arg("seed") = 1, py::arg("budget") = 0,
           "libwargame's computer player (wargame/ai.h); budget: work per decision, 0 = default.")
      .def("choose", &wgpy::PyAi::Choose, py::arg("state"), "The action id it plays in this state.");

  py::class_<wgpy::PyEvent>(m, "Event")
      .def_readonly("type", &wgpy::PyEvent::type)
      .def_readonly("side", &wgpy::PyEvent::side)
      .def_readonly("unit", &wgpy::PyEvent::unit)
      .def_readonly("unit2", &wgpy::PyEvent::unit2)
      .def_readonly("hex", &wgpy::PyEvent::hex)
      .def_readonly("hex2", &wgpy::PyEvent::hex2)
      .def_readonly("a", &wgpy::PyEvent::a)
      .def_readonly("b", &wgpy::PyEvent::b)
      .def_readonly("rule", &wgpy::PyEvent::rule)
      .def_readonly("text", &wgpy::PyEvent::text)
      .def_readonly("description", &wgpy::PyEvent::description)
      .def("__repr__", [](const wgpy::PyEvent& e) { return "<Event " + e.type + ": " + e.description + ">"; });

  py::class_<PyGame, GamePtr>(m, "Game")
      .def("num_distinct_actions", [](const PyGame& g) { return g.space.size(); })
      .def("num_players", [](const PyGame&) { return 2; })
      .def("max_chance_outcomes", &wgpy::MaxChanceOutcomes)
      .def("new_initial_state", &wgpy::NewInitialState, py::arg("seed") = 0, py::arg("explicit_chance") = false)
      .def("deserialize_state", &wgpy::DeserializeState, py::arg("text"))
      .def("observation_tensor_shape", [](const PyGame& g) { return g.layout.shape; })
      .def("observation_tensor_size", [](const PyGame& g) { return g.layout.size; })
      .def("observation_tensor_layout", [](const PyGame& g) { return g.layout.names; },
           "Plane names (hex games) or per-unit feature names then scalars (tabletop).")
      .def("is_tabletop", [](const PyGame& g) { return g.layout.tabletop; })
      .def("hex_index", [](const PyGame& g, const std::string& label) { return g.game->hex_board().map.Index(label); },
           py::arg("label"), "The grid index (row * cols + col) of a hex label, -1 if none.")
      .def("action_segment", [](const PyGame& g, const std::string& type) {
             const int t = wg::ActionTypeFromName(type);
             if (t < 0) throw std::invalid_argument("unknown action type \"" + type + "\"");
             const auto at = static_cast<wg::ActionType>(t);
             return std::make_pair(g.space.SegmentStart(at), g.space.SegmentSize(at));
           }, py::arg("type"), "(first id, count) of an action type's segment, e.g. \"move\".")
      .def("decode_action", [](const PyGame& g, wg::ActionId id) {
             if (id < 0 || id >= g.space.size()) throw std::invalid_argument("action id out of range");
             const wg::ActionKey k = g.space.Key(id);
             return py::make_tuple(std::string(wg::ActionTypeName(k.type)), k.fields[0], k.fields[1], k.fields[2]);
           }, py::arg("id"), "(type, field0, field1, field2) of an id (docs/action-space.md).")
      .def("describe_action", [](const PyGame& g, wg::ActionId id) {
             if (id < 0 || id >= g.space.size()) throw std::invalid_argument("action id out of range");
             return g.space.Describe(*g.game, id);
           })
      .def_property_readonly("spec", [](const PyGame& g) { return g.game->params.ToString(); })
      .def_property_readonly("title", [](const PyGame& g) { return g.game->title; })
      .def_property_readonly("sides", [](const PyGame& g) {
        std::vector<std::string> out;
        for (const auto& s : g.game->sides) out.push_back(s.id);
        return out;
      })
      .def_property_readonly("units", [](const PyGame& g) {
        std::vector<std::string> out;
        for (const auto& u : g.game->units) out.push_back(u.id);
        return out;
      })
      .def("simulate", &wgpy::SimulateGames, py::arg("games"), py::arg("seed") = 1, py::arg("threads") = py::int_(0),
           py::arg("players") = std::vector<std::string>{"random", "random"}, py::arg("max_actions") = py::int_(50000))
      .def("__str__", [](const PyGame& g) { return g.game->params.ToString(); })
      .def("__repr__", [](const PyGame& g) { return "<wargame.Game " + g.game->params.ToString() + ">"; });

  py::class_<PyState>(m, "State")
      .def("current_player", &PyState::CurrentPlayer)
      .def("is_terminal", &PyState::IsTerminal)
      .def("is_chance_node", &PyState::IsChanceNode)
      .def("chance_outcomes", &PyState::ChanceOutcomes)
      .def("legal_actions", [](PyState& s) { return s.LegalActions(); })
      .def("legal_actions", [](PyState& s, int player) {
             return player == s.CurrentPlayer() ? s.LegalActions() : std::vector<wg::ActionId>{};
           }, py::arg("player"))
      .def("legal_actions_mask", [](PyState& s) {
        py::array_t<uint8_t> mask(s.game().space.size());
        s.Mask(mask.mutable_data());
        return mask;
      })
      .def("apply_action", &PyState::ApplyAction, py::arg("action"))
      .def("apply_action_text", &PyState::ApplyText, py::arg("text"),
           "Applies an action in the script language (any action the rules accept).")
      .def("action_to_string", [](PyState& s, wg::ActionId id) { return s.ActionToString(id); }, py::arg("action"))
      .def("action_to_string", [](PyState& s, int, wg::ActionId id) { return s.ActionToString(id); },
           py::arg("player"), py::arg("action"))
      .def("string_to_action", &PyState::StringToAction, py::arg("text"))
      .def("returns", &PyState::Returns)
      .def("rewards", [](PyState& s) { return s.Returns(); })
      .def("clone", &PyState::Clone)
      // copy.copy and copy.deepcopy clone the game in progress on the same Game (which
      // never changes), so a copy still belongs to its game; pickling is refused
      // (TypeError): a State is saved with serialize() and read back by the Game.
      .def("__copy__", &PyState::Clone)
      .def("__deepcopy__", [](const PyState& s, const py::object&) { return s.Clone(); }, py::arg("memo"))
      .def("serialize", &PyState::Serialize)
      .def("history", &PyState::history)
      .def("events", &PyState::Events, py::arg("since") = 0)
      .def("observation_tensor", &wgpy::ObservationTensor, py::arg("player") = py::none())
      .def("units", [](PyState& s) {
             const wg::Game& g = *s.game().game;
             const wg::State& st = s.session().state();
             py::list out;
             for (int i = 0; i < g.num_units(); ++i) {
               const auto u = static_cast<wg::UnitId>(i);
               const wg::UnitState& us = st.unit(u);
               py::dict d;
               d["id"] = g.units[static_cast<size_t>(i)].id;
               d["side"] = static_cast<int>(us.side);
               d["in_play"] = us.InPlay();  // on the map or the table
               const bool on_hex = us.OnMap() && us.hex < g.hex_board().map.size();
               d["hex"] = on_hex ? py::object(py::str(g.HexLabel(us.hex))) : py::none();
               d["position"] = g.rules->PositionText(st, u);
               // On a tabletop: where the base stands, typed (the tabletop engine's query).
               const wg::TabletopQueries* table = g.rules->tabletop();
               if (table && us.InPlay()) {
                 const wg::Footprint f = table->BaseOf(st, u);
                 d["xy"] = py::make_tuple(f.center.x, f.center.y);
                 d["facing"] = f.facing * 180.0 / 3.14159265358979323846;
               } else {
                 d["xy"] = py::none();
                 d["facing"] = py::none();
               }
               d["face"] = static_cast<int>(us.face);
               py::dict markers;
               for (size_t m = 0; m < g.markers.size() && m < static_cast<size_t>(wg::kMaxMarkers); ++m) {
                 if (us.markers[m]) markers[py::str(g.markers[m].id)] = static_cast<int>(us.markers[m]);
               }
               d["markers"] = markers;
               out.append(d);
             }
             return out;
           }, "Every unit: id, side, in_play, hex (label; None off the map and on a tabletop), position (the ruleset's words), xy (inches, on a tabletop; else None), facing (degrees, on a tabletop; else None), face, markers.")
      .def("describe_decision", [](PyState& s) { return s.session().DescribeDecision(); })
      .def("move_number", [](PyState& s) { return s.session().actions().size(); })
      .def_property_readonly("turn", [](PyState& s) { return s.session().state().turn; })
      .def_property_readonly("phase", [](PyState& s) { return s.session().state().phase; })
      .def_property_readonly("vp", [](PyState& s) {
        return std::vector<int>{s.session().state().vp[0], s.session().state().vp[1]};
      })
      .def_property_readonly("winner", [](PyState& s) { return static_cast<int>(s.session().state().winner); })
      .def("get_game", &PyState::game_ptr)
      .def("__str__", [](PyState& s) {
        const wg::State& st = s.session().state();
        return "turn " + std::to_string(st.turn) + ", phase " + std::to_string(st.phase) + ": " +
               s.session().DescribeDecision();
      });
}
