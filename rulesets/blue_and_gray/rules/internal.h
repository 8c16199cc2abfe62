// Blue & Gray: what the files of rules/ (one per rule section or step; the hooks of BgRules,
// declared in rules.h) share beyond rules.h.
#pragma once

#include "../rules.h"

namespace wg::blue_and_gray {

inline HexScratch& Hs(Context& ctx) { return static_cast<HexScratch&>(ctx.scratch()); }

}  // namespace wg::blue_and_gray
