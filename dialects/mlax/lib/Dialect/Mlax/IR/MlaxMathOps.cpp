//===- MlaxMathOps.cpp - special functions, clamp, top_k, scans -----------===//
//
// Shape rules (`inferReturnTypes`), derivative rules and batching rules of
// the ops in MlaxMathOps.td (sort and cumsum's rules at the end). The derivative rules follow jax.lax's:
//
//  * elementwise functions: t * f'(x), as jax.lax's `defjvp` rules, declared
//    in MlaxMathOps.td (`let partials`);
//  * clamp: the tangent of whichever input the result is (select-based);
//  * top_k: the tangent gathered at the indices (its transpose scatters);
//  * cumprod/cummax/cummin/cumlogsumexp: jax differentiates these through an
//    associative scan of the binary combiner; here the scan is a log-step
//    (Hillis-Steele) prefix scan written with mlax ops, differentiated in
//    closed form, so zeros (cumprod) and ties (cummax/cummin: the tangent is
//    split evenly as lax.max's rule splits it) are exact.
//
//===----------------------------------------------------------------------===//

#include "mlax/Dialect/Mlax/IR/MlaxOps.h"
#include "MlaxRuleUtils.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/STLExtras.h"

#include <cmath>

using namespace mlir;
using namespace mlir::mlax;
using namespace mlir::mlax::detail;

// The elementwise functions' partials are declared in MlaxMathOps.td.

//===----------------------------------------------------------------------===//
// polygamma, zeta: differentiable in x (resp. q) only, as in jax.lax
//===----------------------------------------------------------------------===//

namespace {
/// The cotangent of an argument a rule cannot differentiate: NaN, so that a
/// gradient through it is visibly undefined (a vjp rule cannot tell whether
/// the argument is active; an inactive one drops it).
Value undefinedCotangent(MlaxBuilder &e, Value like) {
  return e.like(like, std::nan(""));
}
} // namespace

LogicalResult PolygammaOp::jvp(OpBuilder &b, ArrayRef<Value> tangents,
                               SmallVectorImpl<Value> &resultTangents) {
  if (tangents[0])
    return emitOpError("cannot be differentiated with respect to m (the order), as in "
                       "jax.lax.polygamma");
  if (!tangents[1]) {
    resultTangents.push_back({});
    return success();
  }
  MlaxBuilder e(b, *this);
  Value m = getLhs(), x = getRhs();
  Value next = PolygammaOp::create(b, getLoc(), e.add(m, e.like(m, 1.0)), x);
  resultTangents.push_back(e.mul(tangents[1], next));
  return success();
}

LogicalResult PolygammaOp::vjp(OpBuilder &b, ArrayRef<Value> cotangents,
                               SmallVectorImpl<Value> &operandCotangents) {
  if (!cotangents[0]) {
    operandCotangents.append({Value(), Value()});
    return success();
  }
  MlaxBuilder e(b, *this);
  Value m = getLhs(), x = getRhs();
  Value next = PolygammaOp::create(b, getLoc(), e.add(m, e.like(m, 1.0)), x);
  operandCotangents.push_back(undefinedCotangent(e, m));
  operandCotangents.push_back(e.mul(cotangents[0], next));
  return success();
}

LogicalResult ZetaOp::jvp(OpBuilder &b, ArrayRef<Value> tangents,
                          SmallVectorImpl<Value> &resultTangents) {
  if (tangents[0])
    return emitOpError("cannot be differentiated with respect to x (only q)");
  if (!tangents[1]) {
    resultTangents.push_back({});
    return success();
  }
  // d/dq zeta(x, q) = -x * zeta(x + 1, q)
  MlaxBuilder e(b, *this);
  Value x = getLhs(), q = getRhs();
  Value next = ZetaOp::create(b, getLoc(), e.add(x, e.like(x, 1.0)), q);
  resultTangents.push_back(e.mul(tangents[1], e.mul(e.neg(x), next)));
  return success();
}

