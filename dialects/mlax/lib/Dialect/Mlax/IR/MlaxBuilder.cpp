//===- MlaxBuilder.cpp - the one builder of mlax ops and constants --------===//

#include "mlax/Dialect/Mlax/IR/MlaxBuilder.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/APInt.h"
#include "llvm/ADT/STLExtras.h"

#include <cmath>
#include <complex>

using namespace mlir;
using namespace mlir::mlax;
using llvm::APFloat;
using llvm::APInt;

//===----------------------------------------------------------------------===//
// Constants
//===----------------------------------------------------------------------===//

namespace {
/// `value` in a float format, as XLA's (and ml_dtypes') conversion gives it
/// where the format lacks the value (APFloat has no rule there, or aborts):
/// f4E2M1FN has no NaN (NaN becomes -0) nor infinities (they saturate);
/// f8E8M0FNU has no zero and no sign (0 and negatives become NaN); the
/// float8s without infinities make them NaN.
APFloat floatValue(const llvm::fltSemantics &sem, double value) {
  if (std::isnan(value))
    return APFloat::semanticsHasNaN(sem) ? APFloat::getQNaN(sem)
                                         : APFloat::getZero(sem, /*Negative=*/true);
  if (!APFloat::semanticsHasZero(sem) && !(value > 0))
    return APFloat::getQNaN(sem);
  if (std::isinf(value) && !APFloat::semanticsHasInf(sem))
    return APFloat::semanticsHasNaN(sem) ? APFloat::getQNaN(sem)
                                         : APFloat::getLargest(sem, /*Negative=*/value < 0);
  APFloat v(value);
  bool lost;
  v.convert(sem, APFloat::rmNearestTiesToEven, &lost);
  return v;
}
} // namespace

DenseElementsAttr mlax::splatAttr(ShapedType type, double value) {
  Type elem = type.getElementType();
  if (auto complex = llvm::dyn_cast<ComplexType>(elem)) {
    const auto &sem = llvm::cast<FloatType>(complex.getElementType()).getFloatSemantics();
    APFloat re = floatValue(sem, value);
    APFloat im = std::isnan(value) ? re : APFloat::getZero(sem);
    std::complex<APFloat> c(re, im);
    return DenseElementsAttr::get(type, llvm::ArrayRef(c));
  }
  if (auto ft = llvm::dyn_cast<FloatType>(elem))
    return DenseElementsAttr::get(type, llvm::ArrayRef(floatValue(ft.getFloatSemantics(), value)));
  auto it = llvm::cast<IntegerType>(elem);
  if (it.getWidth() == 1)
    return DenseElementsAttr::get(type, llvm::ArrayRef(value != 0));
  APInt v(it.getWidth(), static_cast<uint64_t>(static_cast<int64_t>(value)),
          /*isSigned=*/false, /*implicitTrunc=*/true);
  return DenseElementsAttr::get(type, llvm::ArrayRef(v));
}

DenseElementsAttr mlax::identityAttr(WindowReduction kind, Type elem) {
  auto scalar = RankedTensorType::get({}, elem);
  bool isMax = kind == WindowReduction::Max, isMin = kind == WindowReduction::Min;
  if (elem.isInteger(1))
    return splatAttr(scalar, kind == WindowReduction::Mul || isMin);
  if (llvm::isa<ComplexType>(elem) || (!isMax && !isMin))
    return splatAttr(scalar, kind == WindowReduction::Mul ? 1.0 : 0.0);
  if (auto ft = llvm::dyn_cast<FloatType>(elem)) {
    const llvm::fltSemantics &sem = ft.getFloatSemantics();
    // ±inf, else the extreme finite values. f8E8M0FNU has no sign: its
    // lowest value is the all-zero bit pattern, 2^-127. (JAX starts its max
    // from -inf, NaN there, so its max of any f8E8M0FNU array is NaN.)
    APFloat v = APFloat::semanticsHasInf(sem) ? APFloat::getInf(sem, /*Negative=*/isMax)
                : APFloat::semanticsHasSignedRepr(sem) || !isMax
                    ? APFloat::getLargest(sem, /*Negative=*/isMax)
                    : APFloat(sem, APInt::getZero(APFloat::semanticsSizeInBits(sem)));
    return DenseElementsAttr::get(scalar, llvm::ArrayRef(v));
  }
  auto it = llvm::cast<IntegerType>(elem);
  unsigned w = it.getWidth();
  bool isSigned = !it.isUnsigned();
  APInt v = isMax ? (isSigned ? APInt::getSignedMinValue(w) : APInt::getMinValue(w))
                  : (isSigned ? APInt::getSignedMaxValue(w) : APInt::getMaxValue(w));
  return DenseElementsAttr::get(scalar, llvm::ArrayRef(v));
}

