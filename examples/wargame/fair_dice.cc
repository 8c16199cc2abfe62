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

std::string RoundYaml(const FairDiceRound& r, bool complete) {
  std::string o = "{";
  if (complete && r.at >= 0) o += "at: " + std::to_string(r.at) + ", ";
  o += "sides: " + std::to_string(r.sides) + ", label: " + Quote(r.label) + ", commit: [" + Quote(r.commit[0]) +
       ", " + Quote(r.commit[1]) + "], reveal: [" + Quote(r.reveal[0]) + ", " + Quote(r.reveal[1]) + "]";
  if (complete) o += ", value: " + std::to_string(r.value);
  return o + "}";
}

}  // namespace

std::string FairDiceYaml(const std::vector<FairDiceRound>& rounds, const FairDicePending* pending) {
  std::string o;
  if (!rounds.empty()) {
    o += "fair_dice:  # commit-reveal: value = 1 + (first 8 bytes of SHA-256(reveal0 reveal1)) mod sides; at: its index in supplied\n";
    for (const auto& r : rounds) o += "  - " + RoundYaml(r, true) + "\n";
  }
  if (pending) {
    o += "fair_dice_pending:  # an action waiting for its dice: those drawn, and the round in progress\n";
    o += "  action: " + Quote(pending->action) + "\n  side: " + std::to_string(pending->side) + "\n";
    o += pending->drawn.empty() ? "  drawn: []\n" : "  drawn:\n";
    for (const auto& r : pending->drawn) o += "    - " + RoundYaml(r, true) + "\n";
    o += "  round: " + RoundYaml(pending->round, false) + "\n";
  }
  return o;
}

namespace {

// One round at `path`: the commitments, the secrets sent (each matching its
// commitment, none before both commitments) and, when `complete`, the value
// of the two secrets. False (with the error in r) if it is not sound.
bool ReadRound(YamlReader& r, const YAML::Node& d, const std::string& path, bool complete, FairDiceRound* out) {
  if (!r.ExpectMap(d, path)) return false;
  if (!r.CheckKeys(d, path, {"at", "sides", "label", "commit", "reveal", "value"})) return false;
  const auto sides = r.RequiredInt(d, path, "sides", 2, 1000);
  if (!sides) return false;
  out->sides = *sides;
  out->label = r.OptionalString(d, path, "label", "");
  for (const char* key : {"commit", "reveal"}) {
    const std::string p = YamlReader::Child(path, key);
    const YAML::Node list = d[key];
    if (!list || !r.ExpectSequence(list, p)) {
      if (!list) r.Fail(d, p, "missing required key");
      return false;
    }
    if (list.size() != 2) {
      r.Fail(list, p, "expected two entries, one for each side");
      return false;
    }
    for (size_t k = 0; k < 2; ++k) {
      const auto v = r.String(list[k], YamlReader::Item(p, k));
      if (!v) return false;
      (std::string(key) == "commit" ? out->commit : out->reveal)[k] = *v;
    }
  }
  for (size_t k = 0; k < 2; ++k) {
    const YAML::Node c = d["commit"][k], v = d["reveal"][k];
    const std::string cp = YamlReader::Item(YamlReader::Child(path, "commit"), k);
    const std::string vp = YamlReader::Item(YamlReader::Child(path, "reveal"), k);
    if (!out->commit[k].empty() && !IsHex64(out->commit[k])) {
      r.Fail(c, cp, "a commitment is 64 lowercase hex digits");
      return false;
    }
    if (out->reveal[k].empty()) continue;
    if (out->commit[0].empty() || out->commit[1].empty()) {
      r.Fail(v, vp, "a secret revealed before both sides committed");
      return false;
    }
    if (CommitmentOf(out->reveal[k]) != out->commit[k]) {
      r.Fail(v, vp, "does not match its commitment " + YamlReader::Item(YamlReader::Child(path, "commit"), k));
      return false;
    }
  }
  if (!complete) {
    if (d["value"]) r.Fail(d["value"], YamlReader::Child(path, "value"), "the round in progress has no value yet");
    if (out->revealed()) r.Fail(d, path, "both secrets are revealed: the die is drawn (it belongs in drawn)");
    return r.ok();
  }
  if (!out->revealed()) {
    r.Fail(d, YamlReader::Child(path, "reveal"), "a drawn die needs both secrets");
    return false;
  }
  const auto value = r.RequiredInt(d, path, "value", 1, 1000);
  if (!value) return false;
  out->value = *value;
  if (DieFromSecrets(out->reveal[0], out->reveal[1], out->sides) != out->value) {
    r.Fail(d["value"], YamlReader::Child(path, "value"),
           "is not the die of the two secrets (" + std::to_string(DieFromSecrets(out->reveal[0], out->reveal[1], out->sides)) + ")");
    return false;
  }
  return true;
}

bool ReadPending(YamlReader& r, const YAML::Node& p, FairDicePending* out) {
  const std::string path = "fair_dice_pending";
  if (!r.ExpectMap(p, path) || !r.CheckKeys(p, path, {"action", "side", "drawn", "round"})) return false;
  const auto action = r.RequiredString(p, path, "action");
  const auto side = r.RequiredInt(p, path, "side", 0, 1);
  if (!action || !side) return false;
  out->action = *action;
  out->side = *side;
  if (const YAML::Node drawn = p["drawn"]; drawn && !drawn.IsNull()) {
    if (!r.ExpectSequence(drawn, YamlReader::Child(path, "drawn"))) return false;
    for (size_t i = 0; i < drawn.size(); ++i) {
      FairDiceRound f;
      if (!ReadRound(r, drawn[i], YamlReader::Item(YamlReader::Child(path, "drawn"), i), true, &f)) return false;
      out->drawn.push_back(f);
    }
  }
  if (!p["round"]) {
    r.Fail(p, YamlReader::Child(path, "round"), "missing required key");
    return false;
  }
  return ReadRound(r, p["round"], YamlReader::Child(path, "round"), false, &out->round);
}

}  // namespace

