//===- ConvertFftOps.cpp - fft -> StableHLO --------------------------------===//
//
// mlax.fft -> stablehlo.fft, attribute for attribute.
//
//===----------------------------------------------------------------------===//

#include "mlax/Dialect/Mlax/IR/MlaxOps.h"
#include "mlax/Conversion/Passes.h"
#include "mlax/Conversion/MlaxToStablehlo/StablehloBuilder.h"

#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::mlax;

namespace {

struct FftPattern : OpConversionPattern<FftOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(FftOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    StablehloBuilder hlo(rewriter, op.getLoc());
    Attribute kind =
        hlo.attr(("#stablehlo<fft_type " + stringifyFftType(op.getFftType()) + ">").str());
    if (!kind)
      return failure();
    rewriter.replaceOp(op, hlo.op("fft", adaptor.getOperand(), op.getType(),
                                  {hlo.named("fft_type", kind),
                                   hlo.i64Array("fft_length", op.getFftLength())}));
    return success();
  }
};

} // namespace

void mlir::mlax::populateFftToStablehloPatterns(RewritePatternSet &patterns) {
  patterns.add<FftPattern>(patterns.getContext());
}
