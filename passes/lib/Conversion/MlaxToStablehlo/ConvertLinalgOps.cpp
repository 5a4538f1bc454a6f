//===- ConvertLinalgOps.cpp - linear algebra -> StableHLO -----------------===//
//
// triangular_solve -> stablehlo.triangular_solve; cholesky, eigh, qr and
// svd -> the LAPACK kernels jaxlib registers for CPU (potrf, syevd/heevd, geqrf followed by
// orgqr/ungqr, gesdd), called as jax.numpy.linalg calls them on CPU, so
// results match JAX's. The kernels see column-major matrices (the
// operand/result layouts) and report failure through an `info` result;
// failed matrices give NaNs, as in JAX. Matrices with no elements never
// reach LAPACK: their results are identity-like (q, u, vt, eigenvectors)
// or zero.
//
//===----------------------------------------------------------------------===//

#include "mlax/Dialect/Mlax/IR/MlaxOps.h"
#include "mlax/Conversion/Passes.h"
#include "mlax/Conversion/MlaxToStablehlo/StablehloBuilder.h"

#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/APFloat.h"

#include <cmath>
#include <complex>

using namespace mlir;
using namespace mlir::mlax;

namespace {

/// A bool `[..., m, n]` tensor, `cmp(row, col)` (e.g. "EQ" for the diagonal,
/// "LE" for the upper triangle).
Value positionMask(StablehloBuilder &hlo, RankedTensorType like, StringRef cmp) {
  OpBuilder &b = hlo.builder();
  int64_t nb = like.getRank() - 2;
  auto i32 = like.clone(b.getI32Type());
  Value rows = hlo.op("iota", {}, i32, {hlo.named("iota_dimension", b.getI64IntegerAttr(nb))});
  Value cols =
      hlo.op("iota", {}, i32, {hlo.named("iota_dimension", b.getI64IntegerAttr(nb + 1))});
  return hlo.compare(cmp, rows, cols);
}

Value eyeLike(StablehloBuilder &hlo, RankedTensorType type) {
  return hlo.select(positionMask(hlo, type, "EQ"), hlo.constant(splatAttr(type, 1.0)),
                    hlo.constant(splatAttr(type, 0.0)));
}

Value upperTriangle(StablehloBuilder &hlo, Value x) {
  auto type = tensorOf(x);
  return hlo.select(positionMask(hlo, type, "LE"), x, hlo.constant(splatAttr(type, 0.0)));
}

/// A batch-major, column-major layout (minor to major): the core dimensions
/// from `nb` up, then the batch dimensions from the last to the first.
Attribute layoutAttr(OpBuilder &b, int64_t rank, int64_t nb) {
  SmallVector<APInt> values;
  for (int64_t d = nb; d < rank; ++d)
    values.push_back(APInt(64, d));
  for (int64_t d = nb - 1; d >= 0; --d)
    values.push_back(APInt(64, d));
  auto t = RankedTensorType::get({static_cast<int64_t>(values.size())}, b.getIndexType());
  return DenseIntElementsAttr::get(t, values);
}

StringRef lapackPrefix(Type elem) {
  if (elem.isF32())
    return "s";
  if (elem.isF64())
    return "d";
  auto ct = llvm::cast<ComplexType>(elem);
  return ct.getElementType().isF32() ? "c" : "z";
}

/// A call of jaxlib's LAPACK FFI kernel `lapack_<prefix><name>_ffi` on
/// batch-major, column-major operands; result 0 reuses operand 0's buffer.
/// `config` is the kernel's attribute dictionary (e.g. `{mode = 86 : ui8}`).
Operation *lapackCall(StablehloBuilder &hlo, Location loc, StringRef name, Type elem,
                      ValueRange operands, TypeRange results, int64_t nb, StringRef config) {
  OpBuilder &b = hlo.builder();
  std::string target = ("lapack_" + lapackPrefix(elem) + name + "_ffi").str();
  SmallVector<Attribute> operandLayouts, resultLayouts;
  for (Value v : operands)
    operandLayouts.push_back(layoutAttr(b, tensorOf(v).getRank(), nb));
  for (Type t : results)
    resultLayouts.push_back(layoutAttr(b, llvm::cast<RankedTensorType>(t).getRank(), nb));
  std::string alias = results.size() == 1
                          ? "#stablehlo.output_operand_alias<output_tuple_indices = [], "
                            "operand_index = 0, operand_tuple_indices = []>"
                          : "#stablehlo.output_operand_alias<output_tuple_indices = [0], "
                            "operand_index = 0, operand_tuple_indices = []>";
  Attribute aliases = hlo.attr(alias);
  Attribute backendConfig = hlo.attr(config);
  if (!aliases || !backendConfig)
    return nullptr;
  return hlo.create(
      "custom_call", operands, results,
      {hlo.named("api_version", b.getI32IntegerAttr(1)),
       hlo.named("backend_config", b.getStringAttr("")),
       hlo.named("call_target_name", b.getStringAttr(target)),
       hlo.named("called_computations", b.getArrayAttr({})),
       hlo.named("has_side_effect", b.getBoolAttr(false)),
       hlo.named("operand_layouts", b.getArrayAttr(operandLayouts)),
       hlo.named("output_operand_aliases", b.getArrayAttr({aliases})),
       hlo.named("result_layouts", b.getArrayAttr(resultLayouts)),
       hlo.named("mhlo.backend_config", backendConfig),
       hlo.named("mhlo.frontend_attributes",
                 b.getDictionaryAttr({hlo.named("num_batch_dims",
                                                b.getStringAttr(std::to_string(nb)))}))});
}

/// `value` where the batch element's `info` is 0, NaN elsewhere.
Value nanUnlessOk(StablehloBuilder &hlo, Value value, Value info) {
  auto type = tensorOf(value);
  auto infoType = tensorOf(info);
  Value ok = hlo.compare("EQ", info, hlo.constant(splatAttr(infoType, 0)));
  SmallVector<int64_t> dims;
  for (int64_t d = 0; d < infoType.getRank(); ++d)
    dims.push_back(d);
  Value okAll = hlo.op("broadcast_in_dim", {ok}, type.clone(hlo.builder().getI1Type()),
                       {hlo.i64Array("broadcast_dimensions", dims)});
  return hlo.select(okAll, value, hlo.constant(splatAttr(type, NAN)));
}

/// Results for an operand with no elements: identity-like matrices (the
/// results listed in `matrices`) and zeros.
void replaceEmpty(Operation *op, StablehloBuilder &hlo, ConversionPatternRewriter &rewriter,
                  ArrayRef<bool> matrices) {
  SmallVector<Value> values;
  for (auto [r, isMatrix] : llvm::zip(op->getResults(), matrices)) {
    auto type = tensorOf(r);
    values.push_back(isMatrix ? eyeLike(hlo, type) : hlo.constant(splatAttr(type, 0.0)));
  }
  rewriter.replaceOp(op, values);
}

bool hasNoElements(Value v) { return tensorOf(v).getNumElements() == 0; }

struct TriangularSolvePattern : OpConversionPattern<TriangularSolveOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TriangularSolveOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    StablehloBuilder hlo(rewriter, op.getLoc());
    if (hasNoElements(op.getResult())) {
      rewriter.replaceOp(op, hlo.constant(splatAttr(op.getType(), 0.0)));
      return success();
    }
    StringRef kind = "NO_TRANSPOSE";
    if (op.getTransposeA() == TransposeKind::Transpose)
      kind = "TRANSPOSE";
    else if (op.getTransposeA() == TransposeKind::Adjoint)
      kind = "ADJOINT";
    Attribute transpose = hlo.attr(("#stablehlo<transpose " + kind + ">").str());
    if (!transpose)
      return failure();
    rewriter.replaceOp(
        op, hlo.op("triangular_solve", {adaptor.getA(), adaptor.getB()}, op.getType(),
                   {hlo.named("left_side", rewriter.getBoolAttr(op.getLeftSide())),
                    hlo.named("lower", rewriter.getBoolAttr(op.getLower())),
                    hlo.named("unit_diagonal", rewriter.getBoolAttr(op.getUnitDiagonal())),
                    hlo.named("transpose_a", transpose)}));
    return success();
  }
};

