//===- ConvertLinalgOps.cpp - linear algebra -> StableHLO -----------------===//
//
// triangular_solve -> LAPACK trsm on CPU (stablehlo.triangular_solve on
// other platforms); cholesky, eigh, qr and
// svd -> the LAPACK kernels jaxlib registers for CPU (potrf, syevd/heevd, geqrf followed by
// orgqr/ungqr, gesdd; lu -> getrf; eig -> geev, CPU only, as in JAX without MAGMA;
// schur -> gees, hessenberg -> gehrd, tridiagonal -> sytrd/hetrd,
// householder_product -> orgqr/ungqr, tridiagonal_solve -> gtsv, CPU only
// as in JAX), called as jax.numpy.linalg calls them on CPU, so
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

#include <algorithm>
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

//===----------------------------------------------------------------------===//
// Solver kernels by platform: the one place a lowering's platform matters.
//===----------------------------------------------------------------------===//

/// One solver routine on one platform, as jax.lax.linalg (0.10.2) calls it:
/// the FFI target (`%t` is LAPACK's type letter, s, d, c or z) and the
/// kernel's attribute dictionary, whose `$name` fields the pattern fills
/// (`$lower`: true/false, `$uplo`: 'L'/'U', `$job`: 'A'/'S', `$full`,
/// `$transposed`). A routine missing for a platform has no lowering there.
struct SolverKernel {
  StringRef routine;
  Platform platform;
  StringRef target;
  StringRef config;
};

// clang-format off
const SolverKernel kSolverKernels[] = {
    // CPU: the LAPACK kernels jaxlib registers (typed names, flags as chars).
    {"potrf",  Platform::Cpu,  "lapack_%tpotrf_ffi",  "{uplo = 76 : ui8}"},
    {"syevd",  Platform::Cpu,  "lapack_%tsyevd_ffi",  "{mode = 86 : ui8, uplo = $uplo : ui8}"},
    {"heevd",  Platform::Cpu,  "lapack_%theevd_ffi",  "{mode = 86 : ui8, uplo = $uplo : ui8}"},
    {"geqrf",  Platform::Cpu,  "lapack_%tgeqrf_ffi",  "{}"},
    {"geqp3",  Platform::Cpu,  "lapack_%tgeqp3_ffi",  "{}"},
    {"orgqr",  Platform::Cpu,  "lapack_%torgqr_ffi",  "{}"},
    {"ungqr",  Platform::Cpu,  "lapack_%tungqr_ffi",  "{}"},
    {"gesdd",  Platform::Cpu,  "lapack_%tgesdd_ffi",  "{mode = $job : ui8}"},
    {"getrf",  Platform::Cpu,  "lapack_%tgetrf_ffi",  "{}"},
    {"geev",   Platform::Cpu,  "lapack_%tgeev_ffi",   "{compute_left = $left : ui8, compute_right = $right : ui8}"},
    {"gees",   Platform::Cpu,  "lapack_%tgees_ffi",   "{mode = $mode : ui8, sort = 78 : ui8}"},
    {"gehrd",  Platform::Cpu,  "lapack_%tgehrd_ffi",  "{high = $high : i32, low = 1 : i32}"},
    {"sytrd",  Platform::Cpu,  "lapack_%tsytrd_ffi",  "{uplo = $uplo : ui8}"},
    {"hetrd",  Platform::Cpu,  "lapack_%thetrd_ffi",  "{uplo = $uplo : ui8}"},
    {"gtsv",   Platform::Cpu,  "lapack_%tgtsv_ffi",   "{}"},
    {"gtsv_perturbed", Platform::Cpu, "tridiagonal_solve_perturbed_ffi", "{}"},
    {"trsm",   Platform::Cpu,  "lapack_%ttrsm_ffi",   "{diag = $diag : ui8, side = $side : ui8, trans_x = $trans : ui8, uplo = $uplo : ui8}"},
    // CUDA: cuSOLVER through jaxlib's CUDA plugin (one target for every
    // element type; algorithm 0 lets the kernel choose, as JAX's default).
    {"potrf",  Platform::Cuda, "cusolver_potrf_ffi",  "{lower = true}"},
    {"syevd",  Platform::Cuda, "cusolver_syevd_ffi",  "{algorithm = 0 : ui8, lower = $lower}"},
    {"heevd",  Platform::Cuda, "cusolver_syevd_ffi",  "{algorithm = 0 : ui8, lower = $lower}"},
    {"geqrf",  Platform::Cuda, "cusolver_geqrf_ffi",  "{}"},
    {"orgqr",  Platform::Cuda, "cusolver_orgqr_ffi",  "{}"},
    {"ungqr",  Platform::Cuda, "cusolver_orgqr_ffi",  "{}"},
    {"gesvdj", Platform::Cuda, "cusolver_gesvdj_ffi", "{compute_uv = true, full_matrices = $full}"},
    {"gesvd",  Platform::Cuda, "cusolver_gesvd_ffi",  "{compute_uv = true, full_matrices = $full, transposed = $transposed}"},
    {"getrf",  Platform::Cuda, "cusolver_getrf_ffi",  "{}"},
    // ROCm: hipSOLVER through jaxlib's ROCm plugin, called as on CUDA.
    {"potrf",  Platform::Rocm, "hipsolver_potrf_ffi",  "{lower = true}"},
    {"syevd",  Platform::Rocm, "hipsolver_syevd_ffi",  "{algorithm = 0 : ui8, lower = $lower}"},
    {"heevd",  Platform::Rocm, "hipsolver_syevd_ffi",  "{algorithm = 0 : ui8, lower = $lower}"},
    {"geqrf",  Platform::Rocm, "hipsolver_geqrf_ffi",  "{}"},
    {"orgqr",  Platform::Rocm, "hipsolver_orgqr_ffi",  "{}"},
    {"ungqr",  Platform::Rocm, "hipsolver_orgqr_ffi",  "{}"},
    {"gesvdj", Platform::Rocm, "hipsolver_gesvdj_ffi", "{compute_uv = true, full_matrices = $full}"},
    {"gesvd",  Platform::Rocm, "hipsolver_gesvd_ffi",  "{compute_uv = true, full_matrices = $full, transposed = $transposed}"},
    {"getrf",  Platform::Rocm, "hipsolver_getrf_ffi",  "{}"},
    // TPU: none (JAX lowers the decompositions there to XLA's own
    // expansions, which mlax does not emit yet).
};
// clang-format on

