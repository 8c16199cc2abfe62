// Board: what the core knows of the surface a game is played on, whichever
// engine draws it (the hex engine's HexBoard in map.h, the tabletop's Table in
// tabletop.h). The core names no engine: it holds the board type-erased
// (Game::board()) and asks it only what every board answers here: how many
// indexed positions it has, a position's label, a label's position, and the
// named sets of positions (places) the victory conditions and events name.
// An engine's own code reads its board back typed with Game::board<B>().
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace wg {

// A named set of positions: a house, an objective, an army HQ, an entry area.
struct Place {
  std::string name;
  std::string kind;
  std::vector<int> hexes;                         // positions (a hex map's grid indices)
  std::map<std::string, std::string> attributes;  // free-form, ruleset-interpreted
};

// The place of that name in `places`, or nullptr.
const Place* FindPlaceIn(const std::vector<Place>& places, std::string_view name);

// The key of a board type (Board::As): one object per type, no run-time type information.
template <class B>
inline constexpr char kBoardKey = 0;

class Board {
 public:
  virtual ~Board() = default;
  // How many indexed positions (hexes) the board has; 0 for a board measured in
  // inches, whose units stand "on the table" (kOnTable) at no index.
  virtual int size() const { return 0; }
  // Whether positions are indexed cells (a hex map): false for a table measured in inches.
  virtual bool indexed() const { return false; }
  // A position's label ("2302"); position is 0 <= position < size().
  virtual std::string Label(int position) const { return std::to_string(position); }
  // The position with this label, -1 if malformed or not on the board.
  virtual int Index(std::string_view /*label*/) const { return -1; }
  // The board's named sets of positions, in their index order.
  virtual const std::vector<Place>& places() const;
  // The place with this name, or nullptr.
  const Place* FindPlace(std::string_view name) const;

  // The board as its engine's type B, or nullptr if it is another engine's.
  template <class B>
  const B* As() const {
    return key_ == &kBoardKey<B> ? static_cast<const B*>(this) : nullptr;
  }
  template <class B>
  B* As() {
    return key_ == &kBoardKey<B> ? static_cast<B*>(this) : nullptr;
  }

 protected:
  // An engine's board passes its own key: HexBoard() : Board(&kBoardKey<HexBoard>).
  explicit Board(const char* key) : key_(key) {}
  Board(const Board&) = default;
  Board& operator=(const Board&) = default;

 private:
  const char* key_;
};

}  // namespace wg
