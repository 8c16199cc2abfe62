#include "wargame/hex.h"

#include <cmath>
#include <cstdio>

namespace wg {

std::vector<Hex> Ring(Hex center, int radius) {
  if (radius <= 0) return {center};
  std::vector<Hex> out;
  out.reserve(static_cast<size_t>(6 * radius));
  Hex h = center + kHexDirections[4] * radius;
  for (int i = 0; i < 6; ++i) {
    for (int j = 0; j < radius; ++j) {
      out.push_back(h);
      h = Neighbor(h, i);
    }
  }
  return out;
}

std::vector<Hex> Range(Hex center, int radius) {
  std::vector<Hex> out;
  if (radius < 0) return out;
  out.reserve(static_cast<size_t>(3 * radius * (radius + 1) + 1));
  for (int dq = -radius; dq <= radius; ++dq) {
    const int lo = std::max(-radius, -dq - radius);
    const int hi = std::min(radius, -dq + radius);
    for (int dr = lo; dr <= hi; ++dr) out.push_back(center + Hex(dq, dr));
  }
  return out;
}

Hex CubeRound(double fq, double fr, double fs) {
  double q = std::round(fq), r = std::round(fr), s = std::round(fs);
  const double dq = std::abs(q - fq), dr = std::abs(r - fr), ds = std::abs(s - fs);
  if (dq > dr && dq > ds) {
    q = -r - s;
  } else if (dr > ds) {
    r = -q - s;
  }
  return Hex(static_cast<int>(q), static_cast<int>(r));
}

LineStep LineStepAt(Hex a, Hex b, int i, int n) {
  // Nudges in cube space that sum to zero, so the nudged point stays on the
  // plane q + r + s = 0; the two signs break ties in opposite directions.
  constexpr double kEq = 1e-6, kEr = 2e-6, kEs = -3e-6;
  const double t = n == 0 ? 0.0 : static_cast<double>(i) / n;
  const double fq = a.q + (b.q - a.q) * t;
  const double fr = a.r + (b.r - a.r) * t;
  const double fs = a.s() + (b.s() - a.s()) * t;
  const Hex plus = CubeRound(fq + kEq, fr + kEr, fs + kEs);
  const Hex minus = CubeRound(fq - kEq, fr - kEr, fs - kEs);
  return LineStep{plus, minus, !(plus == minus)};
}

std::vector<LineStep> Line(Hex a, Hex b) {
  const int n = Distance(a, b);
  std::vector<LineStep> out;
  out.reserve(static_cast<size_t>(n) + 1);
  for (int i = 0; i <= n; ++i) out.push_back(LineStepAt(a, b, i, n));
  return out;
}

std::optional<Hexside> HexsideBetween(Hex a, Hex b) {
  const int dir = DirectionTo(a, b);
  if (dir < 0) return std::nullopt;
  return Hexside::Of(a, dir);
}

// --- MapLayout --------------------------------------------------------------

Hex MapLayout::FromOffset(int col, int row) const {
  if (orientation == Orientation::kFlatTop) {
    const int shift = parity == OffsetParity::kOdd ? (col - (col & 1)) / 2 : (col + (col & 1)) / 2;
    return Hex(col, row - shift);
  }
  const int shift = parity == OffsetParity::kOdd ? (row - (row & 1)) / 2 : (row + (row & 1)) / 2;
  return Hex(col - shift, row);
}

void MapLayout::ToOffset(Hex h, int* col, int* row) const {
  if (orientation == Orientation::kFlatTop) {
    *col = h.q;
    *row = h.r + (parity == OffsetParity::kOdd ? (h.q - (h.q & 1)) / 2 : (h.q + (h.q & 1)) / 2);
  } else {
    *row = h.r;
    *col = h.q + (parity == OffsetParity::kOdd ? (h.r - (h.r & 1)) / 2 : (h.r + (h.r & 1)) / 2);
  }
}

bool MapLayout::Contains(Hex h) const {
  int col, row;
  ToOffset(h, &col, &row);
  return col >= 0 && row >= 0 && col < cols && row < rows;
}

std::string MapLayout::Label(Hex h) const {
  int col, row;
  ToOffset(h, &col, &row);
  const int a = label_order == LabelOrder::kColRow ? col + first_col_label : row + first_row_label;
  const int b = label_order == LabelOrder::kColRow ? row + first_row_label : col + first_col_label;
  char buf[16];
  std::snprintf(buf, sizeof buf, "%02d%02d", a, b);
  return buf;
}

std::optional<Hex> MapLayout::Parse(std::string_view label) const {
  if (label.size() != 4) return std::nullopt;
  for (char c : label) {
    if (c < '0' || c > '9') return std::nullopt;
  }
  const int a = (label[0] - '0') * 10 + (label[1] - '0');
  const int b = (label[2] - '0') * 10 + (label[3] - '0');
  const int col = (label_order == LabelOrder::kColRow ? a : b) - first_col_label;
  const int row = (label_order == LabelOrder::kColRow ? b : a) - first_row_label;
  return FromOffset(col, row);
}

namespace {
constexpr std::array<std::string_view, 6> kFlatNames = {"SE", "NE", "N", "NW", "SW", "S"};
constexpr std::array<std::string_view, 6> kPointyNames = {"E", "NE", "NW", "W", "SW", "SE"};
}  // namespace

int MapLayout::DirectionFromName(std::string_view name) const {
  const auto& names = orientation == Orientation::kFlatTop ? kFlatNames : kPointyNames;
  for (int i = 0; i < 6; ++i) {
    if (names[static_cast<size_t>(i)] == name) return i;
  }
  return -1;
}

std::string_view MapLayout::DirectionName(int dir) const {
  const auto& names = orientation == Orientation::kFlatTop ? kFlatNames : kPointyNames;
  return names[static_cast<size_t>(dir)];
}

void MapLayout::Center(Hex h, double* x, double* y) const {
  static const double kSqrt3 = std::sqrt(3.0);
  if (orientation == Orientation::kFlatTop) {
    *x = 1.5 * h.q;
    *y = kSqrt3 * (h.r + h.q / 2.0);
  } else {
    *x = kSqrt3 * (h.q + h.r / 2.0);
    *y = 1.5 * h.r;
  }
}

// --- HexGrid ----------------------------------------------------------------

HexGrid::HexGrid(const MapLayout& layout) : layout_(layout) {
  const int n = layout.cols * layout.rows;
  hexes_.resize(static_cast<size_t>(n));
  neighbors_.resize(static_cast<size_t>(n) * 6);
  for (int row = 0; row < layout.rows; ++row) {
    for (int col = 0; col < layout.cols; ++col) {
      hexes_[static_cast<size_t>(row * layout.cols + col)] = layout.FromOffset(col, row);
    }
  }
  for (int i = 0; i < n; ++i) {
    for (int d = 0; d < 6; ++d) {
      neighbors_[static_cast<size_t>(i) * 6 + static_cast<size_t>(d)] = Index(Neighbor(HexAt(i), d));
    }
  }
}

int HexGrid::IndexOfLabel(std::string_view label) const {
  const auto h = layout_.Parse(label);
  return h ? Index(*h) : -1;
}

bool HexGrid::OnEdge(int index) const {
  for (int d = 0; d < 6; ++d) {
    if (NeighborIndex(index, d) < 0) return true;
  }
  return false;
}

}  // namespace wg
