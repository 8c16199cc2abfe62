// Combat results tables: column choice (odds and differential), golden
// examples from the rulebooks, bounds, voluntary reduction, modifiers, cell
// parsing, loader errors with exact messages, exact outcome distributions.
#include "wargame/combat_table.h"

#include <gtest/gtest.h>

#include <vector>

namespace wg {
namespace {

// Blue & Gray standard CRT as published (DATA-NOTES.md), single-part cells.
const char* kBlueAndGray = R"yaml(crt:
  provenance: "Blue & Gray standard rules (SPI, 1975)"
  kind: odds
  columns: ["1-5","1-4","1-3","1-2","1-1","2-1","3-1","4-1","5-1","6-1"]
  below_lowest: {column: "1-5"}
  die: d6
  rows: [1, 6]
  results:
    - [AR, AR, DR, DR, DR, DR, DE, DE, DE, DE]
    - [AR, AR, AR, DR, DR, DR, DR, DR, DE, DE]
    - [AR, AR, AR, AR, DR, DR, DR, DR, DR, DE]
    - [AE, AR, AR, AR, AR, DR, DR, DR, DR, DR]
    - [AE, AE, AR, AR, AR, AR, DR, EX, EX, DR]
    - [AE, AE, AE, AE, AR, AR, EX, EX, EX, EX]
)yaml";

// Stars and Bars columns. Rows 0 and 1 follow the printed chart; rows 2-6
// are a test-only filler (the rulebook lacks them), so only the row-0/1
// values are asserted as rulebook facts.
const char* kStarsAndBars = R"yaml(crt:
  provenance: "Stars and Bars 7.2; rows 2-6 are test filler"
  kind: odds
  columns: ["1-4","1-3","1-2","3-4","1-1","3-2","2-1","3-1","4-1","5-1","6-1+"]
  below_lowest: {result: "AE/-"}
  die: d6
  rows: [0, 6]
  results:
    - ["E2R/-","E2R/-","E1R/-","E1R/-","R/-","-/D1R","-/D1R","-/D1W","D1 / D1","D1 / D1","-/W"]
    - ["E2R/-","E1R/-","E1R/-","R/-","-/D1R","-/D1R","-/D1W","-/D1W","-/D1W","-/W","-/W"]
    - ["E1/-","E1/-","E1/-","R/-","-/D1","-/D1","-/D1","-/D1","-/D1","-/D1","-/D1"]
    - ["E1/-","E1/-","R/-","-/-","-/-","-/D1","-/D1","-/D1","-/D1","-/D1","-/D1"]
    - ["E1/-","R/-","-/-","-/-","-/-","-/-","-/D1","-/D1","-/D1","-/D1","-/D1"]
    - ["R/-","-/-","-/-","-/-","-/-","-/-","-/-","-/D1","-/D1","-/D1","-/D1"]
    - ["-/-","-/-","-/-","-/-","-/-","-/-","-/-","-/-","-/D1","-/D1","-/D1"]
)yaml";

const char* kDifferential = R"yaml(crt:
  kind: differential
  columns: ["-3", "-2", "-1", "0", "+1", "+2", "+4", "+7+"]
  die: d6
  rows: [1, 6]
  results:
    - [AE, AE, AR, AR, DR, DR, DE, DE]
    - [AE, AR, AR, DR, DR, DR, DE, DE]
    - [AR, AR, AR, DR, DR, DE, DE, DE]
    - [AR, AR, EX, EX, DR, DE, DE, DE]
    - [AR, EX, EX, DR, DE, DE, DE, DE]
    - [EX, EX, DR, DR, DE, DE, DE, DE]
)yaml";

Result<CombatTable> Load(const std::string& text, YamlReader* reader_out = nullptr) {
  YamlReader reader = YamlReader::FromString(text, "crt.yaml");
  EXPECT_TRUE(reader.ok()) << reader.errors().ToString();
  auto r = LoadCombatTable(reader, reader.root()["crt"], "crt");
  if (reader_out) *reader_out = reader;
  return r;
}

CombatTable MustLoad(const std::string& text) {
  auto r = Load(text);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.errors().ToString());
  return r.ok() ? *r : CombatTable{};
}

std::string FirstError(const std::string& text) {
  auto r = Load(text);
  if (r.ok()) return "(loaded)";
  return r.errors().front().ToString();
}

std::string Label(const CombatTable& t, int column) {
  return column == CombatTable::kBelowLowest ? "below" : t.columns[static_cast<size_t>(column)].label;
}

