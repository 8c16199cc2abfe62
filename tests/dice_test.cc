// Dice: reference vectors for the generator, the pinned seed-1 sequence,
// unbiasedness sanity, DiceSpec parsing and the DiceStream (seeded/supplied).
#include "wargame/dice.h"

#include <gtest/gtest.h>

#include <array>
#include <cstring>

namespace wg {
namespace {

TEST(Rng, SplitMix64MatchesReferenceVector) {
  uint64_t x = 0;
  EXPECT_EQ(SplitMix64(x), 0xe220a8397b1dcdafULL);
  const RngState r = SeedRng(1);
  EXPECT_EQ(r.s[0], 0x910a2dec89025cc1ULL);
}

TEST(Rng, Xoshiro256StarStarMatchesReferenceVector) {
  // Published test vector: state {1, 2, 3, 4}.
  RngState r{{1, 2, 3, 4}};
  EXPECT_EQ(NextU64(r), 11520u);
  EXPECT_EQ(NextU64(r), 0u);
  EXPECT_EQ(NextU64(r), 1509978240u);
  EXPECT_EQ(NextU64(r), 1215971899390074240u);
}

TEST(Rng, FirstTwentyD6ForSeedOneArePinned) {
  // Computed once; these must never change (saved games and golden logs rely on them).
  const std::array<int, 20> golden = {5, 4, 4, 3, 5, 1, 1, 3, 6, 4, 6, 6, 6, 5, 4, 6, 1, 3, 1, 1};
  RngState r = SeedRng(1);
  for (size_t i = 0; i < golden.size(); ++i) EXPECT_EQ(RollDie(r, 6), golden[i]) << "roll " << i;
}

TEST(Rng, StateIsTriviallyCopyableAndCopiesContinueIdentically) {
  RngState a = SeedRng(42);
  for (int i = 0; i < 5; ++i) NextU64(a);
  RngState b;
  std::memcpy(&b, &a, sizeof a);
  for (int i = 0; i < 100; ++i) EXPECT_EQ(RollDie(a, 10), RollDie(b, 10));
  EXPECT_EQ(a, b);
}

TEST(Rng, DifferentSeedsGiveDifferentSequences) {
  RngState a = SeedRng(1), b = SeedRng(2);
  int same = 0;
  for (int i = 0; i < 64; ++i) same += NextU64(a) == NextU64(b);
  EXPECT_LT(same, 2);
}

TEST(Rng, D6ChiSquareWithFixedSeedIsWithinLooseBound) {
  RngState r = SeedRng(12345);
  std::array<int, 6> counts{};
  const int n = 60000;
  for (int i = 0; i < n; ++i) {
    const int v = RollDie(r, 6);
    ASSERT_GE(v, 1);
    ASSERT_LE(v, 6);
    ++counts[static_cast<size_t>(v - 1)];
  }
  double chi2 = 0;
  const double expected = n / 6.0;
  for (int c : counts) chi2 += (c - expected) * (c - expected) / expected;
  // 5 degrees of freedom: p = 0.001 at 20.5. Deterministic (fixed seed).
  EXPECT_LT(chi2, 20.5);
}

TEST(Rng, UniformBelowStaysInRangeForOddBounds) {
  RngState r = SeedRng(7);
  std::array<int, 7> seen{};
  for (int i = 0; i < 7000; ++i) {
    const uint32_t v = UniformBelow(r, 7);
    ASSERT_LT(v, 7u);
    ++seen[v];
  }
  for (int s : seen) EXPECT_GT(s, 800);
  EXPECT_EQ(UniformBelow(r, 1), 0u);
}

TEST(DiceSpec, ParsesCommonForms) {
  auto d6 = ParseDiceSpec("d6");
  ASSERT_TRUE(d6.ok());
  EXPECT_EQ(*d6, (DiceSpec{1, 6}));
  EXPECT_EQ((*ParseDiceSpec("2d6")), (DiceSpec{2, 6}));
  EXPECT_EQ((*ParseDiceSpec("d10")), (DiceSpec{1, 10}));
  EXPECT_EQ((*ParseDiceSpec("D20")), (DiceSpec{1, 20}));
  EXPECT_EQ((*ParseDiceSpec("3d8")), (DiceSpec{3, 8}));
  EXPECT_EQ(ParseDiceSpec("2d6")->ToString(), "2d6");
  EXPECT_EQ(ParseDiceSpec("d20")->ToString(), "d20");
  EXPECT_EQ(ParseDiceSpec("2d6")->Min(), 2);
  EXPECT_EQ(ParseDiceSpec("2d6")->Max(), 12);
  EXPECT_EQ(ParseDiceSpec("2d6")->Outcomes(), 36u);
}

TEST(DiceSpec, RejectsBadTextWithMessage) {
  for (const char* bad : {"", "d", "6", "2d", "xd6", "d6x", "2 d6", "-1d6", "d+6", "2x6"}) {
    auto r = ParseDiceSpec(bad);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_EQ(r.errors().front().message,
              std::string("bad dice \"") + bad + "\": expected NdM such as d6 or 2d6");
  }
  auto zero = ParseDiceSpec("0d6");
  ASSERT_FALSE(zero.ok());
  EXPECT_EQ(zero.errors().front().message, "bad dice \"0d6\": need 1 to 20 dice of 2 to 1000 sides");
  EXPECT_FALSE(ParseDiceSpec("d1").ok());
  EXPECT_FALSE(ParseDiceSpec("21d6").ok());
  auto huge = ParseDiceSpec("20d1000");
  ASSERT_FALSE(huge.ok());
  EXPECT_EQ(huge.errors().front().message, "bad dice \"20d1000\": too many outcomes to enumerate");
}

TEST(DiceSpec, SumCountsFor2d6AreTheTriangle) {
  const auto c = DiceSumCounts(DiceSpec{2, 6});
  const std::vector<uint64_t> want = {1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1};
  EXPECT_EQ(c, want);
  const auto c3 = DiceSumCounts(DiceSpec{3, 6});
  ASSERT_EQ(c3.size(), 16u);
  EXPECT_EQ(c3[10 - 3], 27u);  // P(3d6 = 10) = 27/216
  uint64_t total = 0;
  for (auto v : c3) total += v;
  EXPECT_EQ(total, 216u);
}

TEST(DiceStream, SeededStreamMatchesRngAndRecordsRolls) {
  RngState state = SeedRng(1);
  DiceStream dice(&state);
  EXPECT_EQ(dice.mode(), DiceStream::Mode::kSeeded);
  const DieRoll a = dice.Roll(RollRequest{6, "combat"});
  const DieRoll b = dice.Roll(6);
  ASSERT_TRUE(a.ok());
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(a.value, 5);  // same as the pinned sequence
  EXPECT_EQ(b.value, 4);
  ASSERT_EQ(dice.record().size(), 2u);
  EXPECT_EQ(dice.record()[0], (RollRecord{6, 5, "combat", false}));
  // The stream advanced the game's state, not a copy.
  RngState fresh = SeedRng(1);
  RollDie(fresh, 6);
  RollDie(fresh, 6);
  EXPECT_EQ(state, fresh);
}

TEST(DiceStream, SuppliedValuesComeFirstThenSeeded) {
  RngState state = SeedRng(1);
  DiceStream dice(&state);
  dice.Supply({2, 3});
  EXPECT_EQ(dice.Roll(6).value, 2);
  EXPECT_EQ(dice.Roll(6).value, 3);
  EXPECT_EQ(dice.Roll(6).value, 5);  // first seeded d6
  EXPECT_TRUE(dice.record()[0].supplied);
  EXPECT_FALSE(dice.record()[2].supplied);
}

TEST(DiceStream, SuppliedOnlyStreamAsksForAValueWhenEmpty) {
  DiceStream dice;
  EXPECT_EQ(dice.mode(), DiceStream::Mode::kSupplied);
  const DieRoll r = dice.Roll(RollRequest{6, "bombardment"});
  EXPECT_EQ(r.status, RollStatus::kNeedValue);
  ASSERT_TRUE(dice.pending().has_value());
  EXPECT_EQ(dice.pending()->sides, 6);
  EXPECT_STREQ(dice.pending()->label, "bombardment");
  EXPECT_TRUE(dice.record().empty());
  dice.Supply(4);
  const DieRoll again = dice.Roll(RollRequest{6, "bombardment"});
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again.value, 4);
  EXPECT_FALSE(dice.pending().has_value());
  EXPECT_EQ(dice.record().size(), 1u);
}

// An action goes on after a missing die (the hook gets a 1), so it may ask for
// more dice: the die it needs next is the first that was missing, not the last
// (a tabletop card rolls a D6 for the livestock, then a D20 for a dinner).
TEST(DiceStream, PendingIsTheFirstMissingDieNotTheLast) {
  DiceStream dice;
  dice.Supply({2});
  EXPECT_TRUE(dice.Roll(RollRequest{6, "direction"}).ok());
  EXPECT_EQ(dice.Roll(RollRequest{6, "move"}).status, RollStatus::kNeedValue);
  EXPECT_EQ(dice.Roll(RollRequest{20, "dinner"}).status, RollStatus::kNeedValue);
  ASSERT_TRUE(dice.pending().has_value());
  EXPECT_EQ(dice.pending()->sides, 6);
  EXPECT_STREQ(dice.pending()->label, "move");
  dice.Supply(5);  // answers it
  EXPECT_FALSE(dice.pending().has_value());
  // A refused value likewise names its own die, whatever is asked after it.
  DiceStream bad;
  bad.Supply({9});
  EXPECT_EQ(bad.Roll(RollRequest{6, "fire"}).status, RollStatus::kBadValue);
  EXPECT_EQ(bad.Roll(RollRequest{20, "morale"}).status, RollStatus::kNeedValue);
  ASSERT_TRUE(bad.pending().has_value());
  EXPECT_EQ(bad.pending()->sides, 6);
  ASSERT_TRUE(bad.rejected().has_value());
  EXPECT_EQ(*bad.rejected(), 0u);
}

TEST(DiceStream, OutOfRangeSuppliedValueIsRefusedAndDropped) {
  DiceStream dice;
  dice.Supply({7, 6});
  const DieRoll bad = dice.Roll(6);
  EXPECT_EQ(bad.status, RollStatus::kBadValue);
  EXPECT_EQ(bad.value, 7);
  EXPECT_EQ(dice.queued(), 1u);
  EXPECT_EQ(dice.Roll(6).value, 6);
  EXPECT_EQ(dice.record().size(), 1u);
}

TEST(DiceStream, RollSumNeedsAllDiceBeforeConsumingAny) {
  DiceStream dice;
  dice.Supply(3);
  EXPECT_EQ(dice.RollSum(DiceSpec{2, 6}, "2d6").status, RollStatus::kNeedValue);
  EXPECT_EQ(dice.queued(), 1u);
  dice.Supply(5);
  const DieRoll r = dice.RollSum(DiceSpec{2, 6}, "2d6");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.value, 8);
  EXPECT_EQ(dice.record().size(), 2u);
}

TEST(DiceStream, RollSumRefusesBadSuppliedValueWithoutConsumingOthers) {
  DiceStream dice;
  dice.Supply({4, 9, 2});
  const DieRoll bad = dice.RollSum(DiceSpec{2, 6}, "2d6");
  EXPECT_EQ(bad.status, RollStatus::kBadValue);
  EXPECT_EQ(bad.value, 9);
  EXPECT_EQ(dice.queued(), 2u);
  EXPECT_TRUE(dice.record().empty());
  const DieRoll ok = dice.RollSum(DiceSpec{2, 6}, "2d6");
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(ok.value, 6);
}

TEST(DiceStream, RollSumSeededIsSumOfIndividualDice) {
  RngState state = SeedRng(1);
  DiceStream dice(&state);
  const DieRoll r = dice.RollSum(DiceSpec{3, 6}, "3d6");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.value, 5 + 4 + 4);
}

}  // namespace
}  // namespace wg
