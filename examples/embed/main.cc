// The smallest program that uses the installed libwargame.
#include <iostream>

#include "wargame/hex.h"

int main() {
  wg::MapLayout layout;  // flat-top, odd columns shoved down, labels CCRR from 01
  layout.cols = layout.rows = 10;
  const wg::Hex a = *layout.Parse("0101"), b = *layout.Parse("0304");
  std::cout << "distance " << layout.Label(a) << "-" << layout.Label(b) << " = "
            << wg::Distance(a, b) << "\n";
  return 0;
}