TEST(CombatTable, Rule_7_2_2_FiveAgainstTwoIsTwoToOne) {
  const CombatTable t = MustLoad(kStarsAndBars);
  EXPECT_EQ(Label(t, t.ColumnFor(5, 2)), "2-1");
}

TEST(CombatTable, BlueAndGray_8_1_NineteenAgainstSevenIsTwoToOne) {
  const CombatTable t = MustLoad(kBlueAndGray);
  EXPECT_EQ(Label(t, t.ColumnFor(19, 7)), "2-1");
}

TEST(CombatTable, Rule_7_2_1_SpecialColumnsThreeFourAndThreeTwo) {
  const CombatTable t = MustLoad(kStarsAndBars);
  EXPECT_EQ(Label(t, t.ColumnFor(3, 4)), "3-4");
  EXPECT_EQ(Label(t, t.ColumnFor(3, 2)), "3-2");
  EXPECT_EQ(Label(t, t.ColumnFor(4, 3)), "1-1");   // 1.33 rounds down to 1-1
  EXPECT_EQ(Label(t, t.ColumnFor(2, 3)), "1-2");   // 0.67 is below 3-4
  EXPECT_EQ(Label(t, t.ColumnFor(6, 4)), "3-2");
  EXPECT_EQ(Label(t, t.ColumnFor(1, 4)), "1-4");
}

TEST(CombatTable, Rule_7_2_BelowOneToFourGivesTheBoundResult) {
  const CombatTable t = MustLoad(kStarsAndBars);
  const int col = t.ColumnFor(1, 5);
  EXPECT_EQ(col, CombatTable::kBelowLowest);
  const CombatResult& r = t.Lookup(col, 3);
  EXPECT_EQ(r.text, "AE/-");
  ASSERT_EQ(r.attacker.size(), 1u);
  EXPECT_EQ(r.attacker[0].code, "AE");
  EXPECT_TRUE(r.defender.empty());
  EXPECT_EQ(Label(t, t.ColumnFor(0, 3)), "below");
}

TEST(CombatTable, AboveHighestUsesHighestAndBelowLowestCanUseLowest) {
  const CombatTable sb = MustLoad(kStarsAndBars);
  EXPECT_EQ(Label(sb, sb.ColumnFor(30, 2)), "6-1+");
  EXPECT_EQ(Label(sb, sb.ColumnFor(5, 0)), "6-1+");
  const CombatTable bg = MustLoad(kBlueAndGray);
  EXPECT_EQ(Label(bg, bg.ColumnFor(1, 9)), "1-5");  // worse than 1-5 uses 1-5
  EXPECT_EQ(Label(bg, bg.ColumnFor(70, 10)), "6-1");
  EXPECT_EQ(Label(bg, bg.ColumnFor(10, 10)), "1-1");
}

TEST(CombatTable, StarsAndBarsPrintedRowsLookUp) {
  const CombatTable t = MustLoad(kStarsAndBars);
  const CombatResult& r = t.Lookup(t.ColumnByLabel("4-1"), 0);
  EXPECT_EQ(r.text, "D1 / D1");
  ASSERT_TRUE(r.two_sided);
  EXPECT_EQ(r.attacker, (std::vector<ResultToken>{{"D", 1, true}}));
  EXPECT_EQ(r.defender, (std::vector<ResultToken>{{"D", 1, true}}));
  EXPECT_EQ(t.Lookup(t.ColumnByLabel("1-4"), 0).text, "E2R/-");
  EXPECT_EQ(t.Lookup(t.ColumnByLabel("1-3"), 1).text, "E1R/-");
  EXPECT_EQ(t.Lookup(t.ColumnByLabel("2-1"), 1).text, "-/D1W");
}

TEST(CombatTable, DifferentialColumnsChooseHighestSatisfied) {
  const CombatTable t = MustLoad(kDifferential);
  EXPECT_EQ(Label(t, t.ColumnFor(5, 5)), "0");
  EXPECT_EQ(Label(t, t.ColumnFor(8, 5)), "+2");   // +3 rounds down to +2
  EXPECT_EQ(Label(t, t.ColumnFor(11, 5)), "+4");
  EXPECT_EQ(Label(t, t.ColumnFor(20, 5)), "+7+");
  EXPECT_EQ(Label(t, t.ColumnFor(2, 5)), "-3");
  EXPECT_EQ(Label(t, t.ColumnFor(1, 9)), "-3");   // no below_lowest: the lowest column
  EXPECT_EQ(t.Lookup(t.ColumnFor(12, 8), 4).text, "DE");
}

