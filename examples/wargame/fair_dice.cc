// Fair remote dice by signed commit-reveal (fair_dice.h).
#include "fair_dice.h"

#include <openssl/evp.h>
#include <openssl/rand.h>
#include <openssl/sha.h>

#include <algorithm>
#include <memory>
#include <set>

#include "wargame/yaml_reader.h"

namespace wg::cli {

namespace {

bool IsHex64(const std::string& s) { return IsLowerHex(s, 64); }

std::string Bytes(const std::string& hex) {
  std::string out;
  auto nibble = [](char c) { return c <= '9' ? c - '0' : c - 'a' + 10; };
  for (size_t i = 0; i + 1 < hex.size(); i += 2) out += static_cast<char>(nibble(hex[i]) * 16 + nibble(hex[i + 1]));
  return out;
}

std::string HexOf(const unsigned char* p, size_t n) {
  static const char* const kDigits = "0123456789abcdef";
  std::string o;
  for (size_t i = 0; i < n; ++i) {
    o += kDigits[p[i] >> 4];
    o += kDigits[p[i] & 15];
  }
  return o;
}

std::string Sha256(const std::string& bytes) {
  unsigned char d[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size(), d);
  return HexOf(d, sizeof d);
}

// 1 + (the first 8 bytes of SHA-256(bytes), big-endian) mod sides.
int DieOfBytes(const std::string& bytes, int sides) {
  unsigned char d[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size(), d);
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v = (v << 8) | d[i];
  // Bias below 2^-50 for any die up to a d1000: negligible, and anyone can recompute it.
  return 1 + static_cast<int>(v % static_cast<uint64_t>(sides));
}

struct PkeyFree {
  void operator()(EVP_PKEY* p) const { EVP_PKEY_free(p); }
};
struct MdCtxFree {
  void operator()(EVP_MD_CTX* p) const { EVP_MD_CTX_free(p); }
};
using Pkey = std::unique_ptr<EVP_PKEY, PkeyFree>;
using MdCtx = std::unique_ptr<EVP_MD_CTX, MdCtxFree>;

Pkey PrivateKey(const std::string& private_key_hex) {
  if (!IsHex64(private_key_hex)) return nullptr;
  const std::string raw = Bytes(private_key_hex);
  return Pkey(EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, nullptr,
                                           reinterpret_cast<const unsigned char*>(raw.data()), raw.size()));
}

}  // namespace

bool IsLowerHex(const std::string& s, size_t digits) {
  if (s.size() != digits) return false;
  for (char c : s) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

std::string CommitmentOf(const std::string& secret) { return IsHex64(secret) ? Sha256(Bytes(secret)) : ""; }

int DieFromSecrets(const std::string& first, const std::string& second, int sides) {
  if (!IsHex64(first) || !IsHex64(second) || sides < 2) return 0;
  return DieOfBytes(Bytes(first) + Bytes(second), sides);
}

int DieOfRound(const std::string& game_id, long n, const std::string& first, const std::string& second, int sides) {
  if (!IsLowerHex(game_id, 32) || n < 0 || !IsHex64(first) || !IsHex64(second) || sides < 2) return 0;
  std::string index(8, '\0');
  for (int i = 0; i < 8; ++i) index[static_cast<size_t>(i)] = static_cast<char>((static_cast<uint64_t>(n) >> (56 - 8 * i)) & 0xff);
  return DieOfBytes(Bytes(game_id) + index + Bytes(first) + Bytes(second), sides);
}

bool VerifySignature(const std::string& public_key_hex, const std::string& message, const std::string& signature_hex) {
  if (!IsHex64(public_key_hex) || !IsLowerHex(signature_hex, 128)) return false;
  const std::string raw = Bytes(public_key_hex), sig = Bytes(signature_hex);
  Pkey key(EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, nullptr, reinterpret_cast<const unsigned char*>(raw.data()),
                                       raw.size()));
  MdCtx ctx(EVP_MD_CTX_new());
  if (!key || !ctx || EVP_DigestVerifyInit(ctx.get(), nullptr, nullptr, nullptr, key.get()) != 1) return false;
  return EVP_DigestVerify(ctx.get(), reinterpret_cast<const unsigned char*>(sig.data()), sig.size(),
                          reinterpret_cast<const unsigned char*>(message.data()), message.size()) == 1;
}

