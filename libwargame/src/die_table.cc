#include "wargame/die_table.h"

#include <algorithm>

#include "table_parse.h"

namespace wg {

std::optional<IntRange> ParseIntRange(std::string_view s) {
  if (s.empty()) return std::nullopt;
  if (s.size() > 1 && s.back() == '+') {
    auto v = internal::ParseIntText(s.substr(0, s.size() - 1));
    if (!v || s.front() == '+') return std::nullopt;
    return IntRange{*v, INT_MAX};
  }
  if (auto v = internal::ParseIntText(s); v && s.front() != '+') return IntRange{*v, *v};
  // "a-b" or "a-": the separating dash is the first '-' after position 0.
  const size_t dash = s.find('-', 1);
  if (dash == std::string_view::npos) return std::nullopt;
  const std::string_view left = s.substr(0, dash);
  const std::string_view right = s.substr(dash + 1);
  auto lo = internal::ParseIntText(left);
  if (!lo || left.front() == '+') return std::nullopt;
  if (right.empty()) return IntRange{INT_MIN, *lo};
  auto hi = internal::ParseIntText(right);
  if (!hi || right.front() == '+' || *hi < *lo) return std::nullopt;
  return IntRange{*lo, *hi};
}

int DieTable::ColumnByKey(std::string_view key) const {
  for (int i = 0; i < num_columns(); ++i) {
    if (column_keys[static_cast<size_t>(i)] == key) return i;
  }
  return -1;
}

int DieTable::ColumnForValue(int value) const {
  if (!numeric_columns) return -1;
  for (int i = 0; i < num_columns(); ++i) {
    if (column_ranges[static_cast<size_t>(i)].Contains(value)) return i;
  }
  return -1;
}

int DieTable::RowFor(int modified_roll) const {
  WG_CHECK(!rows.empty(), "die table without rows");
  if (modified_roll < rows.front().lo) return 0;
  for (int i = 0; i < num_rows(); ++i) {
    if (rows[static_cast<size_t>(i)].Contains(modified_roll)) return i;
  }
  return num_rows() - 1;  // rows are unbroken, so only "above the last" is left
}

const DieTableCell& DieTable::Cell(int row, int column) const {
  WG_CHECK(row >= 0 && row < num_rows(), "die table row out of range");
  WG_CHECK(column >= 0 && column < num_columns(), "die table column out of range");
  return cells[static_cast<size_t>(row) * column_keys.size() + static_cast<size_t>(column)];
}

const DieTableCell& DieTable::Lookup(int modified_roll, int column) const {
  return Cell(RowFor(modified_roll), column);
}

std::vector<DieTableOutcome> Distribution(const DieTable& table, int column, int drm,
                                          const DiceSpec& die) {
  const std::vector<uint64_t> counts = DiceSumCounts(die);
  const uint64_t total = die.Outcomes();
  std::vector<DieTableOutcome> out;
  for (size_t i = 0; i < counts.size(); ++i) {
    const DieTableCell& c = table.Lookup(die.Min() + static_cast<int>(i) + drm, column);
    auto it = std::find_if(out.begin(), out.end(),
                           [&](const DieTableOutcome& o) { return o.cell->text == c.text; });
    if (it == out.end()) {
      out.push_back(DieTableOutcome{counts[i], total, &c});
    } else {
      it->numerator += counts[i];
    }
  }
  return out;
}

namespace {

std::string RangeText(const IntRange& r) {
  if (r.hi == INT_MAX) return std::to_string(r.lo) + "+";
  if (r.lo == INT_MIN) return std::to_string(r.hi) + "-";
  if (r.lo == r.hi) return std::to_string(r.lo);
  return std::to_string(r.lo) + "-" + std::to_string(r.hi);
}

// `columns`: names, or value ranges (all of them). False when any is wrong.
bool ReadDieColumns(YamlReader& reader, const YAML::Node& node, const std::string& path, DieTable& t) {
  const std::string cols_path = YamlReader::Child(path, "columns");
  const YAML::Node cols = node["columns"];
  bool columns_ok = false;
  if (!cols) {
    reader.Fail(node, cols_path, "missing required key");
  } else if (reader.ExpectSequence(cols, cols_path)) {
    columns_ok = cols.size() > 0;
    if (!columns_ok) reader.Fail(cols, cols_path, "expected at least one column");
    for (size_t i = 0; i < cols.size(); ++i) {
      auto key = reader.String(cols[i], YamlReader::Item(cols_path, i));
      if (!key) {
        columns_ok = false;
        continue;
      }
      if (t.ColumnByKey(*key) >= 0) {
        reader.Fail(cols[i], YamlReader::Item(cols_path, i), "duplicate column \"" + *key + "\"");
        columns_ok = false;
      }
      t.column_keys.push_back(*key);
    }
    if (columns_ok) {
      std::vector<IntRange> ranges;
      for (const std::string& k : t.column_keys) {
        if (auto r = ParseIntRange(k)) ranges.push_back(*r);
      }
      if (ranges.size() == t.column_keys.size()) {
        t.numeric_columns = true;
        t.column_ranges = std::move(ranges);
        for (size_t i = 1; i < t.column_ranges.size(); ++i) {
          if (t.column_ranges[i].lo <= t.column_ranges[i - 1].hi) {
            reader.Fail(cols[i], YamlReader::Item(cols_path, i),
                        "numeric columns must be ascending without overlap: \"" +
                            t.column_keys[i] + "\" starts at or below the end of \"" +
                            t.column_keys[i - 1] + "\"");
            columns_ok = false;
          }
        }
      }
    }
  }
  return columns_ok;
}

// `rows`: ranges of modified rolls, ascending without gaps. False when any is wrong.
bool ReadDieRows(YamlReader& reader, const YAML::Node& node, const std::string& path, DieTable& t) {
  const std::string rows_path = YamlReader::Child(path, "rows");
  const YAML::Node rows = node["rows"];
  bool rows_ok = false;
  if (!rows) {
    reader.Fail(node, rows_path, "missing required key");
  } else if (reader.ExpectSequence(rows, rows_path)) {
    rows_ok = rows.size() > 0;
    if (!rows_ok) reader.Fail(rows, rows_path, "expected at least one row");
    for (size_t i = 0; i < rows.size(); ++i) {
      const std::string ip = YamlReader::Item(rows_path, i);
      auto text = reader.String(rows[i], ip);
      if (!text) {
        rows_ok = false;
        continue;
      }
      auto r = ParseIntRange(*text);
      if (!r) {
        reader.Fail(rows[i], ip,
                    "bad roll range \"" + *text + "\": expected 4, \"2-3\", \"6+\" or \"0-\"");
        rows_ok = false;
        continue;
      }
      if (!t.rows.empty()) {
        const IntRange& p = t.rows.back();
        if (p.hi == INT_MAX || int64_t{r->lo} != int64_t{p.hi} + 1) {
          reader.Fail(rows[i], ip,
                      "rows must follow each other without gap or overlap: \"" + *text +
                          "\" does not start right after \"" + RangeText(p) + "\"");
          rows_ok = false;
        }
      }
      t.rows.push_back(*r);
    }
  }
  return rows_ok;
}

// `results`: one row per `rows` entry, one cell per column.
void ReadDieResults(YamlReader& reader, const YAML::Node& node, const std::string& path, bool rows_ok,
                    bool columns_ok, DieTable& t) {
  const std::string res_path = YamlReader::Child(path, "results");
  const YAML::Node results = node["results"];
  if (!results) {
    reader.Fail(node, res_path, "missing required key");
  } else if (reader.ExpectSequence(results, res_path) && rows_ok && columns_ok) {
    if (results.size() != t.rows.size()) {
      reader.Fail(results, res_path,
                  "expected " + std::to_string(t.rows.size()) + " rows (one per rows entry), got " +
                      std::to_string(results.size()));
    } else {
      for (size_t r = 0; r < results.size(); ++r) {
        const std::string rp = YamlReader::Item(res_path, r);
        const YAML::Node row = results[r];
        if (!reader.ExpectSequence(row, rp)) continue;
        if (row.size() != t.column_keys.size()) {
          reader.Fail(row, rp,
                      "expected " + std::to_string(t.column_keys.size()) +
                          " cells (one per column), got " + std::to_string(row.size()));
          continue;
        }
        for (size_t c = 0; c < row.size(); ++c) {
          auto text = reader.String(row[c], YamlReader::Item(rp, c));
          if (!text) continue;
          DieTableCell cell;
          cell.text = *text;
          if (auto v = internal::ParseIntText(*text)) {
            cell.is_int = true;
            cell.number = *v;
          }
          t.cells.push_back(std::move(cell));
        }
      }
    }
  }
}

}  // namespace

Result<DieTable> LoadDieTable(YamlReader& reader, const YAML::Node& node, const std::string& path,
                              const std::string& name) {
  const size_t before = reader.errors().size();
  DieTable t;
  t.name = name;
  if (!reader.CheckKeys(node, path, {"provenance", "die", "columns", "rows", "results"})) {
    return reader.ErrorsSince(before);
  }
  t.provenance = reader.OptionalString(node, path, "provenance", "");

  if (auto die = reader.RequiredString(node, path, "die")) {
    auto spec = ParseDiceSpec(*die);
    if (spec.ok()) {
      t.die = *spec;
    } else {
      reader.Fail(node["die"], YamlReader::Child(path, "die"), spec.errors().front().message);
    }
  }

  const bool columns_ok = ReadDieColumns(reader, node, path, t);
  const bool rows_ok = ReadDieRows(reader, node, path, t);
  ReadDieResults(reader, node, path, rows_ok, columns_ok, t);

  ErrorList errors = reader.ErrorsSince(before);
  if (!errors.ok()) return errors;
  WG_CHECK(t.cells.size() == t.rows.size() * t.column_keys.size(), "die table cells counted");
  return t;
}

const DieTable* DieTables::Find(std::string_view name) const {
  for (const DieTable& t : tables) {
    if (t.name == name) return &t;
  }
  return nullptr;
}

Result<DieTables> LoadDieTables(YamlReader& reader, const YAML::Node& node,
                                const std::string& path) {
  const size_t before = reader.errors().size();
  DieTables out;
  if (reader.ExpectMap(node, path.empty() ? std::string("(tables)") : path)) {
    for (const auto& kv : node) {
      const std::string name = kv.first.Scalar();
      auto t = LoadDieTable(reader, kv.second, YamlReader::Child(path, name), name);
      if (t.ok()) out.tables.push_back(std::move(*t));
    }
  }
  ErrorList errors = reader.ErrorsSince(before);
  if (!errors.ok()) return errors;
  return out;
}

}  // namespace wg
