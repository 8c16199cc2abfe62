#include "wargame/action_text.h"

namespace wg {

namespace {

bool HasUnitsAsMain(ActionType t) {
  switch (t) {
    case ActionType::kMove:
    case ActionType::kEnter:
    case ActionType::kChangeMode:
    case ActionType::kAttack:
    case ActionType::kBombard:
    case ActionType::kLoss:
    case ActionType::kRetreat:
    case ActionType::kAdvance:
    case ActionType::kDetach:
    case ActionType::kRecombine:
    case ActionType::kDestroy:
    case ActionType::kConvert:
      return true;
    default:
      return false;
  }
}

const char* HexKey(ActionType t) {
  switch (t) {
    case ActionType::kAttack:
    case ActionType::kBombard:
      return "target";
    case ActionType::kCustom:
      return "hexes";
    default:
      return "path";
  }
}

std::string UnitList(const Game& g, const Action& a, int from) {
  std::string s = "[";
  for (int i = from; i < a.num_units; ++i) {
    if (i > from) s += ", ";
    s += g.units[static_cast<size_t>(a.units[static_cast<size_t>(i)])].id;
  }
  return s + "]";
}

}  // namespace

std::string ActionToText(const Game& g, const Action& a) {
  const std::string name(ActionTypeName(a.type));
  const bool bare = a.num_units == 0 && a.num_hexes == 0 && a.value == 0 && a.value2 == 0;
  if (bare && (a.type == ActionType::kEndPhase || a.type == ActionType::kStand ||
               a.type == ActionType::kConcede)) {
    return name;
  }
  std::string s = "{" + name + ": ";
  const bool detach = a.type == ActionType::kDetach || a.type == ActionType::kRecombine;
  if (HasUnitsAsMain(a.type)) {
    if (detach && a.num_units >= 1) {
      s += g.units[static_cast<size_t>(a.units[0])].id;
      if (a.num_units >= 2) s += ", unit: " + g.units[static_cast<size_t>(a.units[1])].id;
    } else {
      s += UnitList(g, a, 0);
    }
  } else {
    s += std::to_string(a.value);
  }
  if (!HasUnitsAsMain(a.type) && a.num_units > 0) s += ", units: " + UnitList(g, a, 0);
  if (a.num_hexes > 0) {
    s += std::string(", ") + HexKey(a.type) + ": [";
    for (int i = 0; i < a.num_hexes; ++i) {
      if (i) s += ", ";
      s += g.board() != nullptr ? g.board()->Label(a.hexes[static_cast<size_t>(i)]) : std::to_string(a.hexes[static_cast<size_t>(i)]);
    }
    s += "]";
  }
  if (HasUnitsAsMain(a.type)) {
    if (a.type == ActionType::kLoss) {
      s += ", amount: " + std::to_string(a.value);
      if (a.value2 >= 0 && static_cast<size_t>(a.value2) < g.markers.size()) {
        s += ", marker: " + g.markers[static_cast<size_t>(a.value2)].id;
      }
    } else {
      if (a.value != 0) s += ", value: " + std::to_string(a.value);
      if (a.value2 != 0) s += ", value2: " + std::to_string(a.value2);
    }
  } else if (a.value2 != 0) {
    s += ", value2: " + std::to_string(a.value2);
  }
  return s + "}";
}

Result<Action> ParseAction(const Game& g, YamlReader& r, const YAML::Node& node,
                           const std::string& path) {
  const size_t before = r.errors().size();
  auto failed = [&]() { return r.errors().size() > before; };
  Action a;
  if (node.IsScalar()) {
    const int t = ActionTypeFromName(node.Scalar());
    if (t < 0 || !(t == static_cast<int>(ActionType::kEndPhase) || t == static_cast<int>(ActionType::kStand) ||
                   t == static_cast<int>(ActionType::kConcede))) {
      r.Fail(node, path, "unknown action \"" + node.Scalar() + "\" (a bare word may be end, stand or concede)");
      return r.ErrorsSince(before);
    }
    a.type = static_cast<ActionType>(t);
    return a;
  }
  if (!node.IsMap() || node.size() == 0) {
    r.Fail(node, path, "expected an action: a word (end, stand, concede) or a map such as {move: [id], path: [...]}");
    return r.ErrorsSince(before);
  }
  // The first key names the action.
  const auto first = node.begin();
  const std::string name = first->first.Scalar();
  const int t = ActionTypeFromName(name);
  if (t < 0) {
    r.Fail(first->first, path, "unknown action \"" + name + "\"");
    return r.ErrorsSince(before);
  }
  a.type = static_cast<ActionType>(t);
  // Only the fields this action uses, so that what is recorded is exactly what
  // the writer prints (a save never holds a value it cannot write back).
  const bool bare = a.type == ActionType::kEndPhase || a.type == ActionType::kStand ||
                    a.type == ActionType::kConcede;
  if (bare) {
    r.CheckKeys(node, path, {name});
  } else if (a.type == ActionType::kLoss) {
    r.CheckKeys(node, path, {name, "units", "unit", "path", "target", "hexes", "amount", "marker", "value"});
  } else {
    r.CheckKeys(node, path, {name, "units", "unit", "path", "target", "hexes", "value", "value2"});
  }
  int hex_keys = 0;
  for (const char* k : {"path", "target", "hexes"}) hex_keys += node[k] ? 1 : 0;
  if (hex_keys > 1) r.Fail(node, path, "give the hexes once (path, target or hexes)");
  if (node["value"] && node["amount"]) r.Fail(node, path, "give value or amount, not both");
  auto add_unit = [&](const YAML::Node& n, const std::string& p) {
    const auto id = r.String(n, p);
    if (!id) return;
    const int u = g.UnitIndex(*id);
    bool twice = false;
    const bool roles = a.type == ActionType::kDetach || a.type == ActionType::kRecombine;
    for (int i = 0; i < a.num_units && !roles; ++i) twice = twice || a.units[static_cast<size_t>(i)] == u;
    if (u < 0) {
      r.Fail(n, p, "unknown unit \"" + *id + "\"");
    } else if (twice) {
      r.Fail(n, p, "unit \"" + *id + "\" is named twice");
    } else if (a.num_units >= kMaxActionUnits) {
      r.Fail(n, p, "too many units in one action (at most " + std::to_string(kMaxActionUnits) + ")");
    } else {
      a.AddUnit(static_cast<UnitId>(u));
    }
  };
  auto add_units = [&](const YAML::Node& n, const std::string& p) {
    if (n.IsSequence()) {
      for (size_t i = 0; i < n.size(); ++i) add_unit(n[i], YamlReader::Item(p, i));
    } else {
      add_unit(n, p);
    }
  };
  auto add_hexes = [&](const YAML::Node& n, const std::string& p) {
    auto add_hex = [&](const YAML::Node& h, const std::string& hp) {
      const auto label = r.String(h, hp);
      if (!label) return;
      const int idx = g.PositionIndex(*label);
      if (idx < 0) {
        r.Fail(h, hp, "hex \"" + *label + "\" is not on the map");
      } else if (a.num_hexes >= kMaxActionHexes) {
        r.Fail(h, hp, "too many hexes (at most " + std::to_string(kMaxActionHexes) + ")");
      } else {
        a.AddHex(idx);
      }
    };
    if (n.IsSequence()) {
      for (size_t i = 0; i < n.size(); ++i) add_hex(n[i], YamlReader::Item(p, i));
    } else {
      add_hex(n, p);
    }
  };
  const YAML::Node main = first->second;
  const std::string mp = YamlReader::Child(path, name);
  if (HasUnitsAsMain(a.type)) {
    if (!(main.IsSequence() && main.size() == 0)) add_units(main, mp);
  } else if (a.type == ActionType::kStand || a.type == ActionType::kConcede ||
             a.type == ActionType::kEndPhase) {
    // {stand: true} / {end: phase}: the value carries nothing.
  } else {
    a.value = r.Int(main, mp).value_or(0);
  }
  if (node["unit"]) add_units(node["unit"], YamlReader::Child(path, "unit"));
  if (node["units"]) add_units(node["units"], YamlReader::Child(path, "units"));
  for (const char* k : {"path", "target", "hexes"}) {
    if (node[k]) add_hexes(node[k], YamlReader::Child(path, k));
  }
  if (node["value"]) a.value = r.Int(node["value"], YamlReader::Child(path, "value")).value_or(0);
  if (node["amount"]) a.value = r.Int(node["amount"], YamlReader::Child(path, "amount")).value_or(0);
  if (node["value2"]) a.value2 = r.Int(node["value2"], YamlReader::Child(path, "value2")).value_or(0);
  if (node["marker"]) {
    const std::string m = r.String(node["marker"], YamlReader::Child(path, "marker")).value_or("");
    a.value2 = g.MarkerIndex(m);
    if (a.value2 < 0) r.Fail(node["marker"], YamlReader::Child(path, "marker"), "unknown marker \"" + m + "\"");
  } else if (a.type == ActionType::kLoss) {
    a.value2 = 0;
  }
  if ((a.type == ActionType::kDetach || a.type == ActionType::kRecombine) && a.num_units > 2) {
    r.Fail(node, path, "names a parent and one detachment (unit:), no more");
  }
  if (failed()) return r.ErrorsSince(before);
  return a;
}

Status CanonicalAction(const Game& g, Action* a) {
  a->pad = 0;
  for (size_t i = a->num_units; i < a->units.size(); ++i) a->units[i] = 0;
  for (size_t i = a->num_hexes; i < a->hexes.size(); ++i) a->hexes[i] = 0;
  if (a->type == ActionType::kEndPhase || a->type == ActionType::kStand || a->type == ActionType::kConcede) {
    *a = Action::Of(a->type);
    return Status::Ok();
  }
  if (a->type == ActionType::kLoss && a->value2 != 0 &&
      (a->value2 < 0 || static_cast<size_t>(a->value2) >= g.markers.size())) {
    return Status::Refused("", "malformed action: loss of marker " + std::to_string(a->value2) +
                                   ", which this game does not have");
  }
  if ((a->type == ActionType::kDetach || a->type == ActionType::kRecombine) && a->num_units > 2) {
    return Status::Refused("", "malformed action: names a parent and one detachment, no more");
  }
  return Status::Ok();
}

Result<Action> ParseActionText(const Game& g, const std::string& text) {
  YamlReader r = YamlReader::FromString(text, "input");
  if (!r.ok()) return r.errors();
  return ParseAction(g, r, r.root(), "action");
}

}  // namespace wg
