#include "wargame/combat_table.h"

#include <algorithm>

#include "table_parse.h"

namespace wg {

std::string ResultToken::ToString() const {
  return has_number ? code + std::to_string(number) : code;
}

namespace {

bool IsUpper(char c) { return c >= 'A' && c <= 'Z'; }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// Parses one part ("-", "E2R", "D1 W"); returns a reason on failure.
std::optional<std::string> ParsePart(std::string_view s, std::vector<ResultToken>& out) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  if (s.empty()) return std::string("empty part (write \"-\" for no effect)");
  if (s == "-") return std::nullopt;
  size_t i = 0;
  while (i < s.size()) {
    if (s[i] == ' ') {
      ++i;
      continue;
    }
    if (!IsUpper(s[i])) {
      return "unexpected '" + std::string(1, s[i]) + "' (a token is upper-case letters and an optional number)";
    }
    ResultToken t;
    while (i < s.size() && IsUpper(s[i])) t.code += s[i++];
    if (i < s.size() && IsDigit(s[i])) {
      t.has_number = true;
      while (i < s.size() && IsDigit(s[i])) {
        t.number = t.number * 10 + (s[i++] - '0');
        if (t.number > 1000000) return std::string("number too large");
      }
    }
    out.push_back(std::move(t));
  }
  return std::nullopt;
}

}  // namespace

Result<CombatResult> ParseCombatResult(std::string_view text) {
  CombatResult r;
  r.text = std::string(text);
  auto fail = [&](const std::string& why) {
    return Error{"", 0, 0, "", "bad result \"" + std::string(text) + "\": " + why, ""};
  };
  const size_t slash = text.find('/');
  if (slash == std::string_view::npos) {
    if (auto why = ParsePart(text, r.tokens)) return fail(*why);
    return r;
  }
  if (text.find('/', slash + 1) != std::string_view::npos) return fail("more than one '/'");
  r.two_sided = true;
  if (auto why = ParsePart(text.substr(0, slash), r.attacker)) return fail("attacker part: " + *why);
  if (auto why = ParsePart(text.substr(slash + 1), r.defender)) return fail("defender part: " + *why);
  return r;
}

int CombatTable::ColumnFor(int attack, int defense) const {
  WG_CHECK(!columns.empty(), "CRT without columns");
  int best = -1;
  if (kind == CrtKind::kOdds) {
    if (defense <= 0) return num_columns() - 1;
    for (int i = 0; i < num_columns(); ++i) {
      const CrtColumn& c = columns[static_cast<size_t>(i)];
      // attack / defense >= c.attack / c.defense, in exact integer arithmetic.
      if (int64_t{attack} * c.defense >= int64_t{c.attack} * defense) best = i;
    }
  } else {
    const int64_t diff = int64_t{attack} - defense;
    for (int i = 0; i < num_columns(); ++i) {
      if (diff >= columns[static_cast<size_t>(i)].attack) best = i;
    }
  }
  if (best < 0) return below_is_result ? kBelowLowest : 0;
  return best;
}

int CombatTable::ColumnByLabel(std::string_view label) const {
  for (int i = 0; i < num_columns(); ++i) {
    if (columns[static_cast<size_t>(i)].label == label) return i;
  }
  return -2;
}

bool CombatTable::IsValidReduction(int computed_column, int chosen_column) const {
  if (computed_column == kBelowLowest) return chosen_column == kBelowLowest;
  if (computed_column < 0 || computed_column >= num_columns()) return false;
  if (chosen_column == kBelowLowest) return false;
  return chosen_column >= 0 && chosen_column <= computed_column;
}

int CombatTable::ClampRoll(int modified_roll) const {
  return std::clamp(modified_roll, min_row, max_row);
}

const CombatResult& CombatTable::Lookup(int column, int modified_roll) const {
  if (column == kBelowLowest) {
    WG_CHECK(below_is_result, "kBelowLowest on a table without a below_lowest result");
    return below_result;
  }
  WG_CHECK(column >= 0 && column < num_columns(), "CRT column out of range");
  const int row = ClampRoll(modified_roll) - min_row;
  return cells[static_cast<size_t>(row) * columns.size() + static_cast<size_t>(column)];
}

