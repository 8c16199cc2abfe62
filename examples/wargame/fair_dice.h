// Fair remote dice for two players in two browsers (`wargame serve --players
// remote,remote`): each die is drawn by commit-reveal between the two links,
// and every step is signed by the player who took it. docs/security.md has the
// trust model; this is the protocol.
//
// The game: a random id (16 bytes) and, per side, an Ed25519 public key that
// the side's page registers the first time it joins (its private key stays in
// that browser, and in a key file the player keeps). A save names both keys, so
// a page that finds another key for its own side knows the save was tampered
// with, and refuses to go on.
//
// A round (one die): its index n in the game (0, 1, 2, ...: every round begun,
// voided ones included), sides and label. Each side picks a secret of 32
// random bytes and sends its SHA-256 (the commitment), signed; only when both
// commitments are in does either reveal its secret, signed together with both
// commitments. The die is
//   1 + (the first 8 bytes of SHA-256(id n secret0 secret1), big-endian) mod sides
// (id as its 16 bytes, n as 8 bytes big-endian), so it depends on both secrets
// and on the round, and neither side can foresee it or roll it again: a side
// that reveals last cannot swap its commitment (the other side's signed
// reveal names it), and nobody can replace a side's commitment or secret
// without that side's key.
//
// The ways out of a stalled round (fair_dice.h's Void and Claim):
//  - void by agreement: while no secret of the round is revealed, either side
//    may sign a request to void it; when both have signed, the round is voided
//    (recorded) and the die is drawn by a new round (the next n). Nobody has
//    seen a secret, so a void cannot be used to roll again a die one knows.
//  - claim at the deadline: when a round has waited `deadline` seconds on one
//    side (which has not committed, or not revealed after both committed)
//    while the other side has done all it can, the waiting side may claim the
//    die and choose its value, as a referee rules against a player who will
//    not roll. The side that stalls can always avoid it by taking its step.
//
// Signed messages (Ed25519 over the UTF-8 text, fields separated by "\n"):
//   "wargame fair die commit" id n sides label commitment
//   "wargame fair die reveal" id n commitment0 commitment1 secret
//   "wargame fair die void"   id n commitment0 commitment1
//   "wargame fair die claim"  id n commitment0 commitment1 value waiting_since claimed_at
//
// The save records the game (fair_dice_game), every round drawn (fair_dice:
// `at` its index in `supplied`), every voided round (fair_dice_void) and the
// round in progress (fair_dice_pending: the action waiting for it, the dice of
// that action already drawn, and the round with what was sent so far); no save
// holds a secret before both sides have committed. In a fair game every value
// in `supplied` is a round's die: VerifyFairDice refuses a save with a value
// that no round covers, a die that is not its secrets' or its claim's, a
// signature that does not verify, or a gap in the rounds' indexes.
//
// Saves written before signatures (no fair_dice_game) still verify and replay
// with the die of SHA-256(secret0 secret1); they cannot be continued with two
// remote players (nothing binds their commitments to the players).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace wg::cli {

// Whether s is exactly `digits` lowercase hex digits (secrets, commitments, keys, ids, signatures).
bool IsLowerHex(const std::string& s, size_t digits);
// SHA-256 of the secret's bytes, as hex; "" unless the secret is 64 lowercase hex digits.
std::string CommitmentOf(const std::string& secret);
// The die of two secrets by the unsigned protocol of older saves (0 if either is malformed).
int DieFromSecrets(const std::string& first, const std::string& second, int sides);
// The die of a round of a signed game (0 if anything is malformed).
int DieOfRound(const std::string& game_id, long n, const std::string& first, const std::string& second, int sides);

// Ed25519 over the message: signatures are 128 hex digits, keys 64.
bool VerifySignature(const std::string& public_key_hex, const std::string& message, const std::string& signature_hex);
// For tests and tools: the public key of a 32-byte private key (64 hex digits), and a signature ("" if malformed).
std::string PublicKeyOf(const std::string& private_key_hex);
std::string Sign(const std::string& private_key_hex, const std::string& message);
// 32 random bytes as hex (a secret, a private key) and a 16-byte game id.
std::string RandomHex(size_t bytes);

