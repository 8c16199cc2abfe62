// Private to the hex engine's sources (libwargame/src/hex/*.cc).
#pragma once

#include "wargame/hex_rules.h"

namespace wg {

// The HexScratch of a hex game's Context (HexRules::NewScratch made it).
inline HexScratch& Hs(Context& ctx) { return static_cast<HexScratch&>(ctx.scratch()); }

}  // namespace wg
