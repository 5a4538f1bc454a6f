//===- MlaxFftOps.cpp - fast Fourier transforms ---------------------------===//
//
// The shape rule (`inferReturnTypes`), derivative and batching rules of mlax.fft, after
// jax/_src/lax/fft.py. The transform is linear: the JVP applies the same fft
// to the tangent; the transposes are JAX's (FFT and IFFT transpose to
// themselves since the DFT matrix is symmetric; RFFT's is the real part of
// an FFT of the zero-padded cotangent; IRFFT's is JAX's masked, conjugated
// RFFT, written as an IFFT of the real cotangent so no conj op is needed).
//
//===----------------------------------------------------------------------===//

#include "mlax/Dialect/Mlax/IR/MlaxOps.h"
#include "MlaxRuleUtils.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <complex>

using namespace mlir;
using namespace mlir::mlax;
using namespace mlir::mlax::detail;

namespace {

bool isRealFft(Type t) { return t.isF32() || t.isF64(); }

bool isComplexFft(Type t) {
  auto c = llvm::dyn_cast<ComplexType>(t);
  return c && isRealFft(c.getElementType());
}

/// The shape and element type of an fft's result (attributes verified).
RankedTensorType fftResultType(FftType kind, RankedTensorType operand,
                               ArrayRef<int64_t> lengths) {
  SmallVector<int64_t> shape(operand.getShape());
  Type elem = operand.getElementType();
  if (kind == FftType::RFFT) {
    shape.back() = lengths.back() / 2 + 1;
    elem = ComplexType::get(elem);
  } else if (kind == FftType::IRFFT) {
    shape.back() = lengths.back();
    elem = llvm::cast<ComplexType>(elem).getElementType();
  }
  return RankedTensorType::get(shape, elem);
}

Value fft(OpBuilder &b, Location loc, FftType kind, Value x, ArrayRef<int64_t> lengths) {
  return FftOp::create(b, loc, fftResultType(kind, tensorOf(x), lengths), kind, x, lengths);
}

} // namespace

LogicalResult FftOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                      Adaptor adaptor, SmallVectorImpl<Type> &results) {
  if (!allRanked(adaptor.getOperands()))
    return notTensors(loc, getOperationName());
  auto operand = tensorOf(adaptor.getOperand());
  ArrayRef<int64_t> lengths = adaptor.getFftLength();
  FftType kind = adaptor.getFftType();
  StringRef name = stringifyFftType(kind);
  size_t k = lengths.size();
  if (k < 1 || k > 3)
    return emitOptionalError(loc, "'mlax.fft' op fft_length needs 1 to 3 entries, got ", k);
  if (llvm::any_of(lengths, [](int64_t n) { return n < 1; }))
    return emitOptionalError(loc, "'mlax.fft' op fft_length must be positive, got ",
                             shapeStr(lengths));
  if (operand.getRank() < static_cast<int64_t>(k))
    return emitOptionalError(loc, "'mlax.fft' op operand of rank ", operand.getRank(),
                             " has fewer than the ", k, " transformed dimensions");
  Type in = operand.getElementType();
  bool wantReal = kind == FftType::RFFT;
  if (wantReal ? !isRealFft(in) : !isComplexFft(in))
    return emitOptionalError(loc, "'mlax.fft' op ", name, " needs ",
                             wantReal ? "an f32 or f64" : "a complex<f32> or complex<f64>",
                             " operand, got ", in);
  ArrayRef<int64_t> trailing = operand.getShape().take_back(k);
  SmallVector<int64_t> expected(lengths);
  if (kind == FftType::IRFFT)
    expected.back() = lengths.back() / 2 + 1;
  if (trailing != ArrayRef<int64_t>(expected))
    return emitOptionalError(loc, "'mlax.fft' op ", name, " with fft_length ",
                             shapeStr(lengths), " needs the operand's trailing dimensions to be ",
                             shapeStr(expected), ", got ", shapeStr(trailing));
  results.push_back(fftResultType(kind, operand, lengths));
  return success();
}

LogicalResult FftOp::jvp(OpBuilder &b, ArrayRef<Value> tangents,
                         SmallVectorImpl<Value> &resultTangents) {
  Value t = tangents[0];
  resultTangents.push_back(t ? fft(b, getLoc(), getFftType(), t, getFftLength()) : Value());
  return success();
}

