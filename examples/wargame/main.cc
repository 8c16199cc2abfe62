// wargame: play, replay, check, render, odds, simulate and merge games of any
// registered ruleset (or a data-only ruleset folder). Git-style subcommands;
// `wargame SUBCOMMAND --help` describes each. Exit codes: 0 ok, 1 an error in
// an input file or the game, 2 a bad command line.
#include <boost/program_options.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "cli.h"
#include "wargame/action_text.h"
#include "wargame/game_loader.h"
#include "wargame/hex_rules.h"
#include "wargame/registry.h"

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace wg::cli {

std::vector<std::string> SplitList(const std::string& text, char sep) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : text) {
    if (c == sep) {
      if (!cur.empty()) out.push_back(cur);
      cur.clear();
    } else if (c != ' ') {
      cur += c;
    }
  }
  if (!cur.empty()) out.push_back(cur);
  return out;
}

bool ReadFile(const std::string& path, std::string* out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream ss;
  ss << in.rdbuf();
  *out = ss.str();
  return true;
}

bool WriteFile(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  if (!out) return false;
  out << text;
  return static_cast<bool>(out);
}

void PrintErrors(const ErrorList& errors) {
  for (const auto& e : errors.errors()) std::cerr << e.ToString() << "\n";
}

Result<std::string> GameSpec(const std::string& game, const std::string& scenario, const std::string& optional) {
  auto p = ParseGameSpec(game);
  if (!p.ok()) return p.errors();
  GameParams params = *p;
  if (!scenario.empty()) {
    // A scenario file given relative to the working directory.
    params.scenario = fs::is_regular_file(scenario) ? fs::absolute(scenario).lexically_normal().string() : scenario;
  }
  for (const auto& o : SplitList(optional)) params.optional.push_back(o);
  // A folder given relative to the working directory works from anywhere (saves).
  if (!RulesetRegistry::Get().Find(params.ruleset) && fs::is_directory(params.ruleset)) {
    params.ruleset = fs::absolute(params.ruleset).lexically_normal().string();
    if (params.ruleset.size() > 1 && params.ruleset.back() == '/') params.ruleset.pop_back();
  }
  return params.ToString();
}

Result<std::shared_ptr<const Game>> LoadGameSpec(const std::string& spec) { return LoadGame(spec); }