LogicalResult ZetaOp::vjp(OpBuilder &b, ArrayRef<Value> cotangents,
                          SmallVectorImpl<Value> &operandCotangents) {
  if (!cotangents[0]) {
    operandCotangents.append({Value(), Value()});
    return success();
  }
  MlaxBuilder e(b, *this);
  Value x = getLhs(), q = getRhs();
  Value next = ZetaOp::create(b, getLoc(), e.add(x, e.like(x, 1.0)), q);
  operandCotangents.push_back(undefinedCotangent(e, x));
  operandCotangents.push_back(e.mul(cotangents[0], e.mul(e.neg(x), next)));
  return success();
}

//===----------------------------------------------------------------------===//
// clamp
//===----------------------------------------------------------------------===//

LogicalResult ClampOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                        Adaptor adaptor, SmallVectorImpl<Type> &results) {
  if (!allRanked(adaptor.getOperands()))
    return notTensors(loc, getOperationName());
  auto x = tensorOf(adaptor.getOperand());
  for (auto [name, bound] : {std::pair<StringRef, Value>{"min", adaptor.getMin()},
                             std::pair<StringRef, Value>{"max", adaptor.getMax()}}) {
    auto t = tensorOf(bound);
    if (t.getRank() != 0 && t.getShape() != x.getShape())
      return emitOptionalError(loc, "'mlax.clamp' op ", name,
                               " must be a scalar or have the operand's shape ", x, ", got ", t);
    if (t.getElementType() != x.getElementType())
      return emitOptionalError(loc, "'mlax.clamp' op ", name, " dtype ", t.getElementType(),
                               " must match the operand's element type ", x.getElementType());
  }
  results.push_back(x);
  return success();
}

namespace {
/// The three masks of jax.lax's clamp rule: where the result is the operand
/// (min < x < max), min (min > x and min < max) and max (max < x).
struct ClampMasks {
  Value operand, min, max;
};
ClampMasks clampMasks(MlaxBuilder &e, ClampOp op) {
  auto type = op.getOperand().getType();
  Value x = op.getOperand();
  Value lo = e.broadcast(op.getMin(), type), hi = e.broadcast(op.getMax(), type);
  using D = ComparisonDirection;
  return {e.logicalAnd(e.compare(D::GT, x, lo), e.compare(D::LT, x, hi)),
          e.logicalAnd(e.compare(D::GT, lo, x), e.compare(D::LT, lo, hi)), e.compare(D::LT, hi, x)};
}
} // namespace

LogicalResult ClampOp::jvp(OpBuilder &b, ArrayRef<Value> tangents,
                           SmallVectorImpl<Value> &resultTangents) {
  if (llvm::all_of(tangents, [](Value t) { return !t; })) {
    resultTangents.push_back({});
    return success();
  }
  MlaxBuilder e(b, *this);
  auto type = getOperand().getType();
  ClampMasks masks = clampMasks(e, *this);
  Value zero = e.splat(type, 0.0), sum;
  Value which[3] = {masks.min, masks.operand, masks.max};
  for (int i = 0; i < 3; ++i)
    if (tangents[i])
      sum = e.add(sum, e.select(which[i], e.broadcast(tangents[i], type), zero));
  resultTangents.push_back(sum);
  return success();
}

LogicalResult ClampOp::vjp(OpBuilder &b, ArrayRef<Value> cotangents,
                           SmallVectorImpl<Value> &operandCotangents) {
  if (!cotangents[0]) {
    operandCotangents.append({Value(), Value(), Value()});
    return success();
  }
  MlaxBuilder e(b, *this);
  auto type = getOperand().getType();
  ClampMasks masks = clampMasks(e, *this);
  Value ct = cotangents[0], zero = e.splat(type, 0.0);
  operandCotangents.push_back(e.sumTo(e.select(masks.min, ct, zero), tensorOf(getMin())));
  operandCotangents.push_back(e.select(masks.operand, ct, zero));
  operandCotangents.push_back(e.sumTo(e.select(masks.max, ct, zero), tensorOf(getMax())));
  return success();
}

