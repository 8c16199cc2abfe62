// The terminal's input line (line_input.h).
#include "line_input.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <iostream>

#if defined(WG_HAVE_LIBEDIT)
#include <editline/readline.h>
#elif defined(WG_HAVE_READLINE)
#include <readline/history.h>
#include <readline/readline.h>
#endif

namespace wg::cli {

namespace {

std::vector<std::string>& Words() {
  static std::vector<std::string> words;
  return words;
}

#if defined(WG_HAVE_LIBEDIT) || defined(WG_HAVE_READLINE)
// readline's generator: each word starting with `text`, one per call (state 0: the first).
char* NextWord(const char* text, int state) {
  static size_t i;
  if (state == 0) i = 0;
  const size_t n = std::strlen(text);
  const auto& words = Words();
  while (i < words.size()) {
    const std::string& w = words[i++];
    if (w.compare(0, n, text) == 0) return strdup(w.c_str());  // readline frees it
  }
  return nullptr;
}

char** Complete(const char* text, int, int) {
  rl_attempted_completion_over = 1;  // no file names
  return rl_completion_matches(text, NextWord);
}

bool Editing() {
  static const bool on = [] {
    if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) return false;
    const char* term = std::getenv("TERM");
    if (term && std::strcmp(term, "dumb") == 0) return false;
    rl_readline_name = "wargame";
    // Word breaks: spaces and the script language's punctuation ({move: [a, b], path: [2603]}).
    rl_basic_word_break_characters = const_cast<char*>(" \t\n,[]{}:");
    rl_attempted_completion_function = Complete;
    using_history();
    return true;
  }();
  return on;
}
#endif

}  // namespace

void SetCompletions(std::vector<std::string> words) {
  std::sort(words.begin(), words.end());
  words.erase(std::unique(words.begin(), words.end()), words.end());
  Words() = std::move(words);
}

bool ReadLine(const std::string& prompt, std::string* line) {
#if defined(WG_HAVE_LIBEDIT) || defined(WG_HAVE_READLINE)
  if (Editing()) {
    std::cout << std::flush;
    char* got = readline(prompt.c_str());
    if (!got) return false;
    *line = got;
    std::free(got);
    if (!line->empty() && line->find_first_not_of(' ') != std::string::npos) add_history(line->c_str());
    return true;
  }
#endif
  std::cout << prompt << std::flush;
  return static_cast<bool>(std::getline(std::cin, *line));
}

const char* LineEditing() {
#if defined(WG_HAVE_LIBEDIT)
  return "libedit";
#elif defined(WG_HAVE_READLINE)
  return "readline";
#else
  return "none";
#endif
}

}  // namespace wg::cli
