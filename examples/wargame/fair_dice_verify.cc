// Reading and checking a save's fair dice (fair_dice.h: VerifyFairDice).
#include <algorithm>
#include <set>

#include "fair_dice.h"
#include "wargame/yaml_reader.h"

namespace wg::cli {

namespace {

using Y = YamlReader;

enum class Kind { kDrawn, kInProgress, kVoided };

// A pair of strings, one per side ("" allowed), at d[key].
bool ReadPair(YamlReader& r, const YAML::Node& d, const std::string& path, const char* key, bool required,
              std::string (&out)[2]) {
  const std::string p = Y::Child(path, key);
  const YAML::Node list = d[key];
  if (!list) {
    if (required) r.Fail(d, p, "missing required key");
    return !required;
  }
  if (!r.ExpectSequence(list, p)) return false;
  if (list.size() != 2) {
    r.Fail(list, p, "expected two entries, one for each side");
    return false;
  }
  for (size_t k = 0; k < 2; ++k) {
    const auto v = r.String(list[k], Y::Item(p, k));
    if (!v) return false;
    out[k] = *v;
  }
  return true;
}

// The position of d[key][k] (or of d when it has no such entry).
YAML::Node At(const YAML::Node& d, const char* key, size_t k) {
  const YAML::Node list = d[key];
  return list && list.IsSequence() && list.size() > k ? list[k] : d;
}

class RoundReader {
 public:
  RoundReader(YamlReader& r, const FairDiceGame& g) : r_(r), g_(g) {}

  bool Read(const YAML::Node& d, const std::string& path, Kind kind, FairDiceRound* out) {
    if (!r_.ExpectMap(d, path)) return false;
    if (!r_.CheckKeys(d, path, {"at", "n", "sides", "label", "commit", "commit_sig", "reveal", "reveal_sig", "void_sig",
                                "waiting_since", "claimed", "value"})) {
      return false;
    }
    const auto sides = r_.RequiredInt(d, path, "sides", 2, 1000);
    if (!sides) return false;
    out->sides = *sides;
    out->label = r_.OptionalString(d, path, "label", "");
    if (!ReadPair(r_, d, path, "commit", true, out->commit) || !ReadPair(r_, d, path, "reveal", true, out->reveal)) {
      return false;
    }
    if (!ReadSigned(d, path, out)) return false;
    if (!CheckSecrets(d, path, *out)) return false;
    if (g_.signed_game() && !CheckSignatures(d, path, *out)) return false;
    return CheckKind(d, path, kind, out);
  }