LogicalResult ClampOp::batch(OpBuilder &b, ValueRange operands, ArrayRef<bool> batched,
                             int64_t batchSize, SmallVectorImpl<Value> &results) {
  Location loc = getLoc();
  auto resultType = vec::batchedType(getType(), batchSize);
  Value x = batched[1] ? operands[1] : vec::broadcastToBatch(b, loc, operands[1], batchSize);
  SmallVector<Value> bounds;
  for (unsigned i : {0u, 2u}) {
    Value v = operands[i];
    bool scalar = tensorOf(getOperation()->getOperand(i)).getRank() == 0;
    if (!batched[i] && scalar) {
      bounds.push_back(v); // a scalar bound stays a scalar
    } else if (!batched[i]) {
      bounds.push_back(vec::broadcastToBatch(b, loc, v, batchSize));
    } else if (scalar && resultType.getRank() > 1) {
      bounds.push_back(BroadcastInDimOp::create(b, loc, resultType, v, ArrayRef<int64_t>{0}));
    } else {
      bounds.push_back(v);
    }
  }
  results.push_back(ClampOp::create(b, loc, resultType, bounds[0], x, bounds[1]));
  return success();
}

//===----------------------------------------------------------------------===//
// top_k
//===----------------------------------------------------------------------===//

LogicalResult TopKOp::inferReturnTypes(MLIRContext *context, std::optional<Location> loc,
                                       Adaptor adaptor, SmallVectorImpl<Type> &results) {
  if (!allRanked(adaptor.getOperands()))
    return notTensors(loc, getOperationName());
  auto in = tensorOf(adaptor.getOperand());
  if (in.getRank() < 1)
    return emitOptionalError(loc, "'mlax.top_k' op needs an operand of rank at least 1, got ",
                             in);
  int64_t k = adaptor.getK(), n = in.getDimSize(in.getRank() - 1);
  if (k < 0 || k > n)
    return emitOptionalError(loc, "'mlax.top_k' op k = ", k, " must be in [0, ", n,
                             "] (the size of the last dimension)");
  SmallVector<int64_t> shape(in.getShape());
  shape.back() = k;
  results.push_back(RankedTensorType::get(shape, in.getElementType()));
  results.push_back(RankedTensorType::get(shape, IntegerType::get(context, 32)));
  return success();
}

namespace {
/// The dimension numbers that pair each top_k index with its row: the
/// leading dimensions are batching dimensions, the last is indexed.
SmallVector<int64_t> leadingDims(int64_t rank) {
  SmallVector<int64_t> dims;
  for (int64_t d = 0; d + 1 < rank; ++d)
    dims.push_back(d);
  return dims;
}

/// The indices with a trailing index-vector dimension of size 1.
Value indexVectors(MlaxBuilder &e, Value indices) {
  auto t = tensorOf(indices);
  SmallVector<int64_t> shape(t.getShape());
  shape.push_back(1);
  return ReshapeOp::create(e.b, e.loc, RankedTensorType::get(shape, t.getElementType()),
                           indices);
}
} // namespace

LogicalResult TopKOp::jvp(OpBuilder &b, ArrayRef<Value> tangents,
                          SmallVectorImpl<Value> &resultTangents) {
  if (!tangents[0]) {
    resultTangents.append({Value(), Value()});
    return success();
  }
  MlaxBuilder e(b, *this);
  int64_t rank = getOperand().getType().getRank();
  SmallVector<int64_t> lead = leadingDims(rank), ones(rank, 1);
  Value gathered = GatherOp::create(
      b, getLoc(), getValues().getType(), tangents[0], indexVectors(e, getIndices()),
      b.getDenseI64ArrayAttr({}), b.getDenseI64ArrayAttr({rank - 1}),
      b.getDenseI64ArrayAttr(lead), b.getDenseI64ArrayAttr(lead),
      b.getDenseI64ArrayAttr({rank - 1}), b.getI64IntegerAttr(rank),
      b.getDenseI64ArrayAttr(ones), UnitAttr());
  resultTangents.append({gathered, Value()});
  return success();
}

LogicalResult TopKOp::vjp(OpBuilder &b, ArrayRef<Value> cotangents,
                          SmallVectorImpl<Value> &operandCotangents) {
  if (!cotangents[0]) {
    operandCotangents.push_back({});
    return success();
  }
  MlaxBuilder e(b, *this);
  auto type = getOperand().getType();
  int64_t rank = type.getRank();
  SmallVector<int64_t> lead = leadingDims(rank);
  Value scattered = ScatterOp::create(
      b, getLoc(), type, ScatterCombinerAttr::get(b.getContext(), ScatterCombiner::Add),
      e.splat(type, 0.0), indexVectors(e, getIndices()), cotangents[0],
      b.getDenseI64ArrayAttr({}), b.getDenseI64ArrayAttr({rank - 1}),
      b.getDenseI64ArrayAttr(lead), b.getDenseI64ArrayAttr(lead),
      b.getDenseI64ArrayAttr({rank - 1}), b.getI64IntegerAttr(rank), UnitAttr(),
      b.getUnitAttr());
  operandCotangents.push_back(scattered);
  return success();
}

