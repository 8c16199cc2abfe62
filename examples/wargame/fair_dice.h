// Fair remote dice for two players in two browsers (`wargame serve --players
// remote,remote`): each die is drawn by commit-reveal. Each side picks a secret
// of 32 random bytes and sends its SHA-256 (the commitment); only when both
// commitments are in does either reveal its secret; the die is
//   1 + (the first 8 bytes of SHA-256(secret0 secret1), big-endian) mod sides,
// so neither side can foresee it or roll again. The save records every
// commitment and secret (key fair_dice, one record per supplied die value), and
// VerifyFairDice checks them when a save is loaded.
#pragma once

#include <string>
#include <vector>

namespace wg::cli {

// SHA-256 of the secret's bytes, as hex; "" unless the secret is 64 lowercase hex digits.
std::string CommitmentOf(const std::string& secret);
// The die of two secrets (0 if either is malformed).
int DieFromSecrets(const std::string& first, const std::string& second, int sides);

struct FairDiceRound {
  int sides = 6;
  std::string label;           // what the die is for ("combat")
  std::string commit[2], reveal[2];
  int value = 0;               // set when both have revealed
  // "" when accepted, else why not (state unchanged).
  std::string Commit(int side, const std::string& commitment);
  std::string Reveal(int side, const std::string& secret);
  bool revealed() const { return !reveal[0].empty() && !reveal[1].empty(); }
};

// The save's fair_dice section (empty if there are no rounds).
std::string FairDiceYaml(const std::vector<FairDiceRound>& rounds);
// "" if the save's fair_dice records (if any) are sound: every secret matches its
// commitment, every value is the die of its two secrets and equals the supplied
// value of the same index; else the error. The rounds are appended to *out.
std::string VerifyFairDice(const std::string& save, const std::string& name, std::vector<FairDiceRound>* out);

}  // namespace wg::cli
