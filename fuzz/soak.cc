// wg_soak: many random games across the rulesets (CI runs 10,000), checking
// the invariants after every action and, at random points, that saving,
// loading and continuing equals never having saved, and that an action applied
// stopping at each of its dice (chance steps) equals rolling them at once.
//   wg_soak [--games N] [--seed S] [--threads T] [--mix SPEC=WEIGHT,...]
// Prints one line per ruleset and exits 1 on the first 20 failures.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <numeric>
#include <string>
#include <thread>
#include <vector>

#include "wargame/conformance.h"
#include "wargame/players.h"
#include "wargame/registry.h"
#include "wargame/session.h"
#include "wargame/steps.h"

namespace {

struct Entry {
  std::string spec;
  int weight = 1;
  std::shared_ptr<const wg::Game> game;
  std::atomic<long> games{0}, actions{0}, reloads{0};
};

std::mutex g_mu;
std::vector<std::string> g_failures;

void Fail(const std::string& what) {
  std::lock_guard<std::mutex> lock(g_mu);
  if (g_failures.size() < 20) g_failures.push_back(what);
}

// Save, load, and play `steps` more actions in both: they stay identical.
bool CheckReload(wg::Session& s, uint64_t seed, const std::string& where) {
  auto loaded = wg::Session::Load(s.Save(), where);
  if (!loaded.ok()) {
    Fail(where + ": save does not load: " + loaded.errors().ToString());
    return false;
  }
  wg::Session& t = **loaded;
  if (!t.state().Equals(s.state())) {
    Fail(where + ": loaded state differs");
    return false;
  }
  // Continue a copy of the original (replayed from its own save) and the loaded one.
  auto copy = wg::Session::Load(s.Save(), where);
  wg::RandomPlayer p1(seed), p2(seed);
  for (int k = 0; k < 30 && !t.over(); ++k) {
    wg::Session& a = **copy;
    const auto la = a.LegalActions(), lb = t.LegalActions();
    if (la.size() != lb.size()) {
      Fail(where + ": loaded game lists other legal actions");
      return false;
    }
    if (la.empty()) break;
    if (!a.Apply(p1.Choose(a.game(), a.state(), la)).ok() || !t.Apply(p2.Choose(t.game(), t.state(), lb)).ok() ||
        !a.state().Equals(t.state())) {
      Fail(where + ": the loaded game diverged after " + std::to_string(k) + " actions");
      return false;
    }
  }
  return true;
}

// The action applied stopping at every die reaches the State the session reaches rolling
// them at once (wg::CheckStoppingAtEveryDie, docs/steps.md, Chance).
bool CheckChance(wg::Session& s, const wg::Action& a, uint64_t seed, const std::string& where) {
  wg::RngState rng = wg::SeedRng(seed);
  const wg::Status st = wg::CheckStoppingAtEveryDie(s, a, &rng);
  if (!st.ok()) Fail(where + ": " + st.error().message);
  return st.ok();
}

void PlayOne(Entry& e, uint64_t seed) {
  wg::Session s(e.game, seed);
  wg::RandomPlayer player(seed * 7919 + 3);
  wg::RngState rng = wg::SeedRng(seed * 31 + 1);
  const std::string name = e.spec + " seed " + std::to_string(seed);
  int reloads = 0;
  long n = 0;
  for (; n < 100000 && !s.over(); ++n) {
    if (reloads < 3 && wg::UniformBelow(rng, 150) == 0) {
      ++reloads;
      if (!CheckReload(s, seed + static_cast<uint64_t>(n), name + " action " + std::to_string(n))) return;
    }
    const auto legal = s.LegalActions();
    if (legal.empty()) {
      Fail(name + ": no legal action but the game is not over");
      return;
    }
    const wg::Action a = player.Choose(s.game(), s.state(), legal);
    if (wg::UniformBelow(rng, 16) == 0 &&
        !CheckChance(s, a, seed * 131 + static_cast<uint64_t>(n), name + " action " + std::to_string(n))) {
      return;
    }
    const wg::Status st = s.Apply(a);
    if (!st.ok()) {
      Fail(name + ": a listed legal action was refused: " + st.ToString());
      return;
    }
    wg::ErrorList inv;
    s.game().rules->CheckInvariants(s.state(), &inv);
    if (!inv.ok()) {
      Fail(name + " action " + std::to_string(n) + ": " + inv.ToString());
      return;
    }
  }
  if (!s.over()) Fail(name + ": did not end within 100000 actions");
  e.games++;
  e.actions += n;
  e.reloads += reloads;
}

}  // namespace