LogicalResult TopKOp::batch(OpBuilder &b, ValueRange operands, ArrayRef<bool>,
                            int64_t batchSize, SmallVectorImpl<Value> &results) {
  // top_k works on the last dimension; the batch dimension is one more row.
  auto op = TopKOp::create(b, getLoc(), vec::batchedType(getValues().getType(), batchSize),
                           vec::batchedType(getIndices().getType(), batchSize), operands[0],
                           getKAttr());
  results.append({op.getValues(), op.getIndices()});
  return success();
}

//===----------------------------------------------------------------------===//
// cumprod, cummax, cummin, cumlogsumexp
//===----------------------------------------------------------------------===//

/// The shape rule of the cumulative ops (cumsum too): the operand's type,
/// for an axis in range.
static LogicalResult inferCumulative(StringRef opName, std::optional<Location> loc,
                                     Value operand, int64_t axis,
                                     SmallVectorImpl<Type> &results) {
  if (!allRanked(operand))
    return notTensors(loc, opName);
  auto type = tensorOf(operand);
  if (axis < 0 || axis >= type.getRank())
    return emitOptionalError(loc, "'", opName, "' op axis ", axis,
                             " is out of range for rank ", type.getRank());
  results.push_back(type);
  return success();
}

namespace {

enum class Combiner { Prod, Max, Min, LogSumExp };


/// One step of the prefix scan combines each element with the one `k`
/// places earlier (later when reversed): `x' = x (+) shifted(x)`. The
/// weights are the partial derivatives of `(+)` in its two arguments.
struct Step {
  Value valid;    // i1: the positions that have an element k places back
  Value combined; // x (+) shifted(x), meaningful where valid
  Value wSelf, wShifted;
};

struct PrefixScan {
  MlaxBuilder &e;
  Combiner kind;
  int64_t axis;
  bool reverse;
  RankedTensorType type;

  int64_t size() const { return type.getDimSize(axis); }

  /// `v` moved `k` places along the axis in the scan's direction (`toward`)
  /// or against it, the vacated places filled with zeros.
  Value shift(Value v, int64_t k, bool toward) {
    int64_t rank = type.getRank();
    SmallVector<int64_t> low(rank, 0), high(rank, 0), interior(rank, 0);
    bool lowSide = toward != reverse; // forward scans shift towards higher indices
    (lowSide ? low : high)[axis] = k;
    (lowSide ? high : low)[axis] = -k;
    Value zero = e.scalar(tensorOf(v).getElementType(), 0.0);
    return PadOp::create(e.b, e.loc, v, zero, low, high, interior);
  }

  Value validMask(int64_t k) {
    auto idxType = type.clone(e.b.getI32Type());
    Value pos = IotaOp::create(e.b, e.loc, idxType, e.b.getI64IntegerAttr(axis));
    if (!reverse)
      return e.compare(ComparisonDirection::GE, pos, e.splat(idxType, k));
    return e.compare(ComparisonDirection::LT, pos, e.splat(idxType, size() - k));
  }

  /// `x` with +inf read as 0 (jax's logaddexp rule, so that exp(inf - inf)
  /// does not make a NaN).
  Value replaceInf(Value x) {
    return e.select(e.eq(x, e.like(x, INFINITY)), e.like(x, 0.0), x);
  }

  Value logaddexp(Value a, Value b) {
    Value amax = MaxOp::create(e.b, e.loc, a, b);
    Value delta = e.sub(a, b);
    Value isNan = e.compare(ComparisonDirection::NE, delta, delta);
    Value tail = Log1pOp::create(
        e.b, e.loc, e.exp(e.neg(AbsOp::create(e.b, e.loc, delta))));
    return e.select(isNan, e.add(a, b), e.add(amax, tail));
  }

