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

#include <cmath>

using namespace mlir;
using namespace mlir::mlax;

namespace {

enum class Combiner { Sum, Prod, Max, Min, LogSumExp };

/// The reduction whose identity starts the combiner's scan (logaddexp's
/// is -inf, max's).
WindowReduction reductionOf(Combiner kind) {
  switch (kind) {
  case Combiner::Sum:
    return WindowReduction::Add;
  case Combiner::Prod:
    return WindowReduction::Mul;
  case Combiner::Min:
    return WindowReduction::Min;
  case Combiner::Max:
  case Combiner::LogSumExp:
    return WindowReduction::Max;
  }
  llvm_unreachable("unknown combiner");
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
    Value init = hlo.constant(identityAttr(reductionOf(Kind), type.getElementType()));
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

//===----------------------------------------------------------------------===//
// sort and cumsum, lowered as jax lowers lax.sort and lax.cumsum on CPU, so
// results match JAX's bit for bit.
//===----------------------------------------------------------------------===//

/// JAX's sort comparator: floats compare in total order after turning -0.0
/// into 0.0 and every NaN into one NaN; keys compare lexicographically.
struct SortPattern : OpConversionPattern<SortOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SortOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    StablehloBuilder hlo(rewriter, op.getLoc());
    ValueRange operands = adaptor.getOperands();
    Operation *sort = hlo.create(
        "sort", operands, op->getResultTypes(),
        {hlo.named("dimension", rewriter.getI64IntegerAttr(op.getDimension())),
         hlo.named("is_stable", rewriter.getBoolAttr(op.getIsStable()))},
        /*regions=*/1);
    OpBuilder::InsertionGuard guard(rewriter);
    SmallVector<Type> argTypes;
    SmallVector<Location> argLocs;
    for (Value v : operands) {
      auto scalar = RankedTensorType::get({}, tensorOf(v).getElementType());
      argTypes.append({scalar, scalar});
      argLocs.append({op.getLoc(), op.getLoc()});
    }
    Block *body =
        rewriter.createBlock(&sort->getRegion(0), {}, argTypes, argLocs);
    auto canonical = [&](Value x) -> Value {
      auto type = tensorOf(x);
      auto ft = llvm::dyn_cast<FloatType>(type.getElementType());
      if (!ft)
        return x;
      // Formats without a zero or without NaN (f8E8M0FNU, f4E2M1FN) have
      // nothing to canonicalize there.
      const llvm::fltSemantics &sem = ft.getFloatSemantics();
      if (llvm::APFloat::semanticsHasZero(sem)) {
        Value zero = hlo.constant(splatAttr(type, 0));
        x = hlo.select(hlo.compare("EQ", x, zero), zero, x);
      }
      if (!llvm::APFloat::semanticsHasNaN(sem))
        return x;
      Value nan = hlo.constant(splatAttr(type, NAN));
      return hlo.select(hlo.compare("NE", x, x), nan, x);
    };
    auto cmp = [&](StringRef dir, Value a, Value b) -> Value {
      if (!llvm::isa<FloatType>(tensorOf(a).getElementType()))
        return hlo.compare(dir, a, b);
      auto predType = RankedTensorType::get({}, rewriter.getI1Type());
      return hlo.op(
          "compare", {a, b}, predType,
          {hlo.named("comparison_direction",
                     hlo.attr(("#stablehlo<comparison_direction " + dir + ">").str())),
           hlo.named("compare_type",
                     hlo.attr("#stablehlo<comparison_type TOTALORDER>"))});
    };
    int64_t numKeys = op.getNumKeys();
    SmallVector<Value> lhs, rhs;
    for (int64_t i = 0; i < numKeys; ++i) {
      lhs.push_back(canonical(body->getArgument(2 * i)));
      rhs.push_back(canonical(body->getArgument(2 * i + 1)));
    }
    Value result = cmp("LT", lhs.back(), rhs.back());
    for (int64_t i = numKeys - 2; i >= 0; --i) {
      Value lt = cmp("LT", lhs[i], rhs[i]);
      Value eq = cmp("EQ", lhs[i], rhs[i]);
      result = hlo.op("or", {lt, hlo.op("and", {eq, result}, eq.getType())},
                      lt.getType());
    }
    hlo.create("return", {result}, {});
    rewriter.replaceOp(op, sort->getResults());
    return success();
  }
};

} // namespace

void mlir::mlax::populateMathToStablehloPatterns(RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<SortPattern>(ctx);
  patterns.add<CumulativePattern<CumsumOp, Combiner::Sum>,
               CumulativePattern<CumprodOp, Combiner::Prod>,
               CumulativePattern<CummaxOp, Combiner::Max>,
               CumulativePattern<CumminOp, Combiner::Min>,
               CumulativePattern<CumlogsumexpOp, Combiner::LogSumExp>>(ctx);
}
