#include "wargame/rule_index.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>

#include "wargame/game.h"
#include "wargame/rule_mark.h"

namespace wg {

std::string SourceRelative(std::string_view path) {
  size_t best = std::string_view::npos;
  for (const char* top : {"rulesets/", "libwargame/", "examples/", "tests/"}) {
    for (size_t at = path.find(top); at != std::string_view::npos; at = path.find(top, at + 1)) {
      if (at == 0 || path[at - 1] == '/') best = best == std::string_view::npos ? at : std::max(best, at);
    }
  }
  return std::string(best == std::string_view::npos ? path : path.substr(best));
}

// The marks, linked as their objects are constructed (a constant-initialised head:
// set before any mark's dynamic initialisation runs).
namespace {
const RuleMark* g_rule_marks = nullptr;
}  // namespace

RuleMark::RuleMark(const char* ruleset_, const char* rule_, const char* name_, const char* file_, int line_)
    : ruleset(ruleset_), rule(rule_), name(name_), file(file_), line(line_), next(g_rule_marks) {
  g_rule_marks = this;
}

const RuleMark* RuleMarks() { return g_rule_marks; }

std::string RuleMarkWhere(const RuleMark& m) { return SourceRelative(m.file ? m.file : "") + ":" + std::to_string(m.line); }

void SplitRules(std::string_view rules, std::string_view kind, const std::string& name, const std::string& where,
                std::vector<RuleSource>* out) {
  size_t b = 0;
  while (b < rules.size()) {
    const size_t e = std::min(rules.find_first_of("/,", b), rules.size());
    if (e > b) out->push_back(RuleSource{std::string(rules.substr(b, e - b)), std::string(kind), name, where});
    b = e + 1;
  }
}

void AppendRuleMarks(std::string_view ruleset, std::vector<RuleSource>* out) {
  std::vector<RuleSource> marks;
  for (const RuleMark* m = RuleMarks(); m; m = m->next) {
    if (m->ruleset && m->rule && ruleset == m->ruleset) SplitRules(m->rule, "hook", m->name, RuleMarkWhere(*m), &marks);
  }
  out->insert(out->end(), marks.rbegin(), marks.rend());  // in the order they were registered
}

namespace {
bool Contains(const std::string& text, const char* word) { return text.find(word) != std::string::npos; }
}  // namespace

std::string UnregisteredReason(const RulesRow& row) {
  std::string text;  // every cell but what the rule says
  for (const std::string& c : row.cells) {
    if (&c - row.cells.data() == 0 || c == row.what) continue;
    for (char ch : c) text += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    text += " | ";
  }
  if (Contains(text, "not implemented") || Contains(text, "not applicable")) return "not implemented";
  if (Contains(text, "no rule content") || Contains(text, "nothing to implement")) return "no rule content";
  std::string how;
  for (char ch : row.how) how += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  if (how == "test" || how == "example") return "an example (its test shows it)";
  const bool no_how = how.empty() || how == "-" || how == "\xe2\x80\x94";
  if (how.rfind("header", 0) == 0 || (no_how && row.tests_cell.find("see ") != std::string::npos)) return "header";
  return "";
}

bool IsNumberedRule(std::string_view rule) {
  if (rule.empty()) return false;
  if (std::isdigit(static_cast<unsigned char>(rule[0]))) return true;
  // A letter and a number: "T.1", "C.4".
  return rule.size() >= 3 && std::isupper(static_cast<unsigned char>(rule[0])) && rule[1] == '.' &&
         std::isdigit(static_cast<unsigned char>(rule[2]));
}

namespace {

std::string Trim(const std::string& s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// The cells of a Markdown table row; `|` inside backquotes or escaped as `\|` stays in the cell.
std::vector<std::string> SplitRow(const std::string& line) {
  std::vector<std::string> cells;
  std::string cell;
  bool code = false;
  for (size_t i = 1; i < line.size(); ++i) {  // skip the leading '|'
    const char c = line[i];
    if (c == '`') code = !code;
    if (c == '\\' && i + 1 < line.size() && line[i + 1] == '|') {
      cell += '|';
      ++i;
    } else if (c == '|' && !code) {
      cells.push_back(Trim(cell));
      cell.clear();
    } else {
      cell += c;
    }
  }
  return cells;
}

// Column indices of a header row, -1 where there is none.
struct Columns {
  int rule = -1, what = -1, how = -1, test = -1, reading = -1;
};
Columns HeaderColumns(const std::vector<std::string>& cells) {
  Columns c;
  for (size_t i = 0; i < cells.size(); ++i) {
    const std::string h = Lower(cells[i]);
    const int k = static_cast<int>(i);
    if (h.find("test") != std::string::npos) {
      c.test = k;
    } else if (h.find("reading") != std::string::npos || h.find("note") != std::string::npos) {
      c.reading = k;
    } else if (h.find("how") != std::string::npos || h.find("implement") != std::string::npos) {
      c.how = k;
    } else if (h.find("what") != std::string::npos || h.find("says") != std::string::npos) {
      c.what = k;
    } else if (c.rule < 0 && (h.find("rule") != std::string::npos || h.find("line") != std::string::npos)) {
      c.rule = k;
    }
  }
  if (c.rule < 0) c.rule = 0;
  return c;
}

std::string Cell(const std::vector<std::string>& cells, int i) {
  return i >= 0 && static_cast<size_t>(i) < cells.size() ? cells[static_cast<size_t>(i)] : std::string();
}

}  // namespace

std::vector<std::string> CitedTests(const std::string& cell) {
  std::string text;
  int depth = 0;
  for (char c : cell) {
    if (c == '(') ++depth;
    if (depth == 0 && c != '`') text += c;
    if (c == ')' && depth > 0) --depth;
  }
  static const std::regex kName(R"(\b([A-Z]\w*\.\w+|Rule_\w+)\b)");
  std::vector<std::string> names;
  for (std::sregex_iterator it(text.begin(), text.end(), kName), end; it != end; ++it) names.push_back((*it)[1]);
  return names;
}

Result<std::vector<RulesRow>> ReadRulesTable(const std::string& path) {
  std::ifstream in(path);
  if (!in) {
    ErrorList errors;
    errors.Add(Error{path, 0, 0, "", "cannot read the file", ""});
    return errors;
  }
  std::vector<RulesRow> rows;
  std::string line;
  int number = 0;
  bool in_table = false;
  Columns cols;
  while (std::getline(in, line)) {
    ++number;
    if (line.rfind("|", 0) != 0) {
      if (!line.empty()) in_table = false;  // a table ends at a non-table line
      continue;
    }
    const std::vector<std::string> cells = SplitRow(line);
    if (!in_table) {  // a header row
      cols = HeaderColumns(cells);
      in_table = true;
      continue;
    }
    if (line.find("---") != std::string::npos && Trim(Cell(cells, 0)).find_first_not_of("-: ") == std::string::npos) {
      continue;
    }
    RulesRow r;
    r.line = number;
    r.cells = cells;
    r.rule = Cell(cells, cols.rule);
    r.what = Cell(cells, cols.what);
    r.how = Cell(cells, cols.how);
    r.reading = Cell(cells, cols.reading);
    r.has_test_column = cols.test >= 0 && static_cast<size_t>(cols.test) < cells.size();
    r.tests_cell = Cell(cells, cols.test);
    if (r.has_test_column) r.tests = CitedTests(r.tests_cell);
    rows.push_back(std::move(r));
  }
  return rows;
}

Result<std::vector<RuleIndexEntry>> RuleIndex(const Game& game) {
  // A data-only ruleset may have no RULES.md: its index is what the engine registers.
  std::error_code ec;
  const std::string md = game.folder + "/RULES.md";
  auto rows = std::filesystem::exists(md, ec) ? ReadRulesTable(md) : Result<std::vector<RulesRow>>(std::vector<RulesRow>{});
  if (!rows.ok()) return rows.errors();
  std::vector<RuleSource> sources;
  if (game.rules) game.rules->RuleSources(&sources);
  std::vector<RuleIndexEntry> out;
  std::map<std::string, size_t> by_rule;
  for (RulesRow& r : *rows) {
    if (r.rule.empty()) continue;
    by_rule.emplace(r.rule, out.size());
    RuleIndexEntry e;
    e.rule = r.rule;
    e.row = std::move(r);
    out.push_back(std::move(e));
  }
  // The data keys read whose line names a rule (Game::data_rules). A sub-rule RULES.md does
  // not list ("7.5.2.D") goes to the nearest rule it lists ("7.5.2").
  for (const DataRule& d : game.data_rules) {
    std::string rule = d.rule;
    while (!by_rule.count(rule) && rule.find('.') != std::string::npos) rule.erase(rule.rfind('.'));
    sources.push_back(RuleSource{by_rule.count(rule) ? rule : d.rule, "data", d.key, d.where});
  }
  for (RuleSource& s : sources) {
    auto it = by_rule.find(s.rule);
    if (it == by_rule.end()) {
      RuleIndexEntry e;
      e.rule = s.rule;
      it = by_rule.emplace(s.rule, out.size()).first;
      out.push_back(std::move(e));
    }
    out[it->second].sources.push_back(std::move(s));
  }
  return out;
}

}  // namespace wg