const ResultEffect* StandardResultEffect(std::string_view code) {
  static const ResultEffect kStandard[] = {
      {"AE", "", ResultLoss::kEliminated, ResultLoss::kNone},
      {"AR", "", ResultLoss::kRetreat, ResultLoss::kNone},
      {"DE", "", ResultLoss::kNone, ResultLoss::kEliminated},
      {"DR", "", ResultLoss::kNone, ResultLoss::kRetreat},
  };
  for (const ResultEffect& e : kStandard) {
    if (e.code == code) return &e;
  }
  return nullptr;
}

const ResultEffect* CombatTable::Effect(std::string_view code) const {
  for (const ResultEffect& e : effects) {
    if (e.code == code) return &e;
  }
  return StandardResultEffect(code);
}

int ModifiedStrength(int base, std::span<const int> multipliers, int cap) {
  int64_t factor = 1;
  for (int m : multipliers) {
    WG_CHECK(m >= 1, "strength multipliers are >= 1");
    factor = std::min<int64_t>(factor * m, std::max(cap, 1));
  }
  return static_cast<int>(base * factor);
}

int ModifiedRoll(const CombatTable& table, int roll, std::span<const int> drms) {
  int64_t r = roll;
  for (int d : drms) r += d;
  r = std::clamp<int64_t>(r, table.min_row, table.max_row);
  return static_cast<int>(r);
}

std::vector<CrtOutcome> Distribution(const CombatTable& table, int column, int drm,
                                     const DiceSpec& die) {
  const std::vector<uint64_t> counts = DiceSumCounts(die);
  const uint64_t total = die.Outcomes();
  std::vector<CrtOutcome> out;
  for (size_t i = 0; i < counts.size(); ++i) {
    const int roll = die.Min() + static_cast<int>(i);
    const CombatResult& r = table.Lookup(column, roll + drm);
    auto it = std::find_if(out.begin(), out.end(),
                           [&](const CrtOutcome& o) { return o.result->text == r.text; });
    if (it == out.end()) {
      out.push_back(CrtOutcome{counts[i], total, &r});
    } else {
      it->numerator += counts[i];
    }
  }
  return out;
}