struct EighPattern : OpConversionPattern<EighOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(EighOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    StablehloBuilder hlo(rewriter, op.getLoc());
    if (hasNoElements(op.getOperand())) {
      replaceEmpty(op, hlo, rewriter, {true, false});
      return success();
    }
    auto type = tensorOf(op.getOperand());
    int64_t nb = type.getRank() - 2;
    Type elem = type.getElementType();
    auto info = RankedTensorType::get(type.getShape().drop_back(2), rewriter.getI32Type());
    StringRef name = llvm::isa<ComplexType>(elem) ? "heevd" : "syevd";
    std::string config =
        std::string("{mode = 86 : ui8, uplo = ") + (op.getLower() ? "76" : "85") + " : ui8}";
    Operation *call = lapackCall(hlo, op.getLoc(), name, elem, {adaptor.getOperand()},
                                 {type, op.getValues().getType(), info}, nb, config);
    if (!call)
      return failure();
    rewriter.replaceOp(op, {nanUnlessOk(hlo, call->getResult(0), call->getResult(2)),
                            nanUnlessOk(hlo, call->getResult(1), call->getResult(2))});
    return success();
  }
};

struct QrPattern : OpConversionPattern<QrOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(QrOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    StablehloBuilder hlo(rewriter, op.getLoc());
    if (hasNoElements(op.getOperand())) {
      replaceEmpty(op, hlo, rewriter, {true, false});
      return success();
    }
    auto type = tensorOf(op.getOperand());
    int64_t rank = type.getRank(), nb = rank - 2;
    int64_t m = type.getDimSize(nb), n = type.getDimSize(nb + 1), k = std::min(m, n);
    Type elem = type.getElementType();
    SmallVector<int64_t> tauShape(type.getShape().drop_back(2));
    tauShape.push_back(k);
    auto tauType = RankedTensorType::get(tauShape, elem);
    Operation *geqrf = lapackCall(hlo, op.getLoc(), "geqrf", elem, {adaptor.getOperand()},
                                  {type, tauType}, nb, "{}");
    if (!geqrf)
      return failure();
    Value h = geqrf->getResult(0), taus = geqrf->getResult(1);
    auto slice = [&](Value x, int64_t rows, int64_t cols) {
      auto t = tensorOf(x);
      SmallVector<int64_t> start(rank, 0), limit(t.getShape()), strides(rank, 1);
      limit[nb] = rows;
      limit[nb + 1] = cols;
      if (ArrayRef<int64_t>(limit) == t.getShape())
        return x;
      return hlo.op("slice", {x}, t.clone(limit),
                    {hlo.i64Array("start_indices", start), hlo.i64Array("limit_indices", limit),
                     hlo.i64Array("strides", strides)});
    };
    // The reflectors, as many columns as q has.
    Value reflectors = h;
    int64_t qCols = tensorOf(op.getQ()).getDimSize(nb + 1);
    if (m < n) {
      reflectors = slice(h, m, m);
    } else if (qCols > n) {
      SmallVector<int64_t> low(rank, 0), high(rank, 0), interior(rank, 0);
      high[nb + 1] = qCols - n;
      auto scalar = RankedTensorType::get({}, elem);
      reflectors = hlo.op("pad", {h, hlo.constant(splatAttr(scalar, 0.0))}, op.getQ().getType(),
                          {hlo.i64Array("edge_padding_low", low),
                           hlo.i64Array("edge_padding_high", high),
                           hlo.i64Array("interior_padding", interior)});
    }
    StringRef orgqr = llvm::isa<ComplexType>(elem) ? "ungqr" : "orgqr";
    Operation *q = lapackCall(hlo, op.getLoc(), orgqr, elem, {reflectors, taus},
                              {reflectors.getType()}, nb, "{}");
    if (!q)
      return failure();
    auto rType = tensorOf(op.getR());
    Value r = upperTriangle(hlo, slice(h, rType.getDimSize(nb), n));
    rewriter.replaceOp(op, {q->getResult(0), r});
    return success();
  }
};

