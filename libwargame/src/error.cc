#include "wargame/error.h"

namespace wg {

std::string Error::ToString() const {
  std::string out;
  if (!file.empty()) {
    out += file;
    if (line > 0) {
      out += ':';
      out += std::to_string(line);
      if (column > 0) {
        out += ':';
        out += std::to_string(column);
      }
    }
    out += ": ";
  }
  if (!rule.empty()) out += rule + ": ";
  if (!path.empty()) out += path + ": ";
  out += message;
  return out;
}

std::string ErrorList::ToString() const {
  std::string out;
  for (const auto& e : errors_) {
    out += e.ToString();
    out += '\n';
  }
  return out;
}

void CheckFailed(const char* file, int line, const char* cond, const std::string& msg) {
  std::fprintf(stderr, "%s:%d: WG_CHECK(%s) failed: %s\n", file, line, cond, msg.c_str());
  std::abort();
}

}  // namespace wg
