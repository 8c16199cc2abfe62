// `wargame simulate` and `wargame merge`: many games on all threads, a
// report of win rates (Wilson 95% intervals), victory points, casualties and
// game length; per-game rows written with --out and merged exactly.
//
// The report is computed only from the per-game rows sorted by seed, so the
// number of threads, the sharding and the merging never change it.
#include <unistd.h>

#include <boost/program_options.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <map>
#include <sstream>
#include <thread>

#include "cli.h"
#include "wargame/ai.h"
#include "wargame/liveness.h"
#include "wargame/registry.h"

namespace po = boost::program_options;

namespace wg::cli {

namespace {

// The most games one `wargame simulate` process plays (a seed and a result row each).
constexpr long kMaxSimulateGames = 10'000'000;


struct GameRow {
  uint64_t seed = 0;
  int winner = -1;
  int vp[2] = {0, 0};
  long actions = 0;
  int turn = 0;
  int eliminated[2] = {0, 0};
  int lost[2] = {0, 0};
  // How the game stopped (the `finished` column): 1 at its end, 0 at the action
  // limit, 2 stuck (no legal action before the end), 3 a listed action refused.
  int finished = 0;
};

constexpr int kRowUnfinished = 0, kRowFinished = 1, kRowStuck = 2, kRowRefused = 3;

int RowCode(GameStop stop) {
  switch (stop) {
    case GameStop::kFinished: return kRowFinished;
    case GameStop::kStuck: return kRowStuck;
    case GameStop::kRefused: return kRowRefused;
    case GameStop::kActionLimit: break;
  }
  return kRowUnfinished;
}

struct RunInfo {
  std::string game;     // game spec
  std::string players;  // "ai,random"
  std::vector<GameRow> rows;
};

constexpr const char* kHeader = "seed,winner,vp0,vp1,actions,turn,eliminated0,eliminated1,lost0,lost1,finished";

// A unit's strength for the casualty columns: the ruleset's own (figures and
// guns on a tabletop) when it gives one, else the current attack value.
int StrengthOf(const Game& g, const State& s, UnitId u) {
  const int own = g.rules->Strength(s, u);
  return own >= 0 ? own : UnitStrength(g, s, u);
}

GameRow PlayOne(const std::shared_ptr<const Game>& game, const std::vector<std::string>& kinds, uint64_t seed,
                long max_actions, int ai_budget) {
  GameRow row;
  row.seed = seed;
  Session session(game, seed);
  session.set_playout(true);  // played to the end, never undone: no undo snapshots
  const Game& g = *game;
  int initial[2] = {0, 0};
  int elim0[2] = {0, 0};
  for (int i = 0; i < session.state().num_units; ++i) {
    const UnitState& u = session.state().units[static_cast<size_t>(i)];
    initial[u.side & 1] += StrengthOf(g, session.state(), static_cast<UnitId>(i));
    if (u.hex == kEliminated) ++elim0[u.side & 1];
  }
  std::unique_ptr<Player> players[2];
  for (int i = 0; i < 2; ++i) {
    std::string err;
    players[i] = MakePlayer(kinds[static_cast<size_t>(i)], game, seed * 2654435761ULL + 17 + static_cast<uint64_t>(i),
                            nullptr, &err, ai_budget);
  }
  Player* const chooser[2] = {players[0].get(), players[1].get()};
  const PlayedGame played = PlayToEnd(session, chooser, max_actions);
  const State& s = session.state();
  row.finished = RowCode(played.stop);
  row.winner = s.game_over ? s.winner : -1;
  row.vp[0] = s.vp[0];
  row.vp[1] = s.vp[1];
  row.actions = static_cast<long>(session.actions().size());
  row.turn = s.turn;
  int final_strength[2] = {0, 0};
  for (int i = 0; i < s.num_units; ++i) {
    const UnitState& u = s.units[static_cast<size_t>(i)];
    final_strength[u.side & 1] += StrengthOf(g, s, static_cast<UnitId>(i));
    if (u.hex == kEliminated) ++row.eliminated[u.side & 1];
  }
  for (int k = 0; k < 2; ++k) {
    row.eliminated[k] -= elim0[k];
    row.lost[k] = initial[k] - final_strength[k];
  }
  return row;
}

std::string RowsText(const RunInfo& run) {
  std::string o = "# wargame simulate results v1\n# game: " + run.game + "\n# players: " + run.players + "\n" +
                  kHeader + "\n";
  for (const auto& r : run.rows) {
    char b[256];
    std::snprintf(b, sizeof b, "%llu,%d,%d,%d,%ld,%d,%d,%d,%d,%d,%d\n", static_cast<unsigned long long>(r.seed),
                  r.winner, r.vp[0], r.vp[1], r.actions, r.turn, r.eliminated[0], r.eliminated[1], r.lost[0],
                  r.lost[1], r.finished);
    o += b;
  }
  return o;
}

void Wilson(int k, int n, double* lo, double* hi) {
  if (n == 0) {
    *lo = 0;
    *hi = 1;
    return;
  }
  const double z = 1.959963984540054, p = static_cast<double>(k) / n, z2 = z * z / n;
  const double centre = (p + z2 / 2) / (1 + z2);
  const double half = z * std::sqrt(p * (1 - p) / n + z * z / (4.0 * n * n)) / (1 + z2);
  *lo = std::max(0.0, centre - half);
  *hi = std::min(1.0, centre + half);
}

std::string Fmt(const char* f, double v) {
  char b[64];
  std::snprintf(b, sizeof b, f, v);
  return b;
}

std::string Report(const Game* game, RunInfo run) {
  std::sort(run.rows.begin(), run.rows.end(), [](const GameRow& a, const GameRow& b) { return a.seed < b.seed; });
  auto side = [&](int k) { return game ? SideName(*game, k) : std::string(k ? "side 2" : "side 1"); };
  const auto kinds = SplitList(run.players);
  const int n = static_cast<int>(run.rows.size());
  std::ostringstream o;
  o << "game: " << run.game << "\n";
  o << "players: " << side(0) << " = " << (kinds.size() > 0 ? kinds[0] : "?") << ", " << side(1) << " = "
    << (kinds.size() > 1 ? kinds[1] : "?") << "\n";
  o << "games: " << n;
  if (n) o << " (seeds " << run.rows.front().seed << ".." << run.rows.back().seed << ")";
  o << "\n";
  if (n == 0) return o.str();
  int wins[2] = {0, 0}, draws = 0, unfinished = 0, stuck = 0, refused = 0;
  std::string stuck_seeds, refused_seeds;
  for (const auto& r : run.rows) {
    if (r.finished == kRowStuck) {
      ++stuck;
      stuck_seeds += (stuck_seeds.empty() ? "" : " ") + std::to_string(r.seed);
    } else if (r.finished == kRowRefused) {
      ++refused;
      refused_seeds += (refused_seeds.empty() ? "" : " ") + std::to_string(r.seed);
    } else if (r.finished != kRowFinished) {
      ++unfinished;
    } else if (r.winner == 0 || r.winner == 1) {
      ++wins[r.winner];
    } else {
      ++draws;
    }
  }
  auto rate = [&](const std::string& what, int k) {
    double lo, hi;
    Wilson(k, n, &lo, &hi);
    o << "  " << what << ": " << k << " (" << Fmt("%.1f", 100.0 * k / n) << "%, 95% CI " << Fmt("%.1f", 100 * lo)
      << "-" << Fmt("%.1f", 100 * hi) << "%)\n";
  };
  o << "results:\n";
  rate(side(0) + " wins", wins[0]);
  rate(side(1) + " wins", wins[1]);
  rate("draws", draws);
  if (unfinished) rate("unfinished (action limit)", unfinished);
  // A game that stopped before its end with nobody able to act is a bug of the ruleset.
  if (stuck) rate("stuck (no legal action before the end; seeds " + stuck_seeds + ")", stuck);
  if (refused) rate("stopped (a listed action was refused; seeds " + refused_seeds + ")", refused);
  o << "victory points:\n";
  for (int k = 0; k < 2; ++k) {
    std::map<int, int> dist;
    double sum = 0;
    for (const auto& r : run.rows) {
      ++dist[r.vp[k]];
      sum += r.vp[k];
    }
    o << "  " << side(k) << ": mean " << Fmt("%.2f", sum / n) << ", min " << dist.begin()->first << ", max "
      << dist.rbegin()->first << "; distribution";
    for (const auto& [v, c] : dist) o << " " << v << ":" << c;
    o << "\n";
  }
  {
    std::map<int, int> dist;
    for (const auto& r : run.rows) ++dist[r.vp[0] - r.vp[1]];
    o << "  differential (" << side(0) << " - " << side(1) << "):";
    for (const auto& [v, c] : dist) o << " " << v << ":" << c;
    o << "\n";
  }
  o << "casualties (mean per game):\n";
  for (int k = 0; k < 2; ++k) {
    double e = 0, l = 0;
    for (const auto& r : run.rows) {
      e += r.eliminated[k];
      l += r.lost[k];
    }
    o << "  " << side(k) << ": " << Fmt("%.2f", e / n) << " units eliminated, " << Fmt("%.2f", l / n)
      << " strength lost\n";
  }
  {
    int better[2] = {0, 0};
    for (const auto& r : run.rows) {
      if (r.lost[0] < r.lost[1]) ++better[0];
      if (r.lost[1] < r.lost[0]) ++better[1];
    }
    o << "  fewer strength lost: " << side(0) << " in " << better[0] << " games, " << side(1) << " in " << better[1]
      << "\n";
  }
  double acts = 0, turns = 0;
  long amin = run.rows.front().actions, amax = amin;
  for (const auto& r : run.rows) {
    acts += static_cast<double>(r.actions);
    turns += r.turn;
    amin = std::min(amin, r.actions);
    amax = std::max(amax, r.actions);
  }
  o << "game length: mean " << Fmt("%.1f", acts / n) << " actions (min " << amin << ", max " << amax
    << "), last turn mean " << Fmt("%.2f", turns / n) << "\n";
  return o.str();
}

int UsageError(const std::string& msg, const po::options_description& desc) {
  std::cerr << msg << "\n" << desc;
  return kExitUsage;
}

}  // namespace

int CmdSimulate(int argc, char** argv) {
  po::options_description desc("options");
  desc.add_options()("help,h", "this help")("game", po::value<std::string>()->required(), "GAME")(
      "scenario", po::value<std::string>(), "scenario name or file")(
      "optional", po::value<std::string>(), "optional rules, comma separated")(
      "games", po::value<long>()->required(), "number of games (seeds SEED .. SEED+N-1)")(
      "threads", po::value<int>()->default_value(0), "worker threads (0: all cores)")(
      "seed", po::value<uint64_t>()->default_value(1), "first seed")(
      "players", po::value<std::string>()->default_value("ai,random"), "two players: ai, random")(
      "shard", po::value<std::string>(), "I/K: play only the games g with g % K == I-1 (I in 1..K)")(
      "max-actions", po::value<long>()->default_value(100000), "per game; a longer game is unfinished")(
      "ai-budget", po::value<int>()->default_value(0), "the ai player's work per decision (0: its default)")(
      "out", po::value<std::string>(), "write the per-game rows here (for wargame merge)");
  po::positional_options_description pos;
  pos.add("game", 1);
  po::variables_map vm;
  const char* synopsis =
      "usage: wargame simulate GAME --games N [--threads T] [--seed S] [--players ai,random] [--shard I/K] "
      "[--out FILE]";
  if (int rc = ParseOptions(argc, argv, desc, pos, &vm, "wargame simulate", synopsis, /*synopsis_on_error=*/false);
      rc >= 0) {
    return rc;
  }
  const long games = vm["games"].as<long>();
  if (games < 1) return UsageError("wargame simulate: --games must be >= 1", desc);
  auto kinds = SplitList(vm["players"].as<std::string>());
  if (kinds.size() == 1) kinds.push_back(kinds[0]);
  if (kinds.size() != 2) return UsageError("wargame simulate: --players takes two players", desc);
  for (const auto& k : kinds) {
    if (k != "ai" && k != "random") return UsageError("wargame simulate: players must be ai or random", desc);
  }
  long shard_i = 1, shard_k = 1;
  if (vm.count("shard")) {
    const std::string sh = vm["shard"].as<std::string>();
    if (std::sscanf(sh.c_str(), "%ld/%ld", &shard_i, &shard_k) != 2 || shard_k < 1 || shard_i < 1 ||
        shard_i > shard_k) {
      return UsageError("wargame simulate: bad --shard \"" + sh + "\" (expected I/K with 1 <= I <= K)", desc);
    }
  }
  // The games this process plays (g % K == I-1), each a seed and a result row
  // allocated before the first is played: bounded, as the Python module's are.
  const long mine = games >= shard_i ? (games - shard_i) / shard_k + 1 : 0;
  if (mine > kMaxSimulateGames) {
    return UsageError("wargame simulate: at most " + std::to_string(kMaxSimulateGames) +
                          " games a process: split the run with --shard I/K and combine the --out files with "
                          "wargame merge",
                      desc);
  }
  auto spec = GameSpec(vm["game"].as<std::string>(), vm.count("scenario") ? vm["scenario"].as<std::string>() : "",
                       vm.count("optional") ? vm["optional"].as<std::string>() : "");
  if (!spec.ok()) {
    PrintErrors(spec.errors());
    return kExitUsage;
  }
  auto game = LoadGame(*spec);
  if (!game.ok()) {
    PrintErrors(game.errors());
    return kExitError;
  }
  const uint64_t seed = vm["seed"].as<uint64_t>();
  const long max_actions = vm["max-actions"].as<long>();
  const int ai_budget = vm["ai-budget"].as<int>();
  std::vector<uint64_t> seeds;
  seeds.reserve(static_cast<size_t>(mine));
  for (long g = shard_i - 1; g < games; g += shard_k) seeds.push_back(seed + static_cast<uint64_t>(g));
  int threads = vm["threads"].as<int>();
  if (threads <= 0) threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  threads = std::min<int>(threads, static_cast<int>(std::max<size_t>(1, seeds.size())));

  RunInfo run;
  run.game = (*game)->params.ToString();
  run.players = kinds[0] + "," + kinds[1];
  run.rows.resize(seeds.size());
  std::atomic<size_t> next{0}, done{0};
  auto worker = [&] {
    for (;;) {
      const size_t i = next.fetch_add(1);
      if (i >= seeds.size()) return;
      run.rows[i] = PlayOne(*game, kinds, seeds[i], max_actions, ai_budget);
      done.fetch_add(1);
    }
  };
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) pool.emplace_back(worker);
  const bool tty = isatty(fileno(stdout)) != 0;
  if (tty) {
    while (done.load() < seeds.size()) {
      const size_t d = done.load();
      const int width = 40;
      const int filled = seeds.empty() ? width : static_cast<int>(width * d / seeds.size());
      std::cout << "\r[" << std::string(static_cast<size_t>(filled), '#')
                << std::string(static_cast<size_t>(width - filled), ' ') << "] " << d << "/" << seeds.size()
                << std::flush;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    std::cout << "\r" << std::string(60, ' ') << "\r" << std::flush;
  }
  for (auto& t : pool) t.join();
  if (vm.count("out") && !WriteFile(vm["out"].as<std::string>(), RowsText(run))) {
    std::cerr << vm["out"].as<std::string>() << ": cannot write\n";
    return kExitError;
  }
  std::cout << Report(game->get(), run);
  return kExitOk;
}

int CmdMerge(int argc, char** argv) {
  po::options_description desc("options");
  desc.add_options()("help,h", "this help")("files", po::value<std::vector<std::string>>()->required(),
                                             "result files written by simulate --out")(
      "out", po::value<std::string>(), "also write the merged rows here");
  po::positional_options_description pos;
  pos.add("files", -1);
  po::variables_map vm;
  if (int rc = ParseOptions(argc, argv, desc, pos, &vm, "wargame merge", "usage: wargame merge FILE... [--out FILE]",
                            /*synopsis_on_error=*/false);
      rc >= 0) {
    return rc;
  }
  RunInfo run;
  std::map<uint64_t, std::string> seen;
  for (const auto& file : vm["files"].as<std::vector<std::string>>()) {
    std::string text;
    if (!ReadFile(file, &text)) {
      std::cerr << file << ": cannot read\n";
      return kExitError;
    }
    std::istringstream in(text);
    std::string line, game, players;
    int lineno = 0;
    bool header = false;
    while (std::getline(in, line)) {
      ++lineno;
      if (line.rfind("# game: ", 0) == 0) {
        game = line.substr(8);
      } else if (line.rfind("# players: ", 0) == 0) {
        players = line.substr(11);
      } else if (line.empty() || line[0] == '#') {
        continue;
      } else if (line == kHeader) {
        header = true;
      } else {
        GameRow r;
        unsigned long long seed = 0;
        if (!header || std::sscanf(line.c_str(), "%llu,%d,%d,%d,%ld,%d,%d,%d,%d,%d,%d", &seed, &r.winner, &r.vp[0],
                                   &r.vp[1], &r.actions, &r.turn, &r.eliminated[0], &r.eliminated[1], &r.lost[0],
                                   &r.lost[1], &r.finished) != 11 ||
            r.finished < kRowUnfinished || r.finished > kRowRefused) {
          std::cerr << file << ":" << lineno << ":1: rows: expected " << kHeader << "\n";
          return kExitError;
        }
        r.seed = seed;
        if (seen.count(r.seed)) {
          std::cerr << file << ":" << lineno << ":1: rows: seed " << seed << " already in " << seen[r.seed] << "\n";
          return kExitError;
        }
        seen[r.seed] = file;
        run.rows.push_back(r);
      }
    }
    if (game.empty() || players.empty()) {
      std::cerr << file << ":1:1: not a wargame simulate result file (no # game: / # players: lines)\n";
      return kExitError;
    }
    if (run.game.empty()) {
      run.game = game;
      run.players = players;
    } else if (run.game != game || run.players != players) {
      std::cerr << file << ":2:1: game: results of a different game or players (" << game << ", " << players
                << " vs " << run.game << ", " << run.players << ")\n";
      return kExitError;
    }
  }
  auto g = LoadGame(run.game);
  std::sort(run.rows.begin(), run.rows.end(), [](const GameRow& a, const GameRow& b) { return a.seed < b.seed; });
  if (vm.count("out") && !WriteFile(vm["out"].as<std::string>(), RowsText(run))) {
    std::cerr << vm["out"].as<std::string>() << ": cannot write\n";
    return kExitError;
  }
  std::cout << Report(g.ok() ? g->get() : nullptr, run);
  return kExitOk;
}

}  // namespace wg::cli
