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
#include "fair_dice.h"
#include "wargame/action_text.h"
#include "wargame/game_loader.h"
#include "wargame/hex_rules.h"
#include "wargame/registry.h"

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace wg::cli {

int ParseOptions(int argc, char** argv, const po::options_description& desc, const po::positional_options_description& pos,
                 po::variables_map* vm, const char* command, const char* synopsis, bool synopsis_on_error) {
  try {
    po::store(po::command_line_parser(argc, argv).options(desc).positional(pos).run(), *vm);
    if (vm->count("help")) {
      std::cout << synopsis << "\n" << desc;
      return kExitOk;
    }
    po::notify(*vm);
  } catch (const po::error& e) {
    std::cerr << command << ": " << e.what() << "\n";
    if (synopsis_on_error) std::cerr << synopsis << "\n";
    std::cerr << desc;
    return kExitUsage;
  }
  return -1;
}

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
  // A regular file of a sane size: /dev/zero or a pipe would never end.
  std::error_code ec;
  if (!fs::is_regular_file(path, ec) || fs::file_size(path, ec) > YamlReader::kMaxFileBytes || ec) return false;
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
  // A ruleset folder is taken as it is, whatever characters its path holds.
  std::error_code dir_ec;
  auto p = fs::is_directory(game, dir_ec) ? Result<GameParams>(GameParams{game, "", {}, {}, {}}) : ParseGameSpec(game);
  if (!p.ok()) return p.errors();
  GameParams params = *p;
  std::error_code ec;  // a name the file system refuses (too long...) is simply not a file here
  if (!scenario.empty()) {
    // A scenario file given relative to the working directory.
    params.scenario = fs::is_regular_file(scenario, ec) ? fs::absolute(scenario, ec).lexically_normal().string() : scenario;
  }
  for (const auto& o : SplitList(optional)) params.optional.push_back(o);
  // A folder given relative to the working directory works from anywhere (saves).
  if (!RulesetRegistry::Get().Find(params.ruleset) && fs::is_directory(params.ruleset, ec)) {
    params.ruleset = fs::absolute(params.ruleset, ec).lexically_normal().string();
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
         "  serve      play in the browser: a page with the map, against the computer or a friend\n"
         "  rules      each rule of a ruleset: what implements it (data, steps, hooks) and its tests\n"
         "GAME is a registered ruleset with options, e.g. \"stars_and_bars(optional=12.1)\" or\n"
         "\"stars_and_bars(auto=setup+capture)\" (the program makes those choices of the players),\n"
         "or the path of a ruleset folder (played on the standard hex rules).\n"
         "Exit codes: 0 ok, 1 error in an input file or the game, 2 bad command line.\n";
}

// The subcommands' option parsing goes through ParseOptions (below, declared in cli.h).
int Parse(int argc, char** argv, const po::options_description& desc, const po::positional_options_description& pos,
          po::variables_map* vm, const char* synopsis) {
  return ParseOptions(argc, argv, desc, pos, vm, "wargame", synopsis);
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
    if ((*game)->choices.empty()) continue;
    std::cout << "  players' choices the program makes with auto=ID+ID:\n";
    for (const auto& c : (*game)->choices) std::cout << "    " << c.id << "  " << c.rule << ": " << c.title << "\n";
  }
  return kExitOk;
}

// The folder holding ruleset.yaml at or above `path`.
std::string FindRulesetFolder(fs::path path) {
  std::error_code ec;
  path = fs::absolute(path, ec).lexically_normal();
  if (!fs::is_directory(path, ec)) path = path.parent_path();
  while (!path.empty()) {
    if (fs::exists(path / "ruleset.yaml", ec)) return path.string();
    if (path == path.parent_path()) break;
    path = path.parent_path();
  }
  return "";
}

