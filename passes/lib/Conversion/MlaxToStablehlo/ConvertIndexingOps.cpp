//===- ConvertIndexingOps.cpp - indexing ops -> StableHLO -------------------===//
//
// take (a stablehlo.gather, as jnp.take lowers), gather and scatter
// (StableHLO's ops with the same dimension numbers). reverse and the
// dynamic slices are one-to-one.
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

/// stablehlo.gather of one index per result element along `axis` (as
/// jnp.take lowers), the indices given a trailing index vector dimension.
struct TakePattern : OpConversionPattern<TakeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TakeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    StablehloBuilder hlo(rewriter, op.getLoc());
    auto in = tensorOf(adaptor.getOperand());
    auto idx = tensorOf(adaptor.getIndices());
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

} // namespace

void mlir::mlax::populateIndexingToStablehloPatterns(RewritePatternSet &patterns) {
  patterns.add<TakePattern, GatherPattern, ScatterPattern>(patterns.getContext());
}
