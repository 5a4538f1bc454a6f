//===- ConvertMathOps.cpp - MlaxMathOps.td -> StableHLO / CHLO ------------===//
//
// The elementwise functions, clamp and top_k lower one-to-one to the CHLO or
// StableHLO op their ODS names (the generic pattern in
// ConvertMlaxToStablehlo.cpp); XLA expands CHLO exactly as
// it does for JAX. cumprod/cummax/cummin/cumlogsumexp lower as jax lowers
// them: a stablehlo.reduce_window over the whole axis, padded on one side
// with the combiner's identity (XLA rewrites it into a scan).
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

enum class Combiner { Sum, Prod, Max, Min, LogSumExp };

/// The combiner's identity as a scalar constant: 0, 1, the lowest / highest
/// value (-inf / inf for floats that have them), or -inf.
DenseElementsAttr identity(Combiner kind, RankedTensorType scalar) {
  Type elem = scalar.getElementType();
  if (auto ft = llvm::dyn_cast<FloatType>(elem)) {
    const llvm::fltSemantics &sem = ft.getFloatSemantics();
    llvm::APFloat v = kind == Combiner::Sum ? llvm::APFloat::getZero(sem)
                                            : llvm::APFloat::getOne(sem);
    if (kind != Combiner::Prod && kind != Combiner::Sum) {
      bool negative = kind != Combiner::Min;
      v = llvm::APFloat::semanticsHasInf(sem) ? llvm::APFloat::getInf(sem, negative)
                                              : llvm::APFloat::getLargest(sem, negative);
    }
    return DenseElementsAttr::get(scalar, llvm::ArrayRef(v));
  }
  auto it = llvm::cast<IntegerType>(elem);
  unsigned w = it.getWidth();
  bool isSigned = !it.isUnsigned();
  llvm::APInt v(w, kind == Combiner::Sum ? 0 : 1);
  if (kind == Combiner::Max)
    v = isSigned ? llvm::APInt::getSignedMinValue(w) : llvm::APInt::getMinValue(w);
  else if (kind == Combiner::Min)
    v = isSigned ? llvm::APInt::getSignedMaxValue(w) : llvm::APInt::getMaxValue(w);
  return DenseElementsAttr::get(scalar, llvm::ArrayRef(v));
}

/// The combiner applied to two scalars, in StableHLO (logaddexp as jax's
/// `logaddexp`: NaN from inf - inf falls back to a + b).
Value combine(StablehloBuilder &hlo, Combiner kind, Value a, Value b) {
  Type t = a.getType();
  switch (kind) {
  case Combiner::Sum:
    return hlo.op("add", {a, b}, t);
  case Combiner::Prod:
    return hlo.op("multiply", {a, b}, t);
  case Combiner::Max:
    return hlo.op("maximum", {a, b}, t);
  case Combiner::Min:
    return hlo.op("minimum", {a, b}, t);
  case Combiner::LogSumExp: {
    Value amax = hlo.op("maximum", {a, b}, t);
    Value delta = hlo.op("subtract", {a, b}, t);
    Value isNan = hlo.compare("NE", delta, delta);
    Value negAbs = hlo.op("negate", {hlo.op("abs", {delta}, t)}, t);
    Value tail = hlo.op("log_plus_one", {hlo.op("exponential", {negAbs}, t)}, t);
    Value sum = hlo.op("add", {a, b}, t);
    Value shifted = hlo.op("add", {amax, tail}, t);
    return hlo.select(isNan, sum, shifted);
  }
  }
  llvm_unreachable("unknown combiner");
}

template <typename OpTy, Combiner Kind>
struct CumulativePattern : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    StablehloBuilder hlo(rewriter, op.getLoc());
    auto type = op.getType();
    int64_t rank = type.getRank(), axis = op.getAxis();
    int64_t n = type.getDimSize(axis);
    if (n == 0) { // nothing to combine; XLA rejects empty windows
      rewriter.replaceOp(op, adaptor.getOperand());
      return success();
    }
    SmallVector<int64_t> window(rank, 1), ones(rank, 1), padding(2 * rank, 0);
    window[axis] = n;
    padding[2 * axis + (op.getReverse() ? 1 : 0)] = n - 1;
    auto padType = RankedTensorType::get({rank, 2}, rewriter.getI64Type());
    auto scalar = RankedTensorType::get({}, type.getElementType());
    Value init = hlo.constant(identity(Kind, scalar));
    Operation *rw = hlo.create(
        "reduce_window", {adaptor.getOperand(), init}, {type},
        {hlo.i64Array("base_dilations", ones),
         hlo.named("padding", DenseIntElementsAttr::get(padType, padding)),
         hlo.i64Array("window_dilations", ones), hlo.i64Array("window_dimensions", window),
         hlo.i64Array("window_strides", ones)},
        /*regions=*/1);
    OpBuilder::InsertionGuard guard(rewriter);
    Block *body = rewriter.createBlock(&rw->getRegion(0), {}, {scalar, scalar},
                                       {op.getLoc(), op.getLoc()});
    Value r = combine(hlo, Kind, body->getArgument(0), body->getArgument(1));
    hlo.create("return", {r}, {});
    rewriter.replaceOp(op, rw->getResults());
    return success();
  }
};

} // namespace

void mlir::mlax::populateMathToStablehloPatterns(RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<CumulativePattern<CumsumOp, Combiner::Sum>,
               CumulativePattern<CumprodOp, Combiner::Prod>,
               CumulativePattern<CummaxOp, Combiner::Max>,
               CumulativePattern<CumminOp, Combiner::Min>,
               CumulativePattern<CumlogsumexpOp, Combiner::LogSumExp>>(ctx);
}
