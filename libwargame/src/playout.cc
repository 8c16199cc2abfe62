#include "wargame/playout.h"

#include <cstring>

#include "wargame/players.h"
#include "wargame/session.h"
#include "wargame/state.h"

namespace wg {

namespace {

constexpr uint64_t kFnvPrime = 0x100000001b3ull;

uint64_t Mix(uint64_t h, const void* data, size_t n) {
  const auto* p = static_cast<const unsigned char*>(data);
  for (size_t i = 0; i < n; ++i) {
    h ^= p[i];
    h *= kFnvPrime;
  }
  return h;
}

template <typename T>
uint64_t MixValue(uint64_t h, T v) {
  return Mix(h, &v, sizeof(v));
}

uint64_t MixString(uint64_t h, const char* s) {
  if (s != nullptr) h = Mix(h, s, std::strlen(s));
  return MixValue<uint8_t>(h, 0);  // terminator: "ab"+"c" differs from "a"+"bc"
}

}  // namespace

bool FastRandomPlayer::ChooseMove(Session& session, Action* out) {
  // The board's engine samples a move (the hex engine's: hex/playout.cc); a game
  // whose engine has no sampler picks from the listed actions.
  const MoveSampler* sampler = session.game().rules->move_sampler();
  return sampler != nullptr && sampler->SampleMove(session, &rng_, &candidates_, &destinations_, out);
}

bool FastRandomPlayer::Choose(Session& session, Action* out) {
  if (ChooseMove(session, out)) return true;
  session.LegalActions().swap(legal_);
  if (legal_.empty()) return false;
  *out = legal_[UniformBelow(rng_, static_cast<uint32_t>(legal_.size()))];
  return true;
}

PlayoutResult PlayFastRandomGame(const std::shared_ptr<const Game>& game, uint64_t seed, long max_actions) {
  PlayoutResult r;
  Session s(game, seed);
  s.set_playout(true);
  FastRandomPlayer player(seed * 7919 + 1);
  while (!s.over() && r.actions < max_actions) {
    Action a;
    if (!player.Choose(s, &a)) break;
    if (!s.Apply(a).ok()) {
      // A ruleset hook refused the sampled move (Session restored the state): pick from the list.
      const std::vector<Action> legal = s.LegalActions();
      if (legal.empty()) break;
      RngState pick = SeedRng(seed + static_cast<uint64_t>(r.actions));
      if (!s.Apply(legal[UniformBelow(pick, static_cast<uint32_t>(legal.size()))]).ok()) break;
    }
    ++r.actions;
  }
  r.finished = s.over();
  r.winner = s.state().winner;
  r.event_hash = HashEvents(s.events().data(), s.events().size());
  r.state_hash = HashState(s.state());
  r.state_prefix_hash = HashStatePrefix(s.state());
  return r;
}

uint64_t HashEvents(const Event* events, size_t count, uint64_t h) {
  for (size_t i = 0; i < count; ++i) {
    const Event& e = events[i];
    h = MixValue(h, static_cast<uint32_t>(e.type));
    h = MixValue(h, e.side);
    h = MixValue(h, e.unit);
    h = MixValue(h, e.unit2);
    h = MixValue(h, e.hex);
    h = MixValue(h, e.hex2);
    h = MixValue(h, e.a);
    h = MixValue(h, e.b);
    h = MixString(h, e.rule);
    h = MixString(h, e.text);
  }
  return h;
}

PlayoutResult PlayRandomGame(const std::shared_ptr<const Game>& game, uint64_t seed, long max_actions) {
  PlayoutResult r;
  Session s(game, seed);
  s.set_playout(true);  // no undo snapshots: play is the same
  RandomPlayer player(seed * 7919 + 1);
  LegalActionList legal;  // the moves not copied: the same actions, in the same order
  while (!s.over() && r.actions < max_actions) {
    s.LegalActions(&legal);
    if (legal.empty()) break;
    if (!s.Apply(legal[player.ChooseIndex(legal.size())]).ok()) break;
    ++r.actions;
  }
  r.finished = s.over();
  r.winner = s.state().winner;
  r.event_hash = HashEvents(s.events().data(), s.events().size());
  r.state_hash = HashState(s.state());
  r.state_prefix_hash = HashStatePrefix(s.state());
  return r;
}

uint64_t DeterminismSignature(const std::shared_ptr<const Game>& game, int games, uint64_t first_seed,
                              bool prefix_only) {
  uint64_t h = kFnvBasis;
  for (int g = 0; g < games; ++g) {
    const PlayoutResult r = PlayRandomGame(game, first_seed + static_cast<uint64_t>(g));
    h = MixValue(h, r.event_hash);
    h = MixValue(h, prefix_only ? r.state_prefix_hash : r.state_hash);
    h = MixValue(h, static_cast<int64_t>(r.actions));
    h = MixValue<uint8_t>(h, r.finished ? 1 : 0);
  }
  return h;
}

}  // namespace wg
