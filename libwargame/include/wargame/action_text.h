// The script language: actions as YAML, one map per action. It is the format
// of scripts, save files and the human player's input. docs/scripting.md has
// the full vocabulary with examples. Units are named by id, hexes by label.
//
//   end                                    end the phase / sub-step
//   {move: [harris, lytle], path: [2302, 2303, 2304]}
//   {enter: sill_1, path: [2301, 2401]}
//   {mode: hotchkiss}                      flip (limber / unlimber)
//   {attack: [harris, lytle], target: [2405]}
//   {bombard: [simonson], target: [2607]}
//   {loss: harris, amount: 1, marker: disruption}
//   stand                                  {retreat: harris, path: [2304, 2204, 2104]}
//   {advance: [harris]}    {advance: []}   advance after combat / decline
//   {choose: 1}                            answer a choice
//   {detach: liddell, unit: liddell_det}   {recombine: liddell, unit: liddell_det}
//   {destroy: supply_1}    {convert: harris, amount: 1}    {reduce_odds: -1}
//   {custom: 3, units: [...], hexes: [...]}                concede
#pragma once

#include <string>

#include "wargame/action.h"
#include "wargame/error.h"
#include "wargame/game.h"
#include "wargame/yaml_reader.h"

namespace wg {

// One action as a single-line YAML flow value (parseable by ParseAction).
std::string ActionToText(const Game& game, const Action& a);
// Parses one action node; errors carry the reader's file, line and column.
Result<Action> ParseAction(const Game& game, YamlReader& reader, const YAML::Node& node,
                           const std::string& path);
// Makes `a` exactly what ActionToText writes and ParseAction reads back: the
// fields its type does not use are cleared (end, stand and concede carry
// nothing); an action whose fields the text cannot hold (a loss with no such
// marker, a detach naming more than two units) is refused. Session::Apply
// applies and records the result, so every save replays.
Status CanonicalAction(const Game& game, Action* a);
// Parses a single action from text (a line typed by a human player).
Result<Action> ParseActionText(const Game& game, const std::string& text);

}  // namespace wg
