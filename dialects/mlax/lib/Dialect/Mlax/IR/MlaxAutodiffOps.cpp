//===- MlaxAutodiffOps.cpp - the differentiation ops ----------------------===//
//
// Verifiers, then the derivative rules of stop_gradient and
// optimization_barrier. `mlax.jvp`, `mlax.vjp`, `mlax.custom_jvp_call` and `mlax.custom_vjp_call`
// name functions; their verifiers check the operand and result types against
// those functions' signatures, so `mlax-autodiff` only ever sees
// well-formed requests.
//
//===----------------------------------------------------------------------===//

#include "mlax/Dialect/Mlax/IR/MlaxOps.h"
#include "MlaxRuleUtils.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::mlax;
using namespace mlir::mlax::detail;

namespace {

func::FuncOp lookupFunc(Operation *op, SymbolTableCollection &symbols,
                        FlatSymbolRefAttr name) {
  return symbols.lookupNearestSymbolFrom<func::FuncOp>(op, name);
}

InFlightDiagnostic noFunc(Operation *op, StringRef role, FlatSymbolRefAttr name) {
  return op->emitOpError() << role << " '" << name.getValue()
                           << "' does not name a func.func";
}

/// Checks `indices` are increasing and within [0, n).
LogicalResult checkIndices(Operation *op, StringRef what, ArrayRef<int64_t> indices,
                           int64_t n) {
  for (auto [i, index] : llvm::enumerate(indices)) {
    if (index < 0 || index >= n)
      return op->emitOpError() << what << " index " << index << " is out of range [0, " << n
                               << ")";
    if (i > 0 && index <= indices[i - 1])
      return op->emitOpError() << what << " indices must be strictly increasing";
  }
  return success();
}

LogicalResult checkTypes(Operation *op, StringRef what, TypeRange actual,
                         ArrayRef<Type> expected) {
  if (actual.size() != expected.size())
    return op->emitOpError() << "expects " << expected.size() << " " << what << ", got "
                             << actual.size();
  for (auto [i, pair] : llvm::enumerate(llvm::zip(actual, expected))) {
    auto [a, e] = pair;
    if (a != e)
      return op->emitOpError() << what << " #" << i << " has type " << a << ", expected "
                               << e;
  }
  return success();
}

} // namespace

LogicalResult JvpOp::verifySymbolUses(SymbolTableCollection &symbols) {
  func::FuncOp fn = lookupFunc(*this, symbols, getCalleeAttr());
  if (!fn)
    return noFunc(*this, "callee", getCalleeAttr());
  FunctionType type = fn.getFunctionType();
  if (failed(checkTypes(*this, "primals", getPrimals().getTypes(), type.getInputs())) ||
      failed(checkIndices(*this, "wrt", getWrt(), type.getNumInputs())))
    return failure();
  SmallVector<Type> tangentTypes;
  for (int64_t i : getWrt()) {
    Type t = type.getInput(i);
    if (!ad::isDifferentiableType(t))
      return emitOpError() << "wrt argument #" << i << " has type " << t
                           << ", which has no tangent (not a real float tensor)";
    tangentTypes.push_back(t);
  }
  if (failed(checkTypes(*this, "tangents", getTangents().getTypes(), tangentTypes)))
    return failure();
  SmallVector<Type> resultTypes(type.getResults());
  resultTypes.append(type.getResults().begin(), type.getResults().end());
  return checkTypes(*this, "results", getResultTypes(), resultTypes);
}

LogicalResult VjpOp::verifySymbolUses(SymbolTableCollection &symbols) {
  func::FuncOp fn = lookupFunc(*this, symbols, getCalleeAttr());
  if (!fn)
    return noFunc(*this, "callee", getCalleeAttr());
  FunctionType type = fn.getFunctionType();
  if (failed(checkTypes(*this, "primals", getPrimals().getTypes(), type.getInputs())) ||
      failed(checkIndices(*this, "wrt", getWrt(), type.getNumInputs())) ||
      failed(checkIndices(*this, "seeds", getSeeds(), type.getNumResults())))
    return failure();
  SmallVector<Type> ctTypes;
  for (int64_t i : getSeeds()) {
    Type t = type.getResult(i);
    if (!ad::isDifferentiableType(t))
      return emitOpError() << "seed result #" << i << " has type " << t
                           << ", which has no cotangent (not a real float tensor)";
    ctTypes.push_back(t);
  }
  if (failed(checkTypes(*this, "cotangents", getCotangents().getTypes(), ctTypes)))
    return failure();
  SmallVector<Type> resultTypes(type.getResults());
  for (int64_t i : getWrt()) {
    Type t = type.getInput(i);
    if (!ad::isDifferentiableType(t))
      return emitOpError() << "wrt argument #" << i << " has type " << t
                           << ", which has no cotangent (not a real float tensor)";
    resultTypes.push_back(t);
  }
  return checkTypes(*this, "results", getResultTypes(), resultTypes);
}