Value MlaxBuilder::splat(Type type, double value) {
  return ConstantOp::create(b, loc, splatAttr(llvm::cast<RankedTensorType>(type), value));
}

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

Value MlaxBuilder::add(Value x, Value y) {
  if (!x)
    return y;
  if (!y)
    return x;
  return AddOp::create(b, loc, x, y);
}

Value MlaxBuilder::sub(Value x, Value y) {
  if (!y)
    return x;
  if (!x)
    return neg(y);
  return SubOp::create(b, loc, x, y);
}

Value MlaxBuilder::mul(Value x, Value y) { return MulOp::create(b, loc, x, y); }
Value MlaxBuilder::div(Value x, Value y) { return DivOp::create(b, loc, x, y); }
Value MlaxBuilder::neg(Value x) { return NegOp::create(b, loc, x); }
Value MlaxBuilder::sign(Value x) { return SignOp::create(b, loc, x); }
Value MlaxBuilder::exp(Value x) { return ExpOp::create(b, loc, x); }

Value MlaxBuilder::trunc(Value x) {
  return mul(sign(x), FloorOp::create(b, loc, AbsOp::create(b, loc, x)));
}

Value MlaxBuilder::compare(ComparisonDirection direction, Value x, Value y) {
  return CompareOp::create(b, loc, direction, x, y);
}

Value MlaxBuilder::logicalAnd(Value x, Value y) { return AndOp::create(b, loc, x, y); }

Value MlaxBuilder::select(Value pred, Value onTrue, Value onFalse) {
  return SelectNOp::create(b, loc, pred, ValueRange{onFalse, onTrue});
}

Value MlaxBuilder::balancedEq(Value mine, Value other, Value result) {
  Value half = like(result, 0.5), one = like(result, 1.0), zero = like(result, 0.0);
  return select(eq(mine, result), select(eq(other, result), half, one), zero);
}

Value MlaxBuilder::convert(Value x, Type elementType) {
  auto type = tensorOf(x);
  if (type.getElementType() == elementType)
    return x;
  return ConvertOp::create(b, loc, type.clone(elementType), x);
}

Value MlaxBuilder::conj(Value x) {
  if (!llvm::isa<ComplexType>(tensorOf(x).getElementType()))
    return x;
  return ConjOp::create(b, loc, x);
}

Value MlaxBuilder::real(Value x) {
  if (!llvm::isa<ComplexType>(tensorOf(x).getElementType()))
    return x;
  return RealOp::create(b, loc, x);
}

//===----------------------------------------------------------------------===//
// Shapes and reductions
//===----------------------------------------------------------------------===//

Value MlaxBuilder::reduceSum(Value x, ArrayRef<int64_t> axes) {
  if (axes.empty())
    return x;
  return ReduceSumOp::create(b, loc, x, axes);
}

Value MlaxBuilder::sumTo(Value x, Type type) {
  if (x.getType() == type)
    return x;
  SmallVector<int64_t> axes;
  for (int64_t d = 0; d < tensorOf(x).getRank(); ++d)
    axes.push_back(d);
  return ReduceSumOp::create(b, loc, x, axes);
}

Value MlaxBuilder::broadcast(Value x, Type resultType, ArrayRef<int64_t> dims) {
  if (x.getType() == resultType)
    return x;
  return BroadcastInDimOp::create(b, loc, resultType, x, dims);
}

Value MlaxBuilder::reshape(Value x, Type resultType) {
  if (x.getType() == resultType)
    return x;
  return ReshapeOp::create(b, loc, resultType, x);
}

Value MlaxBuilder::transpose(Value x, ArrayRef<int64_t> perm) {
  bool identity = true;
  for (auto [i, p] : llvm::enumerate(perm))
    identity &= static_cast<int64_t>(i) == p;
  if (identity)
    return x;
  return TransposeOp::create(b, loc, x, perm);
}

Value MlaxBuilder::moveAxis(Value x, int64_t from, int64_t to) {
  SmallVector<int64_t> perm;
  for (int64_t d = 0, rank = tensorOf(x).getRank(); d < rank; ++d)
    if (d != from)
      perm.push_back(d);
  perm.insert(perm.begin() + to, from);
  return transpose(x, perm);
}