LogicalResult FftOp::vjp(OpBuilder &b, ArrayRef<Value> cotangents,
                         SmallVectorImpl<Value> &operandCotangents) {
  Value g = cotangents[0];
  if (!g) {
    operandCotangents.push_back(Value());
    return success();
  }
  Location loc = getLoc();
  ArrayRef<int64_t> lengths = getFftLength();
  auto gType = tensorOf(g);
  int64_t rank = gType.getRank();
  switch (getFftType()) {
  case FftType::FFT:
  case FftType::IFFT:
    operandCotangents.push_back(fft(b, loc, getFftType(), g, lengths));
    return success();
  case FftType::RFFT: {
    // The transpose of x -> FFT(complex(x))[..., :n/2+1]: pad the last
    // dimension back to n with zeros, FFT, take the real part.
    auto ct = llvm::cast<ComplexType>(gType.getElementType());
    SmallVector<int64_t> shape(gType.getShape());
    SmallVector<int64_t> lo(rank, 0), hi(rank, 0), interior(rank, 0);
    hi.back() = lengths.back() - shape.back();
    shape.back() = lengths.back();
    auto scalar = RankedTensorType::get({}, ct);
    const auto &sem = llvm::cast<FloatType>(ct.getElementType()).getFloatSemantics();
    std::complex<llvm::APFloat> zero(llvm::APFloat::getZero(sem), llvm::APFloat::getZero(sem));
    Value fill = ConstantOp::create(
        b, loc, llvm::cast<ElementsAttr>(DenseElementsAttr::get(scalar, llvm::ArrayRef(zero))));
    Value padded = PadOp::create(b, loc, RankedTensorType::get(shape, ct), g, fill, lo, hi,
                                 interior);
    Value full = fft(b, loc, FftType::FFT, padded, lengths);
    operandCotangents.push_back(ConvertOp::create(
        b, loc, RankedTensorType::get(shape, ct.getElementType()), full));
    return success();
  }
  case FftType::IRFFT: {
    // JAX: conj(mask * RFFT(g) / N) with mask = [1, 2, ..., 2, (1)]. For a
    // real g, conj(RFFT(g)) = N * IFFT(complex(g))[..., :n/2+1].
    auto operandType = tensorOf(getOperand());
    auto ct = llvm::cast<ComplexType>(operandType.getElementType());
    Value z = ConvertOp::create(b, loc, gType.clone(ct), g);
    Value inv = fft(b, loc, FftType::IFFT, z, lengths);
    SmallVector<int64_t> zeros(rank, 0), strides(rank, 1);
    SmallVector<int64_t> limits(tensorOf(inv).getShape());
    int64_t m = operandType.getShape().back();
    limits.back() = m;
    Value half = SliceOp::create(b, loc, operandType, inv, zeros, limits, strides);
    const auto &sem = llvm::cast<FloatType>(ct.getElementType()).getFloatSemantics();
    bool odd = lengths.back() % 2;
    SmallVector<std::complex<llvm::APFloat>> mask;
    for (int64_t i = 0; i < m; ++i) {
      bool one = i == 0 || (!odd && i == m - 1);
      llvm::APFloat v(one ? 1.0 : 2.0);
      bool lost;
      v.convert(sem, llvm::APFloat::rmNearestTiesToEven, &lost);
      mask.emplace_back(v, llvm::APFloat::getZero(sem));
    }
    auto maskType = RankedTensorType::get({m}, ct);
    Value maskV = ConstantOp::create(
        b, loc, llvm::cast<ElementsAttr>(DenseElementsAttr::get(maskType, llvm::ArrayRef(mask))));
    Value bcast = BroadcastInDimOp::create(b, loc, operandType, maskV,
                                           SmallVector<int64_t>{rank - 1});
    operandCotangents.push_back(MulOp::create(b, loc, half, bcast));
    return success();
  }
  }
  return failure();
}

/// The fft acts on trailing dimensions, so the leading batch dimension rides
/// along unchanged.
LogicalResult FftOp::batch(OpBuilder &b, ValueRange operands, ArrayRef<bool> batched,
                           int64_t batchSize, SmallVectorImpl<Value> &results) {
  results.push_back(fft(b, getLoc(), getFftType(), operands[0], getFftLength()));
  return success();
}