 private:
  // n, the signatures, the times and the claim: a signed game's rounds have them, older ones none.
  bool ReadSigned(const YAML::Node& d, const std::string& path, FairDiceRound* out) {
    if (!g_.signed_game()) {
      for (const char* key : {"n", "commit_sig", "reveal_sig", "void_sig", "waiting_since", "claimed"}) {
        if (d[key]) {
          r_.Fail(d[key], Y::Child(path, key), "a save without fair_dice_game has unsigned rounds only");
          return false;
        }
      }
      return true;
    }
    const YAML::Node n = d["n"];
    if (!n) {
      r_.Fail(d, Y::Child(path, "n"), "missing required key (every round of a signed game has its index)");
      return false;
    }
    const auto nv = r_.Int64(n, Y::Child(path, "n"), 0, 1'000'000'000);
    if (!nv) return false;
    out->n = static_cast<long>(*nv);
    if (!ReadPair(r_, d, path, "commit_sig", true, out->commit_sig) ||
        !ReadPair(r_, d, path, "reveal_sig", true, out->reveal_sig) ||
        !ReadPair(r_, d, path, "void_sig", false, out->void_sig)) {
      return false;
    }
    if (const YAML::Node w = d["waiting_since"]) {
      const auto v = r_.Int64(w, Y::Child(path, "waiting_since"), 0);
      if (!v) return false;
      out->waiting_since = static_cast<long>(*v);
    }
    return ReadClaim(d, path, out);
  }

  bool ReadClaim(const YAML::Node& d, const std::string& path, FairDiceRound* out) {
    const YAML::Node c = d["claimed"];
    if (!c) return true;
    const std::string p = Y::Child(path, "claimed");
    if (!r_.ExpectMap(c, p) || !r_.CheckKeys(c, p, {"by", "at", "sig"})) return false;
    const auto by = r_.RequiredInt(c, p, "by", 0, 1);
    const auto sig = r_.RequiredString(c, p, "sig");
    const YAML::Node at = c["at"];
    if (!at) r_.Fail(c, Y::Child(p, "at"), "missing required key");
    const auto when = at ? r_.Int64(at, Y::Child(p, "at"), 0) : std::nullopt;
    if (!by || !sig || !when) return false;
    out->claimed_by = *by;
    out->claim_sig = *sig;
    out->claimed_at = static_cast<long>(*when);
    return true;
  }

  // Each commitment is a hash; each secret matches it, and none is revealed before both commitments.
  bool CheckSecrets(const YAML::Node& d, const std::string& path, const FairDiceRound& f) {
    for (size_t k = 0; k < 2; ++k) {
      const std::string cp = Y::Item(Y::Child(path, "commit"), k), vp = Y::Item(Y::Child(path, "reveal"), k);
      if (!f.commit[k].empty() && !IsLowerHex(f.commit[k], 64)) {
        r_.Fail(At(d, "commit", k), cp, "a commitment is 64 lowercase hex digits");
        return false;
      }
      if (f.reveal[k].empty()) continue;
      if (f.commit[0].empty() || f.commit[1].empty()) {
        r_.Fail(At(d, "reveal", k), vp, "a secret revealed before both sides committed");
        return false;
      }
      if (CommitmentOf(f.reveal[k]) != f.commit[k]) {
        r_.Fail(At(d, "reveal", k), vp, "does not match its commitment " + cp);
        return false;
      }
    }
    return true;
  }

  bool Verify(const YAML::Node& where, const std::string& path, int side, const std::string& message,
              const std::string& sig) {
    if (g_.keys[side].empty()) {
      r_.Fail(where, path, "signed by side " + std::to_string(side) + ", which has no key in fair_dice_game.keys");
      return false;
    }
    if (!VerifySignature(g_.keys[side], message, sig)) {
      r_.Fail(where, path, "the signature does not verify with fair_dice_game.keys[" + std::to_string(side) + "]");
      return false;
    }
    return true;
  }

  // Every step taken is signed by its side, and every signature is of a step taken.
  bool CheckSignatures(const YAML::Node& d, const std::string& path, const FairDiceRound& f) {
    for (int k = 0; k < 2; ++k) {
      const size_t i = static_cast<size_t>(k);
      struct Step {
        const char* key;
        const std::string& value;
        const std::string& sig;
        std::string message;
      };
      const Step steps[] = {
          {"commit_sig", f.commit[k], f.commit_sig[k], CommitMessage(g_.id, f.n, f.sides, f.label, f.commit[k])},
          {"reveal_sig", f.reveal[k], f.reveal_sig[k], RevealMessage(g_.id, f.n, f.commit[0], f.commit[1], f.reveal[k])}};
      for (const Step& s : steps) {
        const std::string p = Y::Item(Y::Child(path, s.key), i);
        if (s.value.empty() != s.sig.empty()) {
          r_.Fail(At(d, s.key, i), p, s.value.empty() ? "a signature of a step not taken" : "missing: the step is unsigned");
          return false;
        }
        if (!s.value.empty() && !Verify(At(d, s.key, i), p, k, s.message, s.sig)) return false;
      }
      if (!f.void_sig[k].empty() &&
          !Verify(At(d, "void_sig", i), Y::Item(Y::Child(path, "void_sig"), i), k,
                  VoidMessage(g_.id, f.n, f.commit[0], f.commit[1]), f.void_sig[k])) {
        return false;
      }
    }
    return true;
  }

  bool CheckClaim(const YAML::Node& d, const std::string& path, const FairDiceRound& f) {
    const std::string p = Y::Child(path, "claimed");
    FairDiceRound before = f;
    before.claimed_by = -1;
    if (before.ClaimableAt(g_, f.claimed_by) < 0) {
      r_.Fail(d["claimed"], p, "a claim needs a deadline and a round that waited on the other side only");
      return false;
    }
    if (f.claimed_at < before.ClaimableAt(g_, f.claimed_by)) {
      r_.Fail(d["claimed"], Y::Child(p, "at"), "claimed before the deadline (waiting_since + fair_dice_game.deadline)");
      return false;
    }
    return Verify(d["claimed"], Y::Child(p, "sig"), f.claimed_by,
                  ClaimMessage(g_.id, f.n, f.commit[0], f.commit[1], f.value, f.waiting_since, f.claimed_at), f.claim_sig);
  }

  bool CheckKind(const YAML::Node& d, const std::string& path, Kind kind, FairDiceRound* out) {
    const bool any_void = !out->void_sig[0].empty() || !out->void_sig[1].empty();
    if (any_void && (!out->reveal[0].empty() || !out->reveal[1].empty())) {
      r_.Fail(d["void_sig"], Y::Child(path, "void_sig"), "a round with a secret revealed cannot be voided");
      return false;
    }
    if (kind == Kind::kVoided) {
      if (!out->voided()) r_.Fail(d, Y::Child(path, "void_sig"), "a voided round is signed void by both sides");
      if (out->claimed_by >= 0 || d["value"]) r_.Fail(d, path, "a voided round has no die");
      return r_.ok();
    }
    if (kind == Kind::kInProgress) {
      if (d["value"]) r_.Fail(d["value"], Y::Child(path, "value"), "the round in progress has no value yet");
      if (out->claimed_by >= 0) r_.Fail(d["claimed"], Y::Child(path, "claimed"), "a claimed die is drawn (it belongs in drawn)");
      if (out->revealed()) r_.Fail(d, path, "both secrets are revealed: the die is drawn (it belongs in drawn)");
      if (out->voided()) r_.Fail(d, Y::Child(path, "void_sig"), "both sides voided it: it belongs in fair_dice_void");
      return r_.ok();
    }
    if (any_void) {
      r_.Fail(d["void_sig"], Y::Child(path, "void_sig"), "a drawn die was not voided");
      return false;
    }
    const auto value = r_.RequiredInt(d, path, "value", 1, 1000);
    if (!value) return false;
    out->value = *value;
    if (out->claimed_by >= 0) {
      if (*value > out->sides) {
        r_.Fail(d["value"], Y::Child(path, "value"), "a d" + std::to_string(out->sides) + " shows 1 to " + std::to_string(out->sides));
        return false;
      }
      return CheckClaim(d, path, *out);
    }
    if (!out->revealed()) {
      r_.Fail(d, Y::Child(path, "reveal"), "a drawn die needs both secrets (or a claim)");
      return false;
    }
    const int die = g_.signed_game() ? DieOfRound(g_.id, out->n, out->reveal[0], out->reveal[1], out->sides)
                                     : DieFromSecrets(out->reveal[0], out->reveal[1], out->sides);
    if (die != out->value) {
      r_.Fail(d["value"], Y::Child(path, "value"), "is not the die of the two secrets (" + std::to_string(die) + ")");
      return false;
    }
    return true;
  }

  YamlReader& r_;
  const FairDiceGame& g_;
};

bool ReadGame(YamlReader& r, const YAML::Node& n, FairDiceGame* g) {
  const std::string path = "fair_dice_game";
  if (!r.ExpectMap(n, path) || !r.CheckKeys(n, path, {"id", "keys", "deadline"})) return false;
  const auto id = r.RequiredString(n, path, "id");
  if (!id) return false;
  if (!IsLowerHex(*id, 32)) {
    r.Fail(n["id"], Y::Child(path, "id"), "a game id is 32 lowercase hex digits");
    return false;
  }
  g->id = *id;
  if (!ReadPair(r, n, path, "keys", true, g->keys)) return false;
  for (size_t k = 0; k < 2; ++k) {
    if (!g->keys[k].empty() && !IsLowerHex(g->keys[k], 64)) {
      r.Fail(At(n, "keys", k), Y::Item(Y::Child(path, "keys"), k), "a key is an Ed25519 public key, 64 lowercase hex digits");
      return false;
    }
  }
  if (const YAML::Node d = n["deadline"]) {
    const auto v = r.Int64(d, Y::Child(path, "deadline"), 0, 10LL * 365 * 86400);
    if (!v) return false;
    g->deadline = static_cast<long>(*v);
  }
  return true;
}

bool ReadPending(YamlReader& r, RoundReader& rounds, const YAML::Node& p, FairDicePending* out) {
  const std::string path = "fair_dice_pending";
  if (!r.ExpectMap(p, path) || !r.CheckKeys(p, path, {"action", "side", "drawn", "round"})) return false;
  const auto action = r.RequiredString(p, path, "action");
  const auto side = r.RequiredInt(p, path, "side", 0, 1);
  if (!action || !side) return false;
  out->action = *action;
  out->side = *side;
  if (const YAML::Node drawn = p["drawn"]; drawn && !drawn.IsNull()) {
    if (!r.ExpectSequence(drawn, Y::Child(path, "drawn"))) return false;
    for (size_t i = 0; i < drawn.size(); ++i) {
      FairDiceRound f;
      if (!rounds.Read(drawn[i], Y::Item(Y::Child(path, "drawn"), i), Kind::kDrawn, &f)) return false;
      out->drawn.push_back(f);
    }
  }
  if (!p["round"]) {
    r.Fail(p, Y::Child(path, "round"), "missing required key");
    return false;
  }
  return rounds.Read(p["round"], Y::Child(path, "round"), Kind::kInProgress, &out->round);
}

// The drawn rounds cover `supplied` exactly: the round at index i is supplied[i].
bool ReadDrawn(YamlReader& r, RoundReader& reader, const YAML::Node& fair, FairDiceRecord* rec) {
  const YAML::Node supplied = r.root()["supplied"];
  const size_t n = supplied && supplied.IsSequence() ? supplied.size() : 0;
  long last = -1;
  for (size_t i = 0; i < fair.size(); ++i) {
    const std::string path = Y::Item("fair_dice", i);
    FairDiceRound f;
    if (!reader.Read(fair[i], path, Kind::kDrawn, &f)) return false;
    // Saves written before `at` existed hold one record per supplied value, in order.
    const YAML::Node at = fair[i]["at"];
    const auto index = at ? r.Int(at, Y::Child(path, "at"), 0) : std::optional<int>(static_cast<int>(i));
    if (!index) return false;
    f.at = *index;
    const YAML::Node where = at ? at : fair[i];
    if (f.at != last + 1) {
      r.Fail(where, Y::Child(path, "at"),
             f.at <= last ? "the dice are in the order they were used"
                          : "supplied[" + std::to_string(last + 1) + "] is not the die of any fair_dice round");
    } else if (static_cast<size_t>(f.at) >= n) {
      r.Fail(where, Y::Child(path, "at"), "no such supplied die value");
    } else if (const auto v = r.Int(supplied[static_cast<size_t>(f.at)], Y::Item("supplied", static_cast<size_t>(f.at)));
               v && *v != f.value) {
      r.Fail(fair[i]["value"], Y::Child(path, "value"),
             "differs from supplied[" + std::to_string(f.at) + "] (" + std::to_string(*v) + ")");
    }
    if (!r.ok()) return false;
    last = f.at;
    rec->rounds.push_back(f);
  }
  return true;
}

// In a fair game every supplied die is a round's; no value comes from anywhere else.
bool CheckCoverage(YamlReader& r, const FairDiceRecord& rec) {
  const YAML::Node root = r.root();
  const YAML::Node supplied = root["supplied"];
  const size_t n = supplied && supplied.IsSequence() ? supplied.size() : 0;
  if (rec.rounds.size() != n) {
    r.Fail(supplied ? supplied : root, "supplied",
           "supplied[" + std::to_string(rec.rounds.size()) + "] is not the die of any fair_dice round: in a game with "
           "fair dice every die is drawn by a round");
    return false;
  }
  if (root["dice"] && root["dice"].IsScalar() && root["dice"].Scalar() != "supplied") {
    r.Fail(root["dice"], "dice", "a game with fair dice has dice: supplied");
    return false;
  }
  if (const YAML::Node k = root["supplied_at"]; k && !(k.IsMap() && k.size() == 0)) {
    r.Fail(k, "supplied_at", "a game with fair dice has no die but its rounds'");
    return false;
  }
  // The dice the waiting action has drawn are queued in the session (Session::Save
  // writes them); they are exactly fair_dice_pending.drawn's, and loading supplies them from there.
  if (const YAML::Node k = root["queued"]; k && !(k.IsSequence() && k.size() == 0)) {
    bool same = k.IsSequence() && rec.pending && k.size() == rec.pending->drawn.size();
    for (size_t i = 0; same && i < k.size(); ++i) {
      same = k[i].IsScalar() && k[i].Scalar() == std::to_string(rec.pending->drawn[i].value);
    }
    if (!same) {
      r.Fail(k, "queued", "a game with fair dice has no die but its rounds' (queued: the dice fair_dice_pending.drawn holds)");
      return false;
    }
  }
  return true;
}

// A signed game's rounds are numbered 0, 1, 2, ... with no gap and no repeat, the one in progress last.
bool CheckIndexes(YamlReader& r, const FairDiceRecord& rec) {
  if (!rec.game.signed_game()) return true;
  std::vector<long> seen;
  for (const auto& f : rec.rounds) seen.push_back(f.n);
  for (const auto& f : rec.voided) seen.push_back(f.n);
  if (rec.pending) {
    for (const auto& f : rec.pending->drawn) seen.push_back(f.n);
    seen.push_back(rec.pending->round.n);
  }
  std::vector<long> sorted = seen;
  std::sort(sorted.begin(), sorted.end());
  for (size_t i = 0; i < sorted.size(); ++i) {
    if (sorted[i] != static_cast<long>(i)) {
      r.Fail(r.root()["fair_dice_game"], "fair_dice_game",
             "the rounds' indexes n are not 0, 1, 2, ...: round " + std::to_string(i) +
                 (i > 0 && sorted[i] == sorted[i - 1] ? " is repeated" : " is missing (a round was removed)"));
      return false;
    }
  }
  if (rec.pending && rec.pending->round.n != static_cast<long>(sorted.size()) - 1) {
    r.Fail(r.root()["fair_dice_pending"], "fair_dice_pending.round.n", "the round in progress is the last begun");
    return false;
  }
  return true;
}

}  // namespace

std::string VerifyFairDice(const std::string& save, const std::string& name, FairDiceRecord* out) {
  YamlReader r = YamlReader::FromString(save, name);
  if (!r.ok()) return r.errors().ToString();
  if (!r.root().IsMap()) return "";  // Session::Load says what is wrong with it
  FairDiceRecord rec;
  if (const YAML::Node g = r.root()["fair_dice_game"]; g && !g.IsNull()) {
    if (!ReadGame(r, g, &rec.game)) return r.errors().ToString();
  }
  RoundReader reader(r, rec.game);
  if (const YAML::Node fair = r.root()["fair_dice"]; fair && !fair.IsNull()) {
    if (!r.ExpectSequence(fair, "fair_dice") || !ReadDrawn(r, reader, fair, &rec)) return r.errors().ToString();
  }
  if (const YAML::Node v = r.root()["fair_dice_void"]; v && !v.IsNull()) {
    if (!rec.game.signed_game()) {
      r.Fail(v, "fair_dice_void", "voided rounds need a signed game (fair_dice_game)");
      return r.errors().ToString();
    }
    if (!r.ExpectSequence(v, "fair_dice_void")) return r.errors().ToString();
    for (size_t i = 0; i < v.size(); ++i) {
      FairDiceRound f;
      if (!reader.Read(v[i], Y::Item("fair_dice_void", i), Kind::kVoided, &f)) return r.errors().ToString();
      rec.voided.push_back(f);
    }
  }
  if (const YAML::Node pn = r.root()["fair_dice_pending"]; pn && !pn.IsNull()) {
    rec.pending.emplace();
    if (!ReadPending(r, reader, pn, &*rec.pending)) return r.errors().ToString();
  }
  if (rec.fair() && (!CheckCoverage(r, rec) || !CheckIndexes(r, rec))) return r.errors().ToString();
  if (out) *out = std::move(rec);
  return "";
}

}  // namespace wg::cli
