//===- ConvertMlaxToStablehlo.cpp - mlax -> StableHLO ---------------------===//
//
// Ops whose StableHLO counterpart has the same operands and attribute names
// record that name in ODS (`getStablehloName()`) and share one pattern; the
// rest have a pattern each below, named after the op.
//
//===----------------------------------------------------------------------===//

#include "Mlax/MlaxOps.h"
#include "passes/Passes.h"
#include "passes/StablehloBuilder.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/APFloat.h"

namespace mlir::mlax {
#define GEN_PASS_DEF_CONVERTMLAXTOSTABLEHLO
#include "passes/Passes.h.inc"
} // namespace mlir::mlax

using namespace mlir;
using namespace mlir::mlax;

namespace {

RankedTensorType tensorType(Value v) {
  return llvm::cast<RankedTensorType>(v.getType());
}

/// Same operands, same attributes, StableHLO name from ODS.
template <typename OpTy>
struct OneToOnePattern : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    StablehloBuilder hlo(rewriter, op.getLoc());
    Operation *lowered =
        hlo.create(OpTy::getStablehloName(), adaptor.getOperands(),
                   op->getResultTypes(), op->getAttrs());
    rewriter.replaceOp(op, lowered->getResults());
    return success();
  }
};

template <typename... OpTys>
void addOneToOne(RewritePatternSet &patterns) {
  (patterns.add<OneToOnePattern<OpTys>>(patterns.getContext()), ...);
}

struct ConstantPattern : OpConversionPattern<ConstantOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ConstantOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    StablehloBuilder hlo(rewriter, op.getLoc());
    rewriter.replaceOp(op, hlo.constant(op.getValue()));
    return success();
  }
};

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
    auto whichType = tensorType(which);
    if (whichType.getElementType().isInteger(1)) {
      rewriter.replaceOp(op, hlo.select(which, cases[1], cases[0]));
      return success();
    }
    Value acc = cases.back();
    for (int64_t i = cases.size() - 2; i >= 0; --i) {
      Value bound = hlo.splat(
          whichType, rewriter.getIntegerAttr(whichType.getElementType(), i));
      acc = hlo.select(hlo.compare("LE", which, bound), cases[i], acc);
    }
    rewriter.replaceOp(op, acc);
    return success();
  }
};

/// `value` (a small real number) as a splat of `type`, for float, complex
/// and integer element types.
DenseElementsAttr splatNumber(RankedTensorType type, int64_t value) {
  Type elem = type.getElementType();
  if (auto ct = llvm::dyn_cast<ComplexType>(elem)) {
    const auto &sem = llvm::cast<FloatType>(ct.getElementType()).getFloatSemantics();
    llvm::APFloat re(sem), im = llvm::APFloat::getZero(sem);
    re.convertFromAPInt(llvm::APInt(64, value, /*isSigned=*/true), /*IsSigned=*/true,
                        llvm::APFloat::rmNearestTiesToEven);
    std::complex<llvm::APFloat> c(re, im);
    return DenseElementsAttr::get(type, llvm::ArrayRef(c));
  }
  if (auto ft = llvm::dyn_cast<FloatType>(elem)) {
    llvm::APFloat v(ft.getFloatSemantics());
    v.convertFromAPInt(llvm::APInt(64, value, /*isSigned=*/true), /*IsSigned=*/true,
                       llvm::APFloat::rmNearestTiesToEven);
    return DenseElementsAttr::get(type, llvm::ArrayRef(v));
  }
  auto it = llvm::cast<IntegerType>(elem);
  llvm::APInt v(it.getWidth(), value, /*isSigned=*/!it.isUnsigned());
  return DenseElementsAttr::get(type, llvm::ArrayRef(v));
}

/// Conversion to bool is `x != 0` (stablehlo.convert would truncate).
struct ConvertPattern : OpConversionPattern<ConvertOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ConvertOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    StablehloBuilder hlo(rewriter, op.getLoc());
    Value in = adaptor.getOperand();
    auto inType = tensorType(in);
    if (op.getType().getElementType().isInteger(1) &&
        !inType.getElementType().isInteger(1)) {
      rewriter.replaceOp(op,
                         hlo.compare("NE", in, hlo.constant(splatNumber(inType, 0))));
      return success();
    }
    rewriter.replaceOp(op, hlo.op("convert", {in}, op.getType()));
    return success();
  }
};

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

struct DotGeneralPattern : OpConversionPattern<DotGeneralOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(DotGeneralOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    StablehloBuilder hlo(rewriter, op.getLoc());
    std::string text = "#stablehlo.dot<";
    llvm::raw_string_ostream os(text);
    bool first = true;
    auto field = [&](StringRef name, ArrayRef<int64_t> dims) {
      if (dims.empty())
        return; // StableHLO omits empty fields.
      os << (first ? "" : ", ") << name << " = [";
      llvm::interleaveComma(dims, os);
      os << "]";
      first = false;
    };
    field("lhs_batching_dimensions", op.getLhsBatchingDimensions());
    field("rhs_batching_dimensions", op.getRhsBatchingDimensions());
    field("lhs_contracting_dimensions", op.getLhsContractingDimensions());
    field("rhs_contracting_dimensions", op.getRhsContractingDimensions());
    os << ">";
    Attribute dims = hlo.attr(text);
    if (!dims)
      return failure();
    rewriter.replaceOp(op, hlo.op("dot_general", adaptor.getOperands(),
                                  op.getType(),
                                  {hlo.named("dot_dimension_numbers", dims)}));
    return success();
  }
};

struct CallPattern : OpConversionPattern<CallOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(CallOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<func::CallOp>(op, op.getResultTypes(),
                                              op.getCallee(),
                                              adaptor.getOperands());
    return success();
  }
};

struct ConvertMlaxToStablehloPass
    : mlax::impl::ConvertMlaxToStablehloBase<ConvertMlaxToStablehloPass> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    if (!ctx->allowsUnregisteredDialects()) {
      getOperation().emitError()
          << "convert-mlax-to-stablehlo emits StableHLO as unregistered ops; "
             "run with --allow-unregistered-dialect";
      return signalPassFailure();
    }
    RewritePatternSet patterns(ctx);
    addOneToOne<NegOp, ExpOp, LogOp, SinOp, CosOp, TanOp, TanhOp, SqrtOp,
                RsqrtOp, AbsOp, SignOp, FloorOp, CeilOp, RoundOp, RoundEvenOp,
                LogisticOp, Log1pOp, Expm1Op, NotOp, IsFiniteOp, AddOp, SubOp,
                MulOp, DivOp, PowOp, MaxOp, MinOp, RemOp, Atan2Op, AndOp, OrOp,
                XorOp, BroadcastInDimOp, ReshapeOp, TransposeOp, SliceOp,
                ConcatenateOp, PadOp, IotaOp>(patterns);
    patterns.add<ConstantPattern, ComparePattern, SelectNPattern,
                 ConvertPattern, DotGeneralPattern, CallPattern,
                 ReducePattern<ReduceSumOp>, ReducePattern<ReduceProdOp>,
                 ReducePattern<ReduceMaxOp>, ReducePattern<ReduceMinOp>,
                 ReducePattern<ReduceAndOp>, ReducePattern<ReduceOrOp>>(ctx);

    ConversionTarget target(*ctx);
    target.addIllegalDialect<MlaxDialect>();
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