/// The SVD routine JAX's default algorithm picks: LAPACK's divide and
/// conquer on CPU; on GPUs Jacobi up to 1024x1024, QR iteration above.
StringRef svdRoutine(Platform platform, int64_t m, int64_t n) {
  if (platform == Platform::Cuda || platform == Platform::Rocm)
    return m <= 1024 && n <= 1024 ? "gesvdj" : "gesvd";
  return "gesdd";
}

StringRef lapackPrefix(Type elem) {
  if (elem.isF32())
    return "s";
  if (elem.isF64())
    return "d";
  auto ct = llvm::cast<ComplexType>(elem);
  return ct.getElementType().isF32() ? "c" : "z";
}

/// A solver kernel resolved for one call: its target and attributes.
struct SolverCall {
  std::string target;
  std::string config;
};

/// `routine` on `platform` for `elem`, with the config's `$name` fields
/// replaced by `fields`; an error naming `op` and the platform if the
/// platform has no such kernel.
FailureOr<SolverCall> solverKernel(Operation *op, Platform platform, StringRef routine,
                                   Type elem,
                                   ArrayRef<std::pair<StringRef, StringRef>> fields = {}) {
  const SolverKernel *found = nullptr;
  std::string elsewhere;
  for (const SolverKernel &k : kSolverKernels) {
    if (k.routine != routine)
      continue;
    if (k.platform == platform)
      found = &k;
    else
      elsewhere += (elsewhere.empty() ? "" : ", ") + platformName(k.platform).str();
  }
  if (!found)
    return op->emitOpError() << "has no lowering for platform '" << platformName(platform)
                           << "': its " << routine << " kernel exists for "
                           << (elsewhere.empty() ? "no platform" : elsewhere);
  auto substitute = [](std::string text, StringRef key, StringRef value) {
    for (size_t at = text.find(key.str()); at != std::string::npos;
         at = text.find(key.str(), at + value.size()))
      text.replace(at, key.size(), value.str());
    return text;
  };
  SolverCall call{substitute(found->target.str(), "%t", lapackPrefix(elem)),
                  found->config.str()};
  for (auto [key, value] : fields)
    call.config = substitute(call.config, ("$" + key).str(), value);
  return call;
}

/// A call of a solver kernel through jaxlib's FFI (attributes in
/// `mhlo.backend_config`, as jax spells it) on batch-major operands whose
/// matrices are column-major, or row-major where `columnMajor` is false;
/// result 0 reuses the buffer of operand `aliasOperand` (none if it is -1).
Operation *solverCall(StablehloBuilder &hlo, const SolverCall &kernel, ValueRange operands,
                      TypeRange results, int64_t nb, bool columnMajor = true,
                      int64_t aliasOperand = 0) {
  OpBuilder &b = hlo.builder();
  auto layout = [&](int64_t rank) {
    if (columnMajor)
      return layoutAttr(b, rank, nb);
    SmallVector<APInt> values;
    for (int64_t d = rank - 1; d >= 0; --d)
      values.push_back(APInt(64, d));
    auto t = RankedTensorType::get({rank}, b.getIndexType());
    return Attribute(DenseIntElementsAttr::get(t, values));
  };
  SmallVector<Attribute> operandLayouts, resultLayouts;
  for (Value v : operands)
    operandLayouts.push_back(layout(tensorOf(v).getRank()));
  for (Type t : results)
    resultLayouts.push_back(layout(llvm::cast<RankedTensorType>(t).getRank()));
  std::string alias = "#stablehlo.output_operand_alias<output_tuple_indices = " +
                      std::string(results.size() == 1 ? "[]" : "[0]") +
                      ", operand_index = " + std::to_string(std::max<int64_t>(aliasOperand, 0)) +
                      ", operand_tuple_indices = []>";
  Attribute aliases = hlo.attr(alias);
  Attribute backendConfig = hlo.attr(kernel.config);
  if (!aliases || !backendConfig)
    return nullptr;
  return hlo.create(
      "custom_call", operands, results,
      {hlo.named("api_version", b.getI32IntegerAttr(1)),
       hlo.named("backend_config", b.getStringAttr("")),
       hlo.named("call_target_name", b.getStringAttr(kernel.target)),
       hlo.named("called_computations", b.getArrayAttr({})),
       hlo.named("has_side_effect", b.getBoolAttr(false)),
       hlo.named("operand_layouts", b.getArrayAttr(operandLayouts)),
       hlo.named("output_operand_aliases",
                 aliasOperand >= 0 ? b.getArrayAttr({aliases}) : b.getArrayAttr({})),
       hlo.named("result_layouts", b.getArrayAttr(resultLayouts)),
       hlo.named("mhlo.backend_config", backendConfig),
       hlo.named("mhlo.frontend_attributes",
                 b.getDictionaryAttr({hlo.named("num_batch_dims",
                                                b.getStringAttr(std::to_string(nb)))}))});
}