TEST(CombatTable, BlueAndGray_8_1_VoluntaryOddsReduction) {
  const CombatTable t = MustLoad(kBlueAndGray);
  const int computed = t.ColumnFor(19, 7);  // 2-1
  EXPECT_TRUE(t.IsValidReduction(computed, computed));
  EXPECT_TRUE(t.IsValidReduction(computed, t.ColumnByLabel("1-1")));
  EXPECT_TRUE(t.IsValidReduction(computed, t.ColumnByLabel("1-5")));
  EXPECT_FALSE(t.IsValidReduction(computed, t.ColumnByLabel("3-1")));
  EXPECT_FALSE(t.IsValidReduction(computed, -2));
  EXPECT_FALSE(t.IsValidReduction(computed, 99));
  const CombatTable sb = MustLoad(kStarsAndBars);
  EXPECT_TRUE(sb.IsValidReduction(CombatTable::kBelowLowest, CombatTable::kBelowLowest));
  EXPECT_FALSE(sb.IsValidReduction(CombatTable::kBelowLowest, 0));
  EXPECT_FALSE(sb.IsValidReduction(sb.ColumnFor(2, 1), CombatTable::kBelowLowest));
}

TEST(CombatTable, DoublingsNeverExceedTheCap) {
  const std::vector<int> none, one = {2}, two = {2, 2}, three = {2, 2, 2};
  EXPECT_EQ(ModifiedStrength(3, none), 3);
  EXPECT_EQ(ModifiedStrength(3, one), 6);
  EXPECT_EQ(ModifiedStrength(3, two), 6);  // rough + slope: still only doubled
  EXPECT_EQ(ModifiedStrength(3, three, /*cap=*/4), 12);
  const std::vector<int> triple = {3};
  EXPECT_EQ(ModifiedStrength(3, triple, /*cap=*/3), 9);
  EXPECT_EQ(ModifiedStrength(3, triple, /*cap=*/2), 6);
}

TEST(CombatTable, DieRollModifiersSumAndClampToRows) {
  const CombatTable t = MustLoad(kStarsAndBars);  // rows 0..6
  const std::vector<int> minus_two = {-1, -1}, plus_three = {+2, +1}, none;
  EXPECT_EQ(ModifiedRoll(t, 4, minus_two), 2);
  EXPECT_EQ(ModifiedRoll(t, 1, minus_two), 0);
  EXPECT_EQ(ModifiedRoll(t, 5, plus_three), 6);
  EXPECT_EQ(ModifiedRoll(t, 3, none), 3);
  EXPECT_EQ(t.Lookup(0, -5).text, t.Lookup(0, 0).text);  // Lookup clamps too
  EXPECT_EQ(t.Lookup(0, 12).text, t.Lookup(0, 6).text);
}

TEST(CombatResultParsing, SplitsPartsIntoTokens) {
  auto r = ParseCombatResult("E2R/-");
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->two_sided);
  EXPECT_EQ(r->attacker, (std::vector<ResultToken>{{"E", 2, true}, {"R", 0, false}}));
  EXPECT_TRUE(r->defender.empty());
  auto d = ParseCombatResult("-/D1W");
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->defender, (std::vector<ResultToken>{{"D", 1, true}, {"W", 0, false}}));
  auto single = ParseCombatResult("DR");
  ASSERT_TRUE(single.ok());
  EXPECT_FALSE(single->two_sided);
  EXPECT_EQ(single->tokens, (std::vector<ResultToken>{{"DR", 0, false}}));
  auto ex = ParseCombatResult("EX");
  ASSERT_TRUE(ex.ok());
  EXPECT_EQ(ex->tokens[0].ToString(), "EX");
  EXPECT_EQ(ParseCombatResult("D12")->tokens[0].number, 12);
}

TEST(CombatResultParsing, RejectsBadCellsWithMessages) {
  EXPECT_EQ(ParseCombatResult("E2r/-").errors().front().message,
            "bad result \"E2r/-\": attacker part: unexpected 'r' (a token is upper-case letters and "
            "an optional number)");
  EXPECT_EQ(ParseCombatResult("A/B/C").errors().front().message,
            "bad result \"A/B/C\": more than one '/'");
  EXPECT_EQ(ParseCombatResult("DE/").errors().front().message,
            "bad result \"DE/\": defender part: empty part (write \"-\" for no effect)");
  EXPECT_EQ(ParseCombatResult("").errors().front().message,
            "bad result \"\": empty part (write \"-\" for no effect)");
  EXPECT_FALSE(ParseCombatResult("2E").ok());
}

