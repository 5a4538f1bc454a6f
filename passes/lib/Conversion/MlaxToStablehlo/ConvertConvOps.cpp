//===- ConvertConvOps.cpp - convolution and window ops -> StableHLO -------===//
//
// conv_general_dilated -> stablehlo.convolution; reduce_window ->
// stablehlo.reduce_window starting from the reduction's identity;
// select_and_gather_add -> a two-operand stablehlo.reduce_window carrying
// (operand, tangent) pairs (as jax lowers it on CPU); select_and_scatter_add
// -> stablehlo.select_and_scatter adding into zeros.
//
//===----------------------------------------------------------------------===//

#include "mlax/Dialect/Mlax/IR/MlaxOps.h"
#include "mlax/Conversion/Passes.h"
#include "mlax/Conversion/MlaxToStablehlo/StablehloBuilder.h"

#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::mlax;

namespace {

/// Padding as StableHLO's `tensor<Nx2xi64>`.
Attribute paddingAttr(OpBuilder &b, ArrayRef<int64_t> flat) {
  auto type = RankedTensorType::get({static_cast<int64_t>(flat.size() / 2), 2}, b.getI64Type());
  return DenseIntElementsAttr::get(type, flat);
}

StringRef combinerName(WindowReduction kind, bool isBool) {
  switch (kind) {
  case WindowReduction::Add:
    return isBool ? "or" : "add";
  case WindowReduction::Mul:
    return isBool ? "and" : "multiply";
  case WindowReduction::Max:
    return "maximum";
  case WindowReduction::Min:
    return "minimum";
  }
  return "add";
}

/// `#stablehlo.conv<[b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1]>` from JAX-style
/// specs (batch/out-feature, feature/in-feature, spatial dimensions).
std::string convDimensionNumbers(ArrayRef<int64_t> lhs, ArrayRef<int64_t> rhs,
                                 ArrayRef<int64_t> out) {
  auto labels = [](ArrayRef<int64_t> spec, StringRef first, StringRef second) {
    SmallVector<std::string> names(spec.size());
    names[spec[0]] = first.str();
    names[spec[1]] = second.str();
    for (size_t i = 2; i < spec.size(); ++i)
      names[spec[i]] = std::to_string(i - 2);
    return "[" + llvm::join(names, ", ") + "]";
  };
  return "#stablehlo.conv<" + labels(lhs, "b", "f") + "x" + labels(rhs, "o", "i") + "->" +
         labels(out, "b", "f") + ">";
}

struct ConvGeneralDilatedPattern : OpConversionPattern<ConvGeneralDilatedOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ConvGeneralDilatedOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    StablehloBuilder hlo(rewriter, op.getLoc());
    Attribute dims =
        hlo.attr(convDimensionNumbers(op.getLhsSpec(), op.getRhsSpec(), op.getOutSpec()));
    if (!dims)
      return failure();
    rewriter.replaceOp(
        op, hlo.op("convolution", adaptor.getOperands(), op.getType(),
                   {hlo.i64Array("window_strides", op.getWindowStrides()),
                    hlo.named("padding", paddingAttr(rewriter, op.getPadding())),
                    hlo.i64Array("lhs_dilation", op.getLhsDilation()),
                    hlo.i64Array("rhs_dilation", op.getRhsDilation()),
                    hlo.named("dimension_numbers", dims),
                    hlo.named("feature_group_count",
                              rewriter.getI64IntegerAttr(op.getFeatureGroupCount())),
                    hlo.named("batch_group_count",
                              rewriter.getI64IntegerAttr(op.getBatchGroupCount()))}));
    return success();
  }
};

struct ReduceWindowPattern : OpConversionPattern<ReduceWindowOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ReduceWindowOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    StablehloBuilder hlo(rewriter, op.getLoc());
    Type elem = op.getType().getElementType();
    auto scalar = RankedTensorType::get({}, elem);
    Value init = hlo.constant(identityAttr(op.getReduction(), elem));
    Operation *rw = hlo.create(
        "reduce_window", {adaptor.getOperand(), init}, {op.getType()},
        {hlo.i64Array("window_dimensions", op.getWindowDimensions()),
         hlo.i64Array("window_strides", op.getWindowStrides()),
         hlo.i64Array("base_dilations", op.getBaseDilation()),
         hlo.i64Array("window_dilations", op.getWindowDilation()),
         hlo.named("padding", paddingAttr(rewriter, op.getPadding()))},
        /*regions=*/1);
    OpBuilder::InsertionGuard guard(rewriter);
    Block *body = rewriter.createBlock(&rw->getRegion(0), {}, {scalar, scalar},
                                       {op.getLoc(), op.getLoc()});
    Value combined = hlo.op(combinerName(op.getReduction(), elem.isInteger(1)),
                            {body->getArgument(0), body->getArgument(1)}, scalar);
    hlo.create("return", {combined}, {});
    rewriter.replaceOp(op, rw->getResults());
    return success();
  }
};

