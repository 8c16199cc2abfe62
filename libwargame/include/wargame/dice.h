// Dice: a portable seeded generator, dice specifications ("d6", "2d6") and a
// dice stream that either draws from the generator or takes values supplied
// from outside (a referee rolling real dice), recording every roll.
//
// Split of responsibilities:
//   - RngState is the only dice data inside the flat, copyable game State:
//     32 bytes, trivially copyable, identical sequences on every platform.
//     Algorithm: xoshiro256** 1.0 (Blackman & Vigna), seeded by SplitMix64
//     from one 64-bit seed; bounded integers by Lemire's multiply-and-reject
//     on the upper 32 bits (unbiased; never std::uniform_int_distribution).
//   - DiceStream lives in the session (outside the State): it holds the queue
//     of supplied values and the record of every roll for the log/replay, and
//     points at the RngState it draws from.
#pragma once

#include <concepts>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "wargame/error.h"

namespace wg {

// xoshiro256** state. Keep it a plain aggregate: it is memcpy'd with the State.
struct RngState {
  uint64_t s[4] = {0, 0, 0, 0};
  friend bool operator==(const RngState&, const RngState&) = default;
};
static_assert(std::is_trivially_copyable_v<RngState>);
static_assert(sizeof(RngState) == 32);

// SplitMix64 step (used for seeding; exposed for tests and hashing).
uint64_t SplitMix64(uint64_t& x);
// Seeds the four words from SplitMix64(seed). Any seed, including 0, is valid.
RngState SeedRng(uint64_t seed);
// Next 64 raw bits (xoshiro256**).
uint64_t NextU64(RngState& rng);
// Unbiased integer in [0, n), n >= 1 (Lemire's method with rejection).
uint32_t UniformBelow(RngState& rng, uint32_t n);
// One die with `sides` faces: 1..sides.
int RollDie(RngState& rng, int sides);

// "NdM": count dice with `sides` faces, summed. "d6" means 1d6.
struct DiceSpec {
  int count = 1;
  int sides = 6;
  int Min() const { return count; }
  int Max() const { return count * sides; }
  // Number of equally likely outcomes: sides^count.
  uint64_t Outcomes() const;
  std::string ToString() const;  // "d6", "2d6"
  friend bool operator==(const DiceSpec&, const DiceSpec&) = default;
};

// Limits: 1 <= count <= 20, 2 <= sides <= 1000, sides^count <= 2^53 (so exact
// distributions fit in 64-bit counts). Accepts "d6", "D6", "2d6", "1d20".
// Error message: `bad dice "x": expected NdM such as d6 or 2d6` (or a limit message).
Result<DiceSpec> ParseDiceSpec(std::string_view text);

// counts[s - spec.Min()] = number of the spec.Outcomes() equally likely
// outcomes whose sum is s, for s in [Min, Max].
std::vector<uint64_t> DiceSumCounts(const DiceSpec& spec);

// What the engine needs rolled: one die of `sides` faces, with a short label
// for the log ("combat 2302->2303", "bombardment"). The label must outlive the call.
struct RollRequest {
  int sides = 6;
  const char* label = "";
};

// One roll as recorded for the log/replay.
struct RollRecord {
  int sides = 0;
  int value = 0;
  std::string label;
  bool supplied = false;  // came from outside rather than the generator
  friend bool operator==(const RollRecord&, const RollRecord&) = default;
};

enum class RollStatus {
  kOk,         // value is set
  kNeedValue,  // supplied mode and the queue is empty: ask the user for a die
  kBadValue,   // the next supplied value is outside 1..sides: it is dropped, value holds it
};

struct DieRoll {
  RollStatus status = RollStatus::kOk;
  int value = 0;
  bool ok() const { return status == RollStatus::kOk; }
};

// Anything that can roll a die for the engine.
template <typename T>
concept DiceSource = requires(T t, RollRequest r) {
  { t.Roll(r) } -> std::same_as<DieRoll>;
};

// The session-side dice: supplied values are used first, in order; when the
// queue is empty a seeded stream draws from the RngState it points at, and a
// supplied-only stream answers kNeedValue (nothing is consumed or recorded,
// so the same request can be repeated after Supply()).
class DiceStream {
 public:
  enum class Mode { kSeeded, kSupplied };

  // Seeded: draws from *rng (owned by the game State; must outlive the stream).
  explicit DiceStream(RngState* rng) : mode_(Mode::kSeeded), rng_(rng) {}
  // Supplied only: every value must come from Supply().
  DiceStream() : mode_(Mode::kSupplied), rng_(nullptr) {}

  Mode mode() const { return mode_; }
  void set_rng(RngState* rng) { rng_ = rng; mode_ = rng ? Mode::kSeeded : Mode::kSupplied; }

  // Supplying values answers the pending request (pending() is cleared).
  void Supply(int value) {
    queue_.push_back(value);
    Answered();
  }
  void Supply(const std::vector<int>& values) {
    queue_.insert(queue_.end(), values.begin(), values.end());
    Answered();
  }
  size_t queued() const { return queue_.size(); }

  DieRoll Roll(const RollRequest& request);
  DieRoll Roll(int sides) { return Roll(RollRequest{sides, ""}); }
  // The sum of spec.count dice, each recorded separately; on kNeedValue or
  // kBadValue no die of the sum is consumed or recorded.
  DieRoll RollSum(const DiceSpec& spec, const char* label);

  // The first request that returned kNeedValue or kBadValue since values were
  // last supplied: the die the action needs next. (An action goes on after a
  // missing die, so later requests also fail; they do not replace it.)
  const std::optional<RollRequest>& pending() const { return pending_; }
  // After kBadValue: the position of the refused value among every value
  // supplied to this stream (0 = the first ever supplied).
  const std::optional<size_t>& rejected() const { return rejected_; }
  const std::vector<RollRecord>& record() const { return record_; }
  void ClearRecord() { record_.clear(); }

 private:
  Mode mode_;
  RngState* rng_;
  std::deque<int> queue_;
  std::vector<RollRecord> record_;
  std::optional<RollRequest> pending_;
  std::optional<size_t> rejected_;
  size_t consumed_ = 0;  // supplied values taken from the queue so far
  bool failed_ = false;  // a request failed since values were last supplied

  void Answered() {
    failed_ = false;
    pending_.reset();
  }
  // Records the first failing request (and refused value) only.
  void Fail(const RollRequest& request, std::optional<size_t> rejected) {
    if (failed_) return;
    failed_ = true;
    pending_ = request;
    if (rejected) rejected_ = rejected;
  }
};
static_assert(DiceSource<DiceStream>);

}  // namespace wg