// The fair game: its id, the sides' keys ("" until registered), the deadline.
struct FairDiceGame {
  std::string id;       // 32 hex digits; "" in a save written before signatures
  std::string keys[2];  // Ed25519 public keys, 64 hex digits
  long deadline = 0;    // seconds a round may wait on one side before the other may claim it (0: never)
  bool signed_game() const { return !id.empty(); }
  // "" when the key is this side's (registered now if the side had none), else why not.
  std::string Register(int side, const std::string& key);
};

// The messages each side signs.
std::string CommitMessage(const std::string& id, long n, int sides, const std::string& label, const std::string& commitment);
std::string RevealMessage(const std::string& id, long n, const std::string& c0, const std::string& c1, const std::string& secret);
std::string VoidMessage(const std::string& id, long n, const std::string& c0, const std::string& c1);
std::string ClaimMessage(const std::string& id, long n, const std::string& c0, const std::string& c1, int value,
                         long waiting_since, long claimed_at);

struct FairDiceRound {
  long n = -1;                 // its index in the game (-1: a save written before signatures)
  int sides = 6;
  std::string label;           // what the die is for ("combat")
  std::string commit[2], reveal[2];
  std::string commit_sig[2], reveal_sig[2], void_sig[2];
  long waiting_since = 0;      // unix time of the last step taken (commit or reveal)
  int claimed_by = -1;         // the side that claimed it at the deadline (-1: drawn from the secrets)
  std::string claim_sig;
  long claimed_at = 0;
  int value = 0;               // set when both have revealed, or it was claimed
  long at = -1;                // its index in the save's `supplied` list (-1: not used yet)
  // "" when accepted, else why not (state unchanged). In a signed game each
  // step needs the side's registered key and its signature.
  std::string Commit(const FairDiceGame& g, int side, const std::string& commitment, const std::string& sig, long now);
  std::string Reveal(const FairDiceGame& g, int side, const std::string& secret, const std::string& sig, long now);
  std::string Void(const FairDiceGame& g, int side, const std::string& sig);
  // `at` is the time the claim states (and signs): past the deadline, not after `now`, and at most an hour before it.
  std::string Claim(const FairDiceGame& g, int side, int value, long at, const std::string& sig, long now);
  bool revealed() const { return !reveal[0].empty() && !reveal[1].empty(); }
  bool voided() const { return !void_sig[0].empty() && !void_sig[1].empty(); }
  bool resolved() const { return revealed() || claimed_by >= 0; }
  // The side the round waits on now (-1: neither, or both).
  int WaitingOn() const;
  // When `side` may claim it (-1: it may not).
  long ClaimableAt(const FairDiceGame& g, int side) const;
};

// An action waiting for fair dice: the dice it has drawn, and the round in progress.
struct FairDicePending {
  std::string action;  // in the script language
  int side = 0;        // the side that took it
  std::vector<FairDiceRound> drawn;
  FairDiceRound round;
};

// Everything of a save's fair dice.
struct FairDiceRecord {
  FairDiceGame game;
  std::vector<FairDiceRound> rounds;  // every die drawn by an applied action, in order
  std::vector<FairDiceRound> voided;
  std::optional<FairDicePending> pending;
  bool fair() const { return game.signed_game() || !rounds.empty() || pending; }
  // The index of the next round to begin.
  long NextRound() const;
};

// The save's fair dice sections (empty if there is nothing).
std::string FairDiceYaml(const FairDiceRecord& record);
// "" if the save's fair dice (if any) are sound: every secret matches its
// commitment, every signature verifies with its side's key, every value is
// the die of its two secrets (or a valid claim) and equals the supplied value
// it names, every supplied value is covered by a round, the rounds' indexes
// have no gap; and its fair_dice_pending (if any) likewise, with no secret
// before both commitments. Else the error, as file:line:col: key: what.
std::string VerifyFairDice(const std::string& save, const std::string& name, FairDiceRecord* out);

}  // namespace wg::cli
