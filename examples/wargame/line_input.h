// The terminal's input line for `wargame play`'s human player: line editing,
// history and tab completion (unit ids, hexes, commands) with libedit (BSD) or
// GNU readline, when the program was built with one (WG_HAVE_LINE_EDITING)
// and standard input is a terminal; otherwise a plain std::getline.
#pragma once

#include <string>
#include <vector>

namespace wg::cli {

// Shows `prompt` and reads one line (without its newline): false at end of input.
bool ReadLine(const std::string& prompt, std::string* line);
// The words tab completes (replaced at each decision).
void SetCompletions(std::vector<std::string> words);
// "libedit", "readline" or "none": what this build edits lines with.
const char* LineEditing();

}  // namespace wg::cli
