// The hex engine's features for the computer player's evaluation (ai.h).
#include "wargame/ai.h"
#include "wargame/hex_rules.h"

namespace wg {

const AiBoardFeatures* HexRules::ai_features() const { return nullptr; }

}  // namespace wg
