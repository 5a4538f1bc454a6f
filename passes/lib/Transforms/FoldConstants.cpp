//===- FoldConstants.cpp - the mlax-fold-constants pass -------------------===//
//
// Drives the op folders to a fixed point with the greedy rewrite driver and
// no patterns, counting what it does through a rewriter listener.
//
//===----------------------------------------------------------------------===//

#include "mlax/Transforms/Passes.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::mlax {
#define GEN_PASS_DEF_MLAXFOLDCONSTANTS
#include "mlax/Transforms/Passes.h.inc"
} // namespace mlir::mlax

using namespace mlir;

namespace {

/// Counts folds (an op replaced by values), dead-op erasures (an op erased
/// without being replaced) and constants materialised.
struct FoldCounter : RewriterBase::Listener {
  int64_t folded = 0, dead = 0;
  llvm::DenseSet<Operation *> replaced, created;

  void notifyOperationInserted(Operation *op, OpBuilder::InsertPoint) override {
    if (op->hasTrait<OpTrait::ConstantLike>())
      created.insert(op);
  }
  void notifyOperationReplaced(Operation *op, ValueRange) override {
    replaced.insert(op);
  }
  void notifyOperationErased(Operation *op) override {
    bool wasReplaced = replaced.erase(op);
    if (created.erase(op))
      return; // a constant we made, deduplicated or dropped again
    if (wasReplaced && op->hasTrait<OpTrait::ConstantLike>())
      return; // an existing constant merged into an equal one: not a fold
    if (wasReplaced)
      ++folded;
    else
      ++dead;
  }
};

struct FoldConstantsPass
    : mlax::impl::MlaxFoldConstantsBase<FoldConstantsPass> {
  using MlaxFoldConstantsBase::MlaxFoldConstantsBase;

  void runOnOperation() override {
    FoldCounter counter;
    GreedyRewriteConfig config;
    config.setListener(&counter).setMaxIterations(maxIterations);
    // No patterns: only folding and dead-code erasure. Not converging within
    // max-iterations leaves correct IR, so it is not a failure.
    (void)applyPatternsGreedily(getOperation(),
                                FrozenRewritePatternSet(RewritePatternSet(&getContext())),
                                config);
    numFolded = counter.folded;
    numDead = counter.dead;
    numConstants = counter.created.size();
  }
};

} // namespace
