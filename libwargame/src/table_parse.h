// Internal helpers shared by the table loaders (combat_table.cc, die_table.cc).
#pragma once

#include <charconv>
#include <optional>
#include <string>
#include <string_view>

#include "wargame/error.h"
#include "wargame/yaml_reader.h"

namespace wg::internal {

// A whole decimal integer with optional sign ("+4", "-3", "12"), or nullopt.
inline std::optional<int> ParseIntText(std::string_view s) {
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  if (s.empty()) return std::nullopt;
  if (s.front() == '-' && s.size() == 1) return std::nullopt;
  int v = 0;
  const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
  if (r.ec != std::errc() || r.ptr != s.data() + s.size()) return std::nullopt;
  return v;
}

}  // namespace wg::internal