  Step step(Value x, int64_t k) {
    Step s;
    s.valid = validMask(k);
    Value xs = shift(x, k, /*toward=*/true);
    switch (kind) {
    case Combiner::Prod:
      s.combined = e.mul(x, xs);
      s.wSelf = xs;
      s.wShifted = x;
      break;
    case Combiner::Max:
    case Combiner::Min:
      s.combined = kind == Combiner::Max ? Value(MaxOp::create(e.b, e.loc, x, xs))
                                         : Value(MinOp::create(e.b, e.loc, x, xs));
      s.wSelf = e.balancedEq(x, xs, s.combined);
      s.wShifted = e.balancedEq(xs, x, s.combined);
      break;
    case Combiner::LogSumExp: {
      s.combined = logaddexp(x, xs);
      Value r = replaceInf(s.combined);
      s.wSelf = e.exp(e.sub(replaceInf(x), r));
      s.wShifted = e.exp(e.sub(replaceInf(xs), r));
      break;
    }
    }
    return s;
  }

  /// The steps of the scan over `x`, in order.
  SmallVector<Step> steps(Value x) {
    SmallVector<Step> out;
    for (int64_t k = 1; k < size(); k *= 2) {
      out.push_back(step(x, k));
      x = e.select(out.back().valid, out.back().combined, x);
    }
    return out;
  }

  /// Forward mode: each step maps t to `valid ? wSelf*t + wShifted*shift(t) : t`.
  Value jvp(Value x, Value t) {
    int64_t k = 1;
    for (const Step &s : steps(x)) {
      Value mixed = e.add(e.mul(s.wSelf, t), e.mul(s.wShifted, shift(t, k, true)));
      t = e.select(s.valid, mixed, t);
      k *= 2;
    }
    return t;
  }

  /// Reverse mode: the transposed steps, last first.
  Value vjp(Value x, Value ct) {
    SmallVector<Step> all = steps(x);
    Value zero = e.splat(type, 0.0);
    int64_t k = int64_t(1) << all.size();
    for (const Step &s : llvm::reverse(all)) {
      k /= 2;
      Value self = e.select(s.valid, e.mul(s.wSelf, ct), ct);
      Value passed = e.select(s.valid, e.mul(s.wShifted, ct), zero);
      ct = e.add(self, shift(passed, k, /*toward=*/false));
    }
    return ct;
  }
};

template <typename OpTy>
LogicalResult cumulativeJvp(OpTy op, Combiner kind, OpBuilder &b, ArrayRef<Value> tangents,
                            SmallVectorImpl<Value> &resultTangents) {
  if (!tangents[0]) {
    resultTangents.push_back({});
    return success();
  }
  MlaxBuilder e(b, op);
  PrefixScan scan{e, kind, static_cast<int64_t>(op.getAxis()), op.getReverse(), op.getType()};
  resultTangents.push_back(scan.jvp(op.getOperand(), tangents[0]));
  return success();
}

template <typename OpTy>
LogicalResult cumulativeVjp(OpTy op, Combiner kind, OpBuilder &b, ArrayRef<Value> cotangents,
                            SmallVectorImpl<Value> &operandCotangents) {
  if (!cotangents[0]) {
    operandCotangents.push_back({});
    return success();
  }
  MlaxBuilder e(b, op);
  PrefixScan scan{e, kind, static_cast<int64_t>(op.getAxis()), op.getReverse(), op.getType()};
  operandCotangents.push_back(scan.vjp(op.getOperand(), cotangents[0]));
  return success();
}

} // namespace

#define MLAX_CUMULATIVE_RULES(OP, KIND)                                                      \
  LogicalResult OP::inferReturnTypes(MLIRContext *, std::optional<Location> loc,             \
                                     Adaptor adaptor, SmallVectorImpl<Type> &results) {      \
    return inferCumulative(getOperationName(), loc, adaptor.getOperand(), adaptor.getAxis(), \
                           results);                                                         \
  }                                                                                          \
  LogicalResult OP::jvp(OpBuilder &b, ArrayRef<Value> tangents,                              \
                        SmallVectorImpl<Value> &resultTangents) {                            \
    return cumulativeJvp(*this, Combiner::KIND, b, tangents, resultTangents);                \
  }                                                                                          \
  LogicalResult OP::vjp(OpBuilder &b, ArrayRef<Value> cotangents,                            \
                        SmallVectorImpl<Value> &operandCotangents) {                         \
    return cumulativeVjp(*this, Combiner::KIND, b, cotangents, operandCotangents);           \
  }                                                                                          \
  LogicalResult OP::batch(OpBuilder &b, ValueRange operands, ArrayRef<bool>, int64_t,        \
                          SmallVectorImpl<Value> &results) {                                 \
    results.push_back(OP::create(b, getLoc(), operands[0],                                   \
                                 b.getI64IntegerAttr(getAxis() + 1), getReverseAttr()));     \
    return success();                                                                        \
  }

