#include "wargame/dice.h"

#include <charconv>

namespace wg {

uint64_t SplitMix64(uint64_t& x) {
  uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

RngState SeedRng(uint64_t seed) {
  RngState r;
  uint64_t x = seed;
  for (auto& w : r.s) w = SplitMix64(x);
  return r;
}

namespace {
inline uint64_t Rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
}  // namespace

uint64_t NextU64(RngState& rng) {
  uint64_t* s = rng.s;
  const uint64_t result = Rotl(s[1] * 5, 7) * 9;
  const uint64_t t = s[1] << 17;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = Rotl(s[3], 45);
  return result;
}

uint32_t UniformBelow(RngState& rng, uint32_t n) {
  WG_CHECK(n >= 1, "UniformBelow needs n >= 1");
  uint32_t x = static_cast<uint32_t>(NextU64(rng) >> 32);
  uint64_t m = static_cast<uint64_t>(x) * n;
  uint32_t low = static_cast<uint32_t>(m);
  if (low < n) {
    const uint32_t threshold = static_cast<uint32_t>(-n) % n;
    while (low < threshold) {
      x = static_cast<uint32_t>(NextU64(rng) >> 32);
      m = static_cast<uint64_t>(x) * n;
      low = static_cast<uint32_t>(m);
    }
  }
  return static_cast<uint32_t>(m >> 32);
}

int RollDie(RngState& rng, int sides) {
  WG_CHECK(sides >= 1, "a die needs at least one side");
  return static_cast<int>(UniformBelow(rng, static_cast<uint32_t>(sides))) + 1;
}

uint64_t DiceSpec::Outcomes() const {
  uint64_t n = 1;
  for (int i = 0; i < count; ++i) n *= static_cast<uint64_t>(sides);
  return n;
}

std::string DiceSpec::ToString() const {
  return (count == 1 ? std::string() : std::to_string(count)) + "d" + std::to_string(sides);
}

Result<DiceSpec> ParseDiceSpec(std::string_view text) {
  const Error bad{"", 0, 0, "",
                  "bad dice \"" + std::string(text) + "\": expected NdM such as d6 or 2d6", ""};
  const size_t d = text.find_first_of("dD");
  if (d == std::string_view::npos || d + 1 >= text.size()) return bad;
  DiceSpec spec;
  auto parse = [](std::string_view s, int& out) {
    if (s.empty()) return false;
    for (char c : s) {
      if (c < '0' || c > '9') return false;
    }
    const auto r = std::from_chars(s.data(), s.data() + s.size(), out);
    return r.ec == std::errc() && r.ptr == s.data() + s.size();
  };
  if (d > 0 && !parse(text.substr(0, d), spec.count)) return bad;
  if (!parse(text.substr(d + 1), spec.sides)) return bad;
  if (spec.count < 1 || spec.count > 20 || spec.sides < 2 || spec.sides > 1000) {
    return Error{"", 0, 0, "",
                 "bad dice \"" + std::string(text) +
                     "\": need 1 to 20 dice of 2 to 1000 sides",
                 ""};
  }
  uint64_t n = 1;
  for (int i = 0; i < spec.count; ++i) {
    n *= static_cast<uint64_t>(spec.sides);
    if (n > (uint64_t{1} << 53)) {
      return Error{"", 0, 0, "",
                   "bad dice \"" + std::string(text) + "\": too many outcomes to enumerate", ""};
    }
  }
  return spec;
}

std::vector<uint64_t> DiceSumCounts(const DiceSpec& spec) {
  // counts over sums of k dice, offset by k (the minimum), convolved one die at a time.
  std::vector<uint64_t> counts(static_cast<size_t>(spec.sides), 1);
  for (int k = 2; k <= spec.count; ++k) {
    std::vector<uint64_t> next(counts.size() + static_cast<size_t>(spec.sides) - 1, 0);
    for (size_t i = 0; i < counts.size(); ++i) {
      for (size_t f = 0; f < static_cast<size_t>(spec.sides); ++f) next[i + f] += counts[i];
    }
    counts = std::move(next);
  }
  return counts;
}

DieRoll DiceStream::Roll(const RollRequest& request) {
  WG_CHECK(request.sides >= 1, "a die needs at least one side");
  if (!queue_.empty()) {
    const int v = queue_.front();
    queue_.pop_front();
    const size_t index = consumed_++;
    if (v < 1 || v > request.sides) {
      Fail(request, index);
      return DieRoll{RollStatus::kBadValue, v};
    }
    if (!failed_) pending_.reset();
    record_.push_back(RollRecord{request.sides, v, request.label ? request.label : "", true});
    return DieRoll{RollStatus::kOk, v};
  }
  if (mode_ == Mode::kSupplied || rng_ == nullptr) {
    Fail(request, std::nullopt);
    return DieRoll{RollStatus::kNeedValue, 0};
  }
  if (!failed_) pending_.reset();
  const int v = RollDie(*rng_, request.sides);
  record_.push_back(RollRecord{request.sides, v, request.label ? request.label : "", false});
  return DieRoll{RollStatus::kOk, v};
}

DieRoll DiceStream::RollSum(const DiceSpec& spec, const char* label) {
  const RollRequest request{spec.sides, label};
  // Check the supplied values first so that a partial sum is never consumed.
  const size_t from_queue = std::min(queue_.size(), static_cast<size_t>(spec.count));
  for (size_t i = 0; i < from_queue; ++i) {
    const int v = queue_[i];
    if (v < 1 || v > spec.sides) {
      queue_.erase(queue_.begin() + static_cast<std::ptrdiff_t>(i));
      Fail(request, consumed_ + i);
      return DieRoll{RollStatus::kBadValue, v};
    }
  }
  if (from_queue < static_cast<size_t>(spec.count) &&
      (mode_ == Mode::kSupplied || rng_ == nullptr)) {
    Fail(request, std::nullopt);
    return DieRoll{RollStatus::kNeedValue, 0};
  }
  int sum = 0;
  for (int i = 0; i < spec.count; ++i) {
    const DieRoll r = Roll(request);
    WG_CHECK(r.ok(), "dice checked above");
    sum += r.value;
  }
  return DieRoll{RollStatus::kOk, sum};
}

}  // namespace wg