struct SvdPattern : OpConversionPattern<SvdOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SvdOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    StablehloBuilder hlo(rewriter, op.getLoc());
    if (hasNoElements(op.getOperand())) {
      replaceEmpty(op, hlo, rewriter, {false, true, true});
      return success();
    }
    auto type = tensorOf(op.getOperand());
    int64_t nb = type.getRank() - 2;
    Type elem = type.getElementType();
    auto info = RankedTensorType::get(type.getShape().drop_back(2), rewriter.getI32Type());
    // gesdd's job: 'A' (all of U and V^T) or 'S' (the first min(m, n)).
    std::string config =
        std::string("{mode = ") + (op.getFullMatrices() ? "65" : "83") + " : ui8}";
    Operation *call = lapackCall(
        hlo, op.getLoc(), "gesdd", elem, {adaptor.getOperand()},
        {type, op.getS().getType(), op.getU().getType(), op.getVt().getType(), info}, nb, config);
    if (!call)
      return failure();
    Value status = call->getResult(4);
    rewriter.replaceOp(op, {nanUnlessOk(hlo, call->getResult(1), status),
                            nanUnlessOk(hlo, call->getResult(2), status),
                            nanUnlessOk(hlo, call->getResult(3), status)});
    return success();
  }
};

struct GeqrfPattern : OpConversionPattern<GeqrfOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(GeqrfOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    StablehloBuilder hlo(rewriter, op.getLoc());
    if (hasNoElements(op.getOperand())) {
      replaceEmpty(op, hlo, rewriter, {false, false});
      return success();
    }
    auto type = tensorOf(op.getOperand());
    Operation *call =
        lapackCall(hlo, op.getLoc(), "geqrf", type.getElementType(), {adaptor.getOperand()},
                   {type, op.getTaus().getType()}, type.getRank() - 2, "{}");
    if (!call)
      return failure();
    rewriter.replaceOp(op, call->getResults());
    return success();
  }
};