/// A conversion pattern whose op calls the platform's solver kernels.
template <typename OpTy>
struct SolverPattern : OpConversionPattern<OpTy> {
  SolverPattern(MLIRContext *ctx, Platform platform)
      : OpConversionPattern<OpTy>(ctx), platform(platform) {}
  Platform platform;
};

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

/// On CPU, LAPACK trsm through jaxlib's FFI target, as
/// jax.lax.linalg.triangular_solve lowers there (the result reuses b's
/// buffer); XLA's own triangular_solve expansion is several times slower
/// (a 128x128 solve took 2.7x JAX's time). On other platforms
/// stablehlo.triangular_solve, as JAX lowers it there.
struct TriangularSolvePattern : SolverPattern<TriangularSolveOp> {
  using SolverPattern::SolverPattern;
  LogicalResult
  matchAndRewrite(TriangularSolveOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    StablehloBuilder hlo(rewriter, op.getLoc());
    if (hasNoElements(op.getResult())) {
      rewriter.replaceOp(op, hlo.constant(splatAttr(op.getType(), 0.0)));
      return success();
    }
    if (platform == Platform::Cpu) {
      StringRef trans = "78"; // 'N'
      if (op.getTransposeA() == TransposeKind::Transpose)
        trans = "84"; // 'T'
      else if (op.getTransposeA() == TransposeKind::Adjoint)
        trans = "67"; // 'C'
      FailureOr<SolverCall> kernel =
          solverKernel(op, platform, "trsm", op.getType().getElementType(),
                       {{"diag", op.getUnitDiagonal() ? "85" : "78"},
                        {"side", op.getLeftSide() ? "76" : "82"},
                        {"trans", trans},
                        {"uplo", op.getLower() ? "76" : "85"}});
      if (failed(kernel))
        return failure();
      Operation *call = solverCall(hlo, *kernel, {adaptor.getA(), adaptor.getB()},
                                   {op.getType()}, op.getType().getRank() - 2,
                                   /*columnMajor=*/true, /*aliasOperand=*/1);
      if (!call)
        return failure();
      rewriter.replaceOp(op, call->getResults());
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

struct EighPattern : SolverPattern<EighOp> {
  using SolverPattern::SolverPattern;
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
    FailureOr<SolverCall> kernel =
        solverKernel(op, platform, name, elem,
                     {{"lower", op.getLower() ? "true" : "false"},
                      {"uplo", op.getLower() ? "76" : "85"}});
    if (failed(kernel))
      return failure();
    Operation *call = solverCall(hlo, *kernel, {adaptor.getOperand()},
                                 {type, op.getValues().getType(), info}, nb);
    if (!call)
      return failure();
    rewriter.replaceOp(op, {nanUnlessOk(hlo, call->getResult(0), call->getResult(2)),
                            nanUnlessOk(hlo, call->getResult(1), call->getResult(2))});
    return success();
  }
};

/// LAPACK geev through jaxlib's FFI target, as jax.lax.linalg.eig lowers on
/// CPU: jobvl/jobvr 'V' or 'N'; for real input the kernel returns the real
/// and imaginary parts of the eigenvalues (combined here) and the complex
/// eigenvectors (it unpacks LAPACK's conjugate pairs itself). NaNs where
/// info != 0; eigenvectors not asked for are zero.
struct EigPattern : SolverPattern<EigOp> {
  using SolverPattern::SolverPattern;
  LogicalResult
  matchAndRewrite(EigOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    StablehloBuilder hlo(rewriter, op.getLoc());
    auto zerosOf = [&](Value r) { return hlo.constant(splatAttr(tensorOf(r), 0.0)); };
    if (hasNoElements(op.getOperand())) {
      rewriter.replaceOp(op, {zerosOf(op.getW()), zerosOf(op.getVl()), zerosOf(op.getVr())});
      return success();
    }
    auto type = tensorOf(op.getOperand());
    int64_t nb = type.getRank() - 2;
    Type elem = type.getElementType();
    bool real = llvm::isa<FloatType>(elem);
    auto info = RankedTensorType::get(type.getShape().drop_back(2), rewriter.getI32Type());
    FailureOr<SolverCall> kernel =
        solverKernel(op, platform, "geev", elem,
                     {{"left", op.getComputeLeft() ? "86" : "78"},
                      {"right", op.getComputeRight() ? "86" : "78"}});
    if (failed(kernel))
      return failure();
    auto wType = tensorOf(op.getW());
    SmallVector<Type> results;
    if (real)
      results.append(2, wType.clone(elem));
    else
      results.push_back(wType);
    results.append({op.getVl().getType(), op.getVr().getType(), info});
    Operation *call = solverCall(hlo, *kernel, {adaptor.getOperand()}, results, nb,
                                 /*columnMajor=*/true, /*aliasOperand=*/-1);
    if (!call)
      return failure();
    unsigned at = real ? 2 : 1;
    Value w = real ? hlo.op("complex", {call->getResult(0), call->getResult(1)}, wType)
                   : call->getResult(0);
    Value status = call->getResult(at + 2);
    Value vl = op.getComputeLeft() ? nanUnlessOk(hlo, call->getResult(at), status)
                                   : zerosOf(op.getVl());
    Value vr = op.getComputeRight() ? nanUnlessOk(hlo, call->getResult(at + 1), status)
                                    : zerosOf(op.getVr());
    rewriter.replaceOp(op, {nanUnlessOk(hlo, w, status), vl, vr});
    return success();
  }
};

struct QrPattern : SolverPattern<QrOp> {
  using SolverPattern::SolverPattern;
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
    StringRef orgqr = llvm::isa<ComplexType>(elem) ? "ungqr" : "orgqr";
    FailureOr<SolverCall> geqrfKernel = solverKernel(op, platform, "geqrf", elem);
    if (failed(geqrfKernel))
      return failure();
    FailureOr<SolverCall> orgqrKernel = solverKernel(op, platform, orgqr, elem);
    if (failed(orgqrKernel))
      return failure();
    Operation *geqrf =
        solverCall(hlo, *geqrfKernel, {adaptor.getOperand()}, {type, tauType}, nb);
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
    Operation *q =
        solverCall(hlo, *orgqrKernel, {reflectors, taus}, {reflectors.getType()}, nb);
    if (!q)
      return failure();
    auto rType = tensorOf(op.getR());
    Value r = upperTriangle(hlo, slice(h, rType.getDimSize(nb), n));
    rewriter.replaceOp(op, {q->getResult(0), r});
    return success();
  }
};

/// svd as JAX's default algorithm computes it: LAPACK gesdd on CPU (job
/// 'A' or 'S'); on GPUs Jacobi (gesvdj) up to 1024x1024, which returns V
/// rather than V^H and has no economy mode for matrices up to 32x32 (full
/// factors are computed and sliced), and QR iteration (gesvd) above, which
/// factors a wide matrix as its transpose (row-major layouts, U and V^H
/// swapped).
struct SvdPattern : SolverPattern<SvdOp> {
  using SolverPattern::SolverPattern;
  LogicalResult
  matchAndRewrite(SvdOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    StablehloBuilder hlo(rewriter, op.getLoc());
    if (hasNoElements(op.getOperand())) {
      replaceEmpty(op, hlo, rewriter, {false, true, true});
      return success();
    }
    auto type = tensorOf(op.getOperand());
    int64_t rank = type.getRank(), nb = rank - 2;
    int64_t m = type.getDimSize(nb), n = type.getDimSize(nb + 1), k = std::min(m, n);
    Type elem = type.getElementType();
    ArrayRef<int64_t> batch = type.getShape().drop_back(2);
    auto info = RankedTensorType::get(batch, rewriter.getI32Type());
    auto matrix = [&](int64_t rows, int64_t cols) {
      SmallVector<int64_t> shape(batch);
      shape.append({rows, cols});
      return RankedTensorType::get(shape, elem);
    };
    bool full = op.getFullMatrices();
    Type uType = op.getU().getType(), vtType = op.getVt().getType();
    StringRef routine = svdRoutine(platform, m, n);
    Value u, vt;
    Operation *call;
    if (routine == "gesvdj") {
      bool econ = !full && m > 32 && n > 32;
      FailureOr<SolverCall> kernel =
          solverKernel(op, platform, routine, elem, {{"full", econ ? "false" : "true"}});
      if (failed(kernel))
        return failure();
      int64_t uCols = econ ? k : m, vCols = econ ? k : n;
      call = solverCall(hlo, *kernel, {adaptor.getOperand()},
                        {type, op.getS().getType(), matrix(m, uCols), matrix(n, vCols), info},
                        nb);
      if (!call)
        return failure();
      SmallVector<int64_t> perm;
      for (int64_t d = 0; d < nb; ++d)
        perm.push_back(d);
      perm.append({nb + 1, nb});
      auto vhType = matrix(vCols, n);
      u = call->getResult(2);
      vt = hlo.op("transpose", {call->getResult(3)}, vhType,
                  {hlo.i64Array("permutation", perm)});
      if (auto ct = llvm::dyn_cast<ComplexType>(elem)) {
        auto partType = vhType.clone(ct.getElementType());
        Value re = hlo.op("real", {vt}, partType);
        Value im = hlo.op("imag", {vt}, partType);
        vt = hlo.op("complex", {re, hlo.op("negate", {im}, partType)}, vhType);
      }
      if (!full && !econ) {
        auto slice = [&](Value x, RankedTensorType to) {
          SmallVector<int64_t> start(rank, 0), strides(rank, 1);
          return hlo.op("slice", {x}, to,
                        {hlo.i64Array("start_indices", start),
                         hlo.i64Array("limit_indices", to.getShape()),
                         hlo.i64Array("strides", strides)});
        };
        u = slice(u, matrix(m, k));
        vt = slice(vt, matrix(k, n));
      }
    } else {
      // gesdd's job: 'A' (all of U and V^H) or 'S' (the first min(m, n)).
      bool transposed = routine == "gesvd" && m < n;
      FailureOr<SolverCall> kernel = solverKernel(
          op, platform, routine, elem,
          {{"job", full ? "65" : "83"},
           {"full", full ? "true" : "false"},
           {"transposed", transposed ? "true" : "false"}});
      if (failed(kernel))
        return failure();
      SmallVector<Type> results = {type, op.getS().getType(), uType, vtType, info};
      if (transposed)
        std::swap(results[2], results[3]);
      call = solverCall(hlo, *kernel, {adaptor.getOperand()}, results, nb, !transposed);
      if (!call)
        return failure();
      u = call->getResult(transposed ? 3 : 2);
      vt = call->getResult(transposed ? 2 : 3);
    }
    Value status = call->getResult(4);
    rewriter.replaceOp(op, {nanUnlessOk(hlo, call->getResult(1), status),
                            nanUnlessOk(hlo, u, status), nanUnlessOk(hlo, vt, status)});
    return success();
  }
};

struct GeqrfPattern : SolverPattern<GeqrfOp> {
  using SolverPattern::SolverPattern;
  LogicalResult
  matchAndRewrite(GeqrfOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    StablehloBuilder hlo(rewriter, op.getLoc());
    if (hasNoElements(op.getOperand())) {
      replaceEmpty(op, hlo, rewriter, {false, false});
      return success();
    }
    auto type = tensorOf(op.getOperand());
    FailureOr<SolverCall> kernel = solverKernel(op, platform, "geqrf", type.getElementType());
    if (failed(kernel))
      return failure();
    Operation *call = solverCall(hlo, *kernel, {adaptor.getOperand()},
                                 {type, op.getTaus().getType()}, type.getRank() - 2);
    if (!call)
      return failure();
    rewriter.replaceOp(op, call->getResults());
    return success();
  }
};

/// LAPACK geqp3 through jaxlib's FFI target, as jax's internal geqp3 lowers
/// on CPU (the kernel copies jpvt when its buffer is not aliased).
struct Geqp3Pattern : SolverPattern<Geqp3Op> {
  using SolverPattern::SolverPattern;
  LogicalResult
  matchAndRewrite(Geqp3Op op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    StablehloBuilder hlo(rewriter, op.getLoc());
    if (hasNoElements(op.getOperand()))
      return rewriter.notifyMatchFailure(op, "empty matrices: qr handles them before geqp3");
    auto type = tensorOf(op.getOperand());
    FailureOr<SolverCall> kernel = solverKernel(op, platform, "geqp3", type.getElementType());
    if (failed(kernel))
      return failure();
    Operation *call = solverCall(hlo, *kernel, {adaptor.getOperand(), adaptor.getJpvt()},
                                 {type, op.getJpvtOut().getType(), op.getTaus().getType()},
                                 type.getRank() - 2);
    if (!call)
      return failure();
    rewriter.replaceOp(op, call->getResults());
    return success();
  }
};

/// LAPACK getrf through jaxlib's FFI target, as jax.lax.linalg.lu lowers on
/// CPU: 1-based pivots made 0-based, NaNs where getrf reports an illegal
/// argument (info < 0; a singular matrix still factors), and the pivots
/// (row swaps) turned into a permutation by a loop over them.
struct LuPattern : SolverPattern<LuOp> {
  using SolverPattern::SolverPattern;

