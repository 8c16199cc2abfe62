#include "simulate.h"

#include <algorithm>
#include <atomic>
#include <thread>

#include "wargame/ai.h"
#include "wargame/liveness.h"
#include "wargame/players.h"
#include "wargame/session.h"

namespace wgpy {

namespace {

std::unique_ptr<wg::Player> MakePlayer(const std::shared_ptr<const wg::Game>& game, const std::string& kind,
                                       uint64_t seed) {
  if (kind == "ai") return std::make_unique<wg::AiPlayer>(game, seed);
  return std::make_unique<wg::RandomPlayer>(seed);
}

void PlayOne(const std::shared_ptr<const wg::Game>& game, const SimulateOptions& o, int i, SimulateResult* r) {
  const uint64_t seed = o.seed + static_cast<uint64_t>(i);
  wg::Session session(game, seed);
  session.set_playout(true);  // no undo snapshots; play is the same (issue 15)
  std::unique_ptr<wg::Player> players[2] = {MakePlayer(game, o.players[0], seed * 7919 + 1),
                                            MakePlayer(game, o.players[1], seed * 7919 + 2)};
  // The engine's loop (the random player lists cheaply and draws an index, as `wargame
  // simulate` plays); it stops at the end, at the action limit, or where nothing is
  // listed or a listed action is refused.
  wg::Player* const ps[2] = {players[0].get(), players[1].get()};
  const long n = wg::PlayToEnd(session, ps, o.max_actions).actions;
  const wg::State& s = session.state();
  const auto k = static_cast<size_t>(i);
  r->finished[k] = s.game_over ? 1 : 0;
  r->winner[k] = s.game_over ? s.winner : -1;
  r->actions[k] = static_cast<int32_t>(n);
  r->turns[k] = s.turn;
  r->vp[2 * k] = s.vp[0];
  r->vp[2 * k + 1] = s.vp[1];
  r->hash[k] = wg::HashState(s);
}

}  // namespace

SimulateResult Simulate(const std::shared_ptr<const wg::Game>& game, const SimulateOptions& o) {
  SimulateResult r;
  const auto n = static_cast<size_t>(std::max(0, o.games));
  r.winner.assign(n, -1);
  r.finished.assign(n, 0);
  r.actions.assign(n, 0);
  r.turns.assign(n, 0);
  r.vp.assign(2 * n, 0);
  r.hash.assign(n, 0);
  int threads = o.threads > 0 ? o.threads : static_cast<int>(std::thread::hardware_concurrency());
  threads = std::clamp(threads, 1, std::max(1, o.games));
  std::atomic<int> next{0};
  auto work = [&] {
    for (int i = next++; i < o.games; i = next++) PlayOne(game, o, i, &r);
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(work);
  work();
  for (auto& t : pool) t.join();
  return r;
}

}  // namespace wgpy