namespace {

void Usage(std::ostream& out) {
  out << "usage: wargame SUBCOMMAND [options]   (wargame SUBCOMMAND --help for its options)\n"
         "  list       the registered rulesets, their scenarios and optional rules\n"
         "  play       play a game (players ai, random, human, script) and print its log\n"
         "  replay     replay a saved game, printing its log\n"
         "  check      validate a ruleset folder or a scenario file (file:line:col: errors)\n"
         "  render     draw the map and the units as SVG\n"
         "  odds       the odds, modifiers and exact outcome distribution of an attack\n"
         "  simulate   play many games on all threads and report win rates and statistics\n"
         "  merge      combine `simulate --out` files into the report of a single run\n"
         "GAME is a registered ruleset with options, e.g. \"stars_and_bars(optional=12.1)\",\n"
         "or the path of a ruleset folder (played on the standard hex rules).\n"
         "Exit codes: 0 ok, 1 error in an input file or the game, 2 bad command line.\n";
}

// Parses a subcommand's options; returns -1 to continue, or an exit code.
int Parse(int argc, char** argv, const po::options_description& desc, const po::positional_options_description& pos,
          po::variables_map* vm, const char* synopsis) {
  try {
    po::store(po::command_line_parser(argc, argv).options(desc).positional(pos).run(), *vm);
    if (vm->count("help")) {
      std::cout << synopsis << "\n" << desc;
      return kExitOk;
    }
    po::notify(*vm);
  } catch (const po::error& e) {
    std::cerr << "wargame: " << e.what() << "\n" << synopsis << "\n" << desc;
    return kExitUsage;
  }
  return -1;
}

int CmdList(int argc, char** argv) {
  po::options_description desc("options");
  desc.add_options()("help,h", "this help");
  po::positional_options_description pos;
  po::variables_map vm;
  if (int rc = Parse(argc, argv, desc, pos, &vm, "usage: wargame list"); rc >= 0) return rc;
  const auto list = RulesetRegistry::Get().List();
  if (list.empty()) std::cout << "no rulesets registered (a ruleset folder path can still be played)\n";
  for (const auto& info : list) {
    std::cout << info.name << ": " << info.title << "\n";
    std::cout << "  scenarios:";
    const auto sc = ListScenarios(info);
    if (sc.empty()) std::cout << " (default only)";
    for (const auto& s : sc) std::cout << " " << s;
    std::cout << "\n";
    auto game = LoadGame(info.name);
    if (!game.ok()) {
      std::cout << "  (does not load: " << game.errors().ToString() << ")\n";
      continue;
    }
    std::cout << "  optional rules:";
    if ((*game)->optional_rules.empty()) std::cout << " none";
    std::cout << "\n";
    for (const auto& o : (*game)->optional_rules) std::cout << "    " << o.id << "  " << o.title << "\n";
  }
  return kExitOk;
}

// The folder holding ruleset.yaml at or above `path`.
std::string FindRulesetFolder(fs::path path) {
  path = fs::absolute(path).lexically_normal();
  if (!fs::is_directory(path)) path = path.parent_path();
  while (!path.empty()) {
    if (fs::exists(path / "ruleset.yaml")) return path.string();
    if (path == path.parent_path()) break;
    path = path.parent_path();
  }
  return "";
}

// The registered ruleset whose data folder this is, else the folder itself.
std::string RulesetNameFor(const std::string& folder) {
  std::error_code ec;
  for (const auto& info : RulesetRegistry::Get().List()) {
    const fs::path data = fs::path(RulesetsRoot()) / info.folder;
    if (fs::exists(data) && fs::equivalent(data, folder, ec)) return info.name;
  }
  return folder;
}

int CmdCheck(int argc, char** argv) {
  po::options_description desc("options");
  desc.add_options()("help,h", "this help")("path", po::value<std::string>()->required(),
                                             "ruleset folder, scenario file or registered ruleset name");
  po::positional_options_description pos;
  pos.add("path", 1);
  po::variables_map vm;
  if (int rc = Parse(argc, argv, desc, pos, &vm, "usage: wargame check PATH"); rc >= 0) return rc;
  const std::string path = vm["path"].as<std::string>();
  std::vector<std::string> specs;
  if (RulesetRegistry::Get().Find(path)) {
    specs.push_back(path);
    if (const auto* info = RulesetRegistry::Get().Find(path)) {
      for (const auto& s : ListScenarios(*info)) specs.push_back(path + "(scenario=" + s + ")");
    }
  } else if (!fs::exists(path)) {
    std::cerr << path << ": no such file, folder or registered ruleset\n";
    return kExitError;
  } else {
    const std::string folder = FindRulesetFolder(path);
    if (folder.empty()) {
      std::cerr << path << ": no ruleset.yaml in this folder or above it\n";
      return kExitError;
    }
    const std::string name = RulesetNameFor(folder);
    if (fs::is_directory(path)) {
      specs.push_back(name);
      // Every scenario the ruleset lists.
      YamlReader r = YamlReader::FromFile(folder + "/ruleset.yaml");
      if (r.ok() && r.root().IsMap()) {
        if (const YAML::Node s = r.root()["scenarios"]; s && s.IsMap()) {
          for (const auto& kv : s) specs.push_back(name + "(scenario=" + kv.first.Scalar() + ")");
        }
      }
    } else {
      specs.push_back(name + "(scenario=" + fs::absolute(path).lexically_normal().string() + ")");
    }
  }
  int errors = 0;
  std::vector<std::string> seen;
  for (const auto& spec : specs) {
    auto game = LoadGame(spec);
    if (game.ok()) {
      std::cout << "ok: " << spec << " (" << (*game)->units.size() << " units, " << (*game)->map.size()
                << " hexes, " << (*game)->turns.num_turns() << " turns)\n";
      continue;
    }
    for (const auto& e : game.errors().errors()) {
      const std::string line = e.ToString();
      if (std::find(seen.begin(), seen.end(), line) != seen.end()) continue;
      seen.push_back(line);
      std::cout << line << "\n";
      ++errors;
    }
  }
  if (errors) {
    std::cout << errors << " error" << (errors == 1 ? "" : "s") << "\n";
    return kExitError;
  }
  return kExitOk;
}

int CmdReplay(int argc, char** argv) {
  po::options_description desc("options");
  desc.add_options()("help,h", "this help")("save", po::value<std::string>()->required(), "saved game")(
      "to", po::value<long>(), "stop after action N")("json", po::value<std::string>(), "write the state as JSON")(
      "svg", po::value<std::string>(), "draw the final position");
  po::positional_options_description pos;
  pos.add("save", 1);
  po::variables_map vm;
  if (int rc = Parse(argc, argv, desc, pos, &vm, "usage: wargame replay SAVEFILE [--to N] [--json F] [--svg F]");
      rc >= 0) {
    return rc;
  }
  const std::string file = vm["save"].as<std::string>();
  std::string text;
  if (!ReadFile(file, &text)) {
    std::cerr << file << ": cannot read\n";
    return kExitError;
  }
  size_t to = static_cast<size_t>(-1);
  if (vm.count("to")) {
    if (vm["to"].as<long>() < 0) {
      std::cerr << "wargame: --to must be >= 0\n";
      return kExitUsage;
    }
    to = static_cast<size_t>(vm["to"].as<long>());
  }
  auto session = Session::Load(text, file, to);
  if (!session.ok()) {
    PrintErrors(session.errors());
    return kExitError;
  }
  Session& s = **session;
  for (const auto& line : s.DescribeEvents()) std::cout << line << "\n";
  std::cout << "actions replayed: " << s.actions().size() << "\n";
  if (vm.count("json") && !WriteFile(vm["json"].as<std::string>(), StateJson(s))) {
    std::cerr << vm["json"].as<std::string>() << ": cannot write\n";
    return kExitError;
  }
  if (vm.count("svg") && !WriteFile(vm["svg"].as<std::string>(), RenderSvg(s.game(), s.state()))) {
    std::cerr << vm["svg"].as<std::string>() << ": cannot write\n";
    return kExitError;
  }
  return kExitOk;
}

// A session for GAME + scenario/optional, or from a save file.
Result<std::unique_ptr<Session>> OpenSession(const po::variables_map& vm) {
  if (vm.count("save") && !vm["save"].as<std::string>().empty()) {
    const std::string file = vm["save"].as<std::string>();
    std::string text;
    if (!ReadFile(file, &text)) return Error{file, 0, 0, "", "cannot read", ""};
    return Session::Load(text, file);
  }
  auto spec = GameSpec(vm["game"].as<std::string>(), vm.count("scenario") ? vm["scenario"].as<std::string>() : "",
                       vm.count("optional") ? vm["optional"].as<std::string>() : "");
  if (!spec.ok()) return spec.errors();
  auto game = LoadGame(*spec);
  if (!game.ok()) return game.errors();
  return std::make_unique<Session>(*game, 1);
}

int CmdRender(int argc, char** argv) {
  po::options_description desc("options");
  desc.add_options()("help,h", "this help")("game", po::value<std::string>(), "GAME (ruleset spec or folder)")(
      "scenario", po::value<std::string>(), "scenario name or file")("optional", po::value<std::string>(),
                                                                      "optional rules, comma separated")(
      "save", po::value<std::string>(), "draw the final position of this saved game")(
      "svg", po::value<std::string>()->required(), "output SVG file");
  po::positional_options_description pos;
  pos.add("game", 1);
  po::variables_map vm;
  if (int rc = Parse(argc, argv, desc, pos, &vm,
                     "usage: wargame render GAME [--scenario NAME|FILE] [--save FILE] --svg OUT");
      rc >= 0) {
    return rc;
  }
  if (!vm.count("game") && !vm.count("save")) {
    std::cerr << "wargame render: GAME or --save is required\n";
    return kExitUsage;
  }
  auto session = OpenSession(vm);
  if (!session.ok()) {
    PrintErrors(session.errors());
    return kExitError;
  }
  const std::string out = vm["svg"].as<std::string>();
  if (!WriteFile(out, RenderSvg((*session)->game(), (*session)->state()))) {
    std::cerr << out << ": cannot write\n";
    return kExitError;
  }
  std::cout << "wrote " << out << "\n";
  return kExitOk;
}

int CmdOdds(int argc, char** argv) {
  po::options_description desc("options");
  desc.add_options()("help,h", "this help")("game", po::value<std::string>()->required(), "GAME")(
      "scenario", po::value<std::string>(), "scenario name or file (the position)")(
      "optional", po::value<std::string>(), "optional rules, comma separated")(
      "save", po::value<std::string>(), "use the position of this saved game instead")(
      "attack", po::value<std::string>()->required(), "attacking unit ids, comma separated")(
      "defend", po::value<std::string>()->required(), "defending unit ids, comma separated")(
      "reduce", po::value<int>()->default_value(0), "voluntary odds reduction in columns (e.g. 1)");
  po::positional_options_description pos;
  pos.add("game", 1);
  po::variables_map vm;
  if (int rc = Parse(argc, argv, desc, pos, &vm,
                     "usage: wargame odds GAME --scenario FILE --attack IDS --defend IDS [--reduce N]");
      rc >= 0) {
    return rc;
  }
  auto session = OpenSession(vm);
  if (!session.ok()) {
    PrintErrors(session.errors());
    return kExitError;
  }
  Session& s = **session;
  const Game& g = s.game();
  const auto* hex = dynamic_cast<const HexRules*>(g.rules.get());
  if (!hex) {
    std::cerr << "wargame odds: " << g.params.ruleset << " does not use an odds table on a hex map\n";
    return kExitError;
  }
  Action a = Action::Of(ActionType::kAttack);
  for (const auto& id : SplitList(vm["attack"].as<std::string>())) {
    const int u = g.UnitIndex(id);
    if (u < 0) {
      std::cerr << "wargame odds: unknown unit \"" << id << "\"\n";
      return kExitError;
    }
    a.AddUnit(static_cast<UnitId>(u));
  }
  for (const auto& id : SplitList(vm["defend"].as<std::string>())) {
    const int u = g.UnitIndex(id);
    if (u < 0) {
      std::cerr << "wargame odds: unknown unit \"" << id << "\"\n";
      return kExitError;
    }
    const int h = s.state().unit(static_cast<UnitId>(u)).hex;
    if (h < 0) {
      std::cerr << "wargame odds: " << id << " is not on the map\n";
      return kExitError;
    }
    bool have = false;
    for (int i = 0; i < a.num_hexes; ++i) have |= a.hexes[static_cast<size_t>(i)] == h;
    if (!have) a.AddHex(h);
  }
  a.value = -std::abs(vm["reduce"].as<int>());
  Context ctx(g, nullptr, nullptr, &s.scratch());
  const AttackAnalysis an = hex->AnalyzeAttack(s.state(), ctx, a);
  std::cout << "attack: " << ActionToText(g, a) << "\n";
  if (!an.status.ok()) {
    std::cout << "refused: " << an.status.ToString() << "\n";
    return kExitError;
  }
  const AttackPlan& p = an.plan;
  std::cout << "attack strength " << p.attack << ", defense strength " << p.defense;
  if (p.modified_defense != p.defense) std::cout << " (modified " << p.modified_defense << ")";
  std::cout << "\n";
  if (!an.automatic.empty()) {  // resolved without the table (S&B 7.1)
    std::cout << "no die roll: " << an.automatic << "\n";
    return kExitOk;
  }
  for (int i = 0; i < p.mods.num_multipliers; ++i) std::cout << "  defense x" << p.mods.multipliers[i] << "\n";
  if (p.mods.drm) std::cout << "  die roll modifier " << (p.mods.drm > 0 ? "+" : "") << p.mods.drm << "\n";
  if (p.mods.column_shift) std::cout << "  column shift " << p.mods.column_shift << "\n";
  for (int i = 0; i < p.mods.num_notes; ++i) std::cout << "  note: " << p.mods.notes[i] << "\n";
  std::cout << "column: " << hex->ColumnLabel(p.column);
  if (p.column != p.computed_column) std::cout << " (computed " << hex->ColumnLabel(p.computed_column) << ")";
  std::cout << "\noutcomes:\n";
  for (const auto& o : an.outcomes) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%6.2f%%  (%llu/%llu)", 100.0 * o.probability(),
                  static_cast<unsigned long long>(o.numerator), static_cast<unsigned long long>(o.denominator));
    std::cout << "  " << (o.result ? o.result->text : "?") << "  " << buf << "\n";
  }
  return kExitOk;
}

}  // namespace
}  // namespace wg::cli

int main(int argc, char** argv) {
  using namespace wg::cli;
  if (argc < 2) {
    Usage(std::cerr);
    return kExitUsage;
  }
  const std::string cmd = argv[1];
  if (cmd == "--help" || cmd == "-h" || cmd == "help") {
    Usage(std::cout);
    return kExitOk;
  }
  // Subcommands see their own arguments (argv[0] = the subcommand).
  int sub_argc = argc - 1;
  char** sub_argv = argv + 1;
  if (cmd == "list") return CmdList(sub_argc, sub_argv);
  if (cmd == "play") return CmdPlay(sub_argc, sub_argv);
  if (cmd == "replay") return CmdReplay(sub_argc, sub_argv);
  if (cmd == "check") return CmdCheck(sub_argc, sub_argv);
  if (cmd == "render") return CmdRender(sub_argc, sub_argv);
  if (cmd == "odds") return CmdOdds(sub_argc, sub_argv);
  if (cmd == "simulate") return CmdSimulate(sub_argc, sub_argv);
  if (cmd == "merge") return CmdMerge(sub_argc, sub_argv);
  std::cerr << "wargame: unknown subcommand \"" << cmd << "\"\n";
  Usage(std::cerr);
  return kExitUsage;
}