TEST(CombatTableLoader, ReportsWrongCellCountWithPosition) {
  const std::string text = R"yaml(crt:
  kind: odds
  columns: ["1-1", "2-1"]
  die: d6
  rows: [1, 2]
  results:
    - [DR, DE]
    - [DR]
)yaml";
  EXPECT_EQ(FirstError(text),
            "crt.yaml:8:7: crt.results[1]: expected 2 cells (one per column), got 1");
}

TEST(CombatTableLoader, ReportsWrongRowCount) {
  const std::string text = R"yaml(crt:
  kind: odds
  columns: ["1-1", "2-1"]
  die: d6
  rows: [1, 6]
  results:
    - [DR, DE]
)yaml";
  EXPECT_EQ(FirstError(text),
            "crt.yaml:7:5: crt.results: expected 6 rows (modified rolls 1 to 6), got 1");
}

TEST(CombatTableLoader, ReportsBadToken) {
  const std::string text = R"yaml(crt:
  kind: odds
  columns: ["1-1"]
  die: d6
  rows: [1, 1]
  results:
    - ["D1x/-"]
)yaml";
  EXPECT_EQ(FirstError(text),
            "crt.yaml:7:8: crt.results[0][0]: bad result \"D1x/-\": attacker part: unexpected 'x' "
            "(a token is upper-case letters and an optional number)");
}

TEST(CombatTableLoader, ReportsUnsortedColumns) {
  const std::string text = R"yaml(crt:
  kind: odds
  columns: ["1-1", "3-2", "3-4"]
  die: d6
  rows: [1, 1]
  results: [[DR, DR, DR]]
)yaml";
  EXPECT_EQ(FirstError(text),
            "crt.yaml:3:27: crt.columns[2]: columns must be in increasing order: \"3-4\" is not "
            "above \"3-2\"");
  const std::string diff = R"yaml(crt:
  kind: differential
  columns: ["0", "0"]
  die: d6
  rows: [1, 1]
  results: [[DR, DR]]
)yaml";
  EXPECT_EQ(FirstError(diff),
            "crt.yaml:3:18: crt.columns[1]: columns must be in increasing order: \"0\" is not above "
            "\"0\"");
}

TEST(CombatTableLoader, ReportsBadColumnsKindDieAndKeys) {
  EXPECT_EQ(FirstError("crt:\n  kind: odds\n  columns: [\"1:1\"]\n  die: d6\n  rows: [1, 1]\n"
                       "  results: [[DR]]\n"),
            "crt.yaml:3:13: crt.columns[0]: bad odds column \"1:1\": expected a-d with positive "
            "integers, such as 3-2");
  EXPECT_EQ(FirstError("crt:\n  kind: odds\n  columns: [\"6-1+\", \"7-1\"]\n  die: d6\n"
                       "  rows: [1, 1]\n  results: [[DR, DR]]\n"),
            "crt.yaml:3:13: crt.columns[0]: open-ended column \"6-1+\" must be the last column");
  EXPECT_EQ(FirstError("crt:\n  kind: ratio\n  columns: [\"1-1\"]\n  die: d6\n  rows: [1, 1]\n"
                       "  results: [[DR]]\n"),
            "crt.yaml:2:9: crt.kind: expected odds or differential, got \"ratio\"");
  EXPECT_EQ(FirstError("crt:\n  kind: odds\n  columns: [\"1-1\"]\n  die: 6\n  rows: [1, 1]\n"
                       "  results: [[DR]]\n"),
            "crt.yaml:4:8: crt.die: bad dice \"6\": expected NdM such as d6 or 2d6");
  EXPECT_EQ(FirstError("crt:\n  kind: odds\n  columnz: [\"1-1\"]\n  die: d6\n  rows: [1, 1]\n"
                       "  results: [[DR]]\n"),
            "crt.yaml:3:3: crt.columnz: unknown key (expected one of: provenance, kind, columns, "
            "below_lowest, die, rows, results, effects)");
  EXPECT_EQ(FirstError("crt:\n  kind: odds\n  columns: [\"1-1\"]\n  die: d6\n  rows: [3, 1]\n"
                       "  results: [[DR]]\n"),
            "crt.yaml:5:9: crt.rows: lowest roll 3 is above highest roll 1");
  EXPECT_EQ(FirstError("crt:\n  kind: odds\n  columns: [\"1-1\", \"2-1\"]\n"
                       "  below_lowest: {column: \"2-1\"}\n  die: d6\n  rows: [1, 1]\n"
                       "  results: [[DR, DR]]\n"),
            "crt.yaml:4:26: crt.below_lowest.column: below the lowest column only the lowest "
            "column (\"1-1\") can apply, got \"2-1\"");
  EXPECT_EQ(FirstError("crt:\n  kind: odds\n  columns: [\"1-1\"]\n"
                       "  below_lowest: {result: AE, column: \"1-1\"}\n  die: d6\n  rows: [1, 1]\n"
                       "  results: [[DR]]\n"),
            "crt.yaml:4:17: crt.below_lowest: expected exactly one of result or column");
}