namespace {

// Records an error about a cell/label at `node`.
void FailText(YamlReader& reader, const YAML::Node& node, const std::string& path,
              const ErrorList& errors) {
  for (const Error& e : errors.errors()) reader.Fail(node, path, e.message);
}

// One column label: "a-d" (odds) or a signed integer (differential), with an optional
// trailing "+" on the last column. False (with an error) when it is not one.
bool ParseColumnLabel(YamlReader& reader, const YAML::Node& node, const std::string& ip, CrtKind kind, bool last,
                      CrtColumn* c) {
  bool ok = false;
  std::string_view s = c->label;
  const bool open = s.size() > 1 && s.back() == '+';
  if (open) s.remove_suffix(1);
  if (kind == CrtKind::kOdds) {
    const size_t dash = s.find('-');
    if (dash != std::string_view::npos) {
      const std::string_view left = s.substr(0, dash), right = s.substr(dash + 1);
      auto a = internal::ParseIntText(left);
      auto d = internal::ParseIntText(right);
      if (a && d && *a > 0 && *d > 0 && left[0] != '+' && right[0] != '+') {
        c->attack = *a;
        c->defense = *d;
        ok = true;
      }
    }
    if (!ok) {
      reader.Fail(node, ip,
                  "bad odds column \"" + c->label + "\": expected a-d with positive integers, such as 3-2");
    }
  } else {
    if (auto v = internal::ParseIntText(s)) {
      c->attack = *v;
      ok = true;
    } else {
      reader.Fail(node, ip,
                  "bad differential column \"" + c->label + "\": expected an integer such as -3, 0 or +4");
    }
  }
  if (ok && open && !last) {
    reader.Fail(node, ip, "open-ended column \"" + c->label + "\" must be the last column");
    ok = false;
  }
  return ok;
}

// `columns`: false when any column is missing or wrong.
bool ReadCrtColumns(YamlReader& reader, const YAML::Node& node, const std::string& path, CombatTable& t) {
  const std::string cols_path = YamlReader::Child(path, "columns");
  const YAML::Node cols = node["columns"];
  if (!cols) {
    reader.Fail(node, cols_path, "missing required key");
    return false;
  }
  if (!reader.ExpectSequence(cols, cols_path)) return false;
  bool columns_ok = true;
  if (cols.size() == 0) {
    reader.Fail(cols, cols_path, "expected at least one column");
    columns_ok = false;
  }
  for (size_t i = 0; i < cols.size(); ++i) {
    const std::string ip = YamlReader::Item(cols_path, i);
    auto label = reader.String(cols[i], ip);
    if (!label) {
      columns_ok = false;
      continue;
    }
    CrtColumn c;
    c.label = *label;
    if (!ParseColumnLabel(reader, cols[i], ip, t.kind, i + 1 == cols.size(), &c)) {
      columns_ok = false;
      continue;
    }
    if (!t.columns.empty()) {
      const CrtColumn& p = t.columns.back();
      const bool increasing = t.kind == CrtKind::kOdds
                                  ? int64_t{c.attack} * p.defense > int64_t{p.attack} * c.defense
                                  : c.attack > p.attack;
      if (!increasing) {
        reader.Fail(cols[i], ip,
                    "columns must be in increasing order: \"" + c.label + "\" is not above \"" + p.label + "\"");
        columns_ok = false;
      }
    }
    t.columns.push_back(std::move(c));
  }
  return columns_ok;
}

// `below_lowest: {result}` or `{column}`.
void ReadBelowLowest(YamlReader& reader, const YAML::Node& node, const std::string& path, bool columns_ok,
                     CombatTable& t) {
  const YAML::Node below = node["below_lowest"];
  const std::string below_path = YamlReader::Child(path, "below_lowest");
  if (below && reader.CheckKeys(below, below_path, {"result", "column"})) {
    const bool has_result = static_cast<bool>(below["result"]);
    const bool has_column = static_cast<bool>(below["column"]);
    if (has_result == has_column) {
      reader.Fail(below, below_path, "expected exactly one of result or column");
    } else if (has_result) {
      const std::string rp = YamlReader::Child(below_path, "result");
      if (auto text = reader.String(below["result"], rp)) {
        auto r = ParseCombatResult(*text);
        if (r.ok()) {
          t.below_is_result = true;
          t.below_result = std::move(*r);
        } else {
          FailText(reader, below["result"], rp, r.errors());
        }
      }
    } else {
      const std::string cp = YamlReader::Child(below_path, "column");
      if (auto label = reader.String(below["column"], cp)) {
        if (columns_ok && t.ColumnByLabel(*label) != 0) {
          reader.Fail(below["column"], cp,
                      "below the lowest column only the lowest column (\"" +
                          t.columns.front().label + "\") can apply, got \"" + *label + "\"");
        }
      }
    }
  }
}

// `rows: [lowest, highest]`: false when missing or wrong.
bool ReadCrtRows(YamlReader& reader, const YAML::Node& node, const std::string& path, CombatTable& t) {
  const std::string rows_path = YamlReader::Child(path, "rows");
  const YAML::Node rows = node["rows"];
  bool rows_ok = false;
  if (!rows) {
    reader.Fail(node, rows_path, "missing required key");
  } else if (reader.ExpectSequence(rows, rows_path)) {
    if (rows.size() != 2) {
      reader.Fail(rows, rows_path, "expected [lowest, highest] modified roll");
    } else {
      auto lo = reader.Int(rows[0], YamlReader::Item(rows_path, 0));
      auto hi = reader.Int(rows[1], YamlReader::Item(rows_path, 1));
      if (lo && hi) {
        if (*lo > *hi) {
          reader.Fail(rows, rows_path, "lowest roll " + std::to_string(*lo) +
                                           " is above highest roll " + std::to_string(*hi));
        } else if (int64_t{*hi} - *lo >= 1000) {
          reader.Fail(rows, rows_path, "more than 1000 rows");
        } else {
          t.min_row = *lo;
          t.max_row = *hi;
          rows_ok = true;
        }
      }
    }
  }
  return rows_ok;
}

// `results`: one row per modified roll, one cell per column.
void ReadCrtResults(YamlReader& reader, const YAML::Node& node, const std::string& path, bool rows_ok,
                    bool columns_ok, CombatTable& t) {
  const std::string res_path = YamlReader::Child(path, "results");
  const YAML::Node results = node["results"];
  if (!results) {
    reader.Fail(node, res_path, "missing required key");
  } else if (reader.ExpectSequence(results, res_path) && rows_ok && columns_ok) {
    const size_t want_rows = static_cast<size_t>(t.num_rows());
    if (results.size() != want_rows) {
      reader.Fail(results, res_path,
                  "expected " + std::to_string(want_rows) + " rows (modified rolls " +
                      std::to_string(t.min_row) + " to " + std::to_string(t.max_row) + "), got " +
                      std::to_string(results.size()));
    } else {
      t.cells.reserve(want_rows * t.columns.size());
      for (size_t r = 0; r < results.size(); ++r) {
        const std::string rp = YamlReader::Item(res_path, r);
        const YAML::Node row = results[r];
        if (!reader.ExpectSequence(row, rp)) continue;
        if (row.size() != t.columns.size()) {
          reader.Fail(row, rp,
                      "expected " + std::to_string(t.columns.size()) +
                          " cells (one per column), got " + std::to_string(row.size()));
          continue;
        }
        for (size_t c = 0; c < row.size(); ++c) {
          const std::string cp = YamlReader::Item(rp, c);
          auto text = reader.String(row[c], cp);
          if (!text) continue;
          auto cell = ParseCombatResult(*text);
          if (!cell.ok()) {
            FailText(reader, row[c], cp, cell.errors());
            continue;
          }
          t.cells.push_back(std::move(*cell));
        }
      }
    }
  }
}

// One side's effect: none, eliminated, retreat or exchange.
ResultLoss ReadLoss(YamlReader& reader, const YAML::Node& node, const std::string& path, const char* key) {
  const std::string v = reader.OptionalString(node, path, key, "none");
  if (v == "none") return ResultLoss::kNone;
  if (v == "eliminated") return ResultLoss::kEliminated;
  if (v == "retreat") return ResultLoss::kRetreat;
  if (v == "exchange") return ResultLoss::kExchange;
  reader.Fail(node[key], YamlReader::Child(path, key), "expected none, eliminated, retreat or exchange, got \"" + v + "\"");
  return ResultLoss::kNone;
}

// `effects: {CODE: {attacker, defender, rule}}`: what each token does.
void ReadCrtEffects(YamlReader& reader, const YAML::Node& node, const std::string& path, CombatTable& t) {
  const YAML::Node effects = node["effects"];
  const std::string ep = YamlReader::Child(path, "effects");
  if (!effects || !reader.ExpectMap(effects, ep)) return;
  for (const auto& kv : effects) {
    auto code = reader.String(kv.first, ep);
    if (!code) continue;
    const std::string cp = YamlReader::Child(ep, *code);
    auto parsed = ParseCombatResult(*code);
    if (!parsed.ok() || parsed->two_sided || parsed->tokens.size() != 1 || parsed->tokens[0].has_number ||
        parsed->tokens[0].code != *code) {
      reader.Fail(kv.first, cp, "a result token is upper-case letters (\"EX\"), got \"" + *code + "\"");
      continue;
    }
    if (!reader.ExpectMap(kv.second, cp) || !reader.CheckKeys(kv.second, cp, {"attacker", "defender", "rule"})) continue;
    ResultEffect e;
    e.code = *code;
    e.attacker = ReadLoss(reader, kv.second, cp, "attacker");
    e.defender = ReadLoss(reader, kv.second, cp, "defender");
    e.rule = reader.OptionalString(kv.second, cp, "rule", "");
    if (e.attacker == ResultLoss::kNone && e.defender == ResultLoss::kNone) {
      reader.Fail(kv.second, cp, "the result does nothing to either side");
      continue;
    }
    t.effects.push_back(std::move(e));
  }
}

}  // namespace