LogicalResult CustomJvpCallOp::verifySymbolUses(SymbolTableCollection &symbols) {
  func::FuncOp fn = lookupFunc(*this, symbols, getCalleeAttr());
  if (!fn)
    return noFunc(*this, "callee", getCalleeAttr());
  func::FuncOp rule = lookupFunc(*this, symbols, getJvpRuleAttr());
  if (!rule)
    return noFunc(*this, "jvp_rule", getJvpRuleAttr());
  FunctionType type = fn.getFunctionType();
  if (failed(checkTypes(*this, "operands", getOperandTypes(), type.getInputs())) ||
      failed(checkTypes(*this, "results", getResultTypes(), type.getResults())))
    return failure();
  SmallVector<Type> ruleInputs(type.getInputs()), ruleResults(type.getResults());
  ruleInputs.append(type.getInputs().begin(), type.getInputs().end());
  ruleResults.append(type.getResults().begin(), type.getResults().end());
  FunctionType ruleType = rule.getFunctionType();
  if (TypeRange(ruleType.getInputs()) != TypeRange(ruleInputs) ||
      TypeRange(ruleType.getResults()) != TypeRange(ruleResults))
    return emitOpError() << "jvp_rule '" << getJvpRule() << "' has type " << ruleType
                         << ", expected " << FunctionType::get(getContext(), ruleInputs,
                                                               ruleResults)
                         << " (primals then tangents, to results then tangents)";
  return success();
}

LogicalResult CustomVjpCallOp::verifySymbolUses(SymbolTableCollection &symbols) {
  func::FuncOp fn = lookupFunc(*this, symbols, getCalleeAttr());
  if (!fn)
    return noFunc(*this, "callee", getCalleeAttr());
  func::FuncOp fwd = lookupFunc(*this, symbols, getFwdAttr());
  if (!fwd)
    return noFunc(*this, "fwd", getFwdAttr());
  func::FuncOp bwd = lookupFunc(*this, symbols, getBwdAttr());
  if (!bwd)
    return noFunc(*this, "bwd", getBwdAttr());
  FunctionType type = fn.getFunctionType();
  if (failed(checkTypes(*this, "operands", getOperandTypes(), type.getInputs())) ||
      failed(checkTypes(*this, "results", getResultTypes(), type.getResults())))
    return failure();
  FunctionType fwdType = fwd.getFunctionType();
  unsigned nres = type.getNumResults();
  if (TypeRange(fwdType.getInputs()) != TypeRange(type.getInputs()) ||
      fwdType.getNumResults() < nres ||
      TypeRange(fwdType.getResults().take_front(nres)) != TypeRange(type.getResults()))
    return emitOpError() << "fwd '" << getFwd() << "' has type " << fwdType
                         << "; it must take the callee's inputs and return its results "
                            "followed by residuals";
  SmallVector<Type> bwdInputs(fwdType.getResults().drop_front(nres));
  bwdInputs.append(type.getResults().begin(), type.getResults().end());
  FunctionType bwdType = bwd.getFunctionType();
  if (TypeRange(bwdType.getInputs()) != TypeRange(bwdInputs) ||
      TypeRange(bwdType.getResults()) != TypeRange(type.getInputs()))
    return emitOpError() << "bwd '" << getBwd() << "' has type " << bwdType << ", expected "
                         << FunctionType::get(getContext(), bwdInputs, type.getInputs())
                         << " (residuals then result cotangents, to operand cotangents)";
  return success();
}

LogicalResult RematCallOp::verifySymbolUses(SymbolTableCollection &symbols) {
  func::FuncOp fn = lookupFunc(*this, symbols, getCalleeAttr());
  if (!fn)
    return noFunc(*this, "callee", getCalleeAttr());
  FunctionType type = fn.getFunctionType();
  if (failed(checkTypes(*this, "operands", getOperandTypes(), type.getInputs())))
    return failure();
  return checkTypes(*this, "results", getResultTypes(), type.getResults());
}

LogicalResult OptimizationBarrierOp::inferReturnTypes(MLIRContext *,
                                                      std::optional<Location>,
                                                      Adaptor adaptor,
                                                      SmallVectorImpl<Type> &results) {
  for (Value v : adaptor.getOperands())
    results.push_back(v.getType());
  return success();
}

namespace {
/// optimization_barrier(%a, %b) with %b's result unused ->
/// optimization_barrier(%a).
struct DropUnusedBarrierResults : OpRewritePattern<OptimizationBarrierOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(OptimizationBarrierOp op,
                                PatternRewriter &rewriter) const override {
    SmallVector<Value> kept;
    for (auto [v, r] : llvm::zip(op.getOperands(), op.getResults()))
      if (!r.use_empty())
        kept.push_back(v);
    if (kept.size() == op.getNumOperands() || kept.empty())
      return failure(); // (an unused barrier is dead code, for DCE)
    auto fence = OptimizationBarrierOp::create(rewriter, op.getLoc(), kept);
    unsigned k = 0;
    for (Value r : op.getResults())
      if (!r.use_empty())
        rewriter.replaceAllUsesWith(r, fence.getResult(k++));
    rewriter.eraseOp(op);
    return success();
  }
};
} // namespace

void OptimizationBarrierOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                                        MLIRContext *context) {
  results.add<DropUnusedBarrierResults>(context);
}

//======================================================================//
// stop_gradient, optimization_barrier: derivative rules
//======================================================================//

// stop_gradient's zero partial is declared in MlaxAutodiffOps.td.

LogicalResult OptimizationBarrierOp::jvp(OpBuilder &, ArrayRef<Value> tangents,
                                         SmallVectorImpl<Value> &resultTangents) {
  resultTangents.append(tangents.begin(), tangents.end());
  return success();
}

LogicalResult OptimizationBarrierOp::vjp(OpBuilder &, ArrayRef<Value> cotangents,
                                         SmallVectorImpl<Value> &operandCotangents) {
  operandCotangents.append(cotangents.begin(), cotangents.end());
  return success();
}