/// LAPACK potrf through jaxlib's FFI target (what jnp.linalg.cholesky calls
/// on CPU): factor (a + a^T) / 2, NaNs where it fails, zero upper triangle.
struct CholeskyPattern : OpConversionPattern<CholeskyOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(CholeskyOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    StablehloBuilder hlo(rewriter, op.getLoc());
    auto type = op.getType();
    auto ft = llvm::cast<FloatType>(type.getElementType());
    int64_t rank = type.getRank(), nb = rank - 2; // leading batch dimensions
    ArrayRef<int64_t> batch = type.getShape().drop_back(2);
    SmallVector<int64_t> perm, matLayout = {nb, nb + 1}, batchLayout, batchDims;
    for (int64_t d = 0; d < nb; ++d) {
      perm.push_back(d);
      batchDims.push_back(d);
      matLayout.push_back(nb - 1 - d);
      batchLayout.push_back(nb - 1 - d);
    }
    perm.append({nb + 1, nb});
    Value a = adaptor.getOperand();
    Value at = hlo.op("transpose", {a}, type, {hlo.i64Array("permutation", perm)});
    Value sym = hlo.op("divide", {hlo.op("add", {a, at}, type),
                                  hlo.constant(splatAttr(type, 2))},
                       type);
    auto info = RankedTensorType::get(batch, rewriter.getI32Type());
    auto layout = [&](ArrayRef<int64_t> dims) {
      auto t = RankedTensorType::get({(int64_t)dims.size()}, rewriter.getIndexType());
      SmallVector<APInt> values;
      for (int64_t d : dims)
        values.push_back(APInt(64, d));
      return DenseIntElementsAttr::get(t, values);
    };
    std::string target = ft.isF32() ? "lapack_spotrf_ffi" : "lapack_dpotrf_ffi";
    Attribute aliases = hlo.attr(
        "#stablehlo.output_operand_alias<output_tuple_indices = [0], "
        "operand_index = 0, operand_tuple_indices = []>");
    Attribute backendConfig = hlo.attr("{uplo = 76 : ui8}");
    if (!aliases || !backendConfig)
      return failure();
    Operation *potrf = hlo.create(
        "custom_call", {sym}, {type, info},
        {hlo.named("api_version", rewriter.getI32IntegerAttr(1)),
         hlo.named("backend_config", rewriter.getStringAttr("")),
         hlo.named("call_target_name", rewriter.getStringAttr(target)),
         hlo.named("called_computations", rewriter.getArrayAttr({})),
         hlo.named("has_side_effect", rewriter.getBoolAttr(false)),
         hlo.named("operand_layouts", rewriter.getArrayAttr({layout(matLayout)})),
         hlo.named("output_operand_aliases", rewriter.getArrayAttr({aliases})),
         hlo.named("result_layouts",
                   rewriter.getArrayAttr({layout(matLayout), layout(batchLayout)})),
         hlo.named("mhlo.backend_config", backendConfig),
         hlo.named("mhlo.frontend_attributes",
                   rewriter.getDictionaryAttr({hlo.named(
                       "num_batch_dims", rewriter.getStringAttr(std::to_string(nb)))}))});
    Value ok = hlo.compare("EQ", potrf->getResult(1),
                           hlo.constant(splatAttr(info, 0)));
    auto predType = RankedTensorType::get(type.getShape(), rewriter.getI1Type());
    Value okAll = hlo.op("broadcast_in_dim", {ok}, predType,
                         {hlo.i64Array("broadcast_dimensions", batchDims)});
    Value nan = hlo.constant(splatAttr(type, NAN));
    Value factor = hlo.select(okAll, potrf->getResult(0), nan);
    auto i32Mat = RankedTensorType::get(type.getShape(), rewriter.getI32Type());
    Value rows = hlo.op("iota", {}, i32Mat,
                        {hlo.named("iota_dimension", rewriter.getI64IntegerAttr(nb))});
    Value cols = hlo.op("iota", {}, i32Mat,
                        {hlo.named("iota_dimension", rewriter.getI64IntegerAttr(nb + 1))});
    Value lower = hlo.compare("GE", rows, cols);
    rewriter.replaceOp(op, hlo.select(lower, factor,
                                      hlo.constant(splatAttr(type, 0))));
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

} // namespace

void mlir::mlax::populateLinalgToStablehloPatterns(RewritePatternSet &patterns) {
  patterns.add<DotGeneralPattern, CholeskyPattern, TriangularSolvePattern, EighPattern, QrPattern, GeqrfPattern,
               SvdPattern>(
      patterns.getContext());
}