Result<CombatTable> LoadCombatTable(YamlReader& reader, const YAML::Node& node,
                                    const std::string& path) {
  const size_t before = reader.errors().size();
  CombatTable t;
  if (!reader.CheckKeys(node, path,
                        {"provenance", "kind", "columns", "below_lowest", "die", "rows", "results", "effects"})) {
    return reader.ErrorsSince(before);
  }
  t.provenance = reader.OptionalString(node, path, "provenance", "");

  // kind
  const std::string kind_path = YamlReader::Child(path, "kind");
  if (auto kind = reader.RequiredString(node, path, "kind")) {
    if (*kind == "odds") {
      t.kind = CrtKind::kOdds;
    } else if (*kind == "differential") {
      t.kind = CrtKind::kDifferential;
    } else {
      reader.Fail(node["kind"], kind_path,
                  "expected odds or differential, got \"" + *kind + "\"");
    }
  }

  // die
  if (auto die = reader.RequiredString(node, path, "die")) {
    auto spec = ParseDiceSpec(*die);
    if (spec.ok()) {
      t.die = *spec;
    } else {
      FailText(reader, node["die"], YamlReader::Child(path, "die"), spec.errors());
    }
  }

  const bool columns_ok = ReadCrtColumns(reader, node, path, t);
  ReadBelowLowest(reader, node, path, columns_ok, t);
  const bool rows_ok = ReadCrtRows(reader, node, path, t);
  ReadCrtResults(reader, node, path, rows_ok, columns_ok, t);
  ReadCrtEffects(reader, node, path, t);

  ErrorList errors = reader.ErrorsSince(before);
  if (!errors.ok()) return errors;
  WG_CHECK(t.cells.size() == static_cast<size_t>(t.num_rows()) * t.columns.size(),
           "CRT cells counted");
  return t;
}