// The registered ruleset whose data folder this is, else the folder itself.
std::string RulesetNameFor(const std::string& folder) {
  std::error_code ec;
  for (const auto& info : RulesetRegistry::Get().List()) {
    const fs::path data = ::wg::FindRulesetFolder(info.folder);  // the search path (registry.h)
    if (fs::exists(data, ec) && fs::equivalent(data, folder, ec)) return info.name;
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
      for (const auto& s : ListScenarios(*info)) specs.push_back(GameParams{path, s, {}, {}, {}}.ToString());
    }
  } else if (std::error_code ec; !fs::exists(path, ec)) {
    std::cerr << path << ": " << (ec && ec != std::errc::no_such_file_or_directory ? ec.message() + ": " : "")
              << "no such file, folder or registered ruleset\n";
    return kExitError;
  } else {
    const std::string folder = FindRulesetFolder(path);
    if (folder.empty()) {
      std::cerr << path << ": no ruleset.yaml in this folder or above it\n";
      return kExitError;
    }
    const std::string name = RulesetNameFor(folder);
    if (std::error_code ec; fs::is_directory(path, ec)) {
      specs.push_back(name);
      // Every scenario the ruleset lists.
      YamlReader r = YamlReader::FromFile(folder + "/ruleset.yaml");
      if (r.ok() && r.root().IsMap()) {
        if (const YAML::Node s = r.root()["scenarios"]; s && s.IsMap()) {
          for (const auto& kv : s) specs.push_back(GameParams{name, YamlReader::KeyText(kv.first), {}, {}, {}}.ToString());
        }
      }
    } else {
      specs.push_back(GameParams{name, fs::absolute(path, ec).lexically_normal().string(), {}, {}, {}}.ToString());
    }
  }
  int errors = 0;
  std::vector<std::string> seen;
  for (const auto& spec : specs) {
    auto game = LoadGame(spec);
    if (game.ok()) {
      std::cout << "ok: " << spec << " (" << (*game)->units.size() << " units, " << (*game)->hex_board().map.size()
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
  // Fair remote dice: every die recomputed from the two secrets, every secret against its
  // commitment, every step against its player's signature, every supplied die covered.
  FairDiceRecord record;
  if (const std::string bad = VerifyFairDice(text, file, &record); !bad.empty()) {
    std::cerr << bad << "\n";
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
  if (record.fair()) {
    const auto& pending = record.pending;
    long claimed = 0;
    for (const auto& r : record.rounds) claimed += r.claimed_by >= 0;
    std::cout << "fair dice verified: " << record.rounds.size()
              << (record.game.signed_game() ? " (signed by their players; each the die of its two secrets, each "
                                              "secret its commitment's"
                                            : " (unsigned, written before signatures; each the die of its two secrets, "
                                              "each secret its commitment's")
              << (claimed ? "; " + std::to_string(claimed) + " claimed at the deadline" : std::string())
              << (record.voided.empty() ? std::string() : "; " + std::to_string(record.voided.size()) + " rounds voided")
              << ")"
              << (pending ? "; waiting: " + pending->action + " (" + std::to_string(pending->drawn.size()) +
                                " of its dice drawn, a d" + std::to_string(pending->round.sides) + " being drawn)"
                          : std::string())
              << "\n";
  }
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
    auto session = Session::Load(text, file);
    if (!session.ok() || !vm.count("game")) return session;
    // GAME given as well: the save must be a game of it.
    auto want = GameSpec(vm["game"].as<std::string>(), vm.count("scenario") ? vm["scenario"].as<std::string>() : "",
                         vm.count("optional") ? vm["optional"].as<std::string>() : "");
    if (!want.ok()) return want.errors();
    const auto w = ParseGameSpec(*want);
    const GameParams& got = (*session)->game().params;
    if (w.ok() && (w->ruleset != got.ruleset || (!w->scenario.empty() && w->scenario != got.scenario) ||
                   (!w->optional.empty() && w->optional != got.optional))) {
      return Error{file, 0, 0, "game", "is a save of " + got.ToString() + ", not of " + *want, ""};
    }
    return session;
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
  const HexQueries* hex = g.rules->hex();
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
  a.value = -vm["reduce"].as<int>();  // >= 0: checked with the other numeric options
  bool ok = false;
  std::cout << OddsText(g, s, a, &ok);
  return ok ? kExitOk : kExitError;
}

}  // namespace
}  // namespace wg::cli

