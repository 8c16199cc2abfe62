// Loading a ruleset folder into a Game.
//
// A ruleset folder holds ruleset.yaml, whose top-level keys are sections:
//   name, title           strings
//   sides                 [{id, name}] (exactly two)
//   kinds                 [{id, class, stacking: true}]   class = movement class name
//   attributes            [attack, defense, movement, ...]
//   markers               [{id, name, reduces: [attack, defense]}]
//   optional_rules        [{id, title}]
//   choices               [{id, rule, title, since_format}]: players' choices the program
//                         makes in a game made with auto=ID+ID (PlayerChoice)
//   terrain               {types, features, directed, paths, place_kinds, default}
//   stacking              {limit}
//   turns                 {count, labels, night, order, phases}
//   victory               {kind: thresholds, thresholds: {side: n}} or
//                         {kind: differential, levels: [{name, min, max, winner}]}
//                         and either may add points: [{rule, for, side, points, ...}],
//                         the victory-point schedule (victory.h)
//   map, units            file names (relative to the file that names them)
//   scenarios             {name: file}, default_scenario: name
//   ... and any section the ruleset itself reads (movement, zoc, los, crt,
//   tables, ...), declared in the allowed-keys list the ruleset passes in.
// A scenario file has the same sections; each one it gives replaces the
// ruleset's (this is how Chattanooga extends the Blue & Gray standard rules),
// plus `extends:` (another scenario file) and `start`/`place` for set-ups that
// begin at any turn and phase with units anywhere (see ScenarioStart).
//
// units.yaml: {provenance, formations: [{id, name, side, corps, hq}],
//   units: [{id, name, side, kind, size, values: {attr: n}, back: {attr: n},
//            trained, corps, parent, setup, face, release,
//            reinforcement: {turn, entry}, markers: {marker: n}, optional}]}
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "wargame/game.h"
#include "wargame/yaml_reader.h"

namespace wg {

// Where each section of the merged document came from, so that errors name
// the right file.
class RulesetDocument {
 public:
  // The section's node (null if absent) and the reader of its file.
  YAML::Node Section(const std::string& key) const;
  YamlReader* ReaderFor(const std::string& key);
  // Directory of the file that gave the section, for relative file names.
  std::string DirFor(const std::string& key) const;
  // The file `name` the section `key` names (map: map.yaml): beside the file that
  // holds the section; an absolute name as it is.
  std::string FileFor(const std::string& key, const std::string& name) const;
  bool Has(const std::string& key) const { return sections_.count(key) > 0; }
  // Collects the errors of every file read.
  ErrorList Errors() const;

  struct Entry {
    YAML::Node node;
    size_t reader = 0;
  };
  std::vector<std::unique_ptr<YamlReader>> readers;
  std::map<std::string, Entry> sections_;
};

// Reads ruleset.yaml (+ the scenario's overrides) and the generic sections
// into `game`. `extra_keys` are the sections the ruleset reads itself.
// The scenario is a name from `scenarios:` or a path to a file.
Result<std::unique_ptr<RulesetDocument>> LoadRulesetDocument(
    const std::string& folder, const std::string& scenario, const std::vector<std::string>& extra_keys);
// A board engine's sections of the ruleset, read in their places among the
// generic ones (the hex engine's `terrain:`, `stacking:` and `map:`: hex/loader.cc).
class BoardSections {
 public:
  virtual ~BoardSections() = default;
  // Before the kinds: the board's vocabulary.
  virtual void ReadVocabulary(RulesetDocument& doc) = 0;
  // After the kinds: the board's limits.
  virtual void ReadLimits(RulesetDocument& doc, Game* game) = 0;
  // After the victory conditions, before the units (their set-up positions and
  // entry places are on it): the board itself. Errors of files the document does
  // not read go to `errors`.
  virtual void ReadBoard(RulesetDocument& doc, Game* game, ErrorList* errors) = 0;
};
// `board`: the board engine's sections (nullptr: none).
ErrorList LoadGenericSections(RulesetDocument& doc, Game* game, BoardSections* board);
// How many units of `side` count for stacking in `position` (the rules' own
// predicate, optional rules included).
using StackingCounter = std::function<int(const State& s, int position, int side)>;
// Once game.rules exists: the side not moving first starts with at most `limit`
// units counted by `count` in each position (the hex engine calls it with the
// rules' HexQueries::StackingCountOf). Errors name the placement or set-up responsible.
void CheckStartStacking(RulesetDocument& doc, const Game& game, int limit, const StackingCounter& count,
                        ErrorList* errors);

// The keys every reader of `doc` read whose line has a rule comment ("# 7.5.1",
// "# 7.1: ..."): into game->data_rules. Called once the rules were built (their
// own reads included).
void RecordDataRules(const RulesetDocument& doc, Game* game);
// The same for one file's reader (a loader that reads its files itself).
void RecordDataRules(const YamlReader& reader, Game* game);

// The folder holding rulesets' data: $WARGAME_RULESETS if set, else the
// source tree's rulesets/ (compiled in), else the installed share directory.
std::string RulesetsRoot();


}  // namespace wg
