//===- ConvertMlaxToStablehlo.cpp - mlax -> StableHLO ---------------------===//
//
// Ops whose StableHLO counterpart has the same operands and attribute names
// record that name in ODS (`getStablehloName()`) and share one pattern; the
// rest have a pattern each below, named after the op.
//
//===----------------------------------------------------------------------===//

#include "mlax/Dialect/Mlax/IR/MlaxOps.h"
#include "mlax/Conversion/Passes.h"
#include "mlax/Conversion/MlaxToStablehlo/StablehloBuilder.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/APFloat.h"

namespace mlir::mlax {
#define GEN_PASS_DEF_CONVERTMLAXTOSTABLEHLO
#include "mlax/Conversion/Passes.h.inc"
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

template <typename OpTy, typename = void>
struct LowersOneToOne : std::false_type {};
template <typename OpTy>
struct LowersOneToOne<OpTy, std::enable_if_t<OpTy::lowersOneToOne()>> : std::true_type {};

/// A OneToOnePattern for every op in OpTys whose ODS names its StableHLO op
/// (Mlax_HloName / Mlax_ChloName); called with the whole generated op list.
template <typename... OpTys>
void addOneToOne(RewritePatternSet &patterns) {
  (
      [&] {
        if constexpr (LowersOneToOne<OpTys>::value)
          patterns.add<OneToOnePattern<OpTys>>(patterns.getContext());
      }(),
      ...);
}

/// Ops with no lowering pattern of their own: mlax-expand-transforms
/// replaces them by generated functions before the lowering runs.
bool expandedBeforeLowering(OperationName name) {
  return llvm::is_contained({"mlax.jvp", "mlax.vjp", "mlax.vmap"},
                            name.getStringRef());
}

struct ConstantPattern : OpConversionPattern<ConstantOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ConstantOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    StablehloBuilder hlo(rewriter, op.getLoc());
    auto dense = dyn_cast<DenseElementsAttr>(op.getValue());
    auto type = cast<RankedTensorType>(op.getType());
    if (dense && !dense.isSplat() && type.getElementType().isInteger(1)) {
      // A non-splat i1 constant large enough to print as hex would be
      // printed in a layout jaxlib's parser rejects ("elements hex data size
      // is invalid"): hand it over as i8 and convert.
      auto i8 = RankedTensorType::get(type.getShape(), rewriter.getI8Type());
      SmallVector<int8_t> bytes;
      for (bool b : dense.getValues<bool>())
        bytes.push_back(b ? 1 : 0);
      Value c = hlo.constant(DenseElementsAttr::get(i8, ArrayRef<int8_t>(bytes)));
      rewriter.replaceOp(op, hlo.op("stablehlo.convert", {c}, type));
      return success();
    }
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
      auto scalar = RankedTensorType::get({}, tensorType(v).getElementType());
      argTypes.append({scalar, scalar});
      argLocs.append({op.getLoc(), op.getLoc()});
    }
    Block *body =
        rewriter.createBlock(&sort->getRegion(0), {}, argTypes, argLocs);
    auto canonical = [&](Value x) -> Value {
      auto type = tensorType(x);
      auto ft = llvm::dyn_cast<FloatType>(type.getElementType());
      if (!ft)
        return x;
      Value zero = hlo.constant(splatNumber(type, 0));
      x = hlo.select(hlo.compare("EQ", x, zero), zero, x);
      Value nan = hlo.constant(DenseElementsAttr::get(
          type, llvm::ArrayRef(llvm::APFloat::getQNaN(ft.getFloatSemantics()))));
      return hlo.select(hlo.compare("NE", x, x), nan, x);
    };
    auto cmp = [&](StringRef dir, Value a, Value b) -> Value {
      if (!llvm::isa<FloatType>(tensorType(a).getElementType()))
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

/// stablehlo.gather of one index per result element along `axis` (as
/// jnp.take lowers), the indices given a trailing index vector dimension.
struct TakePattern : OpConversionPattern<TakeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TakeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    StablehloBuilder hlo(rewriter, op.getLoc());
    auto in = tensorType(adaptor.getOperand());
    auto idx = tensorType(adaptor.getIndices());
    int64_t axis = op.getAxis(), rank = in.getRank(), k = idx.getRank();
    if (op.getType().getNumElements() == 0) {
      // Nothing to take (as JAX lowers an empty gather): no gather with a
      // slice of 1 fits an empty axis.
      rewriter.replaceOp(op, hlo.constant(DenseElementsAttr::get(op.getType(),
                                                                 ArrayRef<Attribute>())));
      return success();
    }
    SmallVector<int64_t> idxShape(idx.getShape());
    idxShape.push_back(1);
    Value starts = hlo.op("reshape", {adaptor.getIndices()},
                          RankedTensorType::get(idxShape, idx.getElementType()));
    std::string text = "#stablehlo.gather<offset_dims = [";
    llvm::raw_string_ostream os(text);
    SmallVector<int64_t> offsetDims, sliceSizes(in.getShape());
    for (int64_t d = 0; d < axis; ++d)
      offsetDims.push_back(d);
    for (int64_t d = axis + 1; d < rank; ++d)
      offsetDims.push_back(d - 1 + k);
    sliceSizes[axis] = 1;
    llvm::interleaveComma(offsetDims, os);
    os << "], collapsed_slice_dims = [" << axis << "], start_index_map = ["
       << axis << "], index_vector_dim = " << k << ">";
    Attribute dims = hlo.attr(text);
    if (!dims)
      return failure();
    rewriter.replaceOp(
        op, hlo.op("gather", {adaptor.getOperand(), starts}, op.getType(),
                   {hlo.named("dimension_numbers", dims),
                    hlo.named("indices_are_sorted", rewriter.getBoolAttr(false)),
                    hlo.i64Array("slice_sizes", sliceSizes)}));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// gather and scatter: StableHLO's ops with the same dimension numbers; a
// scatter's update computation is the combiner's.
//===----------------------------------------------------------------------===//

/// `#stablehlo.<kind><name = [..], ..., index_vector_dim = N>`, leaving out
/// empty lists as StableHLO's printer does.
std::string dimensionNumbers(StringRef kind,
                             ArrayRef<std::pair<StringRef, ArrayRef<int64_t>>> lists,
                             int64_t indexVectorDim) {
  std::string text = ("#stablehlo." + kind + "<").str();
  llvm::raw_string_ostream os(text);
  for (auto [name, dims] : lists) {
    if (dims.empty())
      continue;
    os << name << " = [";
    llvm::interleaveComma(dims, os);
    os << "], ";
  }
  os << "index_vector_dim = " << indexVectorDim << ">";
  return text;
}

struct GatherPattern : OpConversionPattern<GatherOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(GatherOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    StablehloBuilder hlo(rewriter, op.getLoc());
    Attribute dims = hlo.attr(dimensionNumbers(
        "gather",
        {{"offset_dims", op.getOffsetDims()},
         {"collapsed_slice_dims", op.getCollapsedSliceDims()},
         {"operand_batching_dims", op.getOperandBatchingDims()},
         {"start_indices_batching_dims", op.getStartIndicesBatchingDims()},
         {"start_index_map", op.getStartIndexMap()}},
        op.getIndexVectorDim()));
    if (!dims)
      return failure();
    rewriter.replaceOp(
        op, hlo.op("gather", adaptor.getOperands(), op.getType(),
                   {hlo.named("dimension_numbers", dims),
                    hlo.i64Array("slice_sizes", op.getSliceSizes()),
                    hlo.named("indices_are_sorted",
                              rewriter.getBoolAttr(op.getIndicesAreSorted()))}));
    return success();
  }
};

