// Combat results tables (CRTs) as data: odds or differential columns, rows by
// modified die roll, and result cells parsed into attacker and defender tokens.
// The core only parses and looks up; each ruleset maps tokens to effects.
//
// YAML read by LoadCombatTable (the node is the value of a `crt:` key):
//
//   crt:
//     provenance: "..."           # optional: where the table comes from
//     kind: odds                  # odds | differential
//     columns: ["1-4","1-3","1-2","3-4","1-1","3-2","2-1","3-1","4-1","5-1","6-1"]
//     below_lowest: {result: "AE/-"}   # or {column: "1-4"}; optional, default: lowest column
//     die: d6                     # NdM, see ParseDiceSpec
//     rows: [0, 6]                # lowest and highest modified roll with a row
//     results:                    # one row per modified roll, low to high; one cell per column
//       - ["E2R/-", "E2R/-", ...]
//     effects:                    # optional: what a token does (ResultEffect), for the
//       EX: {defender: eliminated, attacker: exchange, rule: "8.3"}   # hex engine's handler
//
// Odds columns are "a-d" (both positive): a column applies when
// attack/defense >= a/d, and the highest such column is used (rounding in the
// defender's favour; special columns such as 3-4 and 3-2 need nothing extra).
// Columns must be strictly increasing. Above the highest column the highest is
// used; below the lowest, `below_lowest` decides.
// Differential columns are signed integers ("-3", "0", "+4"); a column
// applies when attack - defense >= its value, the highest such column is used.
// Either kind accepts a trailing "+" on the last column only, as printed
// ("6-1+", "+7+"); it changes nothing since the highest column is open anyway.
//
// Result cells: "A/D" with separate attacker and defender parts
// ("E2R/-", "-/D1W"), or a single part ("AR", "DE", "EX", Blue & Gray's "DR")
// stored with two_sided = false for the ruleset to interpret. A part is "-"
// (nothing) or one or more tokens, each upper-case letters followed by an
// optional number: "E2R" -> E2, R; "D1W" -> D1, W; "AE" -> AE. Spaces between
// tokens are allowed.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "wargame/dice.h"
#include "wargame/error.h"
#include "wargame/yaml_reader.h"

namespace wg {

// One token of a result: "E2" -> {code "E", number 2, has_number true}.
struct ResultToken {
  std::string code;
  int number = 0;
  bool has_number = false;
  std::string ToString() const;
  friend bool operator==(const ResultToken&, const ResultToken&) = default;
};

// One CRT cell.
struct CombatResult {
  std::string text;                   // as written, e.g. "E2R/-"
  bool two_sided = false;             // "A/D" form
  std::vector<ResultToken> attacker;  // two_sided only
  std::vector<ResultToken> defender;  // two_sided only
  std::vector<ResultToken> tokens;    // single-part cells only ("DR", "EX")
};

// What a result token does to each side, for the hex engine's result handler
// (HexRules::ApplyCombatResult): declared by the ruleset in `crt.effects`, or
// the standard AE, AR, DE, DR (StandardResultEffect). An exchange: the side
// loses its units, weakest first, until their printed strength (attack for the
// attacker, defense for the defender) totals at least the other side's printed
// strength in the combat.
enum class ResultLoss : uint8_t { kNone, kEliminated, kRetreat, kExchange };
struct ResultEffect {
  std::string code;  // "EX"
  std::string rule;  // cited by its events; "": the ruleset's combat rule
  ResultLoss attacker = ResultLoss::kNone;
  ResultLoss defender = ResultLoss::kNone;
};
// AE: attacker eliminated, AR: attacker retreats, DE, DR: the same for the
// defender; nullptr for any other code.
const ResultEffect* StandardResultEffect(std::string_view code);

// Parses one cell. Errors: `bad result "x": <reason>` (no file position; loaders add it).
Result<CombatResult> ParseCombatResult(std::string_view text);

enum class CrtKind { kOdds, kDifferential };

struct CrtColumn {
  std::string label;  // as written
  int attack = 0;     // odds: a of "a-d"; differential: the minimum difference
  int defense = 1;    // odds: d of "a-d"; differential: unused (1)
};

class CombatTable {
 public:
  // Column index meaning "below the lowest column" when below_lowest is a fixed result.
  static constexpr int kBelowLowest = -1;