namespace {

constexpr CrtTokenRule kStandardTokens[] = {
    {"AE", true, true, false, false}, {"AR", true, true, false, false}, {"DE", true, false, true, false},
    {"DR", true, false, true, false},
};

std::string TokenList(const CrtTokenSet& set) {
  std::string out;
  for (const CrtTokenRule& t : set.tokens) {
    out += (out.empty() ? "" : ", ") + std::string(t.code) + (t.number ? "n" : "");
  }
  return out;
}

// Checks one cell's text; `where` is 0 single part, 1 attacker, 2 defender.
void CheckCellTokens(YamlReader& reader, const YAML::Node& cell, const std::string& path, const CrtTokenSet& set) {
  if (!cell.IsScalar()) return;
  auto result = ParseCombatResult(cell.Scalar());
  if (!result.ok()) return;  // the CRT loader reported it
  auto check = [&](const std::vector<ResultToken>& tokens, int where) {
    static constexpr const char* kWhere[] = {"", " in the attacker's part", " in the defender's part"};
    for (const ResultToken& t : tokens) {
      bool known = false;
      for (const CrtTokenRule& k : set.tokens) {
        const bool here = where == 0 ? k.in_single : where == 1 ? k.in_attacker : k.in_defender;
        known = known || (k.code == t.code && k.number == t.has_number && here);
      }
      if (!known) {
        reader.Fail(cell, path, "result token \"" + t.ToString() + "\" is not one " + std::string(set.who) +
                                    " apply" + kWhere[where] + " (" + TokenList(set) + "): it would do nothing");
      }
    }
  };
  if (result->two_sided) {
    check(result->attacker, 1);
    check(result->defender, 2);
  } else {
    check(result->tokens, 0);
  }
}

}  // namespace

const CrtTokenSet kStandardCrtTokens{"the standard hex rules", kStandardTokens};

void CheckCrtTokens(YamlReader& reader, const YAML::Node& crt, const std::string& path, const CrtTokenSet& set) {
  if (const YAML::Node effects = YamlReader::Get(crt, "effects"); effects && !set.takes_effects) {
    reader.Fail(effects, YamlReader::Child(path, "effects"),
                std::string(set.who) + " apply their results in code: declared effects would do nothing");
  }
  const YAML::Node rows = YamlReader::Get(crt, "results");
  const std::string rp = YamlReader::Child(path, "results");
  for (size_t i = 0; rows.IsSequence() && i < rows.size(); ++i) {
    for (size_t j = 0; rows[i].IsSequence() && j < rows[i].size(); ++j) {
      CheckCellTokens(reader, rows[i][j], YamlReader::Item(YamlReader::Item(rp, i), j), set);
    }
  }
  const YAML::Node below = YamlReader::Get(YamlReader::Get(crt, "below_lowest"), "result");
  if (below) CheckCellTokens(reader, below, YamlReader::Child(YamlReader::Child(path, "below_lowest"), "result"), set);
}

}  // namespace wg