struct ScatterPattern : OpConversionPattern<ScatterOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ScatterOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    StablehloBuilder hlo(rewriter, op.getLoc());
    Attribute dims = hlo.attr(dimensionNumbers(
        "scatter",
        {{"update_window_dims", op.getUpdateWindowDims()},
         {"inserted_window_dims", op.getInsertedWindowDims()},
         {"input_batching_dims", op.getInputBatchingDims()},
         {"scatter_indices_batching_dims", op.getScatterIndicesBatchingDims()},
         {"scatter_dims_to_operand_dims", op.getScatterDimsToOperandDims()}},
        op.getIndexVectorDim()));
    if (!dims)
      return failure();
    Operation *scatter = hlo.create(
        "scatter", adaptor.getOperands(), op.getType(),
        {hlo.named("scatter_dimension_numbers", dims),
         hlo.named("indices_are_sorted", rewriter.getBoolAttr(op.getIndicesAreSorted())),
         hlo.named("unique_indices", rewriter.getBoolAttr(op.getUniqueIndices()))},
        /*regions=*/1);
    OpBuilder::InsertionGuard guard(rewriter);
    auto scalar = RankedTensorType::get({}, op.getType().getElementType());
    Block *body = rewriter.createBlock(&scatter->getRegion(0), {}, {scalar, scalar},
                                       {op.getLoc(), op.getLoc()});
    Value current = body->getArgument(0), update = body->getArgument(1);
    bool isBool = scalar.getElementType().isInteger(1);
    Value combined;
    switch (op.getCombiner()) {
    case ScatterCombiner::Set:
      combined = update;
      break;
    case ScatterCombiner::Add:
      combined = hlo.op(isBool ? "or" : "add", {current, update}, scalar);
      break;
    case ScatterCombiner::Mul:
      combined = hlo.op(isBool ? "and" : "multiply", {current, update}, scalar);
      break;
    case ScatterCombiner::Min:
      combined = hlo.op("minimum", {current, update}, scalar);
      break;
    case ScatterCombiner::Max:
      combined = hlo.op("maximum", {current, update}, scalar);
      break;
    }
    hlo.create("return", {combined}, {});
    rewriter.replaceOp(op, scatter->getResults());
    return success();
  }
};

