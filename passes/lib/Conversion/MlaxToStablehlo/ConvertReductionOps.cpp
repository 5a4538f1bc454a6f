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

/// reduce_and is a product of bools, reduce_or a sum (their identities).
template <typename OpTy, WindowReduction Kind>
struct ReducePattern : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    StablehloBuilder hlo(rewriter, op.getLoc());
    DenseElementsAttr init = identityAttr(Kind, op.getType().getElementType());
    rewriter.replaceOp(op, hlo.reduce(adaptor.getOperand(), init, op.getAxes(),
                                      OpTy::getStablehloName(), op.getType()));
    return success();
  }
};

} // namespace

void mlir::mlax::populateReductionToStablehloPatterns(RewritePatternSet &patterns) {
  patterns.add<ReducePattern<ReduceSumOp, WindowReduction::Add>,
               ReducePattern<ReduceProdOp, WindowReduction::Mul>,
               ReducePattern<ReduceMaxOp, WindowReduction::Max>,
               ReducePattern<ReduceMinOp, WindowReduction::Min>,
               ReducePattern<ReduceAndOp, WindowReduction::Mul>,
               ReducePattern<ReduceOrOp, WindowReduction::Add>>(patterns.getContext());
}