//===----------------------------------------------------------------------===//
// Matrices
//===----------------------------------------------------------------------===//

namespace {
SmallVector<int64_t> withMatrix(ArrayRef<int64_t> batch, ArrayRef<int64_t> tail) {
  SmallVector<int64_t> s(batch);
  s.append(tail.begin(), tail.end());
  return s;
}
} // namespace

Value MlaxBuilder::mT(Value x) {
  int64_t r = tensorOf(x).getRank();
  SmallVector<int64_t> perm;
  for (int64_t d = 0; d < r - 2; ++d)
    perm.push_back(d);
  perm.append({r - 1, r - 2});
  return TransposeOp::create(b, loc, x, perm);
}

Value MlaxBuilder::matmul(Value x, Value y) {
  auto xt = tensorOf(x), yt = tensorOf(y);
  int64_t n = batchRank(x);
  SmallVector<int64_t> batch;
  for (int64_t d = 0; d < n; ++d)
    batch.push_back(d);
  auto shape = withMatrix(xt.getShape().drop_back(2), {xt.getDimSize(n), yt.getDimSize(n + 1)});
  return DotGeneralOp::create(b, loc, RankedTensorType::get(shape, xt.getElementType()), x, y,
                              batch, batch, ArrayRef<int64_t>{n + 1}, ArrayRef<int64_t>{n});
}

Value MlaxBuilder::broadcastMatrixMask(RankedTensorType like, ArrayRef<bool> bits) {
  int64_t n = like.getRank() - 2;
  auto small = RankedTensorType::get({like.getDimSize(n), like.getDimSize(n + 1)}, b.getI1Type());
  Value m = ConstantOp::create(b, loc, DenseElementsAttr::get(small, bits));
  if (n == 0)
    return m;
  return BroadcastInDimOp::create(b, loc, like.clone(b.getI1Type()), m,
                                  ArrayRef<int64_t>{n, n + 1});
}

Value MlaxBuilder::eye(RankedTensorType like) {
  return SelectNOp::create(b, loc, mask(like, [](int64_t i, int64_t j) { return i == j; }),
                           ValueRange{splat(like, 0.0), splat(like, 1.0)});
}

Value MlaxBuilder::diag(Value x) {
  return ReduceSumOp::create(b, loc, where(x, [](int64_t i, int64_t j) { return i == j; }),
                             ArrayRef<int64_t>{batchRank(x) + 1});
}

Value MlaxBuilder::spread(Value v, RankedTensorType like, bool alongRows) {
  int64_t n = like.getRank() - 2;
  SmallVector<int64_t> dims;
  for (int64_t d = 0; d < n; ++d)
    dims.push_back(d);
  dims.push_back(alongRows ? n : n + 1);
  return BroadcastInDimOp::create(b, loc, like.clone(tensorOf(v).getElementType()), v, dims);
}

Value MlaxBuilder::diagEmbed(Value v) {
  auto vt = tensorOf(v);
  int64_t n = vt.getDimSize(vt.getRank() - 1);
  auto like =
      RankedTensorType::get(withMatrix(vt.getShape().drop_back(), {n, n}), vt.getElementType());
  return where(spread(v, like, false), [](int64_t i, int64_t j) { return i == j; });
}

Value MlaxBuilder::slice(Value x, int64_t r0, int64_t r1, int64_t c0, int64_t c1) {
  auto t = tensorOf(x);
  int64_t n = t.getRank() - 2;
  SmallVector<int64_t> start(t.getRank(), 0), limit(t.getShape()), strides(t.getRank(), 1);
  start[n] = r0;
  start[n + 1] = c0;
  limit[n] = r1;
  limit[n + 1] = c1;
  if (ArrayRef<int64_t>(limit) == t.getShape() && r0 == 0 && c0 == 0)
    return x;
  return SliceOp::create(b, loc, x, start, limit, strides);
}

Value MlaxBuilder::concatCols(Value x, Value y) {
  return ConcatenateOp::create(b, loc, ValueRange{x, y}, batchRank(x) + 1);
}

Value MlaxBuilder::solve(Value a, Value rhs, bool left, bool lower, bool unitDiagonal,
                         TransposeKind kind) {
  return TriangularSolveOp::create(b, loc, rhs.getType(), a, rhs, left, lower, unitDiagonal, kind);
}
