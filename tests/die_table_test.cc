// Generic die-roll tables: range parsing, the Stars and Bars bombardment and
// reorganization tables, column lookup by key and by value, roll clamping,
// loader errors with exact messages, several named tables, distributions.
#include "wargame/die_table.h"

#include <gtest/gtest.h>

namespace wg {
namespace {

// Stars and Bars Bombardment Table (8.2) and Reorganization Table (9.0) as printed.
const char* kTables = R"yaml(bombardment:
  provenance: "Stars and Bars Bombardment Table (8.2)"
  die: d6
  columns: ["2-3", "4-5", "6+"]
  rows: ["0-1", 2, 3, 4, 5, 6]
  results: [[0,0,0],[0,0,0],[0,0,1],[0,1,1],[1,1,1],[0,0,0]]
reorganization:
  provenance: "Stars and Bars Reorganization Table (9.0), first rows"
  die: d6
  columns: [no HQ, near HQ, with HQ]
  rows: ["0-1", 2, 3, 4, 5]
  results: [[0,0,0],[0,0,0],[0,0,1],[0,1,1],[1,1,"2"]]
)yaml";

Result<DieTables> LoadAll(const std::string& text) {
  YamlReader reader = YamlReader::FromString(text, "tables.yaml");
  EXPECT_TRUE(reader.ok()) << reader.errors().ToString();
  return LoadDieTables(reader, reader.root(), "");
}

std::string FirstError(const std::string& text) {
  auto r = LoadAll(text);
  if (r.ok()) return "(loaded)";
  return r.errors().front().ToString();
}

TEST(IntRange, ParsesAllForms) {
  EXPECT_EQ(ParseIntRange("4"), (IntRange{4, 4}));
  EXPECT_EQ(ParseIntRange("-2"), (IntRange{-2, -2}));
  EXPECT_EQ(ParseIntRange("2-3"), (IntRange{2, 3}));
  EXPECT_EQ(ParseIntRange("-2--1"), (IntRange{-2, -1}));
  EXPECT_EQ(ParseIntRange("-1-1"), (IntRange{-1, 1}));
  EXPECT_EQ(ParseIntRange("6+"), (IntRange{6, INT_MAX}));
  EXPECT_EQ(ParseIntRange("0-"), (IntRange{INT_MIN, 0}));
  for (const char* bad : {"", "+", "-", "3-2", "a", "2-x", "+4", "1-+2", "4++", "2 - 3"}) {
    EXPECT_FALSE(ParseIntRange(bad).has_value()) << bad;
  }
}

TEST(DieTable, Rule_8_2_BombardmentStrengthPicksRangeColumn) {
  auto all = LoadAll(kTables);
  ASSERT_TRUE(all.ok()) << all.errors().ToString();
  const DieTable* t = all->Find("bombardment");
  ASSERT_NE(t, nullptr);
  EXPECT_TRUE(t->numeric_columns);
  EXPECT_EQ(t->ColumnForValue(5), t->ColumnByKey("4-5"));
  EXPECT_EQ(t->ColumnForValue(2), 0);
  EXPECT_EQ(t->ColumnForValue(3), 0);
  EXPECT_EQ(t->ColumnForValue(6), 2);
  EXPECT_EQ(t->ColumnForValue(11), 2);
  EXPECT_EQ(t->ColumnForValue(1), -1);  // too weak for any column
  // BS 5, roll 4 -> 1 disruption; BS 3, roll 4 -> none; BS 6, roll 3 -> 1.
  EXPECT_EQ(t->Lookup(4, t->ColumnForValue(5)).number, 1);
  EXPECT_EQ(t->Lookup(4, t->ColumnForValue(3)).number, 0);
  EXPECT_EQ(t->Lookup(3, t->ColumnForValue(6)).number, 1);
  EXPECT_TRUE(t->Lookup(3, 2).is_int);
  EXPECT_EQ(t->provenance, "Stars and Bars Bombardment Table (8.2)");
}

TEST(DieTable, Rule_8_2_WoodsModifierClampsBelowFirstRow) {
  auto all = LoadAll(kTables);
  ASSERT_TRUE(all.ok());
  const DieTable& t = *all->Find("bombardment");
  EXPECT_EQ(t.RowFor(1 - 1), 0);  // roll 1 in woods: 0 is in "0-1"
  EXPECT_EQ(t.RowFor(-3), 0);     // clamps to the first row
  EXPECT_EQ(t.RowFor(1), 0);
  EXPECT_EQ(t.RowFor(2), 1);
  EXPECT_EQ(t.RowFor(6), 5);
  EXPECT_EQ(t.RowFor(9), 5);      // clamps to the last row
  EXPECT_EQ(t.Lookup(5 - 1, 0).number, 0);
  EXPECT_EQ(t.Lookup(5, 0).number, 1);
}

TEST(DieTable, NamedColumnsAndStringCells) {
  auto all = LoadAll(kTables);
  ASSERT_TRUE(all.ok());
  const DieTable& t = *all->Find("reorganization");
  EXPECT_FALSE(t.numeric_columns);
  EXPECT_EQ(t.ColumnByKey("near HQ"), 1);
  EXPECT_EQ(t.ColumnByKey("far"), -1);
  EXPECT_EQ(t.ColumnForValue(1), -1);
  EXPECT_EQ(t.Lookup(5, t.ColumnByKey("with HQ")).number, 2);
  EXPECT_EQ(t.Lookup(3, t.ColumnByKey("with HQ")).text, "1");
  EXPECT_EQ(all->Find("missing"), nullptr);
  ASSERT_EQ(all->tables.size(), 2u);
  EXPECT_EQ(all->tables[0].name, "bombardment");
}

TEST(DieTable, TextCellsAreKeptAsWritten) {
  auto all = LoadAll(R"yaml(withdrawal:
  die: d6
  columns: [result]
  rows: ["1-3", "4+"]
  results: [[stays], [withdraws]]
)yaml");
  ASSERT_TRUE(all.ok()) << all.errors().ToString();
  const DieTable& t = all->tables[0];
  EXPECT_FALSE(t.Lookup(2, 0).is_int);
  EXPECT_EQ(t.Lookup(2, 0).text, "stays");
  EXPECT_EQ(t.Lookup(40, 0).text, "withdraws");
}

TEST(DieTableLoader, ReportsErrorsWithExactMessages) {
  EXPECT_EQ(FirstError("t:\n  die: d6\n  columns: [a, b]\n  rows: [1, 2]\n  results: [[0, 0], [0]]\n"),
            "tables.yaml:5:21: t.results[1]: expected 2 cells (one per column), got 1");
  EXPECT_EQ(FirstError("t:\n  die: d6\n  columns: [a]\n  rows: [1, 2]\n  results: [[0]]\n"),
            "tables.yaml:5:12: t.results: expected 2 rows (one per rows entry), got 1");
  EXPECT_EQ(FirstError("t:\n  die: d6\n  columns: [a]\n  rows: [1, 3]\n  results: [[0], [0]]\n"),
            "tables.yaml:4:13: t.rows[1]: rows must follow each other without gap or overlap: \"3\" "
            "does not start right after \"1\"");
  EXPECT_EQ(FirstError("t:\n  die: d6\n  columns: [a]\n  rows: [\"4+\", 5]\n  results: [[0], [0]]\n"),
            "tables.yaml:4:16: t.rows[1]: rows must follow each other without gap or overlap: \"5\" "
            "does not start right after \"4+\"");
  EXPECT_EQ(FirstError("t:\n  die: d6\n  columns: [a]\n  rows: [\"x\"]\n  results: [[0]]\n"),
            "tables.yaml:4:10: t.rows[0]: bad roll range \"x\": expected 4, \"2-3\", \"6+\" or \"0-\"");
  EXPECT_EQ(FirstError("t:\n  die: d6\n  columns: [\"4-5\", \"2-3\"]\n  rows: [1]\n  results: [[0, 0]]\n"),
            "tables.yaml:3:20: t.columns[1]: numeric columns must be ascending without overlap: "
            "\"2-3\" starts at or below the end of \"4-5\"");
  EXPECT_EQ(FirstError("t:\n  die: d6\n  columns: [a, a]\n  rows: [1]\n  results: [[0, 0]]\n"),
            "tables.yaml:3:16: t.columns[1]: duplicate column \"a\"");
  EXPECT_EQ(FirstError("t:\n  die: 2x6\n  columns: [a]\n  rows: [1]\n  results: [[0]]\n"),
            "tables.yaml:2:8: t.die: bad dice \"2x6\": expected NdM such as d6 or 2d6");
  EXPECT_EQ(FirstError("t:\n  die: d6\n  colums: [a]\n  rows: [1]\n  results: [[0]]\n"),
            "tables.yaml:3:3: t.colums: unknown key (expected one of: provenance, die, columns, "
            "rows, results)");
  EXPECT_EQ(FirstError("t:\n  die: d6\n  rows: [1]\n  results: [[0]]\n"),
            "tables.yaml:2:3: t.columns: missing required key");
}

TEST(DieTableLoader, OneBadTableDoesNotHideAnother) {
  auto r = LoadAll("a:\n  die: d6\n  columns: [x]\n  rows: [1]\n  results: [[0, 1]]\n"
                   "b:\n  die: d0\n  columns: [x]\n  rows: [1]\n  results: [[0]]\n");
  ASSERT_FALSE(r.ok());
  ASSERT_EQ(r.errors().size(), 2u);
  EXPECT_EQ(r.errors().errors()[0].path, "a.results[0]");
  EXPECT_EQ(r.errors().errors()[1].path, "b.die");
}

TEST(DieTableDistribution, BombardmentOddsForStrengthFive) {
  auto all = LoadAll(kTables);
  ASSERT_TRUE(all.ok());
  const DieTable& t = *all->Find("bombardment");
  const int col = t.ColumnForValue(5);
  // Rolls 1..6 -> 0,0,0,1,1,0: "0" 4/6, "1" 2/6.
  const auto d = Distribution(t, col, /*drm=*/0, t.die);
  ASSERT_EQ(d.size(), 2u);
  EXPECT_EQ(d[0].cell->text, "0");
  EXPECT_EQ(d[0].numerator, 4u);
  EXPECT_EQ(d[1].cell->text, "1");
  EXPECT_EQ(d[1].numerator, 2u);
  EXPECT_EQ(d[1].denominator, 6u);
  // In woods (-1): modified rolls 0..5 -> 0,0,0,0,1,1.
  const auto w = Distribution(t, col, /*drm=*/-1, t.die);
  ASSERT_EQ(w.size(), 2u);
  EXPECT_EQ(w[0].numerator, 4u);
  EXPECT_EQ(w[1].numerator, 2u);
  // Strength 6, woods: modified rolls 0..5 -> 0,0,0,1,1,1.
  const auto s6 = Distribution(t, t.ColumnForValue(6), -1, t.die);
  ASSERT_EQ(s6.size(), 2u);
  EXPECT_EQ(s6[1].cell->text, "1");
  EXPECT_EQ(s6[1].numerator, 3u);
}

}  // namespace
}  // namespace wg