std::string PublicKeyOf(const std::string& private_key_hex) {
  Pkey key = PrivateKey(private_key_hex);
  unsigned char pub[32];
  size_t len = sizeof pub;
  if (!key || EVP_PKEY_get_raw_public_key(key.get(), pub, &len) != 1 || len != 32) return "";
  return HexOf(pub, len);
}

std::string Sign(const std::string& private_key_hex, const std::string& message) {
  Pkey key = PrivateKey(private_key_hex);
  MdCtx ctx(EVP_MD_CTX_new());
  if (!key || !ctx || EVP_DigestSignInit(ctx.get(), nullptr, nullptr, nullptr, key.get()) != 1) return "";
  unsigned char sig[64];
  size_t len = sizeof sig;
  if (EVP_DigestSign(ctx.get(), sig, &len, reinterpret_cast<const unsigned char*>(message.data()), message.size()) != 1) {
    return "";
  }
  return HexOf(sig, len);
}

std::string RandomHex(size_t bytes) {
  std::string raw(bytes, '\0');
  if (RAND_bytes(reinterpret_cast<unsigned char*>(raw.data()), static_cast<int>(bytes)) != 1) return "";
  return HexOf(reinterpret_cast<const unsigned char*>(raw.data()), bytes);
}

std::string FairDiceGame::Register(int side, const std::string& key) {
  if (side < 0 || side > 1) return "a key is registered by a link that plays one side";
  if (!IsHex64(key)) return "a key is an Ed25519 public key, 64 lowercase hex digits";
  if (keys[side].empty()) {
    keys[side] = key;
    return "";
  }
  if (keys[side] == key) return "";
  return "this game's key for your side is not this browser's: load your key file (if you did not lose it, "
         "the save you were sent was altered)";
}

namespace {

std::string Join(std::initializer_list<std::string> fields) {
  std::string o;
  for (const std::string& f : fields) o += (o.empty() ? "" : "\n") + f;
  return o;
}

}  // namespace

std::string CommitMessage(const std::string& id, long n, int sides, const std::string& label, const std::string& commitment) {
  return Join({"wargame fair die commit", id, std::to_string(n), std::to_string(sides), label, commitment});
}
std::string RevealMessage(const std::string& id, long n, const std::string& c0, const std::string& c1,
                          const std::string& secret) {
  return Join({"wargame fair die reveal", id, std::to_string(n), c0, c1, secret});
}
std::string VoidMessage(const std::string& id, long n, const std::string& c0, const std::string& c1) {
  return Join({"wargame fair die void", id, std::to_string(n), c0, c1});
}
std::string ClaimMessage(const std::string& id, long n, const std::string& c0, const std::string& c1, int value,
                         long waiting_since, long claimed_at) {
  return Join({"wargame fair die claim", id, std::to_string(n), c0, c1, std::to_string(value),
               std::to_string(waiting_since), std::to_string(claimed_at)});
}

namespace {

// In a signed game: the side's key is registered and the signature verifies.
std::string CheckSigned(const FairDiceGame& g, int side, const std::string& message, const std::string& sig) {
  if (!g.signed_game()) return "";
  if (g.keys[side].empty()) return "register this side's key first ({\"t\":\"key\"})";
  if (!VerifySignature(g.keys[side], message, sig)) return "the signature does not verify with this side's key";
  return "";
}

}  // namespace

