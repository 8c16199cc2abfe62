// Fair remote dice by commit-reveal (fair_dice.h).
#include "fair_dice.h"

#include <openssl/sha.h>

#include "wargame/yaml_reader.h"

namespace wg::cli {

namespace {

bool IsHex64(const std::string& s) {
  if (s.size() != 64) return false;
  for (char c : s) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

std::string Bytes(const std::string& hex) {
  std::string out;
  for (size_t i = 0; i + 1 < hex.size(); i += 2) out += static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16));
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

}  // namespace

std::string CommitmentOf(const std::string& secret) { return IsHex64(secret) ? Sha256(Bytes(secret)) : ""; }

int DieFromSecrets(const std::string& first, const std::string& second, int sides) {
  if (!IsHex64(first) || !IsHex64(second) || sides < 2) return 0;
  unsigned char d[SHA256_DIGEST_LENGTH];
  const std::string both = Bytes(first) + Bytes(second);
  SHA256(reinterpret_cast<const unsigned char*>(both.data()), both.size(), d);
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v = (v << 8) | d[i];
  // Bias below 2^-60 for a d6: negligible, and anyone can recompute it.
  return 1 + static_cast<int>(v % static_cast<uint64_t>(sides));
}

std::string FairDiceRound::Commit(int side, const std::string& commitment) {
  if (side < 0 || side > 1) return "not a player";
  if (!IsHex64(commitment)) return "a commitment is 64 lowercase hex digits (SHA-256 of the secret)";
  if (!commit[side].empty()) return "this side has already committed";
  commit[side] = commitment;
  return "";
}

std::string FairDiceRound::Reveal(int side, const std::string& secret) {
  if (side < 0 || side > 1) return "not a player";
  if (commit[0].empty() || commit[1].empty()) return "both sides commit before either reveals";
  if (!reveal[side].empty()) return "this side has already revealed";
  if (CommitmentOf(secret) != commit[side]) return "the secret does not match this side's commitment";
  reveal[side] = secret;
  return "";
}

std::string FairDiceYaml(const std::vector<FairDiceRound>& rounds) {
  if (rounds.empty()) return "";
  std::string o = "fair_dice:  # commit-reveal: value = 1 + (first 8 bytes of SHA-256(reveal0 reveal1)) mod sides\n";
  for (const auto& r : rounds) {
    o += "  - {sides: " + std::to_string(r.sides) + ", commit: [\"" + r.commit[0] + "\", \"" + r.commit[1] +
         "\"], reveal: [\"" + r.reveal[0] + "\", \"" + r.reveal[1] + "\"], value: " + std::to_string(r.value) + "}\n";
  }
  return o;
}

std::string VerifyFairDice(const std::string& save, const std::string& name, std::vector<FairDiceRound>* out) {
  YamlReader r = YamlReader::FromString(save, name);
  if (!r.ok()) return r.errors().ToString();
  const YAML::Node fair = r.root().IsMap() ? r.root()["fair_dice"] : YAML::Node();
  if (!fair) return "";
  const YAML::Node supplied = r.root()["supplied"];
  if (!fair.IsSequence() || !supplied || !supplied.IsSequence() || supplied.size() != fair.size()) {
    return name + ": fair_dice: expected one record per supplied die value";
  }
  for (size_t i = 0; i < fair.size(); ++i) {
    const std::string where = name + ": fair_dice[" + std::to_string(i) + "]: ";
    const YAML::Node d = fair[i];
    try {
      FairDiceRound f;
      f.sides = d["sides"].as<int>();
      f.value = d["value"].as<int>();
      for (int k = 0; k < 2; ++k) {
        f.commit[k] = d["commit"][k].as<std::string>();
        f.reveal[k] = d["reveal"][k].as<std::string>();
        if (CommitmentOf(f.reveal[k]) != f.commit[k]) return where + "reveal " + std::to_string(k) + " does not match its commitment";
      }
      if (DieFromSecrets(f.reveal[0], f.reveal[1], f.sides) != f.value) return where + "value is not the die of the two secrets";
      if (supplied[i].as<int>() != f.value) return where + "value differs from supplied[" + std::to_string(i) + "]";
      if (out) out->push_back(f);
    } catch (const YAML::Exception&) {
      return where + "expected {sides: N, commit: [A, B], reveal: [A, B], value: N}";
    }
  }
  return "";
}

}  // namespace wg::cli
