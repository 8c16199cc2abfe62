// Generic die-roll tables: rows keyed by modified roll, columns by a named key
// or by a numeric range looked up with a value (bombardment strength 5 -> "4-5").
// Cells are integers or strings. The core only looks up; rulesets interpret.
//
// YAML read by LoadDieTable (the node is the value of the table's name key):
//
//   bombardment:
//     provenance: "..."            # optional
//     die: d6                      # NdM, see ParseDiceSpec
//     columns: ["2-3", "4-5", "6+"]   # names, or ranges (then all must be ranges)
//     rows: ["0-1", 2, 3, 4, 5, 6] # ranges of modified rolls, ascending, no gaps
//     results: [[0,0,0],[0,0,0],[0,0,1],[0,1,1],[1,1,1],[0,0,0]]  # one row per rows entry
//
// Range syntax (rows and numeric columns): "4" or 4 (one value), "2-3", "-2--1",
// "6+" (6 and above), "0-" (0 and below). Rows must cover an unbroken ascending
// sequence; a roll outside them clamps to the first or last row. Numeric
// columns must be ascending and must not overlap (gaps are allowed: a value in
// no column has no column). A column list whose every key parses as a range
// is numeric; otherwise every key is a name.
// LoadDieTables reads a map of several named tables.
#pragma once

#include <climits>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "wargame/dice.h"
#include "wargame/error.h"
#include "wargame/yaml_reader.h"

namespace wg {

// Inclusive integer range; open ends use INT_MIN / INT_MAX.
struct IntRange {
  int lo = 0;
  int hi = 0;
  bool Contains(int v) const { return v >= lo && v <= hi; }
  friend bool operator==(const IntRange&, const IntRange&) = default;
};
// "4", "2-3", "-2--1", "6+", "0-"; nullopt on anything else.
std::optional<IntRange> ParseIntRange(std::string_view text);

struct DieTableCell {
  bool is_int = false;
  int number = 0;    // when is_int
  std::string text;  // as written (also for integers)
};

class DieTable {
 public:
  std::string name;
  std::string provenance;
  DiceSpec die;
  std::vector<IntRange> rows;
  std::vector<std::string> column_keys;
  std::vector<IntRange> column_ranges;  // parallel to column_keys when numeric_columns
  bool numeric_columns = false;
  std::vector<DieTableCell> cells;  // row-major

  int num_rows() const { return static_cast<int>(rows.size()); }
  int num_columns() const { return static_cast<int>(column_keys.size()); }

  // Column by its key as written, or -1.
  int ColumnByKey(std::string_view key) const;
  // Numeric columns: the column whose range holds `value`, or -1.
  int ColumnForValue(int value) const;
  // Row for a modified roll, clamped to the first and last rows.
  int RowFor(int modified_roll) const;
  const DieTableCell& Cell(int row, int column) const;
  // Cell(RowFor(modified_roll), column).
  const DieTableCell& Lookup(int modified_roll, int column) const;
};

// One outcome of a die-table distribution (see combat_table.h's CrtOutcome).
struct DieTableOutcome {
  uint64_t numerator = 0;
  uint64_t denominator = 1;
  const DieTableCell* cell = nullptr;
};
// Exact distribution of the cell for a column and a total modifier; equal
// cell texts merged, ordered by the lowest roll giving them.
std::vector<DieTableOutcome> Distribution(const DieTable& table, int column, int drm,
                                          const DiceSpec& die);

// Loads one table from `node`; `path` is its key path (e.g. "bombardment"),
// whose last component becomes the name unless `name` is given.
Result<DieTable> LoadDieTable(YamlReader& reader, const YAML::Node& node, const std::string& path,
                              const std::string& name);

struct DieTables {
  std::vector<DieTable> tables;  // in file order
  const DieTable* Find(std::string_view name) const;
};
// Loads a map of named tables (`node` is the map, `path` its key path, may be "").
Result<DieTables> LoadDieTables(YamlReader& reader, const YAML::Node& node,
                                const std::string& path);

}  // namespace wg
