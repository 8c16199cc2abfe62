#include "targets.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <mutex>
#include <sstream>
#include <vector>

#include "wargame/action_text.h"
#include "wargame/hex_rules.h"
#include "wargame/players.h"
#include "wargame/registry.h"
#include "wargame/session.h"

namespace wg::fuzz {

namespace fs = std::filesystem;

namespace {

std::string Text(const uint8_t* data, size_t size) {
  return std::string(reinterpret_cast<const char*>(data), size);
}

std::string ReadAll(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void WriteAll(const fs::path& p, const std::string& text) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out << text;
}

// A private copy of every ruleset folder (and the skirmish test ruleset),
// which WARGAME_RULESETS points at, so a target can overwrite one file.
struct Sandbox {
  fs::path root;
  std::vector<std::string> rulesets;  // registered names, then the skirmish folder path
  std::vector<std::pair<std::string, fs::path>> files;  // (game spec, file), sorted by file
};

// An input may name its file in a first line "#KEY: VALUE" (a YAML comment, so
// it stays in the file): stable regression inputs, and seeds whose mutations
// keep their target. Otherwise the first byte picks.
std::string Header(const std::string& text, const std::string& key) {
  const std::string prefix = "#" + key + ": ";
  if (text.rfind(prefix, 0) != 0) return "";
  const size_t eol = text.find('\n');
  return text.substr(prefix.size(), (eol == std::string::npos ? text.size() : eol) - prefix.size());
}

void RemoveSandbox();

Sandbox& Box() {
  static Sandbox* box = [] {
    auto* b = new Sandbox;
    std::string tmpl = (fs::temp_directory_path() / "wg_fuzz_XXXXXX").string();
    b->root = mkdtemp(tmpl.data());
    const fs::path src = fs::path(WG_SOURCE_DIR);
    fs::copy(src / "rulesets", b->root / "rulesets", fs::copy_options::recursive);
    fs::copy(src / "tests/data/rulesets/skirmish", b->root / "skirmish", fs::copy_options::recursive);
    setenv("WARGAME_RULESETS", (b->root / "rulesets").c_str(), 1);
    for (const auto& info : RulesetRegistry::Get().List()) b->rulesets.push_back(info.name);
    b->rulesets.push_back((b->root / "skirmish").string());
    for (const auto& name : b->rulesets) {
      const fs::path dir = name.find('/') == std::string::npos ? b->root / "rulesets" / name : fs::path(name);
      for (const auto& e : fs::recursive_directory_iterator(dir)) {
        if (e.is_regular_file() && e.path().extension() == ".yaml") b->files.emplace_back(name, e.path());
      }
    }
    std::sort(b->files.begin(), b->files.end(),
              [](const auto& x, const auto& y) { return x.second < y.second; });
    std::atexit(RemoveSandbox);
    return b;
  }();
  return *box;
}

void RemoveSandbox() {
  std::error_code ec;
  fs::remove_all(Box().root, ec);
}

// Plays up to `n` random legal actions, checking the ruleset's invariants and
// that a refused action changes nothing.
std::string PlaySome(Session& s, int n, uint64_t seed) {
  RandomPlayer player(seed);
  for (int i = 0; i < n && !s.over(); ++i) {
    const auto legal = s.LegalActions();
    if (legal.empty()) return "no legal action but the game is not over";
    const Status st = s.Apply(player.Choose(s.game(), s.state(), legal));
    if (!st.ok()) return "a listed legal action was refused: " + st.ToString();
    ErrorList inv;
    s.game().rules->CheckInvariants(s.state(), &inv);
    if (!inv.ok()) return "invariant broken: " + inv.ToString();
  }
  return "";
}

std::string LoadAndPlay(const std::string& spec) {
  auto game = LoadGame(spec);
  if (!game.ok()) {
    if (game.errors().ok()) return "a failed load reported no error";
    return "";
  }
  Session s(*game, 7);
  ErrorList inv;
  s.game().rules->CheckInvariants(s.state(), &inv);
  if (!inv.ok()) return "the scenario starts with its invariants broken: " + inv.ToString();
  return PlaySome(s, 40, 3);
}

// Mid-game sessions of every ruleset: seeds 1-2 at several depths.
std::vector<std::unique_ptr<Session>>& Sessions() {
  static auto* all = [] {
    auto* v = new std::vector<std::unique_ptr<Session>>;
    for (const auto& name : Box().rulesets) {
      auto game = LoadGame(name);
      if (!game.ok()) continue;
      for (uint64_t seed = 1; seed <= 2; ++seed) {
        for (int depth : {0, 25, 120, 300}) {
          auto s = std::make_unique<Session>(*game, seed);
          PlaySome(*s, depth, seed * 31 + static_cast<uint64_t>(depth));
          if (!s->over()) v->push_back(std::move(s));
        }
      }
    }
    return v;
  }();
  return *all;
}

std::string TryAction(Session& s, const Action& a) {
  State before;
  std::memcpy(static_cast<void*>(&before), &s.state(), sizeof(State));
  const size_t events = s.events().size(), actions = s.actions().size();
  const Status st = s.Apply(a);
  if (!st.ok()) {
    if (!before.Equals(s.state())) return "a refused action changed the state: " + st.ToString();
    if (s.events().size() != events || s.actions().size() != actions) return "a refused action changed the log";
    return "";
  }
  // Accepted: it prints and parses back to itself, and undoes exactly.
  const std::string text = ActionToText(s.game(), s.actions().back());
  auto back = ParseActionText(s.game(), text);
  std::string problem;
  if (!back.ok()) {
    problem = "an accepted action prints as \"" + text + "\", which does not parse: " + back.errors().ToString();
  } else if (!(*back == s.actions().back())) {
    problem = "an accepted action prints as \"" + text + "\", which parses to another action";
  }
  s.Undo();
  if (!before.Equals(s.state()) || s.events().size() != events) return "undo did not restore the state";
  return problem;
}

}  // namespace

std::string GameSpec(const uint8_t* data, size_t size) {
  Box();
  const std::string text = Text(data, size);
  auto p = ParseGameSpec(text);
  if (p.ok()) {
    const std::string printed = p->ToString();
    auto q = ParseGameSpec(printed);
    if (!q.ok()) return "spec prints as \"" + printed + "\", which does not parse";
    if (q->ruleset != p->ruleset || q->scenario != p->scenario || q->optional != p->optional) {
      return "spec prints as \"" + printed + "\", which parses to another game";
    }
  }
  auto game = LoadGame(text);
  if (!game.ok() && game.errors().ok()) return "a failed load reported no error";
  return "";
}

std::string ActionText(const uint8_t* data, size_t size) {
  auto& sessions = Sessions();
  if (size < 1 || sessions.empty()) return "";
  Session& s = *sessions[data[0] / 2 % sessions.size()];
  if (data[0] % 2 == 1) {
    Action a;
    std::memcpy(static_cast<void*>(&a), data + 1, std::min(size - 1, sizeof(Action)));
    return TryAction(s, a);
  }
  auto a = ParseActionText(s.game(), Text(data + 1, size - 1));
  if (!a.ok()) return a.errors().ok() ? "a refused parse reported no error" : "";
  return TryAction(s, *a);
}

std::string SaveFile(const uint8_t* data, size_t size) {
  Box();
  auto s = Session::Load(Text(data, size), "save.yaml");
  if (!s.ok()) return s.errors().ok() ? "a failed load reported no error" : "";
  const std::string again = (*s)->Save();
  auto t = Session::Load(again, "resaved.yaml");
  if (!t.ok()) return "a loaded save does not reload after saving: " + t.errors().ToString();
  if (!(*t)->state().Equals((*s)->state())) return "a resaved game reloads to another state";
  return "";
}

std::string RulesetFile(const uint8_t* data, size_t size) {
  Sandbox& box = Box();
  if (size < 1 || box.files.empty()) return "";
  const std::string text = Text(data, size);
  const std::string named = Header(text, "file");
  size_t pick = data[0] % box.files.size();
  for (size_t i = 0; i < box.files.size(); ++i) {
    if (!named.empty() && fs::relative(box.files[i].second, box.root).string() == named) pick = i;
  }
  const auto& [spec, file] = box.files[pick];
  const std::string original = ReadAll(file);
  WriteAll(file, named.empty() ? text.substr(1) : text);
  std::string problem = LoadAndPlay(spec);
  // A scenario file is loaded with its ruleset's default scenario or by path.
  if (problem.empty() && file.parent_path().filename() == "scenarios") {
    problem = LoadAndPlay(GameParams{spec, file.string(), {}, {}, {}}.ToString());
  }
  WriteAll(file, original);
  return problem;
}

std::string ScenarioFile(const uint8_t* data, size_t size) {
  Sandbox& box = Box();
  if (size < 1) return "";
  const std::string text = Text(data, size);
  const std::string named = Header(text, "ruleset");
  std::string ruleset = box.rulesets[data[0] % box.rulesets.size()];
  if (named == "skirmish") ruleset = box.rulesets.back();
  for (const auto& r : box.rulesets) {
    if (r == named) ruleset = r;
  }
  // Beside the ruleset's own scenarios, so that `extends:` finds them.
  const fs::path dir = ruleset.find('/') == std::string::npos ? box.root / "rulesets" / ruleset : fs::path(ruleset);
  const fs::path file = (fs::is_directory(dir / "scenarios") ? dir / "scenarios" : dir) / "fuzz_input.yaml";
  WriteAll(file, named.empty() ? text.substr(1) : text);
  GameParams p;
  p.ruleset = ruleset;
  p.scenario = file.string();
  return LoadAndPlay(p.ToString());
}

void Prepare(const std::string& name) {
  Box();
  if (name == "action_text") Sessions();
#ifdef WG_FUZZ_NET
  if (name == "net") PrepareNet();
#endif
}

Target FindTarget(const std::string& name) {
  if (name == "game_spec") return GameSpec;
  if (name == "action_text") return ActionText;
  if (name == "save") return SaveFile;
  if (name == "ruleset") return RulesetFile;
  if (name == "scenario") return ScenarioFile;
#ifdef WG_FUZZ_NET
  if (name == "net") return NetRequest;
#endif
  return nullptr;
}

}  // namespace wg::fuzz
