//===- ConvertElementwiseOps.cpp - elementwise ops -> StableHLO -------------===//
//
// compare (direction and compare_type), select_n (a chain of selects),
// convert and conj (StableHLO has no conjugate); the one-to-one elementwise ops share the generic pattern of
// ConvertMlaxToStablehlo.cpp.
//
//===----------------------------------------------------------------------===//

#include "mlax/Dialect/Mlax/IR/MlaxOps.h"
#include "mlax/Conversion/Passes.h"
#include "mlax/Conversion/MlaxToStablehlo/StablehloBuilder.h"

#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/APFloat.h"

using namespace mlir;
using namespace mlir::mlax;

namespace {

struct ComparePattern : OpConversionPattern<CompareOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(CompareOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    StablehloBuilder hlo(rewriter, op.getLoc());
    rewriter.replaceOp(
        op, hlo.compare(stringifyComparisonDirection(op.getComparisonDirection()),
                        adaptor.getLhs(), adaptor.getRhs()));
    return success();
  }
};

/// select_n(which, c0, ..., cn-1): a bool `which` is one stablehlo.select;
/// an integer `which` becomes a chain `which <= i ? ci : (...)`.
struct SelectNPattern : OpConversionPattern<SelectNOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SelectNOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    StablehloBuilder hlo(rewriter, op.getLoc());
    ValueRange cases = adaptor.getCases();
    Value which = adaptor.getWhich();
    if (cases.size() == 1) {
      rewriter.replaceOp(op, cases.front());
      return success();
    }
    auto whichType = tensorOf(which);
    if (whichType.getElementType().isInteger(1)) {
      rewriter.replaceOp(op, hlo.select(which, cases[1], cases[0]));
      return success();
    }
    Value acc = cases.back();
    for (int64_t i = cases.size() - 2; i >= 0; --i) {
      Value bound = hlo.constant(splatAttr(whichType, i));
      acc = hlo.select(hlo.compare("LE", which, bound), cases[i], acc);
    }
    rewriter.replaceOp(op, acc);
    return success();
  }
};

/// Conversion to bool is `x != 0` (stablehlo.convert would truncate).
/// Complex to another real type takes the real part first, as JAX lowers it (XLA's
/// folding of a stablehlo.convert of a complex constant to a real type
/// crashes).
struct ConvertPattern : OpConversionPattern<ConvertOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ConvertOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    StablehloBuilder hlo(rewriter, op.getLoc());
    Value in = adaptor.getOperand();
    auto inType = tensorOf(in);
    if (op.getType().getElementType().isInteger(1) &&
        !inType.getElementType().isInteger(1)) {
      rewriter.replaceOp(op,
                         hlo.compare("NE", in, hlo.constant(splatAttr(inType, 0))));
      return success();
    }
    if (auto complexType = llvm::dyn_cast<ComplexType>(inType.getElementType());
        complexType && !llvm::isa<ComplexType>(op.getType().getElementType())) {
      inType = inType.clone(complexType.getElementType());
      in = hlo.op("real", {in}, inType);
      if (inType == op.getType()) {
        rewriter.replaceOp(op, in);
        return success();
      }
    }
    rewriter.replaceOp(op, hlo.op("convert", {in}, op.getType()));
    return success();
  }
};

/// conj(x) = complex(real(x), -imag(x)), as JAX lowers it.
struct ConjPattern : OpConversionPattern<ConjOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ConjOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    StablehloBuilder hlo(rewriter, op.getLoc());
    Value x = adaptor.getOperand();
    auto type = tensorOf(x);
    Type partType = type.clone(llvm::cast<ComplexType>(type.getElementType()).getElementType());
    Value re = hlo.op("real", {x}, partType);
    Value im = hlo.op("imag", {x}, partType);
    rewriter.replaceOp(op, hlo.op("complex", {re, hlo.op("negate", {im}, partType)}, type));
    return success();
  }
};

/// Whether `v` is an mlax.constant splat of a real NaN.
bool isNanSplat(Value v) {
  auto constant = v.getDefiningOp<ConstantOp>();
  if (!constant)
    return false;
  auto dense = llvm::dyn_cast<DenseElementsAttr>(constant.getValue());
  if (!dense || !dense.isSplat() || !llvm::isa<FloatType>(dense.getElementType()))
    return false;
  return dense.getSplatValue<APFloat>().isNaN();
}

/// x + NaN, x - NaN, x * NaN, x / NaN (and NaN on the left) lower to the
/// NaN they are, for every x, as IEEE says. XLA keeps `x * nan` as an op,
/// and its CPU code for exp (and the other functions by range reduction)
/// of a value LLVM can prove NaN gives garbage where JAX's users get it too
/// (`exp(x * nan)` under jit: ~1e25, 0, ...); a NaN constant is folded
/// through them by XLA correctly. Only at the lowering, after the
/// derivatives are taken: d(x * nan)/dx is nan, not the 0 of a constant.
template <typename OpTy>
struct NanOperandPattern : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = llvm::dyn_cast<RankedTensorType>(op.getType());
    if (!type || !type.hasStaticShape() || !llvm::isa<FloatType>(type.getElementType()))
      return failure();
    if (!isNanSplat(op.getLhs()) && !isNanSplat(op.getRhs()))
      return failure();
    auto semantics = &llvm::cast<FloatType>(type.getElementType()).getFloatSemantics();
    StablehloBuilder hlo(rewriter, op.getLoc());
    rewriter.replaceOp(
        op, hlo.constant(DenseElementsAttr::get(type, APFloat::getQNaN(*semantics))));
    return success();
  }
};

} // namespace

void mlir::mlax::populateElementwiseToStablehloPatterns(RewritePatternSet &patterns) {
  patterns.add<ComparePattern, SelectNPattern, ConvertPattern, ConjPattern>(patterns.getContext());
  // Before the one-to-one lowering of these ops (benefit 1).
  patterns.add<NanOperandPattern<AddOp>, NanOperandPattern<SubOp>, NanOperandPattern<MulOp>,
               NanOperandPattern<DivOp>>(patterns.getContext(), /*benefit=*/2);
}
