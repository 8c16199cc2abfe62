#include "wargame/registry.h"

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <mutex>
#include <sstream>

#include "wargame/game_loader.h"
#include "wargame/hex_rules.h"

namespace wg {

RulesetRegistry& RulesetRegistry::Get() {
  static RulesetRegistry* registry = new RulesetRegistry();
  return *registry;
}

void RulesetRegistry::Register(const RulesetInfo& info, RulesetFactory factory) {
  WG_CHECK(Find(info.name) == nullptr, "ruleset registered twice: " + info.name);
  entries_.push_back(Entry{info, std::move(factory)});
}

std::vector<RulesetInfo> RulesetRegistry::List() const {
  std::vector<RulesetInfo> out;
  for (const auto& e : entries_) out.push_back(e.info);
  return out;
}

const RulesetInfo* RulesetRegistry::Find(const std::string& name) const {
  for (const auto& e : entries_) {
    if (e.info.name == name) return &e.info;
  }
  return nullptr;
}

Result<std::shared_ptr<const Game>> RulesetRegistry::Make(const GameParams& params) const {
  for (const auto& e : entries_) {
    if (e.info.name == params.ruleset) return e.factory(params);
  }
  // A folder with a ruleset.yaml and no C++ hooks plays on the standard
  // hex-game flow: a ruleset author can try data before writing hooks. A
  // name that is not a folder is looked up on the ruleset search path.
  std::string folder = params.ruleset;
  if (!std::filesystem::exists(std::filesystem::path(folder) / "ruleset.yaml")) {
    folder = FindRulesetFolder(params.ruleset);
  }
  if (std::filesystem::exists(std::filesystem::path(folder) / "ruleset.yaml")) {
    return LoadHexGame(folder, params, {},
                       [](const Game& g, RulesetDocument&, ErrorList*) -> std::unique_ptr<Rules> {
                         return std::make_unique<HexRules>(g);
                       });
  }
  std::string known;
  for (const auto& e : entries_) known += (known.empty() ? "" : ", ") + e.info.name;
  return Error{"", 0, 0, "", "unknown ruleset \"" + params.ruleset + "\" (registered: " + known + ")", ""};
}

Result<std::shared_ptr<const Game>> LoadGame(const std::string& spec) {
  auto params = ParseGameSpec(spec);
  if (!params.ok()) return params.errors();
  return RulesetRegistry::Get().Make(*params);
}

std::vector<std::string> ListScenarios(const RulesetInfo& info) {
  std::vector<std::string> out;
  const std::string folder = FindRulesetFolder(info.folder);
  YamlReader r = YamlReader::FromFile(folder + "/ruleset.yaml");
  if (!r.ok() || !r.root().IsMap()) return out;
  if (const YAML::Node s = r.root()["scenarios"]; s && s.IsMap()) {
    for (const auto& kv : s) out.push_back(kv.first.Scalar());
  }
  return out;
}

// --- The ruleset search path ------------------------------------------------------

namespace {

struct SearchPath {
  std::mutex mu;
  std::vector<std::string> added;  // in the order added
};
SearchPath& Paths() {
  static SearchPath* paths = new SearchPath();
  return *paths;
}

// <dir of the running program>/../share/wargame/rulesets, "" if unknown.
std::string BesideProgram() {
  std::error_code ec;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec || exe.empty()) return "";
  return (exe.parent_path().parent_path() / "share" / "wargame" / "rulesets").string();
}

}  // namespace

void AddRulesetSearchPath(const std::string& root) {
  if (root.empty()) return;
  SearchPath& p = Paths();
  std::lock_guard<std::mutex> lock(p.mu);
  p.added.push_back(root);
}

std::vector<std::string> RulesetSearchPath() {
  std::vector<std::string> out;
  {
    SearchPath& p = Paths();
    std::lock_guard<std::mutex> lock(p.mu);
    out.assign(p.added.rbegin(), p.added.rend());
  }
  if (const char* env = std::getenv("WARGAME_RULESET_PATH"); env && *env) {
    std::stringstream ss(env);
    for (std::string item; std::getline(ss, item, ':');) {
      if (!item.empty()) out.push_back(item);
    }
  }
  if (std::string beside = BesideProgram(); !beside.empty()) out.push_back(beside);
  out.push_back(RulesetsRoot());
  return out;
}

std::string FindRulesetFolder(const std::string& folder) {
  namespace fs = std::filesystem;
  if (fs::path(folder).is_absolute()) return folder;
  std::error_code ec;
  for (const std::string& root : RulesetSearchPath()) {
    const fs::path candidate = fs::path(root) / folder;
    if (fs::exists(candidate / "ruleset.yaml", ec)) return candidate.string();
  }
  return (fs::path(RulesetsRoot()) / folder).string();
}

}  // namespace wg