namespace wg::cli {
namespace {

// Numeric options, checked for every subcommand before its own parsing: a
// whole number in range (boost would read "--seed -1" as 2^64-1 and let
// "--threads -1" through).
struct NumericOption {
  const char* name;
  long long lo, hi;
};
constexpr NumericOption kNumericOptions[] = {
    {"--max-actions", 0, 1'000'000'000}, {"--threads", 0, 1024}, {"--ai-budget", 0, 1'000'000'000},
    {"--reduce", 0, 100},                {"--games", 1, 1'000'000'000}, {"--to", 0, 1'000'000'000},
    {"--seed", 0, -1 /* any unsigned 64-bit number */}};

bool WholeNumber(const std::string& v, long long lo, long long hi) {
  if (v.empty() || v.size() > 20) return false;
  for (char c : v) {
    if (c < '0' || c > '9') return false;
  }
  if (hi < 0) return v.size() < 20 || v <= "18446744073709551615";
  if (v.size() > 18) return false;
  const long long x = std::stoll(v);
  return x >= lo && x <= hi;
}

// Output files must go into an existing folder: known before the game, not after it.
bool OutputFolderExists(const std::string& file) {
  const fs::path parent = fs::path(file).parent_path();
  std::error_code ec;
  return parent.empty() || fs::is_directory(parent, ec);
}

// Exit code for a bad numeric option or output path, or -1.
int CheckArguments(const std::string& cmd, int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i], value;
    const size_t eq = arg.find('=');
    const bool inline_value = arg.rfind("--", 0) == 0 && eq != std::string::npos;
    if (inline_value) {
      value = arg.substr(eq + 1);
      arg = arg.substr(0, eq);
    } else if (i + 1 < argc) {
      value = argv[i + 1];
    } else {
      continue;  // a missing value is the option parser's to report
    }
    for (const auto& o : kNumericOptions) {
      if (arg != o.name || WholeNumber(value, o.lo, o.hi)) continue;
      std::cerr << "wargame " << cmd << ": " << o.name << " must be a whole number "
                << (o.hi < 0 ? "from 0 to 18446744073709551615"
                             : "from " + std::to_string(o.lo) + " to " + std::to_string(o.hi))
                << ", got \"" << value << "\"\n";
      return kExitUsage;
    }
    const bool output = arg == "--json" || arg == "--svg" || arg == "--out" || (arg == "--save" && cmd == "play");
    if (output && !OutputFolderExists(value)) {
      std::cerr << value << ": no such folder to write into (" << arg << ")\n";
      return kExitError;
    }
  }
  return -1;
}

}  // namespace
}  // namespace wg::cli

int Dispatch(const std::string& cmd, int sub_argc, char** sub_argv);

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
  if (int rc = CheckArguments(cmd, sub_argc, sub_argv); rc >= 0) return rc;
  try {
    return Dispatch(cmd, sub_argc, sub_argv);
  } catch (const std::exception& e) {
    // The library reports bad input as errors; this is the last line of defence.
    std::cerr << "wargame " << cmd << ": " << e.what() << "\n";
    return kExitError;
  }
}

int Dispatch(const std::string& cmd, int sub_argc, char** sub_argv) {
  using namespace wg::cli;
  if (cmd == "list") return CmdList(sub_argc, sub_argv);
  if (cmd == "play") return CmdPlay(sub_argc, sub_argv);
  if (cmd == "replay") return CmdReplay(sub_argc, sub_argv);
  if (cmd == "check") return CmdCheck(sub_argc, sub_argv);
  if (cmd == "render") return CmdRender(sub_argc, sub_argv);
  if (cmd == "odds") return CmdOdds(sub_argc, sub_argv);
  if (cmd == "simulate") return CmdSimulate(sub_argc, sub_argv);
  if (cmd == "merge") return CmdMerge(sub_argc, sub_argv);
  if (cmd == "serve") return CmdServe(sub_argc, sub_argv);
  if (cmd == "rules") return CmdRules(sub_argc, sub_argv);
  std::cerr << "wargame: unknown subcommand \"" << cmd << "\"\n";
  Usage(std::cerr);
  return kExitUsage;
}
