//===- ConvertReductionOps.cpp - reductions -> StableHLO --------------------===//
//
// reduce_sum/prod/max/min/and/or: stablehlo.reduce with the combiner's
// identity as init. The general `mlax.reduce`: stablehlo.reduce with its
// operands, init values and body (cloned; the mlax ops in it are then
// converted like any other, as the control-flow regions are).
//
//===----------------------------------------------------------------------===//

#include "mlax/Dialect/Mlax/IR/MlaxOps.h"
#include "mlax/Conversion/Passes.h"
#include "mlax/Conversion/MlaxToStablehlo/StablehloBuilder.h"

#include "mlir/IR/IRMapping.h"
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

struct GeneralReducePattern : OpConversionPattern<ReduceOp> {
  // The body is cloned, so a reduce nested in it is converted by this
  // pattern again.
  GeneralReducePattern(MLIRContext *ctx) : OpConversionPattern(ctx) {
    setHasBoundedRewriteRecursion();
  }
  LogicalResult matchAndRewrite(ReduceOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    StablehloBuilder hlo(rewriter, op.getLoc());
    SmallVector<Value> operands(adaptor.getInputs());
    operands.append(adaptor.getInitValues().begin(), adaptor.getInitValues().end());
    Operation *reduce = hlo.create("reduce", operands, op.getResultTypes(),
                                   {hlo.i64Array("dimensions", op.getDimensions())},
                                   /*regions=*/1);
    Block &body = op.getBody().front();
    {
      OpBuilder::InsertionGuard guard(rewriter);
      SmallVector<Location> locs(body.getNumArguments(), op.getLoc());
      Block *block = rewriter.createBlock(&reduce->getRegion(0), {},
                                          body.getArgumentTypes(), locs);
      IRMapping map;
      map.map(body.getArguments(), block->getArguments());
      for (Operation &inner : body.without_terminator())
        rewriter.clone(inner, map);
      SmallVector<Value> results;
      for (Value v : body.getTerminator()->getOperands())
        results.push_back(map.lookupOrDefault(v));
      hlo.create("return", results, {});
    }
    rewriter.replaceOp(op, reduce->getResults());
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
               ReducePattern<ReduceOrOp, WindowReduction::Add>, GeneralReducePattern>(
      patterns.getContext());
}