struct ConvertMlaxToStablehloPass
    : mlax::impl::ConvertMlaxToStablehloBase<ConvertMlaxToStablehloPass> {
  using ConvertMlaxToStablehloBase::ConvertMlaxToStablehloBase;

  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    if (!ctx->allowsUnregisteredDialects()) {
      getOperation().emitError()
          << "convert-mlax-to-stablehlo emits StableHLO as unregistered ops; "
             "run with --allow-unregistered-dialect";
      return signalPassFailure();
    }
    RewritePatternSet patterns(ctx);
    addOneToOne<
#define GET_OP_LIST
#include "mlax/Dialect/Mlax/IR/MlaxOps.cpp.inc"
        >(patterns);
    patterns.add<SortPattern, TakePattern>(ctx);
    patterns.add<GatherPattern, ScatterPattern>(ctx);
    populateControlFlowToStablehloPatterns(patterns);
    populateConvToStablehloPatterns(patterns);
    populateLinalgToStablehloPatterns(patterns);
    populateMathToStablehloPatterns(patterns);
    populateFftToStablehloPatterns(patterns);
    patterns.add<ConstantPattern, ComparePattern, SelectNPattern,
                 ConvertPattern, DotGeneralPattern, CallPattern,
                 ReducePattern<ReduceSumOp>, ReducePattern<ReduceProdOp>,
                 ReducePattern<ReduceMaxOp>, ReducePattern<ReduceMinOp>,
                 ReducePattern<ReduceAndOp>, ReducePattern<ReduceOrOp>>(ctx);

    if (checkCoverage) {
      llvm::DenseSet<OperationName> lowered;
      for (const auto &pattern : patterns.getNativePatterns())
        if (std::optional<OperationName> root = pattern->getRootKind())
          lowered.insert(*root);
      std::string missing;
      for (RegisteredOperationName name : ctx->getRegisteredOperations())
        if (name.getDialectNamespace() == MlaxDialect::getDialectNamespace() &&
            !lowered.contains(name) && !expandedBeforeLowering(name))
          missing += " " + name.getStringRef().str();
      if (!missing.empty()) {
        getOperation().emitError() << "mlax ops with no lowering:" << missing;
        return signalPassFailure();
      }
    }

    ConversionTarget target(*ctx);
    target.addIllegalDialect<MlaxDialect>();
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