  /// perm = iota; for i < k: swap(perm[..., i], perm[..., pivots[..., i]]).
  static Value permutationOf(StablehloBuilder &hlo, ConversionPatternRewriter &rewriter,
                             Location loc, Value pivots, RankedTensorType permType) {
    auto pivType = tensorOf(pivots);
    int64_t nb = permType.getRank() - 1, k = pivType.getDimSize(nb);
    auto i32 = RankedTensorType::get({}, rewriter.getI32Type());
    auto iotaLast = [&](RankedTensorType t) {
      return hlo.op("iota", {}, t, {hlo.named("iota_dimension", rewriter.getI64IntegerAttr(nb))});
    };
    Value perm = iotaLast(permType);
    if (k == 0 || permType.getNumElements() == 0)
      return perm;
    SmallVector<Value> state{hlo.constant(splatAttr(i32, 0)), pivots, perm};
    SmallVector<Type> types{i32, pivType, permType};
    SmallVector<Location> locs(types.size(), loc);
    Operation *loop = hlo.create("while", state, types, {}, 2);
    {
      OpBuilder::InsertionGuard guard(rewriter);
      Block *cond = rewriter.createBlock(&loop->getRegion(0), {}, types, locs);
      hlo.create("return",
                 {hlo.compare("LT", cond->getArgument(0), hlo.constant(splatAttr(i32, k)))}, {});
    }
    OpBuilder::InsertionGuard guard(rewriter);
    Block *body = rewriter.createBlock(&loop->getRegion(1), {}, types, locs);
    Value i = body->getArgument(0), piv = body->getArgument(1), p = body->getArgument(2);
    SmallVector<int64_t> batchDims;
    for (int64_t d = 0; d < nb; ++d)
      batchDims.push_back(d);
    // Column i of a `[..., len]` tensor as `[...]`, spread back over `len`.
    auto columnSpread = [&](Value x) {
      auto t = tensorOf(x);
      SmallVector<Value> operands{x};
      for (int64_t d = 0; d < nb; ++d)
        operands.push_back(hlo.constant(splatAttr(i32, 0)));
      operands.push_back(i);
      SmallVector<int64_t> sizes(t.getShape());
      sizes[nb] = 1;
      Value col = hlo.op("dynamic_slice", operands, t.clone(sizes),
                         {hlo.i64Array("slice_sizes", sizes)});
      SmallVector<int64_t> dims(batchDims);
      dims.push_back(nb);
      return hlo.op("broadcast_in_dim", {col}, permType,
                    {hlo.i64Array("broadcast_dimensions", dims)});
    };
    Value j = columnSpread(piv);      // pivots[i], everywhere along the row
    Value atI = columnSpread(p);      // perm[i]
    Value pos = iotaLast(permType);
    Value isJ = hlo.compare("EQ", pos, j);
    // perm[j]: the one element of the row at position j.
    auto i32Min = RankedTensorType::get({}, rewriter.getI32Type());
    Value atJ = hlo.reduce(
        hlo.select(isJ, p, hlo.constant(splatAttr(permType, INT32_MIN))),
        splatAttr(i32Min, INT32_MIN), {nb}, "stablehlo.maximum",
        RankedTensorType::get(permType.getShape().drop_back(), rewriter.getI32Type()));
    atJ = hlo.op("broadcast_in_dim", {atJ}, permType,
                 {hlo.i64Array("broadcast_dimensions", batchDims)});
    Value isI = hlo.compare("EQ", pos, hlo.op("broadcast_in_dim", {i}, permType,
                                              {hlo.i64Array("broadcast_dimensions", {})}));
    Value next = hlo.select(isI, atJ, hlo.select(isJ, atI, p));
    Value inc = hlo.op("add", {i, hlo.constant(splatAttr(i32, 1))}, i32);
    hlo.create("return", {inc, piv, next}, {});
    return loop->getResult(2);
  }

