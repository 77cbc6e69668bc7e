// NodeIndex: the simulator's set of program-invariant IR nodes, numbered in insertion order.
#include <gtest/gtest.h>

#include <vector>

#include "core/sim/NodeIndex.h"

using tilescope::sim::NodeIndex;

TEST(NodeIndex, NumbersNodesInInsertionOrderAndFindsThemAfterGrowing) {
  // Addresses 16 bytes apart, as allocated nodes are: the hash must spread them.
  std::vector<char> nodes(16 * 1000);
  NodeIndex index;
  EXPECT_EQ(index.indexOf(nodes.data()), -1) << "an empty set holds nothing";
  for (int i = 0; i < 1000; ++i) EXPECT_EQ(index.insert(&nodes[16 * i]), i);
  EXPECT_EQ(index.size(), 1000);
  for (int i = 0; i < 1000; ++i) {
    EXPECT_EQ(index.indexOf(&nodes[16 * i]), i) << "node " << i << " after the table grew";
    EXPECT_EQ(index.count(&nodes[16 * i]), 1u);
  }
  // Inserting again keeps the first number; nodes never inserted are absent.
  EXPECT_EQ(index.insert(&nodes[16 * 500]), 500);
  EXPECT_EQ(index.size(), 1000);
  EXPECT_EQ(index.indexOf(&nodes[16 * 500 + 8]), -1);
  EXPECT_EQ(index.count(nodes.data() + nodes.size()), 0u);
}