std::string VerifyFairDice(const std::string& save, const std::string& name, std::vector<FairDiceRound>* out,
                           std::optional<FairDicePending>* pending) {
  YamlReader r = YamlReader::FromString(save, name);
  if (!r.ok()) return r.errors().ToString();
  if (!r.root().IsMap()) return "";  // Session::Load says what is wrong with it
  const YAML::Node fair = r.root()["fair_dice"];
  const YAML::Node supplied = r.root()["supplied"];
  std::vector<FairDiceRound> rounds;
  if (fair && !fair.IsNull()) {
    if (!r.ExpectSequence(fair, "fair_dice")) return r.errors().ToString();
    const size_t n = supplied && supplied.IsSequence() ? supplied.size() : 0;
    long last = -1;
    for (size_t i = 0; i < fair.size(); ++i) {
      const std::string path = YamlReader::Item("fair_dice", i);
      FairDiceRound f;
      if (!ReadRound(r, fair[i], path, true, &f)) return r.errors().ToString();
      // Saves written before `at` existed hold one record per supplied value, in order.
      const YAML::Node at = fair[i]["at"];
      const auto index = at ? r.Int(at, YamlReader::Child(path, "at"), 0) : std::optional<int>(static_cast<int>(i));
      if (!index) return r.errors().ToString();
      f.at = *index;
      const YAML::Node where = at ? at : fair[i];
      if (f.at <= last) r.Fail(where, YamlReader::Child(path, "at"), "the dice are in the order they were used");
      else if (static_cast<size_t>(f.at) >= n) r.Fail(where, YamlReader::Child(path, "at"), "no such supplied die value");
      else if (const auto v = r.Int(supplied[static_cast<size_t>(f.at)], YamlReader::Item("supplied", static_cast<size_t>(f.at)));
               v && *v != f.value)
        r.Fail(fair[i]["value"], YamlReader::Child(path, "value"),
               "differs from supplied[" + std::to_string(f.at) + "] (" + std::to_string(*v) + ")");
      if (!r.ok()) return r.errors().ToString();
      last = f.at;
      rounds.push_back(f);
    }
  }
  std::optional<FairDicePending> p;
  if (const YAML::Node pn = r.root()["fair_dice_pending"]; pn && !pn.IsNull()) {
    p.emplace();
    if (!ReadPending(r, pn, &*p)) return r.errors().ToString();
  }
  if (out) out->insert(out->end(), rounds.begin(), rounds.end());
  if (pending) *pending = std::move(p);
  return "";
}

}  // namespace wg::cli
