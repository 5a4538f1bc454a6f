//===- MlaxCanonicalize.cpp - mlax canonicalization patterns --------------===//
//
// Patterns that collapse chains of shape ops and exact conversions into one
// op. Identities that need no new op (`transpose` by the identity, `x * 1`,
// ...) are folders, in MlaxFolders.cpp. Dead pure ops need no pattern:
// `canonicalize` erases them.
//
//===----------------------------------------------------------------------===//

#include "mlax/Dialect/Mlax/IR/MlaxOps.h"

#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::mlax;

namespace {

/// transpose(transpose(x, p1), p2) -> transpose(x, p1[p2[i]]).
struct ComposeTransposes : OpRewritePattern<TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(TransposeOp op,
                                PatternRewriter &rewriter) const override {
    auto inner = op.getOperand().getDefiningOp<TransposeOp>();
    if (!inner)
      return failure();
    SmallVector<int64_t> perm;
    for (int64_t p : op.getPermutation())
      perm.push_back(inner.getPermutation()[p]);
    rewriter.replaceOpWithNewOp<TransposeOp>(op, op.getType(),
                                             inner.getOperand(), perm);
    return success();
  }
};

/// reshape(reshape(x)) -> reshape(x).
struct ComposeReshapes : OpRewritePattern<ReshapeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ReshapeOp op,
                                PatternRewriter &rewriter) const override {
    auto inner = op.getOperand().getDefiningOp<ReshapeOp>();
    if (!inner)
      return failure();
    rewriter.replaceOpWithNewOp<ReshapeOp>(op, op.getType(), inner.getOperand());
    return success();
  }
};

/// broadcast_in_dim(broadcast_in_dim(x, d1), d2) -> broadcast_in_dim(x,
/// d2[d1[i]]). Valid because each step's size-1 rule composes: an operand
/// dimension that is not 1 keeps its size through both.
struct ComposeBroadcasts : OpRewritePattern<BroadcastInDimOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(BroadcastInDimOp op,
                                PatternRewriter &rewriter) const override {
    auto inner = op.getOperand().getDefiningOp<BroadcastInDimOp>();
    if (!inner)
      return failure();
    SmallVector<int64_t> dims;
    for (int64_t d : inner.getBroadcastDimensions())
      dims.push_back(op.getBroadcastDimensions()[d]);
    rewriter.replaceOpWithNewOp<BroadcastInDimOp>(op, op.getType(),
                                                  inner.getOperand(), dims);
    return success();
  }
};

/// Whether converting any value of `from` to `to` is exact (the value
/// survives). Bools (i1) are 0/1; signless integers are signed.
bool isExactConversion(Type from, Type to) {
  if (from == to)
    return true;
  auto fi = llvm::dyn_cast<IntegerType>(from);
  auto ti = llvm::dyn_cast<IntegerType>(to);
  auto ff = llvm::dyn_cast<FloatType>(from);
  auto tf = llvm::dyn_cast<FloatType>(to);
  // Value bits of an integer type and whether it has negative values.
  auto bits = [](IntegerType t) {
    unsigned w = t.getWidth();
    return (t.isUnsigned() || w == 1) ? w : w - 1;
  };
  auto isSigned = [](IntegerType t) { return !t.isUnsigned() && t.getWidth() > 1; };
  if (fi && ti) {
    if (ti.getWidth() == 1)
      return fi.getWidth() == 1;
    return bits(ti) >= bits(fi) && (isSigned(ti) || !isSigned(fi));
  }
  auto ieee = [](Type t) {
    return llvm::isa<Float16Type, BFloat16Type, Float32Type, Float64Type>(t);
  };
  if (fi && tf) // every integer of the source fits the mantissa
    return ieee(tf) && tf.getFPMantissaWidth() >= (int)bits(fi);
  if (ff && tf) {
    if (!ieee(ff) || !ieee(tf))
      return false;
    using llvm::APFloat;
    const llvm::fltSemantics &a = ff.getFloatSemantics(),
                             &b = tf.getFloatSemantics();
    int pa = APFloat::semanticsPrecision(a), pb = APFloat::semanticsPrecision(b);
    // More precision, more range, and the smallest denormal of `a` in `b`.
    return pb >= pa &&
           APFloat::semanticsMaxExponent(b) >= APFloat::semanticsMaxExponent(a) &&
           APFloat::semanticsMinExponent(b) - pb <=
               APFloat::semanticsMinExponent(a) - pa;
  }
  return false;
}

/// convert(convert(x : A -> B) : B -> C) -> convert(x : A -> C) when A -> B
/// is exact: every conversion depends only on the value converted, so an
/// exact first step changes nothing.
struct ComposeExactConverts : OpRewritePattern<ConvertOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ConvertOp op,
                                PatternRewriter &rewriter) const override {
    auto inner = op.getOperand().getDefiningOp<ConvertOp>();
    if (!inner)
      return failure();
    Type a = getElementTypeOrSelf(inner.getOperand().getType());
    Type b = getElementTypeOrSelf(inner.getType());
    if (!isExactConversion(a, b))
      return rewriter.notifyMatchFailure(op, "the inner conversion rounds");
    if (inner.getOperand().getType() == op.getType())
      rewriter.replaceOp(op, inner.getOperand());
    else
      rewriter.replaceOpWithNewOp<ConvertOp>(op, op.getType(),
                                             inner.getOperand());
    return success();
  }
};

/// slice(slice(x)) -> one slice: element j of the outer slice is element
/// s2 + j*st2 of the inner, which is element s1 + (s2 + j*st2)*st1 of x.
struct ComposeSlices : OpRewritePattern<SliceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(SliceOp op,
                                PatternRewriter &rewriter) const override {
    auto inner = op.getOperand().getDefiningOp<SliceOp>();
    if (!inner)
      return failure();
    SmallVector<int64_t> start, limit, strides;
    for (int64_t i = 0, e = op.getType().getRank(); i < e; ++i) {
      int64_t s1 = inner.getStartIndices()[i], st1 = inner.getStrides()[i];
      int64_t s2 = op.getStartIndices()[i], st2 = op.getStrides()[i];
      int64_t n = op.getType().getDimSize(i);
      start.push_back(s1 + s2 * st1);
      strides.push_back(st1 * st2);
      limit.push_back(n == 0 ? start.back() : start.back() + (n - 1) * strides.back() + 1);
    }
    rewriter.replaceOpWithNewOp<SliceOp>(op, op.getType(), inner.getOperand(),
                                         start, limit, strides);
    return success();
  }
};

} // namespace

void TransposeOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                              MLIRContext *context) {
  results.add<ComposeTransposes>(context);
}
void ReshapeOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                            MLIRContext *context) {
  results.add<ComposeReshapes>(context);
}
void BroadcastInDimOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                                   MLIRContext *context) {
  results.add<ComposeBroadcasts>(context);
}
void ConvertOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                            MLIRContext *context) {
  results.add<ComposeExactConverts>(context);
}
void SliceOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                          MLIRContext *context) {
  results.add<ComposeSlices>(context);
}