std::string FairDiceRound::Commit(const FairDiceGame& g, int side, const std::string& commitment, const std::string& sig,
                                  long now) {
  if (side < 0 || side > 1) return "not a player";
  if (!IsHex64(commitment)) return "a commitment is 64 lowercase hex digits (SHA-256 of the secret)";
  if (!commit[side].empty()) return "this side has already committed";
  if (resolved() || voided()) return "this round is over";
  if (!void_sig[0].empty() || !void_sig[1].empty()) return "a side asked to void this round: agree to it";
  if (const std::string bad = CheckSigned(g, side, CommitMessage(g.id, n, sides, label, commitment), sig); !bad.empty()) {
    return bad;
  }
  commit[side] = commitment;
  commit_sig[side] = sig;
  waiting_since = now;
  return "";
}

std::string FairDiceRound::Reveal(const FairDiceGame& g, int side, const std::string& secret, const std::string& sig,
                                  long now) {
  if (side < 0 || side > 1) return "not a player";
  if (commit[0].empty() || commit[1].empty()) return "both sides commit before either reveals";
  if (!reveal[side].empty()) return "this side has already revealed";
  if (resolved() || voided()) return "this round is over";
  if (!void_sig[0].empty() || !void_sig[1].empty()) {
    return "a side asked to void this round: no secret is revealed in it (agree to the void)";
  }
  if (CommitmentOf(secret) != commit[side]) return "the secret does not match this side's commitment";
  if (const std::string bad = CheckSigned(g, side, RevealMessage(g.id, n, commit[0], commit[1], secret), sig);
      !bad.empty()) {
    return bad;
  }
  reveal[side] = secret;
  reveal_sig[side] = sig;
  waiting_since = now;
  return "";
}

std::string FairDiceRound::Void(const FairDiceGame& g, int side, const std::string& sig) {
  if (side < 0 || side > 1) return "not a player";
  if (!g.signed_game()) return "voiding a round needs a signed game";
  if (!reveal[0].empty() || !reveal[1].empty()) {
    return "a secret of this round is revealed: it can no longer be voided (it resolves, or is claimed at the deadline)";
  }
  if (resolved() || voided()) return "this round is over";
  if (!void_sig[side].empty()) return "this side has already asked to void this round";
  if (const std::string bad = CheckSigned(g, side, VoidMessage(g.id, n, commit[0], commit[1]), sig); !bad.empty()) {
    return bad;
  }
  void_sig[side] = sig;
  return "";
}

int FairDiceRound::WaitingOn() const {
  if (resolved()) return -1;
  const bool c0 = !commit[0].empty(), c1 = !commit[1].empty();
  if (c0 != c1) return c0 ? 1 : 0;
  if (!c0) return -1;
  const bool r0 = !reveal[0].empty(), r1 = !reveal[1].empty();
  if (r0 != r1) return r0 ? 1 : 0;
  return -1;
}

long FairDiceRound::ClaimableAt(const FairDiceGame& g, int side) const {
  if (side < 0 || side > 1 || !g.signed_game() || g.deadline <= 0 || resolved() || voided()) return -1;
  if (!void_sig[0].empty() || !void_sig[1].empty()) return -1;  // a void asked: agree to it, or not
  if (WaitingOn() != 1 - side) return -1;
  return waiting_since + g.deadline;
}

std::string FairDiceRound::Claim(const FairDiceGame& g, int side, int value, long at_time, const std::string& sig,
                                 long now) {
  if (side < 0 || side > 1) return "not a player";
  const long at = ClaimableAt(g, side);
  if (at < 0) {
    return "a die is claimed only in a signed game with a deadline, by the side the round waits for while it "
           "waits on the other side";
  }
  if (now < at) return "the deadline has not passed: " + std::to_string(at - now) + " s to go";
  if (at_time < at || at_time > now || now - at_time > 3600) {
    return "a claim states its time: after the deadline, and not in the future or more than an hour ago";
  }
  if (value < 1 || value > sides) return "a d" + std::to_string(sides) + " shows 1 to " + std::to_string(sides);
  if (const std::string bad =
          CheckSigned(g, side, ClaimMessage(g.id, n, commit[0], commit[1], value, waiting_since, at_time), sig);
      !bad.empty()) {
    return bad;
  }
  claimed_by = side;
  claim_sig = sig;
  claimed_at = at_time;
  this->value = value;
  return "";
}