MLAX_CUMULATIVE_RULES(CumprodOp, Prod)
MLAX_CUMULATIVE_RULES(CummaxOp, Max)
MLAX_CUMULATIVE_RULES(CumminOp, Min)
MLAX_CUMULATIVE_RULES(CumlogsumexpOp, LogSumExp)

#undef MLAX_CUMULATIVE_RULES

//===----------------------------------------------------------------------===//
// sort and cumsum
//===----------------------------------------------------------------------===//

LogicalResult SortOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                       Adaptor adaptor, SmallVectorImpl<Type> &results) {
  ValueRange operands = adaptor.getOperands();
  if (operands.empty())
    return emitOptionalError(loc, "'mlax.sort' op needs at least one operand");
  if (!allRanked(operands))
    return notTensors(loc, getOperationName());
  int64_t n = operands.size(), numKeys = adaptor.getNumKeys();
  if (numKeys < 1 || numKeys > n)
    return emitOptionalError(loc, "'mlax.sort' op num_keys must be in [1, ", n,
                             "] (the number of operands), got ", numKeys);
  auto first = tensorOf(operands.front());
  int64_t dim = adaptor.getDimension();
  if (dim < 0 || dim >= first.getRank())
    return emitOptionalError(loc, "'mlax.sort' op dimension ", dim,
                             " is out of range for rank ", first.getRank());
  for (auto [i, v] : llvm::enumerate(operands)) {
    auto t = tensorOf(v);
    if (t.getShape() != first.getShape())
      return emitOptionalError(loc, "'mlax.sort' op operands must have one shape; got ", first,
                               " and ", t);
    if (static_cast<int64_t>(i) < numKeys && llvm::isa<ComplexType>(t.getElementType()))
      return emitOptionalError(loc, "'mlax.sort' op cannot sort by complex keys (key ", i,
                               " is ", t, ")");
    results.push_back(t);
  }
  return success();
}

LogicalResult CumsumOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                         Adaptor adaptor, SmallVectorImpl<Type> &results) {
  return inferCumulative(getOperationName(), loc, adaptor.getOperand(), adaptor.getAxis(),
                         results);
}

//======================================================================//
// sort, cumsum: derivative rules
//======================================================================//

//===----------------------------------------------------------------------===//
// cumsum (linear; its transpose is the cumulative sum the other way)
//===----------------------------------------------------------------------===//

LogicalResult CumsumOp::jvp(OpBuilder &b, ArrayRef<Value> tangents,
                            SmallVectorImpl<Value> &resultTangents) {
  resultTangents.push_back(tangents[0] ? CumsumOp::create(b, getLoc(), tangents[0],
                                                          getAxisAttr(), getReverseAttr())
                                       : Value());
  return success();
}

LogicalResult CumsumOp::vjp(OpBuilder &b, ArrayRef<Value> cotangents,
                            SmallVectorImpl<Value> &operandCotangents) {
  UnitAttr flipped = getReverse() ? UnitAttr() : b.getUnitAttr();
  operandCotangents.push_back(cotangents[0] ? CumsumOp::create(b, getLoc(), cotangents[0],
                                                               getAxisAttr(), flipped)
                                            : Value());
  return success();
}

//===----------------------------------------------------------------------===//
// sort: tangents ride along as extra sorted operands; cotangents are put
// back by a scatter to the permutation's positions
//===----------------------------------------------------------------------===//

