#pragma once
// A set of IR nodes that numbers its members 0, 1, 2, ... in insertion order: the simulator asks it
// on every expression it evaluates (is this node program-invariant, and which cache slot is its
// value in?), so it is a flat open-addressed table probed with a multiplicative hash of the address,
// one cache line per lookup, not a node-based std::unordered_set. Built once per launch; reads are
// then safe from any number of threads.
#include <algorithm>
#include <bit>
#include <cstdint>
#include <vector>

namespace tilescope::sim {

class NodeIndex {
public:
  // The node's number (a new one for a node not yet in the set).
  int insert(const void* node) {
    if (2 * (size_ + 1) > static_cast<int>(slots_.size())) grow();
    Slot& s = slots_[find(node)];
    if (s.node != node) {
      s.node = node;
      s.index = size_++;
    }
    return s.index;
  }
  // The node's number, or -1 when it is not in the set.
  int indexOf(const void* node) const {
    if (slots_.empty()) return -1;
    const Slot& s = slots_[find(node)];
    return s.node == node ? s.index : -1;
  }
  size_t count(const void* node) const { return indexOf(node) >= 0 ? 1 : 0; }
  int size() const { return size_; }

private:
  struct Slot {
    const void* node = nullptr;
    int index = -1;
  };

  // The slot holding `node`, or the empty slot where it would go (the table is never full).
  size_t find(const void* node) const {
    const size_t mask = slots_.size() - 1;
    const uint64_t key = reinterpret_cast<uintptr_t>(node);
    size_t i = static_cast<size_t>((key * 0x9E3779B97F4A7C15ull) >> (64 - bits_)) & mask;
    while (slots_[i].node && slots_[i].node != node) i = (i + 1) & mask;
    return i;
  }

  void grow() {
    std::vector<Slot> old = std::move(slots_);
    const size_t capacity = std::max<size_t>(16, std::bit_ceil(old.size() * 2));
    slots_.assign(capacity, Slot{});
    bits_ = std::countr_zero(capacity);
    for (const Slot& s : old)
      if (s.node) slots_[find(s.node)] = s;
  }

  std::vector<Slot> slots_;
  int bits_ = 0;
  int size_ = 0;
};

}  // namespace tilescope::sim