struct SelectAndGatherAddPattern : OpConversionPattern<SelectAndGatherAddOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SelectAndGatherAddOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    StablehloBuilder hlo(rewriter, op.getLoc());
    Type elem = op.getType().getElementType();
    auto scalar = RankedTensorType::get({}, elem);
    bool isMax = op.getSelect() == ComparisonDirection::GE;
    Value initX =
        hlo.constant(identityAttr(isMax ? WindowReduction::Max : WindowReduction::Min, elem));
    Value initT = hlo.constant(identityAttr(WindowReduction::Add, elem));
    Operation *rw = hlo.create(
        "reduce_window", {adaptor.getOperand(), adaptor.getTangents(), initX, initT},
        {op.getType(), op.getType()},
        {hlo.i64Array("window_dimensions", op.getWindowDimensions()),
         hlo.i64Array("window_strides", op.getWindowStrides()),
         hlo.i64Array("base_dilations", op.getBaseDilation()),
         hlo.i64Array("window_dilations", op.getWindowDilation()),
         hlo.named("padding", paddingAttr(rewriter, op.getPadding()))},
        /*regions=*/1);
    OpBuilder::InsertionGuard guard(rewriter);
    Location loc = op.getLoc();
    Block *body = rewriter.createBlock(&rw->getRegion(0), {}, {scalar, scalar, scalar, scalar},
                                       {loc, loc, loc, loc});
    Value kx = body->getArgument(0), vx = body->getArgument(1), ky = body->getArgument(2),
          vy = body->getArgument(3);
    Value which = hlo.compare(isMax ? "GE" : "LE", kx, ky);
    hlo.create("return", {hlo.select(which, kx, ky), hlo.select(which, vx, vy)}, {});
    rewriter.replaceOp(op, rw->getResult(1));
    return success();
  }
};

struct SelectAndScatterAddPattern : OpConversionPattern<SelectAndScatterAddOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SelectAndScatterAddOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    StablehloBuilder hlo(rewriter, op.getLoc());
    Type elem = op.getType().getElementType();
    auto scalar = RankedTensorType::get({}, elem);
    Value zero = hlo.constant(identityAttr(WindowReduction::Add, elem));
    Operation *sas = hlo.create(
        "select_and_scatter", {adaptor.getOperand(), adaptor.getSource(), zero}, {op.getType()},
        {hlo.i64Array("window_dimensions", op.getWindowDimensions()),
         hlo.i64Array("window_strides", op.getWindowStrides()),
         hlo.named("padding", paddingAttr(rewriter, op.getPadding()))},
        /*regions=*/2);
    OpBuilder::InsertionGuard guard(rewriter);
    Location loc = op.getLoc();
    Block *select =
        rewriter.createBlock(&sas->getRegion(0), {}, {scalar, scalar}, {loc, loc});
    hlo.create("return",
               {hlo.compare(op.getSelect() == ComparisonDirection::GE ? "GE" : "LE",
                            select->getArgument(0), select->getArgument(1))},
               {});
    Block *scatter =
        rewriter.createBlock(&sas->getRegion(1), {}, {scalar, scalar}, {loc, loc});
    hlo.create("return",
               {hlo.op("add", {scatter->getArgument(0), scatter->getArgument(1)}, scalar)}, {});
    rewriter.replaceOp(op, sas->getResults());
    return success();
  }
};

} // namespace

void mlir::mlax::populateConvToStablehloPatterns(RewritePatternSet &patterns) {
  patterns.add<ConvGeneralDilatedPattern, ReduceWindowPattern, SelectAndGatherAddPattern,
               SelectAndScatterAddPattern>(patterns.getContext());
}