LogicalResult SortOp::jvp(OpBuilder &b, ArrayRef<Value> tangents,
                          SmallVectorImpl<Value> &resultTangents) {
  SmallVector<Value> operands(getOperands());
  SmallVector<unsigned> carried;
  for (auto [i, t] : llvm::enumerate(tangents))
    if (t && ad::isDifferentiableType(getResult(i).getType())) {
      operands.push_back(t);
      carried.push_back(i);
    }
  resultTangents.assign(getNumResults(), Value());
  if (carried.empty())
    return success();
  SmallVector<Type> types;
  for (Value v : operands)
    types.push_back(v.getType());
  auto sorted = SortOp::create(b, getLoc(), types, operands, getDimensionAttr(),
                               getIsStableAttr(), getNumKeysAttr());
  for (auto [k, i] : llvm::enumerate(carried))
    resultTangents[i] = sorted.getResult(getNumOperands() + k);
  return success();
}

LogicalResult SortOp::vjp(OpBuilder &b, ArrayRef<Value> cotangents,
                          SmallVectorImpl<Value> &operandCotangents) {
  operandCotangents.assign(getNumOperands(), Value());
  if (llvm::all_of(cotangents, [](Value c) { return !c; }))
    return success();
  // The permutation: the same sort, carrying the positions along.
  Location loc = getLoc();
  auto shapeType = llvm::cast<RankedTensorType>(getOperand(0).getType());
  auto indexType = shapeType.clone(b.getI32Type());
  Value positions = IotaOp::create(b, loc, indexType, getDimensionAttr());
  SmallVector<Value> operands(getOperands());
  operands.push_back(positions);
  SmallVector<Type> types;
  for (Value v : operands)
    types.push_back(v.getType());
  auto sorted = SortOp::create(b, loc, types, operands, getDimensionAttr(), getIsStableAttr(),
                               getNumKeysAttr());
  Value perm = sorted.getResults().back();
  // A scatter along the sorted dimension (every other one a batching
  // dimension) returns each cotangent to its source position, as jax.lax's
  // transpose of the gather by the permutation does: linear in the size,
  // where sorting (perm, ct) by perm cost a third sort.
  MlaxBuilder e(b, *this);
  int64_t rank = shapeType.getRank(), dim = static_cast<int64_t>(getDimension());
  SmallVector<int64_t> others;
  for (int64_t d = 0; d < rank; ++d)
    if (d != dim)
      others.push_back(d);
  Value index = indexVectors(e, perm);
  for (auto [i, c] : llvm::enumerate(cotangents)) {
    if (!c || !ad::isDifferentiableType(getOperand(i).getType()))
      continue;
    auto type = llvm::cast<RankedTensorType>(c.getType());
    operandCotangents[i] = ScatterOp::create(
        b, loc, type, ScatterCombinerAttr::get(b.getContext(), ScatterCombiner::Add),
        e.zeros(type), index, c, b.getDenseI64ArrayAttr({}), b.getDenseI64ArrayAttr({dim}),
        b.getDenseI64ArrayAttr(others), b.getDenseI64ArrayAttr(others),
        b.getDenseI64ArrayAttr({dim}), b.getI64IntegerAttr(rank), UnitAttr(),
        b.getUnitAttr());
  }
  return success();
}

//======================================================================//
// sort, cumsum: batching rules
//======================================================================//

LogicalResult SortOp::batch(OpBuilder &b, ValueRange operands, ArrayRef<bool> batched,
                            int64_t batchSize, SmallVectorImpl<Value> &results) {
  SmallVector<Value> inputs;
  SmallVector<Type> types;
  for (auto [v, isBatched] : llvm::zip(operands, batched)) {
    inputs.push_back(ensureBatched(b, getLoc(), v, isBatched, batchSize));
    types.push_back(inputs.back().getType());
  }
  auto sorted = SortOp::create(b, getLoc(), types, inputs,
                               b.getI64IntegerAttr(getDimension() + 1), getIsStableAttr(),
                               getNumKeysAttr());
  results.append(sorted.getResults().begin(), sorted.getResults().end());
  return success();
}

LogicalResult CumsumOp::batch(OpBuilder &b, ValueRange operands, ArrayRef<bool>, int64_t,
                              SmallVectorImpl<Value> &results) {
  results.push_back(CumsumOp::create(b, getLoc(), operands[0],
                                     b.getI64IntegerAttr(getAxis() + 1), getReverseAttr()));
  return success();
}
