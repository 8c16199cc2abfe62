// Fair remote dice for two players in two browsers (`wargame serve --players
// remote,remote`): each die is drawn by commit-reveal. Each side picks a secret
// of 32 random bytes and sends its SHA-256 (the commitment); only when both
// commitments are in does either reveal its secret; the die is
//   1 + (the first 8 bytes of SHA-256(secret0 secret1), big-endian) mod sides,
// so neither side can foresee it or roll again. The save records every
// commitment and secret (key fair_dice: one record per die drawn so, `at` its
// index in `supplied`), and VerifyFairDice checks them when a save is loaded or
// replayed.
//
// Play by e-mail: the two players need not be online at once. A die being
// drawn travels in the save as fair_dice_pending: the action waiting for it,
// the dice of that action already drawn, and the round in progress with the
// commitments and secrets sent so far. Each page keeps its own secret (its
// browser's storage) until it reveals it; the save never holds a secret before
// both sides have committed.
#pragma once

#include <optional>
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
  long at = -1;                // its index in the save's `supplied` list (-1: not used yet)
  // "" when accepted, else why not (state unchanged).
  std::string Commit(int side, const std::string& commitment);
  std::string Reveal(int side, const std::string& secret);
  bool revealed() const { return !reveal[0].empty() && !reveal[1].empty(); }
};

// An action waiting for fair dice: the dice it has drawn, and the round in progress.
struct FairDicePending {
  std::string action;  // in the script language
  int side = 0;        // the side that took it
  std::vector<FairDiceRound> drawn;
  FairDiceRound round;
};

// The save's fair_dice and fair_dice_pending sections (empty if there is nothing).
std::string FairDiceYaml(const std::vector<FairDiceRound>& rounds, const FairDicePending* pending = nullptr);
// "" if the save's fair_dice records (if any) are sound: every secret matches
// its commitment, every value is the die of its two secrets and equals the
// supplied value it names; and its fair_dice_pending (if any) likewise, with no
// secret before both commitments. Else the error, as file:line:col: key: what.
// The rounds are appended to *out, the pending action (if any) to *pending.
std::string VerifyFairDice(const std::string& save, const std::string& name, std::vector<FairDiceRound>* out,
                           std::optional<FairDicePending>* pending = nullptr);

}  // namespace wg::cli
