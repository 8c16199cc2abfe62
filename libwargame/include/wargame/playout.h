// Random playouts and the determinism signature.
//
// PlayRandomGame plays one seeded game to the end with a RandomPlayer that
// chooses uniformly among Session::LegalActions (exactly what the conformance
// harness and `wargame simulate --players random` do), and hashes its event
// log. DeterminismSignature combines the hashes of N such games: a change that
// should not alter play (a faster search, a refactoring) must keep it, which
// tests/determinism_test.cc pins and the benchmark run prints.
//
// FastRandomPlayer is the cheap playout policy for game-throughput work: at a
// movement decision of a HexRules game it does not list every move of every
// unit; it picks one of {each unit that may move or enter now, end the phase}
// uniformly, searches only that unit's moves, and picks one destination
// uniformly. Other decisions choose uniformly among Session::LegalActions. It is
// a different policy from RandomPlayer (not uniform over all actions) and does
// not sample ruleset-specific movement-phase actions (those a ruleset's own
// `movement` step lists, e.g. a mode change); it never changes the signature above, which uses RandomPlayer.
//
// Reads no YAML.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "wargame/action.h"
#include "wargame/dice.h"
#include "wargame/event.h"
#include "wargame/game.h"

namespace wg {

inline constexpr uint64_t kFnvBasis = 0xcbf29ce484222325ull;

// FNV-1a over every field of the events; `rule` and `text` by their characters.
uint64_t HashEvents(const Event* events, size_t count, uint64_t hash = kFnvBasis);

struct PlayoutResult {
  bool finished = false;  // the game ended within max_actions
  long actions = 0;
  int winner = -1;
  uint64_t event_hash = kFnvBasis;  // HashEvents of the whole log
  uint64_t state_hash = 0;          // HashState of the final state
  uint64_t state_prefix_hash = 0;   // HashStatePrefix: the final state without its step stack
};

// One game: dice seeded with `seed`, the random player seeded with seed * 7919 + 1
// (the conformance harness's choice).
PlayoutResult PlayRandomGame(const std::shared_ptr<const Game>& game, uint64_t seed,
                             long max_actions = 50000);

// Hash of the event logs and final states of `games` games with seeds
// first_seed, first_seed + 1, ... An unfinished game contributes its partial log
// and the marker 0 for "not finished", so it still changes the signature.
// prefix_only: the final states hashed without their step stack (HashStatePrefix),
// the signature as it was before the State had one (what play did then).
uint64_t DeterminismSignature(const std::shared_ptr<const Game>& game, int games,
                              uint64_t first_seed = 1, bool prefix_only = false);

class Session;

// A board engine's sampler of one random move for FastRandomPlayer (the hex
// engine's: Rules::move_sampler of HexRules): a unit that may move now and a
// destination it can reach, drawn from `rng`; false when it samples none (not
// a movement decision) and the player picks from the listed actions.
class MoveSampler {
 public:
  virtual ~MoveSampler() = default;
  virtual bool SampleMove(Session& session, RngState* rng, std::vector<UnitId>* candidates,
                          std::vector<int>* destinations, Action* out) const = 0;
};

class FastRandomPlayer {
 public:
  explicit FastRandomPlayer(uint64_t seed) : rng_(SeedRng(seed)) {}
  // A legal action for the session's deciding side; false if there is none.
  bool Choose(Session& session, Action* out);

 private:
  bool ChooseMove(Session& session, Action* out);
  RngState rng_;
  std::vector<UnitId> candidates_;
  std::vector<int> destinations_;
  std::vector<Action> legal_;
};

// PlayRandomGame with FastRandomPlayer (seeded with seed * 7919 + 1). If a
// ruleset hook refuses a sampled move, that turn picks from the listed actions.
PlayoutResult PlayFastRandomGame(const std::shared_ptr<const Game>& game, uint64_t seed,
                                 long max_actions = 50000);

}  // namespace wg