  CrtKind kind = CrtKind::kOdds;
  std::string provenance;
  std::vector<CrtColumn> columns;
  bool below_is_result = false;  // true: below the lowest column gives below_result
  CombatResult below_result;
  DiceSpec die;
  int min_row = 1;  // lowest modified roll with a row
  int max_row = 6;
  std::vector<CombatResult> cells;  // row-major: (roll - min_row) * columns + column
  std::vector<ResultEffect> effects;  // crt.effects, in the file's order

  // The effect of a token: the declared one, else the standard one, else nullptr.
  const ResultEffect* Effect(std::string_view code) const;

  int num_columns() const { return static_cast<int>(columns.size()); }
  int num_rows() const { return max_row - min_row + 1; }

  // The column for these strengths (odds tables) or their difference
  // (differential tables): the highest column satisfied, the highest column
  // above it, and below the lowest either kBelowLowest or 0 (per below_lowest).
  // Odds: a defense of 0 or less uses the highest column.
  int ColumnFor(int attack, int defense) const;
  // Index of a column by its label, or -2 if none.
  int ColumnByLabel(std::string_view label) const;
  // Voluntary odds reduction: the attacker may declare any lower column than
  // the one computed, never a higher one; from kBelowLowest only kBelowLowest.
  bool IsValidReduction(int computed_column, int chosen_column) const;
  // Clamps a modified roll to [min_row, max_row].
  int ClampRoll(int modified_roll) const;
  // The result for a column (or kBelowLowest) and a modified roll (clamped).
  const CombatResult& Lookup(int column, int modified_roll) const;
};

// Defender (or attacker) strength with multipliers from several sources whose
// combined factor never exceeds `cap` ("never more than doubled": x2 and x2
// still give x2 with cap 2). Factors are >= 1; the product is capped.
int ModifiedStrength(int base, std::span<const int> multipliers, int cap = 2);
// Sum of die-roll modifiers added to the roll, clamped to the table's rows.
int ModifiedRoll(const CombatTable& table, int roll, std::span<const int> drms);

// One outcome of a distribution: probability numerator / denominator
// (denominator = die.Outcomes(), e.g. n/6 for d6, n/36 for 2d6).
struct CrtOutcome {
  uint64_t numerator = 0;
  uint64_t denominator = 1;
  const CombatResult* result = nullptr;  // points into the table
  double probability() const {
    return static_cast<double>(numerator) / static_cast<double>(denominator);
  }
};

// Exact distribution of results before the die is cast, for a column (or
// kBelowLowest), a total die-roll modifier and the dice rolled (usually
// table.die). Outcomes with the same cell text are merged; listed in order
// of the lowest roll giving them. Numerators sum to the denominator.
std::vector<CrtOutcome> Distribution(const CombatTable& table, int column, int drm,
                                     const DiceSpec& die);

// Loads a CRT from `node` (the value of `crt:`); `path` is its key path
// ("crt"). Errors are recorded in the reader and also returned.
Result<CombatTable> LoadCombatTable(YamlReader& reader, const YAML::Node& node,
                                    const std::string& path);

// --- The result tokens a ruleset applies ---------------------------------------------------
// Every ruleset declares the tokens its result handler interprets, and its
// loader refuses a CRT with any other token (CheckCrtTokens), so "D1" in a
// ruleset whose results are AE/AR/DE/DR/EX is an error at load, not a result
// that silently does nothing.
struct CrtTokenRule {
  std::string_view code;    // "AE", "E"
  bool in_single = true;    // may appear in a single-part cell ("DR")
  bool in_attacker = true;  // in the attacker's part of an "A/D" cell
  bool in_defender = true;  // in the defender's part
  bool number = false;      // takes a number ("E2"); false: takes none
};
struct CrtTokenSet {
  std::string_view who;                  // "the standard hex rules", named in messages
  std::span<const CrtTokenRule> tokens;
  bool takes_effects = false;  // false: a `crt.effects` key is refused (the handler is code)
};
// The standard tokens of the hex engine's own result handler (HexRules::ApplyCombatResult,
// libwargame/src/hex/combat.cc): AE, AR for the attacker; DE, DR for the defender.
// A data-only ruleset adds the codes its `crt.effects` declares (EX...).
extern const CrtTokenSet kStandardCrtTokens;
// Records an error at every cell of the CRT `crt` (read by `reader`; `path` is
// its key path, "crt") and its below_lowest result that uses a token `set`
// does not apply: file:line:col: crt.results[r][c]: result token "D1" is not ...
void CheckCrtTokens(YamlReader& reader, const YAML::Node& crt, const std::string& path, const CrtTokenSet& set);

}  // namespace wg