TEST(CombatTableLoader, CollectsSeveralErrors) {
  auto r = Load("crt:\n  kind: odds\n  columns: [\"1-1\", \"x\"]\n  die: q\n  rows: [1, 1]\n"
                "  results: [[DR, DR]]\n");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.errors().size(), 2u);
}

TEST(CombatTableDistribution, D6OnBlueAndGrayTwoToOne) {
  const CombatTable t = MustLoad(kBlueAndGray);
  const auto d = Distribution(t, t.ColumnByLabel("2-1"), /*drm=*/0, t.die);
  ASSERT_EQ(d.size(), 2u);
  EXPECT_EQ(d[0].result->text, "DR");
  EXPECT_EQ(d[0].numerator, 4u);
  EXPECT_EQ(d[0].denominator, 6u);
  EXPECT_EQ(d[1].result->text, "AR");
  EXPECT_EQ(d[1].numerator, 2u);
}

TEST(CombatTableDistribution, ModifierShiftsAndClamps) {
  const CombatTable t = MustLoad(kBlueAndGray);
  // 1-5 column with +3: rolls 1..3 become 4..6 (AE), 4..6 clamp to 6 (AE).
  const auto d = Distribution(t, t.ColumnByLabel("1-5"), /*drm=*/3, t.die);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].result->text, "AE");
  EXPECT_EQ(d[0].numerator, 6u);
  // 4-1 with -2: rolls 1..3 clamp to row 1 (DE); 4..6 become rows 2..4 (DR).
  const auto e = Distribution(t, t.ColumnByLabel("4-1"), /*drm=*/-2, t.die);
  ASSERT_EQ(e.size(), 2u);
  EXPECT_EQ(e[0].result->text, "DE");
  EXPECT_EQ(e[0].numerator, 3u);
  EXPECT_EQ(e[1].result->text, "DR");
  EXPECT_EQ(e[1].numerator, 3u);
}

TEST(CombatTableDistribution, BelowLowestBoundIsCertain) {
  const CombatTable t = MustLoad(kStarsAndBars);
  const auto d = Distribution(t, CombatTable::kBelowLowest, 0, t.die);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].result->text, "AE/-");
  EXPECT_EQ(d[0].numerator, d[0].denominator);
}

TEST(CombatTableDistribution, TwoD6UsesThirtySixths) {
  const std::string text = R"yaml(crt:
  kind: odds
  columns: ["1-1"]
  die: 2d6
  rows: [2, 12]
  results: [[AE],[AE],[AR],[AR],[AR],[EX],[DR],[DR],[DR],[DE],[DE]]
)yaml";
  const CombatTable t = MustLoad(text);
  const auto d = Distribution(t, 0, 0, t.die);
  ASSERT_EQ(d.size(), 5u);
  uint64_t sum = 0;
  for (const auto& o : d) {
    EXPECT_EQ(o.denominator, 36u);
    sum += o.numerator;
  }
  EXPECT_EQ(sum, 36u);
  EXPECT_EQ(d[0].result->text, "AE");
  EXPECT_EQ(d[0].numerator, 1u + 2u);         // 2, 3
  EXPECT_EQ(d[1].numerator, 3u + 4u + 5u);    // 4, 5, 6
  EXPECT_EQ(d[2].result->text, "EX");
  EXPECT_EQ(d[2].numerator, 6u);              // 7
  EXPECT_EQ(d[4].result->text, "DE");
  EXPECT_EQ(d[4].numerator, 2u + 1u);         // 11, 12
  EXPECT_DOUBLE_EQ(d[2].probability(), 1.0 / 6.0);
}

}  // namespace
}  // namespace wg
