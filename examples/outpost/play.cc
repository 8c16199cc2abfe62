// Plays Outpost to the end through the installed engine: the computer player
// against a random one, then checks that the saved game reloads to the same
// position. Prints the events that cite rule O.1 and the result.
#include <iostream>
#include <memory>

#include "wargame/ai.h"
#include "wargame/players.h"
#include "wargame/registry.h"
#include "wargame/session.h"

int main() {
  auto game = wg::LoadGame("outpost");
  if (!game.ok()) {
    std::cerr << game.errors().ToString() << "\n";
    return 1;
  }
  wg::Session session(*game, /*seed=*/3);
  wg::AiPlayer north(*game, 1);
  wg::RandomPlayer south(2);
  while (!session.over()) {
    const std::vector<wg::Action> legal = session.LegalActions();
    wg::Player& p = session.state().decision_side == 0 ? static_cast<wg::Player&>(north) : south;
    const wg::Status st = session.Apply(p.Choose(session.game(), session.state(), legal));
    if (!st.ok()) {
      std::cerr << "refused: " << st.ToString() << "\n";
      return 1;
    }
  }
  for (const std::string& line : session.DescribeEvents()) {
    if (line.rfind("O.", 0) == 0) std::cout << line << "\n";
  }
  auto reloaded = wg::Session::Load(session.Save(), "outpost.save");
  if (!reloaded.ok() || !(*reloaded)->state().Equals(session.state())) {
    std::cerr << "the saved game does not reload\n";
    return 1;
  }
  const wg::State& s = session.state();
  std::cout << "outpost: game over after " << session.actions().size() << " actions, VP " << s.vp[0] << "-"
            << s.vp[1] << ", " << (s.winner < 0 ? std::string("draw") : (*game)->sides[static_cast<size_t>(s.winner)].name + " wins")
            << "\n";
  return 0;
}
