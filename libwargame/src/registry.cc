#include "wargame/registry.h"

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <mutex>
#include <sstream>

#include "wargame/game_loader.h"

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

namespace {

// The last line of defence for untrusted data: the readers never throw, but a
// ruleset's hook code reading its own sections might index a node of the wrong
// shape; that, or a file-system error, is reported instead of aborting.
Result<std::shared_ptr<const Game>> Guarded(const GameParams& params,
                                            const std::function<Result<std::shared_ptr<const Game>>()>& make) {
  try {
    return make();
  } catch (const YAML::Exception& e) {
    return Error{params.ruleset, e.mark.line >= 0 ? e.mark.line + 1 : 0,
                 e.mark.line >= 0 ? e.mark.column + 1 : 0, "", "malformed data: " + e.msg, ""};
  } catch (const std::filesystem::filesystem_error& e) {
    return Error{e.path1().string(), 0, 0, "", e.code().message(), ""};
  } catch (const std::exception& e) {
    return Error{params.ruleset, 0, 0, "", std::string("cannot load: ") + e.what(), ""};
  }
}

DataOnlyRulesetLoader& DataOnlyLoader() {
  static DataOnlyRulesetLoader loader;
  return loader;
}

}  // namespace

bool SetDataOnlyRulesetLoader(DataOnlyRulesetLoader loader) {
  DataOnlyLoader() = std::move(loader);
  return true;
}

Error NoRulesError(const std::string& ruleset) {
  return Error{ruleset, 0, 0, "",
               "the ruleset's hooks built no rules object and reported no error (a rules builder returned null)", ""};
}

Result<std::shared_ptr<const Game>> RulesetRegistry::Make(const GameParams& params) const {
  auto game = Guarded(params, [&]() { return MakeUnguarded(params); });
  // A factory that returns no game, or a game without rules, and no error: refused
  // once here, so nothing plays a game whose hooks are missing.
  if (game.ok() && (!*game || !(*game)->rules)) return NoRulesError(params.ruleset);
  return game;
}

Result<std::shared_ptr<const Game>> RulesetRegistry::MakeUnguarded(const GameParams& params) const {
  for (const auto& e : entries_) {
    if (e.info.name == params.ruleset) return e.factory(params);
  }
  // A folder with a ruleset.yaml and no C++ hooks plays on the standard
  // hex-game flow (the hex engine's loader: SetDataOnlyRulesetLoader): a ruleset
  // author can try data before writing hooks. A
  // name that is not a folder is looked up on the ruleset search path.
  std::error_code ec;
  std::string folder = params.ruleset;
  if (!std::filesystem::exists(std::filesystem::path(folder) / "ruleset.yaml", ec)) {
    folder = FindRulesetFolder(params.ruleset);
  }
  if (std::filesystem::exists(std::filesystem::path(folder) / "ruleset.yaml", ec)) {
    if (const DataOnlyRulesetLoader& load = DataOnlyLoader(); load) return load(folder, params);
  }
  std::string known;
  for (const auto& e : entries_) known += (known.empty() ? "" : ", ") + e.info.name;
  if (ec && ec != std::errc::no_such_file_or_directory) {
    return Error{params.ruleset, 0, 0, "", ec.message(), ""};
  }
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
    for (const auto& kv : s) out.push_back(YamlReader::KeyText(kv.first));
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
