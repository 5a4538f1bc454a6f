//===- ConvertReductionOps.cpp - reductions -> StableHLO --------------------===//
//
// reduce_sum/prod/max/min/and/or: stablehlo.reduce with the combiner's
// identity as init.
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

/// The identity of a reduction's combiner as a scalar constant, e.g. -inf
/// for maximum (the lowest finite value in formats without infinities).
DenseElementsAttr reductionInit(StringRef combiner, RankedTensorType scalar) {
  bool isMax = combiner == "stablehlo.maximum",
       isMin = combiner == "stablehlo.minimum",
       isProduct = combiner == "stablehlo.multiply",
       isAnd = combiner == "stablehlo.and";
  Type elem = scalar.getElementType();
  if (!isMax && !isMin) {
    if (elem.isInteger(1)) {
      bool identity = isAnd; // and: true, or: false
      return DenseElementsAttr::get(scalar, llvm::ArrayRef(identity));
    }
    return splatNumber(scalar, isProduct ? 1 : 0);
  }
  if (auto ft = llvm::dyn_cast<FloatType>(elem)) {
    const llvm::fltSemantics &sem = ft.getFloatSemantics();
    llvm::APFloat value = llvm::APFloat::semanticsHasInf(sem)
                              ? llvm::APFloat::getInf(sem, /*Negative=*/isMax)
                              : llvm::APFloat::getLargest(sem, /*Negative=*/isMax);
    return DenseElementsAttr::get(scalar, llvm::ArrayRef(value));
  }
  if (auto it = llvm::dyn_cast<IntegerType>(elem)) {
    unsigned w = it.getWidth();
    bool isSigned = !it.isUnsigned() && w > 1;
    llvm::APInt value = isMax ? (isSigned ? llvm::APInt::getSignedMinValue(w)
                                          : llvm::APInt::getMinValue(w))
                              : (isSigned ? llvm::APInt::getSignedMaxValue(w)
                                          : llvm::APInt::getMaxValue(w));
    return DenseElementsAttr::get(scalar, llvm::ArrayRef(value));
  }
  return {};
}

template <typename OpTy>
struct ReducePattern : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    StablehloBuilder hlo(rewriter, op.getLoc());
    StringRef combiner = OpTy::getStablehloName();
    auto scalar = RankedTensorType::get({}, op.getType().getElementType());
    DenseElementsAttr init = reductionInit(combiner, scalar);
    if (!init)
      return rewriter.notifyMatchFailure(op, "unsupported element type");
    rewriter.replaceOp(op, hlo.reduce(adaptor.getOperand(), init, op.getAxes(),
                                      combiner, op.getType()));
    return success();
  }
};

} // namespace

void mlir::mlax::populateReductionToStablehloPatterns(RewritePatternSet &patterns) {
  patterns.add<ReducePattern<ReduceSumOp>, ReducePattern<ReduceProdOp>,
               ReducePattern<ReduceMaxOp>, ReducePattern<ReduceMinOp>,
               ReducePattern<ReduceAndOp>, ReducePattern<ReduceOrOp>>(patterns.getContext());
}
