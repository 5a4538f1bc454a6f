//===- MlaxControlFlowOps.cpp - cond, while and scan ----------------------===//
//
// Verifiers check every region's block arguments and yielded values against
// the op's operands and results, so no pass ever sees a region whose
// signature disagrees with its op. Messages name the region and both types.
//
//===----------------------------------------------------------------------===//

#include "Mlax/MlaxOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::mlax;

namespace {

/// Checks that `region`'s block takes `expected` and returns its yield.
FailureOr<YieldOp> checkRegion(Operation *op, Region &region, StringRef name,
                               TypeRange expected) {
  Block &block = region.front();
  if (block.getNumArguments() != expected.size())
    return op->emitOpError() << name << " takes " << block.getNumArguments()
                             << " arguments but the op passes it " << expected.size();
  for (auto [i, pair] : llvm::enumerate(llvm::zip(block.getArgumentTypes(), expected))) {
    auto [have, want] = pair;
    if (have != want)
      return op->emitOpError() << name << " argument #" << i << " has type " << have
                               << " but the op passes " << want;
  }
  // The op verifier runs before its regions' ops are verified: the block
  // may not end with a terminator yet.
  auto yield = block.empty() ? YieldOp() : llvm::dyn_cast<YieldOp>(block.back());
  if (!yield)
    return op->emitOpError() << name << " must end with mlax.yield";
  return yield;
}

LogicalResult checkYield(Operation *op, YieldOp yield, StringRef name, StringRef what,
                         TypeRange expected) {
  TypeRange have = yield.getResults().getTypes();
  if (have.size() != expected.size())
    return op->emitOpError() << name << " yields " << have.size() << " values but "
                             << what << " " << expected.size();
  for (auto [i, pair] : llvm::enumerate(llvm::zip(have, expected))) {
    auto [h, w] = pair;
    if (h != w)
      return op->emitOpError() << name << " yields " << h << " as value #" << i
                               << " but " << what << " " << w;
  }
  return success();
}

} // namespace

//===----------------------------------------------------------------------===//
// cond
//===----------------------------------------------------------------------===//

LogicalResult CondOp::verify() {
  if (getBranches().empty())
    return emitOpError("needs at least one branch");
  for (auto [i, region] : llvm::enumerate(getBranches())) {
    std::string name = "branch " + std::to_string(i);
    FailureOr<YieldOp> yield = checkRegion(*this, region, name, getInputs().getTypes());
    if (failed(yield) ||
        failed(checkYield(*this, *yield, name, "the op's results are", getResultTypes())))
      return failure();
  }
  return success();
}

namespace {
/// A cond whose index is a constant (or that has one branch) is that branch.
struct InlineKnownBranch : OpRewritePattern<CondOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(CondOp op, PatternRewriter &rewriter) const override {
    int64_t n = op.getBranches().size();
    int64_t chosen = n - 1;
    if (n > 1) {
      DenseIntElementsAttr index;
      if (!matchPattern(op.getIndex(), m_Constant(&index)))
        return failure();
      int64_t i = (*index.getValues<APInt>().begin()).getSExtValue();
      if (i >= 0 && i < n)
        chosen = i;
    }
    Block &block = op.getBranches()[chosen].front();
    auto yield = llvm::cast<YieldOp>(block.getTerminator());
    rewriter.inlineBlockBefore(&block, op, op.getInputs());
    // Read the yielded values after inlining: a yielded block argument has
    // been replaced by the op's input.
    SmallVector<Value> results(yield.getResults());
    rewriter.replaceOp(op, results);
    rewriter.eraseOp(yield);
    return success();
  }
};
} // namespace

void CondOp::getCanonicalizationPatterns(RewritePatternSet &results, MLIRContext *ctx) {
  results.add<InlineKnownBranch>(ctx);
}

//===----------------------------------------------------------------------===//
// while
//===----------------------------------------------------------------------===//

LogicalResult WhileOp::verify() {
  TypeRange state = getOperands().getTypes();
  if (getResultTypes() != state)
    return emitOpError("results must have the types of the operands (the loop state)");
  FailureOr<YieldOp> cond = checkRegion(*this, getCond(), "cond", state);
  if (failed(cond))
    return failure();
  auto pred = RankedTensorType::get({}, IntegerType::get(getContext(), 1));
  if (failed(checkYield(*this, *cond, "cond", "a loop condition is", TypeRange{pred})))
    return failure();
  FailureOr<YieldOp> body = checkRegion(*this, getBody(), "body", state);
  if (failed(body))
    return failure();
  return checkYield(*this, *body, "body", "the loop state is", state);
}

//===----------------------------------------------------------------------===//
// scan
//===----------------------------------------------------------------------===//

LogicalResult ScanOp::verify() {
  int64_t length = getLength();
  if (length < 0)
    return emitOpError() << "length must be non-negative, got " << length;
  if (getUnroll() < 1)
    return emitOpError() << "unroll must be at least 1, got " << getUnroll();
  SmallVector<Type> args(getInit().getTypes());
  for (auto [i, x] : llvm::enumerate(getXs())) {
    auto type = llvm::cast<RankedTensorType>(x.getType());
    if (type.getRank() == 0 || type.getDimSize(0) != length)
      return emitOpError() << "xs #" << i << " has type " << type
                           << "; scanned values need a leading axis of the length, "
                           << length;
    args.push_back(RankedTensorType::get(type.getShape().drop_front(),
                                         type.getElementType()));
  }
  llvm::append_range(args, getConsts().getTypes());
  FailureOr<YieldOp> yield = checkRegion(*this, getBody(), "body", args);
  if (failed(yield))
    return failure();
  unsigned numCarry = getInit().size();
  TypeRange yielded = yield->getResults().getTypes();
  if (yielded.size() < numCarry)
    return emitOpError() << "body yields " << yielded.size()
                         << " values but the carry alone has " << numCarry;
  for (auto [i, pair] : llvm::enumerate(llvm::zip(yielded.take_front(numCarry),
                                                  getInit().getTypes()))) {
    auto [h, w] = pair;
    if (h != w)
      return emitOpError() << "body yields " << h << " for carry #" << i
                           << " but the carry is " << w;
  }
  SmallVector<Type> expected(getInit().getTypes());
  for (Type y : yielded.drop_front(numCarry)) {
    auto type = llvm::cast<RankedTensorType>(y);
    SmallVector<int64_t> shape{length};
    llvm::append_range(shape, type.getShape());
    expected.push_back(RankedTensorType::get(shape, type.getElementType()));
  }
  if (getResultTypes() != TypeRange(expected)) {
    InFlightDiagnostic diag = emitOpError("results must be the carry then the stacked ys: (");
    llvm::interleaveComma(expected, diag);
    return diag << "), got (" << getResultTypes() << ")";
  }
  return success();
}
