// A program built against the installed libwargame, as a game developer's
// would be: it loads Stars and Bars, lists the legal actions, applies them,
// saves the game halfway, loads the save and plays the loaded game on to the
// end, and checks that it ends exactly as the game that was never saved.
#include <iostream>

#include "wargame/action_text.h"
#include "wargame/players.h"
#include "wargame/registry.h"
#include "wargame/session.h"

namespace {

// Plays `session` with `player` until the end or `limit` actions in all.
bool Play(wg::Session& session, wg::RandomPlayer& player, size_t limit) {
  while (!session.over() && session.actions().size() < limit) {
    const std::vector<wg::Action> legal = session.LegalActions();
    const wg::Status st = session.Apply(player.Choose(session.game(), session.state(), legal));
    if (!st.ok()) {
      std::cerr << "refused: " << st.ToString() << "\n";
      return false;
    }
  }
  return true;
}

}  // namespace

int main() {
  auto game = wg::LoadGame("stars_and_bars(optional=12.1)");
  if (!game.ok()) {
    std::cerr << game.errors().ToString() << "\n";
    return 1;
  }
  wg::Session session(*game, /*seed=*/1);
  const std::vector<wg::Action> legal = session.LegalActions();
  std::cout << (*game)->title << ": " << legal.size() << " legal actions for "
            << (*game)->sides[session.state().decision_side].name << ", e.g. "
            << wg::ActionToText(session.game(), legal.front()) << "\n";

  wg::RandomPlayer player(7);
  if (!Play(session, player, 200)) return 1;
  const std::string save = session.Save();
  auto loaded = wg::Session::Load(save, "halfway.save");
  if (!loaded.ok()) {
    std::cerr << loaded.errors().ToString() << "\n";
    return 1;
  }
  std::cout << "saved after " << session.actions().size() << " actions and loaded: "
            << ((*loaded)->state().Equals(session.state()) ? "same state" : "DIFFERENT state") << "\n";

  wg::RandomPlayer twin = player;  // the same choices from here on, for both games
  if (!Play(session, player, 100000) || !Play(**loaded, twin, 100000)) return 1;
  const wg::State& end = (*loaded)->state();
  std::cout << "the loaded game played on to the end: " << (*loaded)->actions().size() << " actions, VP "
            << end.vp[0] << "-" << end.vp[1] << ", "
            << (end.winner < 0 ? std::string("draw") : (*game)->sides[static_cast<size_t>(end.winner)].name + " wins")
            << "; " << (end.Equals(session.state()) ? "identical" : "NOT identical") << " to the unsaved game\n";
  return end.Equals(session.state()) && session.over() ? 0 : 1;
}