  LogicalResult
  matchAndRewrite(LuOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    StablehloBuilder hlo(rewriter, op.getLoc());
    auto pivType = tensorOf(op.getPivots());
    auto permType = tensorOf(op.getPermutation());
    if (hasNoElements(op.getOperand())) {
      // Nothing to factor (k = 0 or an empty batch): no swaps.
      Value pivots = hlo.constant(splatAttr(pivType, 0));
      rewriter.replaceOp(op, {adaptor.getOperand(), pivots,
                              permutationOf(hlo, rewriter, op.getLoc(), pivots, permType)});
      return success();
    }
    auto type = tensorOf(op.getOperand());
    int64_t nb = type.getRank() - 2;
    auto info = RankedTensorType::get(type.getShape().drop_back(2), rewriter.getI32Type());
    FailureOr<SolverCall> kernel = solverKernel(op, platform, "getrf", type.getElementType());
    if (failed(kernel))
      return failure();
    Operation *call = solverCall(hlo, *kernel, {adaptor.getOperand()}, {type, pivType, info}, nb);
    if (!call)
      return failure();
    Value pivots =
        hlo.op("subtract", {call->getResult(1), hlo.constant(splatAttr(pivType, 1))}, pivType);
    Value ok = hlo.compare("GE", call->getResult(2), hlo.constant(splatAttr(info, 0)));
    SmallVector<int64_t> batchDims;
    for (int64_t d = 0; d < nb; ++d)
      batchDims.push_back(d);
    Value okAll = hlo.op("broadcast_in_dim", {ok}, type.clone(rewriter.getI1Type()),
                         {hlo.i64Array("broadcast_dimensions", batchDims)});
    Value lu = hlo.select(okAll, call->getResult(0), hlo.constant(splatAttr(type, NAN)));
    rewriter.replaceOp(
        op, {lu, pivots, permutationOf(hlo, rewriter, op.getLoc(), pivots, permType)});
    return success();
  }
};

/// LAPACK potrf through jaxlib's FFI target (what jnp.linalg.cholesky calls
/// on CPU): factor (a + a^T) / 2, NaNs where it fails, zero upper triangle.
struct CholeskyPattern : SolverPattern<CholeskyOp> {
  using SolverPattern::SolverPattern;
  LogicalResult
  matchAndRewrite(CholeskyOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    StablehloBuilder hlo(rewriter, op.getLoc());
    auto type = op.getType();
    Type elem = type.getElementType();
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
    if (auto complex = llvm::dyn_cast<ComplexType>(elem)) { // a^H
      Type partType = type.clone(complex.getElementType());
      Value im = hlo.op("negate", {hlo.op("imag", {at}, partType)}, partType);
      at = hlo.op("complex", {hlo.op("real", {at}, partType), im}, type);
    }
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
    FailureOr<SolverCall> kernel = solverKernel(op, platform, "potrf", elem);
    if (failed(kernel))
      return failure();
    const std::string &target = kernel->target;
    Attribute aliases = hlo.attr(
        "#stablehlo.output_operand_alias<output_tuple_indices = [0], "
        "operand_index = 0, operand_tuple_indices = []>");
    Attribute backendConfig = hlo.attr(kernel->config);
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

/// LAPACK gees through jaxlib's FFI target, as jax.lax.linalg.schur lowers
/// on CPU (no sorting): jobvs 'V' or 'N'; the kernel also returns the
/// eigenvalues (real and imaginary parts for real input) and the number of
/// selected ones, which the op does not use. NaNs where info != 0; Schur
/// vectors not asked for are zero.
struct SchurPattern : SolverPattern<SchurOp> {
  using SolverPattern::SolverPattern;
  LogicalResult
  matchAndRewrite(SchurOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    StablehloBuilder hlo(rewriter, op.getLoc());
    bool vectors = op.getComputeSchurVectors();
    Value noVectors = hlo.constant(splatAttr(tensorOf(op.getQ()), 0.0));
    if (hasNoElements(op.getOperand())) {
      rewriter.replaceOp(op, {adaptor.getOperand(), noVectors});
      return success();
    }
    auto type = tensorOf(op.getOperand());
    int64_t nb = type.getRank() - 2;
    Type elem = type.getElementType();
    auto info = RankedTensorType::get(type.getShape().drop_back(2), rewriter.getI32Type());
    auto eigenvalues = RankedTensorType::get(type.getShape().drop_back(), elem);
    FailureOr<SolverCall> kernel =
        solverKernel(op, platform, "gees", elem, {{"mode", vectors ? "86" : "78"}});
    if (failed(kernel))
      return failure();
    SmallVector<Type> results{type, type, eigenvalues};
    if (llvm::isa<FloatType>(elem))
      results.push_back(eigenvalues);
    results.append({info, info});
    Operation *call = solverCall(hlo, *kernel, {adaptor.getOperand()}, results, nb);
    if (!call)
      return failure();
    Value status = call->getResults().back();
    rewriter.replaceOp(op, {nanUnlessOk(hlo, call->getResult(0), status),
                            vectors ? nanUnlessOk(hlo, call->getResult(1), status) : noVectors});
    return success();
  }
};

/// LAPACK gehrd through jaxlib's FFI target (ilo = 1, ihi = n), as
/// jax.lax.linalg.hessenberg lowers on CPU; NaNs where info != 0.
struct HessenbergPattern : SolverPattern<HessenbergOp> {
  using SolverPattern::SolverPattern;
  LogicalResult
  matchAndRewrite(HessenbergOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    StablehloBuilder hlo(rewriter, op.getLoc());
    if (hasNoElements(op.getOperand())) {
      rewriter.replaceOp(op, {adaptor.getOperand(),
                              hlo.constant(splatAttr(tensorOf(op.getTaus()), 0.0))});
      return success();
    }
    auto type = tensorOf(op.getOperand());
    int64_t nb = type.getRank() - 2;
    auto info = RankedTensorType::get(type.getShape().drop_back(2), rewriter.getI32Type());
    std::string high = std::to_string(type.getDimSize(nb));
    FailureOr<SolverCall> kernel =
        solverKernel(op, platform, "gehrd", type.getElementType(), {{"high", high}});
    if (failed(kernel))
      return failure();
    Operation *call = solverCall(hlo, *kernel, {adaptor.getOperand()},
                                 {type, op.getTaus().getType(), info}, nb);
    if (!call)
      return failure();
    Value status = call->getResult(2);
    rewriter.replaceOp(op, {nanUnlessOk(hlo, call->getResult(0), status),
                            nanUnlessOk(hlo, call->getResult(1), status)});
    return success();
  }
};

/// LAPACK sytrd (hetrd for complex) through jaxlib's FFI target, as
/// jax.lax.linalg.tridiagonal lowers on CPU; NaNs where info != 0.
struct TridiagonalPattern : SolverPattern<TridiagonalOp> {
  using SolverPattern::SolverPattern;
  LogicalResult
  matchAndRewrite(TridiagonalOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    StablehloBuilder hlo(rewriter, op.getLoc());
    if (hasNoElements(op.getOperand())) {
      replaceEmpty(op, hlo, rewriter, {false, false, false, false});
      return success();
    }
    auto type = tensorOf(op.getOperand());
    int64_t nb = type.getRank() - 2;
    Type elem = type.getElementType();
    auto info = RankedTensorType::get(type.getShape().drop_back(2), rewriter.getI32Type());
    FailureOr<SolverCall> kernel =
        solverKernel(op, platform, llvm::isa<ComplexType>(elem) ? "hetrd" : "sytrd", elem,
                     {{"uplo", op.getLower() ? "76" : "85"}});
    if (failed(kernel))
      return failure();
    Operation *call = solverCall(hlo, *kernel, {adaptor.getOperand()},
                                 {type, op.getD().getType(), op.getE().getType(),
                                  op.getTaus().getType(), info},
                                 nb);
    if (!call)
      return failure();
    Value status = call->getResult(4);
    SmallVector<Value> values;
    for (unsigned i = 0; i < 4; ++i)
      values.push_back(nanUnlessOk(hlo, call->getResult(i), status));
    rewriter.replaceOp(op, values);
    return success();
  }
};

/// LAPACK orgqr (ungqr for complex) through jaxlib's FFI target, as
/// jax.lax.linalg.householder_product lowers on CPU.
struct HouseholderProductPattern : SolverPattern<HouseholderProductOp> {
  using SolverPattern::SolverPattern;
  LogicalResult
  matchAndRewrite(HouseholderProductOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    StablehloBuilder hlo(rewriter, op.getLoc());
    if (hasNoElements(op.getA())) {
      rewriter.replaceOp(op, adaptor.getA());
      return success();
    }
    auto type = tensorOf(op.getA());
    Type elem = type.getElementType();
    FailureOr<SolverCall> kernel =
        solverKernel(op, platform, llvm::isa<ComplexType>(elem) ? "ungqr" : "orgqr", elem);
    if (failed(kernel))
      return failure();
    Operation *call = solverCall(hlo, *kernel, {adaptor.getA(), adaptor.getTaus()}, {type},
                                 type.getRank() - 2);
    if (!call)
      return failure();
    rewriter.replaceOp(op, call->getResults());
    return success();
  }
};

/// LAPACK gtsv through jaxlib's FFI target, as
/// jax.lax.linalg.tridiagonal_solve lowers on CPU (the kernel returns its
/// overwritten diagonals too); NaNs where info != 0 (a singular matrix).
/// With perturb_singular, jaxlib's perturbed-pivot kernel (no status).
struct TridiagonalSolvePattern : SolverPattern<TridiagonalSolveOp> {
  using SolverPattern::SolverPattern;
  LogicalResult
  matchAndRewrite(TridiagonalSolveOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    StablehloBuilder hlo(rewriter, op.getLoc());
    auto type = op.getType();
    if (hasNoElements(op.getResult())) {
      rewriter.replaceOp(op, hlo.constant(splatAttr(type, 0.0)));
      return success();
    }
    int64_t nb = type.getRank() - 2;
    if (op.getPerturbSingular()) {
      FailureOr<SolverCall> kernel =
          solverKernel(op, platform, "gtsv_perturbed", type.getElementType());
      if (failed(kernel))
        return failure();
      Operation *call = solverCall(hlo, *kernel, adaptor.getOperands(), {type}, nb,
                                   /*columnMajor=*/true, /*aliasOperand=*/-1);
      if (!call)
        return failure();
      rewriter.replaceOp(op, call->getResults());
      return success();
    }
    auto info = RankedTensorType::get(type.getShape().drop_back(2), rewriter.getI32Type());
    FailureOr<SolverCall> kernel = solverKernel(op, platform, "gtsv", type.getElementType());
    if (failed(kernel))
      return failure();
    Operation *call = solverCall(
        hlo, *kernel, adaptor.getOperands(),
        {op.getDl().getType(), op.getD().getType(), op.getDu().getType(), type, info}, nb);
    if (!call)
      return failure();
    rewriter.replaceOp(op, nanUnlessOk(hlo, call->getResult(3), call->getResult(4)));
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

void mlir::mlax::populateLinalgToStablehloPatterns(RewritePatternSet &patterns,
                                                   Platform platform) {
  patterns.add<DotGeneralPattern>(patterns.getContext());
  patterns.add<TriangularSolvePattern, CholeskyPattern, EighPattern, EigPattern, QrPattern,
               GeqrfPattern, Geqp3Pattern, SvdPattern, LuPattern, SchurPattern, HessenbergPattern,
               TridiagonalPattern, HouseholderProductPattern, TridiagonalSolvePattern>(
      patterns.getContext(), platform);
}
