//===- ConvertRandomOps.cpp - rng_bit_generator, rng_uniform -> StableHLO -===//
//
// mlax.rng_bit_generator -> stablehlo.rng_bit_generator, as jax lowers
// lax.rng_bit_generator: XLA takes a ui64[2] key, so a ui32[4] key is
// reshaped to 2x2 and bitcast to ui64[2], and the new key bitcast back.
// ui8 and ui16 bits are generated directly, as jax requests them.
// mlax.rng_uniform -> stablehlo.rng with the UNIFORM distribution and the
// shape as an i64 constant, as jax lowers lax.rng_uniform.
//
//===----------------------------------------------------------------------===//

#include "mlax/Dialect/Mlax/IR/MlaxOps.h"
#include "mlax/Conversion/Passes.h"
#include "mlax/Conversion/MlaxToStablehlo/StablehloBuilder.h"

#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::mlax;

namespace {

struct RngBitGeneratorPattern : OpConversionPattern<RngBitGeneratorOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(RngBitGeneratorOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    StablehloBuilder hlo(rewriter, op.getLoc());
    Attribute algorithm = hlo.attr(
        ("#stablehlo<rng_algorithm " + stringifyRngAlgorithm(op.getAlgorithm()) + ">").str());
    if (!algorithm)
      return failure();
    Value key = adaptor.getKey();
    auto keyType = tensorOf(key);
    auto u64 = IntegerType::get(getContext(), 64, IntegerType::Unsigned);
    auto u64Key = RankedTensorType::get({2}, u64);
    bool words32 = keyType.getElementType().getIntOrFloatBitWidth() == 32;
    auto pairs = RankedTensorType::get({2, 2}, keyType.getElementType());
    if (words32)
      key = hlo.op("bitcast_convert", {hlo.op("reshape", {key}, pairs)}, u64Key);
    Operation *gen = hlo.create("rng_bit_generator", {key}, {u64Key, op.getBits().getType()},
                                {hlo.named("rng_algorithm", algorithm)});
    Value newKey = gen->getResult(0);
    if (words32)
      newKey = hlo.op("reshape", {hlo.op("bitcast_convert", {newKey}, pairs)}, keyType);
    rewriter.replaceOp(op, {newKey, gen->getResult(1)});
    return success();
  }
};

struct RngUniformPattern : OpConversionPattern<RngUniformOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(RngUniformOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    StablehloBuilder hlo(rewriter, op.getLoc());
    Attribute distribution = hlo.attr("#stablehlo<rng_distribution UNIFORM>");
    if (!distribution)
      return failure();
    auto type = tensorOf(op.getResult());
    auto shapeType = RankedTensorType::get({type.getRank()}, rewriter.getI64Type());
    Value shape = hlo.constant(DenseElementsAttr::get(shapeType, type.getShape()));
    rewriter.replaceOp(op, hlo.op("rng", {adaptor.getA(), adaptor.getB(), shape}, type,
                                  {hlo.named("rng_distribution", distribution)}));
    return success();
  }
};

} // namespace

void mlir::mlax::populateRandomToStablehloPatterns(RewritePatternSet &patterns) {
  patterns.add<RngBitGeneratorPattern, RngUniformPattern>(patterns.getContext());
}