int main(int argc, char** argv) {
  long games = 10000;
  uint64_t seed = 1;
  int threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  std::string mix = "skirmish=940,civil_war_miniatures=40,stars_and_bars=10,blue_and_gray=10";
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string k = argv[i], v = argv[i + 1];
    if (k == "--games") games = std::atol(v.c_str());
    else if (k == "--seed") seed = std::strtoull(v.c_str(), nullptr, 10);
    else if (k == "--threads") threads = std::max(1, std::atoi(v.c_str()));
    else if (k == "--mix") mix = v;
    else {
      std::fprintf(stderr, "usage: wg_soak [--games N] [--seed S] [--threads T] [--mix SPEC=WEIGHT,...]\n");
      return 2;
    }
  }
  std::vector<std::unique_ptr<Entry>> entries;
  for (size_t pos = 0; pos < mix.size();) {
    size_t comma = mix.find(',', pos);
    if (comma == std::string::npos) comma = mix.size();
    const std::string item = mix.substr(pos, comma - pos);
    const size_t eq = item.rfind('=');
    auto e = std::make_unique<Entry>();
    e->spec = item.substr(0, eq);
    e->weight = eq == std::string::npos ? 1 : std::max(0, std::atoi(item.c_str() + eq + 1));
    // "skirmish" is the test ruleset folder.
    const std::string spec = e->spec == "skirmish" ? std::string(WG_SOURCE_DIR) + "/tests/data/rulesets/skirmish" : e->spec;
    auto g = wg::LoadGame(spec);
    if (!g.ok()) {
      std::fprintf(stderr, "%s: %s\n", spec.c_str(), g.errors().ToString().c_str());
      return 1;
    }
    e->game = *g;
    entries.push_back(std::move(e));
    pos = comma + 1;
  }
  int total_weight = 0;
  for (const auto& e : entries) total_weight += e->weight;
  if (total_weight <= 0) return 2;
  // Game i plays the ruleset its place in the weighted cycle gives.
  std::vector<Entry*> cycle;
  for (const auto& e : entries) cycle.insert(cycle.end(), static_cast<size_t>(e->weight), e.get());
  size_t stride = 7919;
  while (std::gcd(stride, cycle.size()) != 1) ++stride;
  std::atomic<long> next{0};
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&] {
      for (long i; (i = next++) < games;) {
        {
          std::lock_guard<std::mutex> lock(g_mu);
          if (g_failures.size() >= 20) return;
        }
        // A stride coprime to the cycle spreads the rulesets over the run.
        PlayOne(*cycle[(static_cast<size_t>(i) * stride) % cycle.size()], seed + static_cast<uint64_t>(i));
      }
    });
  }
  for (auto& t : pool) t.join();
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  long played = 0;
  for (const auto& e : entries) {
    std::printf("%-24s %6ld games %9ld actions %5ld save/load checks\n", e->spec.c_str(), e->games.load(),
                e->actions.load(), e->reloads.load());
    played += e->games;
  }
  std::printf("soak: %ld games in %.1f s on %d threads, %zu failures\n", played, secs, threads, g_failures.size());
  for (const auto& f : g_failures) std::printf("FAIL %s\n", f.c_str());
  return g_failures.empty() && played == games ? 0 : 1;
}
