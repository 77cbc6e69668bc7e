#pragma once
// Every var of a statement tree, for the GPU passes' analyses and the CUDA emitter: where it is
// declared (Let, or For as the induction variable), where it is assigned, and how often it is read.
#include <map>
#include <vector>

#include "core/ir/IRVisitor.h"

namespace tilescope::gpu::passes {

class VarCensus : public ir::IRVisitor {
public:
  std::map<int, const ir::Let*> lets;                     // by var id
  std::map<int, std::vector<const ir::Assign*>> assigns;  // by var id
  std::map<int, int> reads;                               // VarRefs by var id
  std::map<int, const ir::For*> loops;                    // by induction var id

  int assignCount(int id) const {
    auto it = assigns.find(id);
    return it == assigns.end() ? 0 : static_cast<int>(it->second.size());
  }
  int readCount(int id) const {
    auto it = reads.find(id);
    return it == reads.end() ? 0 : it->second;
  }

protected:
  void visitLet(const ir::Let& n) override {
    lets[n.var->id] = &n;
    ir::IRVisitor::visitLet(n);
  }
  void visitAssign(const ir::Assign& n) override {
    assigns[n.var->id].push_back(&n);
    ir::IRVisitor::visitAssign(n);
  }
  void visitFor(const ir::For& n) override {
    loops[n.iv->id] = &n;
    ir::IRVisitor::visitFor(n);
  }
  void visitVarRef(const ir::VarRef& n) override { ++reads[n.var->id]; }
};

}  // namespace tilescope::gpu::passes
