// The `wargame` program on untrusted command lines and files (issue 14): bad
// numeric options exit 2, missing output folders fail before the game, a save
// of another game is named as such, nothing aborts.
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

namespace fs = std::filesystem;

namespace {

const std::string kSkirmish = std::string(WG_TEST_DATA_DIR) + "/rulesets/skirmish";

struct CliRun {
  int code = -1;
  std::string out;
};

// Runs `wargame ARGS 2>&1`.
CliRun Wargame(const std::string& args) {
  CliRun r;
  const std::string cmd = std::string("'") + WARGAME_BIN + "' " + args + " 2>&1 </dev/null";
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return r;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
  const int status = pclose(p);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

std::string Temp(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("wg_untrusted_cli_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return (dir / name).string();
}

TEST(UntrustedCli, NegativeAndOutOfRangeOptionsExitTwo) {
  for (const char* args : {"play stars_and_bars --max-actions -1", "simulate stars_and_bars --games 2 --threads -1",
                                 "play stars_and_bars --ai-budget -3", "play stars_and_bars --seed -1",
                                 "odds stars_and_bars --attack a --defend b --reduce -1",
                                 "simulate stars_and_bars --games 0", "play stars_and_bars --seed=4abc"}) {
    const CliRun r = Wargame(args);
    EXPECT_EQ(r.code, 2) << args << "\n" << r.out;
    EXPECT_NE(r.out.find("must be a whole number"), std::string::npos) << args << "\n" << r.out;
  }
}

TEST(UntrustedCli, SaveIntoAMissingFolderFailsBeforeTheGame) {
  const CliRun r = Wargame("play '" + kSkirmish + "' --players random,random --save /nonexistent_folder/x.yaml");
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("no such folder"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("result:"), std::string::npos) << "the game was played first:\n" << r.out;
}

TEST(UntrustedCli, RenderWithAnotherGamesSaveSaysSo) {
  const std::string save = Temp("skirmish.yaml");
  ASSERT_EQ(Wargame("play '" + kSkirmish + "' --players random,random --seed 2 --save '" + save + "'").code, 0);
  const CliRun r = Wargame("render stars_and_bars --save '" + save + "' --svg '" + Temp("x.svg") + "'");
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("game: is a save of"), std::string::npos) << r.out;
}

TEST(UntrustedCli, MergeOfDifferentGamesSaysSo) {
  const std::string a = Temp("a.txt"), b = Temp("b.txt");
  ASSERT_EQ(Wargame("simulate '" + kSkirmish + "' --games 2 --out '" + a + "'").code, 0);
  ASSERT_EQ(Wargame("simulate civil_war_miniatures --games 1 --seed 9 --out '" + b + "'").code, 0);
  const CliRun r = Wargame("merge '" + a + "' '" + b + "'");
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("results of a different game"), std::string::npos) << r.out;
}

TEST(UntrustedCli, NamesTooLongAndBrokenFilesAreErrorsNotAborts) {
  const std::string longname(300, 'x');
  for (const std::string& args : {"play " + longname, "play stars_and_bars --scenario " + longname, "check " + longname,
                                 "replay '" + std::string(WG_SOURCE_DIR) + "/fuzz/regressions/save/one-word.yaml'",
                                 "replay '" + std::string(WG_SOURCE_DIR) + "/fuzz/regressions/save/game-name-too-long.yaml'"}) {
    const CliRun r = Wargame(args);
    EXPECT_EQ(r.code, 1) << args.substr(0, 60) << "\n" << r.out;
  }
}

TEST(UntrustedCli, AFolderWithParenthesesCommasAndQuotesPlaysSavesAndReplays) {
  const fs::path dir = Temp("we(ird), \"folder\"");
  fs::remove_all(dir);
  fs::copy(kSkirmish, dir, fs::copy_options::recursive);
  const std::string save = Temp("weird.yaml");
  // The shell sees the path in single quotes; it holds no single quote.
  const CliRun r = Wargame("play '" + dir.string() + "' --players random,random --seed 3 --save '" + save + "'");
  ASSERT_EQ(r.code, 0) << r.out;
  const CliRun back = Wargame("replay '" + save + "'");
  EXPECT_EQ(back.code, 0) << back.out;
  EXPECT_NE(back.out.find("actions replayed:"), std::string::npos) << back.out;
}

TEST(UntrustedCli, CheckReportsACrtTokenTheRulesDoNotKnow) {
  const fs::path dir = Temp("crt");
  fs::remove_all(dir);
  fs::copy(kSkirmish, dir, fs::copy_options::recursive);
  std::ifstream in(std::string(WG_SOURCE_DIR) + "/fuzz/regressions/ruleset/crt-token-d1.yaml");
  std::stringstream ss;
  ss << in.rdbuf();
  std::ofstream(dir / "ruleset.yaml", std::ios::trunc) << ss.str();
  const CliRun r = Wargame("check '" + dir.string() + "'");
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("crt.results[0][2]: result token \"D1\""), std::string::npos) << r.out;
}

}  // namespace