long FairDiceRecord::NextRound() const {
  long next = 0;
  auto see = [&](const FairDiceRound& r) { next = std::max(next, r.n + 1); };
  for (const auto& r : rounds) see(r);
  for (const auto& r : voided) see(r);
  if (pending) {
    for (const auto& r : pending->drawn) see(r);
    see(pending->round);
  }
  return next;
}

namespace {

// A YAML double-quoted scalar.
std::string Quote(const std::string& text) {
  std::string o = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') o += '\\';
    if (static_cast<unsigned char>(c) >= 0x20) o += c;
  }
  return o + "\"";
}

std::string Pair(const char* key, const std::string (&v)[2]) {
  return std::string(", ") + key + ": [" + Quote(v[0]) + ", " + Quote(v[1]) + "]";
}

enum class RoundKind { kDrawn, kInProgress, kVoided };

std::string RoundYaml(const FairDiceRound& r, RoundKind kind) {
  const bool signed_round = r.n >= 0;
  std::string o = "{";
  if (kind == RoundKind::kDrawn && r.at >= 0) o += "at: " + std::to_string(r.at) + ", ";
  if (signed_round) o += "n: " + std::to_string(r.n) + ", ";
  o += "sides: " + std::to_string(r.sides) + ", label: " + Quote(r.label) + Pair("commit", r.commit);
  if (signed_round) o += Pair("commit_sig", r.commit_sig);
  o += Pair("reveal", r.reveal);
  if (signed_round) o += Pair("reveal_sig", r.reveal_sig);
  if (signed_round && (kind != RoundKind::kDrawn)) o += Pair("void_sig", r.void_sig);
  if (signed_round && kind != RoundKind::kVoided) o += ", waiting_since: " + std::to_string(r.waiting_since);
  if (r.claimed_by >= 0) {
    o += ", claimed: {by: " + std::to_string(r.claimed_by) + ", at: " + std::to_string(r.claimed_at) +
         ", sig: " + Quote(r.claim_sig) + "}";
  }
  if (kind == RoundKind::kDrawn) o += ", value: " + std::to_string(r.value);
  return o + "}";
}

}  // namespace

std::string FairDiceYaml(const FairDiceRecord& rec) {
  std::string o;
  if (rec.game.signed_game()) {
    o += "fair_dice_game:  # fair dice: signed commit-reveal between the two players (docs/security.md)\n";
    o += "  id: " + Quote(rec.game.id) + "\n  keys: [" + Quote(rec.game.keys[0]) + ", " + Quote(rec.game.keys[1]) +
         "]\n  deadline: " + std::to_string(rec.game.deadline) + "\n";
  }
  if (!rec.rounds.empty()) {
    o += rec.game.signed_game()
             ? "fair_dice:  # value = 1 + (first 8 bytes of SHA-256(id n reveal0 reveal1)) mod sides; at: its index in supplied\n"
             : "fair_dice:  # commit-reveal: value = 1 + (first 8 bytes of SHA-256(reveal0 reveal1)) mod sides; at: its index in supplied\n";
    for (const auto& r : rec.rounds) o += "  - " + RoundYaml(r, RoundKind::kDrawn) + "\n";
  }
  if (!rec.voided.empty()) {
    o += "fair_dice_void:  # rounds voided by both players before any secret was revealed\n";
    for (const auto& r : rec.voided) o += "  - " + RoundYaml(r, RoundKind::kVoided) + "\n";
  }
  if (rec.pending) {
    const FairDicePending& p = *rec.pending;
    o += "fair_dice_pending:  # an action waiting for its dice: those drawn, and the round in progress\n";
    o += "  action: " + Quote(p.action) + "\n  side: " + std::to_string(p.side) + "\n";
    o += p.drawn.empty() ? "  drawn: []\n" : "  drawn:\n";
    for (const auto& r : p.drawn) o += "    - " + RoundYaml(r, RoundKind::kDrawn) + "\n";
    o += "  round: " + RoundYaml(p.round, RoundKind::kInProgress) + "\n";
  }
  return o;
}

}  // namespace wg::cli
