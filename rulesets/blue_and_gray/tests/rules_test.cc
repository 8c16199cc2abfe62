#include <gtest/gtest.h>
TEST(Rules, Placeholder) {}
