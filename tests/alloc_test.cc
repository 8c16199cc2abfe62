// No heap allocation per reachable-set query on the real Perryville map (issue 7):
// a counting global operator new proves that, once the Pathfinder has built its
// buffers and cost tables, Search allocates nothing, for bounded queries (MA 4-8,
// enemy zones of control, hexside costs) and for the full-map cost field.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>
#include <vector>

#include "../benchmarks/perryville_fixture.h"
#include "counting_new.h"
#include "wargame/pathfinder.h"

namespace wg {
namespace {

using bench::Perryville;
using bench::PerryvilleFixture;

// The counter sees allocations at all (otherwise the tests below prove nothing).
TEST(Alloc, CounterSeesAVectorAllocation) {
  const long before = g_allocations.load();
  static std::vector<int>* volatile sink;  // volatile: the new/delete pair cannot be elided
  sink = new std::vector<int>(100);
  delete sink;
  EXPECT_GE(g_allocations.load() - before, 2);  // the vector object and its buffer
}

TEST(Alloc, PerryvilleDataLoads) {
  const PerryvilleFixture& f = Perryville();
  ASSERT_TRUE(f.error.empty()) << f.error;
  EXPECT_EQ(f.map.size(), 22 * 32);
  EXPECT_EQ(f.starts.size(), 64u);
}

TEST(Alloc, PerryvilleReachableSetQueryAllocatesNothing) {
  const PerryvilleFixture& f = Perryville();
  ASSERT_TRUE(f.error.empty()) << f.error;
  Pathfinder pf(f.map, f.rules);
  for (size_t c = 0; c < 3; ++c) pf.Search(f.Query(c, 8));  // first use builds buffers and tables
  long reached = 0;
  const long before = g_allocations.load();
  for (int ma = 4; ma <= 8; ++ma) {
    for (size_t i = 0; i < 64 * 3; ++i) reached += static_cast<long>(pf.Search(f.Query(i, ma * 2)).hexes().size());
  }
  const long allocations = g_allocations.load() - before;
  EXPECT_EQ(allocations, 0);
  // The queries did real work: on average more than the start hex was reached.
  EXPECT_GT(reached, 5 * 64 * 3 * 2);
}

TEST(Alloc, PerryvilleFullCostFieldAllocatesNothing) {
  const PerryvilleFixture& f = Perryville();
  ASSERT_TRUE(f.error.empty()) << f.error;
  Pathfinder pf(f.map, f.rules);
  for (size_t c = 0; c < 3; ++c) pf.Search(f.Query(c, kUnboundedAllowance));
  long reached = 0;
  const long before = g_allocations.load();
  for (size_t i = 0; i < 64 * 3; ++i) {
    reached += static_cast<long>(pf.Search(f.Query(i, kUnboundedAllowance)).hexes().size());
  }
  EXPECT_EQ(g_allocations.load() - before, 0);
  EXPECT_GT(reached, 64 * 3 * 100);
}

// The bounded query agrees with the Boost.Graph reference (the benchmark compares like with like).
TEST(Alloc, PerryvilleQueryMatchesBoostReference) {
  const PerryvilleFixture& f = Perryville();
  ASSERT_TRUE(f.error.empty()) << f.error;
  Pathfinder pf(f.map, f.rules);
  for (size_t i = 0; i < 64 * 3; i += 7) {
    const MoveQuery q = f.Query(i, 12);
    const std::vector<int> ref = ReferenceCosts(pf, q);
    const Reachable& r = pf.Search(q);
    for (int h = 0; h < f.map.size(); ++h) {
      ASSERT_EQ(r.Reached(h) ? r.Cost(h) : -1, ref[static_cast<size_t>(h)]) << "query " << i << " hex " << h;
    }
  }
}

}  // namespace
}  // namespace wg
