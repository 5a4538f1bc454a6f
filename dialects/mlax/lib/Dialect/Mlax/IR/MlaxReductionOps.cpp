//===- MlaxReductionOps.cpp - the reduction family ------------------ ===//
//
// Shape rules, folders, derivative rules and batching rules of
// MlaxReductionOps.td's ops (reduce_sum, reduce_prod, reduce_max,
// reduce_min, reduce_and, reduce_or, and the general `reduce` with a body),
// in that order.
//
//===----------------------------------------------------------------------===//

#include "MlaxRuleUtils.h"

using namespace mlir;
using namespace mlir::mlax;
using namespace mlir::mlax::detail;
//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

static LogicalResult inferReduce(StringRef opName, std::optional<Location> loc,
                                 Value operand, ArrayRef<int64_t> axes,
                                 SmallVectorImpl<Type> &results) {
  if (!allRanked(operand))
    return notTensors(loc, opName);
  auto in = tensorOf(operand);
  if (failed(checkDims(loc, opName, "axis", axes, in.getRank())))
    return failure();
  if (!llvm::is_sorted(axes))
    return emitOptionalError(loc, "'", opName, "' op axes must be sorted, got ",
                             shapeStr(axes));
  SmallVector<int64_t> shape;
  for (int64_t i = 0; i < in.getRank(); ++i)
    if (!llvm::is_contained(axes, i))
      shape.push_back(in.getDimSize(i));
  results.push_back(RankedTensorType::get(shape, in.getElementType()));
  return success();
}

#define MLAX_REDUCE_INFER(OP)                                                  \
  LogicalResult OP::inferReturnTypes(MLIRContext *,                            \
                                     std::optional<Location> loc,              \
                                     Adaptor adaptor,                          \
                                     SmallVectorImpl<Type> &results) {         \
    return inferReduce(OP::getOperationName(), loc, adaptor.getOperand(),      \
                       adaptor.getAxes(), results);                            \
  }
MLAX_REDUCE_INFER(ReduceSumOp)
MLAX_REDUCE_INFER(ReduceProdOp)
MLAX_REDUCE_INFER(ReduceMaxOp)
MLAX_REDUCE_INFER(ReduceMinOp)
MLAX_REDUCE_INFER(ReduceAndOp)
MLAX_REDUCE_INFER(ReduceOrOp)
#undef MLAX_REDUCE_INFER

//===----------------------------------------------------------------------===//
// reduce (general, with a body)
//===----------------------------------------------------------------------===//

LogicalResult ReduceOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                         Adaptor adaptor, SmallVectorImpl<Type> &results) {
  StringRef name = ReduceOp::getOperationName();
  ValueRange inputs = adaptor.getInputs(), inits = adaptor.getInitValues();
  if (inputs.empty())
    return emitOptionalError(loc, "'", name, "' op needs at least one operand");
  if (inputs.size() != inits.size())
    return emitOptionalError(loc, "'", name, "' op has ", inputs.size(), " operands but ",
                             inits.size(), " init values");
  if (!allRanked(inputs) || !allRanked(inits))
    return notTensors(loc, name);
  RankedTensorType first = tensorOf(inputs[0]);
  for (auto [i, x] : llvm::enumerate(inputs)) {
    RankedTensorType type = tensorOf(x);
    if (type.getShape() != first.getShape())
      return emitOptionalError(loc, "'", name, "' op operands must have one shape, got ",
                               shapeStr(first.getShape()), " (operand 0) and ",
                               shapeStr(type.getShape()), " (operand ", i, ")");
    // (JAX's phrases: "non-scalar initial value", "dtypes should match".)
    RankedTensorType init = tensorOf(inits[i]);
    if (init.getRank() != 0)
      return emitOptionalError(loc, "'", name, "' op found non-scalar initial value: init value ",
                               i, " has shape ", shapeStr(init.getShape()));
    if (init.getElementType() != type.getElementType())
      return emitOptionalError(
          loc, "'", name, "' op operand dtypes should match corresponding initial value dtypes: "
          "init value ", i, " has element type ", init.getElementType(), " but operand ", i,
          " has ", type.getElementType());
  }
  // A dimension past the rank is "out of bounds" (JAX raises IndexError
  // there); a negative or repeated one is "out of range" / "appears twice".
  ArrayRef<int64_t> dims = adaptor.getDimensions();
  for (int64_t d : dims)
    if (d >= first.getRank())
      return emitOptionalError(loc, "'", name, "' op dimension ", d,
                               " is out of bounds for operands of rank ", first.getRank());
  if (failed(checkDims(loc, name, "dimension", dims, first.getRank())))
    return failure();
  SmallVector<int64_t> shape;
  for (int64_t d : keptDims(first.getRank(), dims))
    shape.push_back(first.getDimSize(d));
  for (Value x : inputs)
    results.push_back(RankedTensorType::get(shape, tensorOf(x).getElementType()));
  return success();
}

/// The body: 2n scalar arguments (accumulators, then the values combined
/// with them) of the operands' element types, yielding n such scalars.
LogicalResult ReduceOp::verify() {
  SmallVector<Type> scalars;
  for (Value x : getInputs())
    scalars.push_back(RankedTensorType::get({}, tensorOf(x).getElementType()));
  Block &block = getBody().front();
  if (block.getNumArguments() != 2 * scalars.size())
    return emitOpError() << "body takes " << block.getNumArguments()
                         << " arguments but the op passes it " << 2 * scalars.size()
                         << " (two scalars per operand)";
  for (auto [i, arg] : llvm::enumerate(block.getArguments()))
    if (arg.getType() != scalars[i % scalars.size()])
      return emitOpError() << "body argument #" << i << " has type " << arg.getType()
                           << " but the op passes " << scalars[i % scalars.size()];
  // The op verifier runs before its region's ops are verified: the block
  // may not end with a terminator yet.
  auto yield = block.empty() ? YieldOp() : llvm::dyn_cast<YieldOp>(block.back());
  if (!yield)
    return emitOpError("body must end with mlax.yield");
  // XLA's CPU compiler aborts on a loop inside a reduction's body.
  WalkResult loops = getBody().walk([](Operation *op) {
    return llvm::isa<WhileOp, ScanOp>(op) ? WalkResult::interrupt() : WalkResult::advance();
  });
  if (loops.wasInterrupted())
    return emitOpError("body must not contain a loop (mlax.while, mlax.scan): XLA cannot "
                       "compile one inside a reduction");
  TypeRange have = yield.getResults().getTypes();
  if (have.size() != scalars.size())
    return emitOpError() << "body yields " << have.size() << " values but the op reduces "
                         << scalars.size() << " operands";
  for (auto [i, pair] : llvm::enumerate(llvm::zip(have, scalars))) {
    auto [h, w] = pair;
    if (h != w)
      return emitOpError() << "body yields " << h << " as value #" << i << " but operand "
                           << i << " needs " << w;
  }
  return success();
}

//======================================================================//
// Folders
//======================================================================//

// Reductions
//===----------------------------------------------------------------------===//

namespace {

/// Folds a reduction over `axes` of a constant: `combine` folds an element
/// into the accumulator, which starts at the first element reduced (so no
/// identity value is needed). Elements are combined in row-major order.
template <typename Elem, typename Combine>
Attribute reduceConstant(DenseElementsAttr in, ArrayRef<int64_t> axes,
                         ShapedType resultType, Combine combine) {
  auto inType = llvm::cast<ShapedType>(in.getType());
  if (inType.getNumElements() == 0 ||
      inType.getNumElements() > kMaxFoldedElements ||
      !mayMaterialise(resultType, false))
    return {};
  SmallVector<int64_t> outStrides(inType.getRank(), 0);
  {
    int64_t stride = 1;
    for (int64_t i = inType.getRank() - 1; i >= 0; --i)
      if (!llvm::is_contained(axes, i)) {
        outStrides[i] = stride;
        stride *= inType.getDimSize(i);
      }
  }
  SmallVector<std::optional<Elem>> acc(resultType.getNumElements());
  SmallVector<int64_t> index(inType.getRank(), 0);
  for (Elem v : in.getValues<Elem>()) {
    int64_t out = 0;
    for (int64_t i = 0; i < inType.getRank(); ++i)
      out += index[i] * outStrides[i];
    acc[out] = acc[out] ? combine(*acc[out], v) : v;
    for (int64_t d = inType.getRank() - 1; d >= 0; --d) {
      if (++index[d] < inType.getDimSize(d))
        break;
      index[d] = 0;
    }
  }
  SmallVector<Elem> values;
  for (auto &a : acc)
    values.push_back(*a);
  return DenseElementsAttr::get(resultType, ArrayRef<Elem>(values));
}

template <typename FloatCombine, typename IntCombine>
OpFoldResult foldReduce(Operation *op, Attribute operand, ArrayRef<int64_t> axes,
                        FloatCombine floatCombine, IntCombine intCombine) {
  if (axes.empty())
    return op->getOperand(0);
  auto in = dense(operand);
  auto type = llvm::cast<ShapedType>(op->getResult(0).getType());
  if (!in)
    return {};
  Type elem = in.getElementType();
  if (isFoldableFloat(elem))
    return reduceConstant<APFloat>(in, axes, type, floatCombine);
  if (isFoldableInt(elem)) {
    bool isUnsigned = isUnsignedInt(elem);
    return reduceConstant<APInt>(in, axes, type,
                                 [&](const APInt &a, const APInt &b) {
                                   return intCombine(a, b, isUnsigned);
                                 });
  }
  return {};
}

} // namespace

OpFoldResult ReduceSumOp::fold(FoldAdaptor a) {
  return foldReduce(*this, a.getOperand(), getAxes(),
                    [](const APFloat &x, const APFloat &y) { return x + y; },
                    [](const APInt &x, const APInt &y, bool) { return x + y; });
}
OpFoldResult ReduceProdOp::fold(FoldAdaptor a) {
  return foldReduce(*this, a.getOperand(), getAxes(),
                    [](const APFloat &x, const APFloat &y) { return x * y; },
                    [](const APInt &x, const APInt &y, bool) { return x * y; });
}
OpFoldResult ReduceMaxOp::fold(FoldAdaptor a) {
  return foldReduce(*this, a.getOperand(), getAxes(),
                    [](const APFloat &x, const APFloat &y) { return maximum(x, y); },
                    [](const APInt &x, const APInt &y, bool u) {
                      return u ? llvm::APIntOps::umax(x, y) : llvm::APIntOps::smax(x, y);
                    });
}
OpFoldResult ReduceMinOp::fold(FoldAdaptor a) {
  return foldReduce(*this, a.getOperand(), getAxes(),
                    [](const APFloat &x, const APFloat &y) { return minimum(x, y); },
                    [](const APInt &x, const APInt &y, bool u) {
                      return u ? llvm::APIntOps::umin(x, y) : llvm::APIntOps::smin(x, y);
                    });
}
OpFoldResult ReduceAndOp::fold(FoldAdaptor a) {
  return foldReduce(*this, a.getOperand(), getAxes(),
                    [](const APFloat &x, const APFloat &) { return x; },
                    [](const APInt &x, const APInt &y, bool) { return x & y; });
}
OpFoldResult ReduceOrOp::fold(FoldAdaptor a) {
  return foldReduce(*this, a.getOperand(), getAxes(),
                    [](const APFloat &x, const APFloat &) { return x; },
                    [](const APInt &x, const APInt &y, bool) { return x | y; });
}


//======================================================================//
// Derivative rules
//======================================================================//

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

LogicalResult ReduceSumOp::jvp(OpBuilder &b, ArrayRef<Value> tangents,
                               SmallVectorImpl<Value> &resultTangents) {
  resultTangents.push_back(tangents[0] ? MlaxBuilder(b, *this).reduceSum(tangents[0], getAxes())
                                       : Value());
  return success();
}

LogicalResult ReduceSumOp::vjp(OpBuilder &b, ArrayRef<Value> cotangents,
                               SmallVectorImpl<Value> &operandCotangents) {
  Value ct = cotangents[0];
  RankedTensorType inType = tensorOf(getOperand());
  operandCotangents.push_back(
      ct ? MlaxBuilder(b, *this).broadcast(ct, inType, keptDims(inType.getRank(), getAxes()))
         : Value());
  return success();
}

namespace {
/// max/min reductions: the derivative is shared evenly among the elements
/// equal to the result (jax.lax's `_reduce_chooser_jvp_rule`). Returns the
/// 0/1 indicator of those elements and how many there are per result.
std::pair<Value, Value> chooserLocations(MlaxBuilder &e, Value operand, Value result,
                                         ArrayRef<int64_t> axes) {
  RankedTensorType inType = tensorOf(operand);
  SmallVector<int64_t> kept = keptDims(inType.getRank(), axes);
  Value expanded = e.broadcast(result, inType, kept);
  Value indicator = e.convert(e.eq(operand, expanded), inType.getElementType());
  Value counts = e.reduceSum(indicator, axes);
  return {indicator, counts};
}

LogicalResult chooserJvp(Operation *op, OpBuilder &b, ArrayRef<int64_t> axes,
                         ArrayRef<Value> tangents, SmallVectorImpl<Value> &resultTangents) {
  if (!tangents[0]) {
    resultTangents.push_back({});
    return success();
  }
  MlaxBuilder e(b, op);
  auto [indicator, counts] = chooserLocations(e, op->getOperand(0), op->getResult(0), axes);
  resultTangents.push_back(e.div(e.reduceSum(e.mul(tangents[0], indicator), axes), counts));
  return success();
}

LogicalResult chooserVjp(Operation *op, OpBuilder &b, ArrayRef<int64_t> axes,
                         ArrayRef<Value> cotangents, SmallVectorImpl<Value> &operandCotangents) {
  if (!cotangents[0]) {
    operandCotangents.push_back({});
    return success();
  }
  MlaxBuilder e(b, op);
  Value operand = op->getOperand(0);
  auto [indicator, counts] = chooserLocations(e, operand, op->getResult(0), axes);
  RankedTensorType inType = tensorOf(operand);
  Value share = e.broadcast(e.div(cotangents[0], counts), inType,
                            keptDims(inType.getRank(), axes));
  operandCotangents.push_back(e.mul(share, indicator));
  return success();
}

/// A reduction over `axes` of an operand of shape `type`, as rows: the kept
/// dimensions then the reduced ones (`perm`), flattened to a [groups, n]
/// matrix with one row per reduction group. The reverse rules that scan
/// along each group (reduce_prod's, mlax.reduce's) work on those rows.
struct ReductionRows {
  ReductionRows(RankedTensorType type, ArrayRef<int64_t> axes)
      : perm(keptDims(type.getRank(), axes)) {
    for (int64_t d : perm)
      groups *= type.getDimSize(d);
    for (int64_t d : axes)
      n *= type.getDimSize(d);
    perm.append(axes.begin(), axes.end());
    for (int64_t d : perm)
      permutedShape.push_back(type.getDimSize(d));
  }
  /// `v` (of the operand's shape) as the [groups, n] rows.
  Value rows(MlaxBuilder &e, Value v) const {
    Type elt = tensorOf(v).getElementType();
    return e.reshape(e.transpose(v, perm), RankedTensorType::get({groups, n}, elt));
  }
  /// The rows `m` back in the operand's shape.
  Value unrows(MlaxBuilder &e, Value m) const {
    Type elt = tensorOf(m).getElementType();
    Value back = e.reshape(m, RankedTensorType::get(permutedShape, elt));
    return e.transpose(back, invertPermutation(perm));
  }
  SmallVector<int64_t> perm, permutedShape;
  int64_t groups = 1, n = 1;
};

/// For a product over `axes`: each element's "product of all the others"
/// in its reduction group, computed exactly (zeros included) from exclusive
/// prefix and suffix products by log-step doubling.
Value productOfOthers(MlaxBuilder &e, Value x, ArrayRef<int64_t> axes) {
  RankedTensorType type = tensorOf(x);
  ReductionRows grouped(type, axes);
  int64_t n = grouped.n;
  Type elt = type.getElementType();
  Value m = grouped.rows(e, x);
  Value one = e.splat(RankedTensorType::get({}, elt), 1.0);
  // shift(v, k, forward): v moved k places along the row, filled with 1.
  auto shift = [&](Value v, int64_t k, bool forward) -> Value {
    SmallVector<int64_t> low{0, forward ? k : -k}, high{0, forward ? -k : k}, interior{0, 0};
    return PadOp::create(e.b, e.loc, v, one, low, high, interior);
  };
  auto exclusiveScan = [&](bool forward) {
    Value acc = m;
    for (int64_t k = 1; k < n; k *= 2)
      acc = e.mul(acc, shift(acc, k, forward));
    return shift(acc, 1, forward);
  };
  Value others = n <= 1 ? e.like(m, 1.0) : e.mul(exclusiveScan(true), exclusiveScan(false));
  return grouped.unrows(e, others);
}
} // namespace

LogicalResult ReduceProdOp::jvp(OpBuilder &b, ArrayRef<Value> tangents,
                                SmallVectorImpl<Value> &resultTangents) {
  if (!tangents[0]) {
    resultTangents.push_back({});
    return success();
  }
  MlaxBuilder e(b, *this);
  Value others = productOfOthers(e, getOperand(), getAxes());
  resultTangents.push_back(e.reduceSum(e.mul(tangents[0], others), getAxes()));
  return success();
}

LogicalResult ReduceProdOp::vjp(OpBuilder &b, ArrayRef<Value> cotangents,
                                SmallVectorImpl<Value> &operandCotangents) {
  if (!cotangents[0]) {
    operandCotangents.push_back({});
    return success();
  }
  MlaxBuilder e(b, *this);
  RankedTensorType inType = tensorOf(getOperand());
  Value others = productOfOthers(e, getOperand(), getAxes());
  Value ct = e.broadcast(cotangents[0], inType, keptDims(inType.getRank(), getAxes()));
  operandCotangents.push_back(e.mul(ct, others));
  return success();
}

LogicalResult ReduceMaxOp::jvp(OpBuilder &b, ArrayRef<Value> tangents,
                               SmallVectorImpl<Value> &resultTangents) {
  return chooserJvp(*this, b, getAxes(), tangents, resultTangents);
}
LogicalResult ReduceMaxOp::vjp(OpBuilder &b, ArrayRef<Value> cotangents,
                               SmallVectorImpl<Value> &operandCotangents) {
  return chooserVjp(*this, b, getAxes(), cotangents, operandCotangents);
}
LogicalResult ReduceMinOp::jvp(OpBuilder &b, ArrayRef<Value> tangents,
                               SmallVectorImpl<Value> &resultTangents) {
  return chooserJvp(*this, b, getAxes(), tangents, resultTangents);
}
LogicalResult ReduceMinOp::vjp(OpBuilder &b, ArrayRef<Value> cotangents,
                               SmallVectorImpl<Value> &operandCotangents) {
  return chooserVjp(*this, b, getAxes(), cotangents, operandCotangents);
}

// Boolean reductions carry no tangents.
LogicalResult ReduceAndOp::jvp(OpBuilder &, ArrayRef<Value>, SmallVectorImpl<Value> &r) {
  r.push_back({});
  return success();
}
LogicalResult ReduceAndOp::vjp(OpBuilder &, ArrayRef<Value>, SmallVectorImpl<Value> &r) {
  r.push_back({});
  return success();
}
LogicalResult ReduceOrOp::jvp(OpBuilder &, ArrayRef<Value>, SmallVectorImpl<Value> &r) {
  r.push_back({});
  return success();
}
LogicalResult ReduceOrOp::vjp(OpBuilder &, ArrayRef<Value>, SmallVectorImpl<Value> &r) {
  r.push_back({});
  return success();
}

//===----------------------------------------------------------------------===//
// reduce (general): the jvp is one reduce of (primal, tangent) pairs whose
// body is the body's jvp (with an associative body and an identity init,
// the pairs form a monoid too: the jvp of a*(b*c) = (a*b)*c, and
// (init, 0) is its identity); the vjp is, per element x_i of a reduced
// group, the derivative of f(f(prefix_i, x_i), suffix_i), with the
// exclusive prefix and suffix reductions computed by log-step doubling
// (each step a reduce over a stacked pair). JAX differentiates by a tree
// reduction of the vmapped jvp (`_reduce_jvp`); both are exact up to
// rounding. Init values are treated as constants (JAX: an error when their
// tangents are nonzero).
//===----------------------------------------------------------------------===//

namespace {

/// A reduce of `inputs` with `inits` over `dims` whose body is `op`'s body
/// extended with tangents: `tangentOf[k]` marks the operands carrying one.
/// The new op takes (inputs..., tangent inputs...) and yields (results...,
/// result tangents...), the tangents in the order of the marked operands.
FailureOr<ReduceOp> reduceWithTangents(ReduceOp op, OpBuilder &b, ValueRange inputs,
                                       ValueRange tangents, ValueRange inits,
                                       ArrayRef<bool> tangentOf, ArrayRef<int64_t> dims) {
  Location loc = op.getLoc();
  unsigned n = op.getInputs().size();
  SmallVector<Value> allInputs(inputs), allInits(inits);
  allInputs.append(tangents.begin(), tangents.end());
  MlaxBuilder e(b, op);
  SmallVector<Type> scalars;
  for (Value x : inputs)
    scalars.push_back(RankedTensorType::get({}, tensorOf(x).getElementType()));
  SmallVector<unsigned> carried;
  for (unsigned k = 0; k < n; ++k)
    if (tangentOf[k]) {
      carried.push_back(k);
      allInits.push_back(e.zeros(scalars[k]));
    }
  auto reduce = ReduceOp::create(b, loc, allInputs, allInits, dims);
  Block &old = op.getBody().front();
  SmallVector<Type> argTypes(scalars);
  for (unsigned k : carried)
    argTypes.push_back(scalars[k]);
  SmallVector<Type> blockTypes(argTypes);
  blockTypes.append(argTypes);
  SmallVector<Location> locs(blockTypes.size(), loc);
  OpBuilder::InsertionGuard guard(b);
  Block *block = b.createBlock(&reduce.getBody(), {}, blockTypes, locs);
  unsigned m = argTypes.size();
  IRMapping map;
  DenseMap<Value, Value> tangent;
  for (unsigned side = 0; side < 2; ++side) {
    for (unsigned k = 0; k < n; ++k)
      map.map(old.getArgument(side * n + k), block->getArgument(side * m + k));
    for (auto [j, k] : llvm::enumerate(carried))
      tangent[old.getArgument(side * n + k)] = block->getArgument(side * m + n + j);
  }
  for (Operation &inner : old.without_terminator()) {
    Operation *clone = b.clone(inner, map);
    SmallVector<Value> ts;
    for (Value v : inner.getOperands())
      ts.push_back(tangent.lookup(v));
    if (llvm::all_of(ts, [](Value t) { return !t; }) ||
        !llvm::any_of(clone->getResultTypes(), ad::isDifferentiableType))
      continue;
    auto iface = llvm::dyn_cast<DifferentiableOpInterface>(clone);
    if (!iface) {
      reduce.erase();
      return op.emitOpError() << "cannot differentiate its body: '"
                              << inner.getName() << "' has no derivative rule";
    }
    SmallVector<Value> out;
    if (failed(iface.jvp(b, ts, out))) {
      reduce.erase();
      return failure();
    }
    for (auto [r, t] : llvm::zip(inner.getResults(), out))
      if (t && ad::isDifferentiableType(r.getType()))
        tangent[r] = t;
  }
  auto yield = llvm::cast<YieldOp>(old.getTerminator());
  SmallVector<Value> yielded;
  for (Value v : yield.getResults())
    yielded.push_back(map.lookupOrDefault(v));
  for (unsigned k : carried) {
    Value t = tangent.lookup(yield.getResults()[k]);
    yielded.push_back(t ? t : e.zeros(scalars[k]));
  }
  YieldOp::create(b, loc, yielded);
  return reduce;
}

SmallVector<bool> differentiableOperands(ReduceOp op) {
  SmallVector<bool> flags;
  for (Value x : op.getInputs())
    flags.push_back(ad::isDifferentiableType(x.getType()));
  return flags;
}

} // namespace

LogicalResult ReduceOp::jvp(OpBuilder &b, ArrayRef<Value> tangents,
                            SmallVectorImpl<Value> &resultTangents) {
  unsigned n = getInputs().size();
  if (llvm::any_of(tangents.drop_front(n), [](Value t) { return static_cast<bool>(t); }))
    return emitOpError("gradient of general lax.reduce with non-zero tangents for initial "
                       "values to reduction is not implemented");
  if (llvm::all_of(tangents.take_front(n), [](Value t) { return !t; })) {
    resultTangents.append(n, Value());
    return success();
  }
  MlaxBuilder e(b, *this);
  SmallVector<bool> carried = differentiableOperands(*this);
  SmallVector<Value> ts;
  for (unsigned k = 0; k < n; ++k)
    if (carried[k])
      ts.push_back(e.orZeros(tangents[k], getInputs()[k].getType()));
  FailureOr<ReduceOp> reduce = reduceWithTangents(*this, b, getInputs(), ts, getInitValues(),
                                                  carried, getDimensions());
  if (failed(reduce))
    return failure();
  unsigned j = n;
  for (unsigned k = 0; k < n; ++k)
    resultTangents.push_back(carried[k] ? reduce->getResult(j++) : Value());
  return success();
}

LogicalResult ReduceOp::vjp(OpBuilder &b, ArrayRef<Value> cotangents,
                            SmallVectorImpl<Value> &operandCotangents) {
  unsigned n = getInputs().size();
  size_t start = operandCotangents.size();
  auto done = [&] {
    // Init values: inactive (mlax-autodiff refuses an active one, as JAX).
    operandCotangents.resize(start + 2 * n, Value());
    return success();
  };
  if (llvm::all_of(cotangents, [](Value c) { return !c; }))
    return done();
  MlaxBuilder e(b, *this);
  Location loc = getLoc();
  ReductionRows grouped(tensorOf(getInputs()[0]), getDimensions());
  int64_t groups = grouped.groups, len = grouped.n;
  if (len == 0)
    return done();
  SmallVector<bool> carried = differentiableOperands(*this);
  // Each operand as its [groups, len] rows (the reduced dimensions last).
  SmallVector<Value> xs, inits(getInitValues());
  for (Value x : getInputs())
    xs.push_back(grouped.rows(e, x));
  // Values stacked on a new leading axis, reduced over it: the body applied
  // elementwise to the stacked tuples.
  auto stack = [&](ArrayRef<Value> parts) {
    SmallVector<Value> rows;
    for (Value p : parts) {
      RankedTensorType t = tensorOf(p);
      rows.push_back(e.reshape(p, RankedTensorType::get({1, groups, len}, t.getElementType())));
    }
    return ConcatenateOp::create(b, loc, rows, int64_t(0)).getResult();
  };
  auto combine = [&](ArrayRef<Value> us, ArrayRef<Value> vs) -> FailureOr<SmallVector<Value>> {
    SmallVector<Value> stacked;
    for (auto [u, v] : llvm::zip(us, vs))
      stacked.push_back(stack({u, v}));
    SmallVector<bool> none(n, false);
    FailureOr<ReduceOp> r = reduceWithTangents(*this, b, stacked, {}, inits, none, {0});
    if (failed(r))
      return failure();
    return SmallVector<Value>(r->getResults());
  };
  // v shifted `k` places along the row (towards the end if `forward`),
  // filled with the init value.
  auto shift = [&](Value v, Value fill, int64_t k, bool forward) -> Value {
    SmallVector<int64_t> low{0, forward ? k : -k}, high{0, forward ? -k : k}, interior{0, 0};
    return PadOp::create(b, loc, v, fill, low, high, interior);
  };
  auto exclusiveScan = [&](bool forward) -> FailureOr<SmallVector<Value>> {
    SmallVector<Value> acc(xs);
    for (int64_t k = 1; k < len; k *= 2) {
      SmallVector<Value> moved;
      for (auto [a, init] : llvm::zip(acc, inits))
        moved.push_back(shift(a, init, k, forward));
      auto next = forward ? combine(moved, acc) : combine(acc, moved);
      if (failed(next))
        return failure();
      acc = *next;
    }
    for (auto [a, init] : llvm::zip(acc, inits))
      a = shift(a, init, 1, forward);
    return acc;
  };
  FailureOr<SmallVector<Value>> prefix = exclusiveScan(true);
  if (failed(prefix))
    return failure();
  FailureOr<SmallVector<Value>> suffix = exclusiveScan(false);
  if (failed(suffix))
    return failure();
  SmallVector<Value> triples;
  for (unsigned k = 0; k < n; ++k)
    triples.push_back(stack({(*prefix)[k], xs[k], (*suffix)[k]}));
  // Each result's cotangent spread over its group.
  SmallVector<Value> spread(n);
  for (unsigned k = 0; k < n; ++k)
    if (carried[k] && cotangents[k]) {
      Type elt = tensorOf(cotangents[k]).getElementType();
      Value flat = e.reshape(cotangents[k], RankedTensorType::get({groups}, elt));
      spread[k] = e.broadcast(flat, RankedTensorType::get({groups, len}, elt), {0});
    }
  for (unsigned j = 0; j < n; ++j) {
    if (!carried[j]) {
      operandCotangents.push_back({});
      continue;
    }
    // d(result)/d(x_j) elementwise: a tangent of one on x_j, in the middle.
    SmallVector<Value> ts;
    for (unsigned k = 0; k < n; ++k) {
      if (!carried[k])
        continue;
      Value zero = e.zeros(xs[k].getType());
      ts.push_back(stack({zero, k == j ? e.like(xs[k], 1.0) : zero, zero}));
    }
    FailureOr<ReduceOp> r =
        reduceWithTangents(*this, b, triples, ts, inits, carried, {0});
    if (failed(r))
      return failure();
    Value ct;
    unsigned t = n;
    for (unsigned k = 0; k < n; ++k) {
      if (!carried[k])
        continue;
      Value d = r->getResult(t++);
      if (spread[k])
        ct = ct ? e.add(ct, e.mul(spread[k], d)) : e.mul(spread[k], d);
    }
    if (!ct) {
      operandCotangents.push_back({});
      continue;
    }
    operandCotangents.push_back(grouped.unrows(e, ct));
  }
  return done();
}

//======================================================================//
// Batching rules
//======================================================================//

//===----------------------------------------------------------------------===//
// Reductions: the same reduction over shifted axes
//===----------------------------------------------------------------------===//

namespace {
template <typename ReduceOpT>
LogicalResult batchReduction(ReduceOpT op, OpBuilder &b, ValueRange operands,
                             SmallVectorImpl<Value> &results) {
  results.push_back(ReduceOpT::create(b, op.getLoc(), operands[0], shifted(op.getAxes())));
  return success();
}
} // namespace

#define MLAX_BATCH_REDUCTION(OP)                                                         \
  LogicalResult OP::batch(OpBuilder &b, ValueRange operands, ArrayRef<bool>, int64_t,    \
                          SmallVectorImpl<Value> &results) {                             \
    return batchReduction(*this, b, operands, results);                                  \
  }
MLAX_BATCH_REDUCTION(ReduceSumOp)
MLAX_BATCH_REDUCTION(ReduceProdOp)
MLAX_BATCH_REDUCTION(ReduceMaxOp)
MLAX_BATCH_REDUCTION(ReduceMinOp)
MLAX_BATCH_REDUCTION(ReduceAndOp)
MLAX_BATCH_REDUCTION(ReduceOrOp)
#undef MLAX_BATCH_REDUCTION

//===----------------------------------------------------------------------===//
// reduce (general): the same reduce over shifted dimensions, the body
// unchanged. Batched init values are not supported (as JAX).
//===----------------------------------------------------------------------===//

LogicalResult ReduceOp::batch(OpBuilder &b, ValueRange operands, ArrayRef<bool> batched,
                              int64_t batchSize, SmallVectorImpl<Value> &results) {
  unsigned n = getInputs().size();
  if (llvm::any_of(batched.drop_front(n), [](bool x) { return x; }))
    return emitOpError("batching lax.reduce over batched init values is not implemented");
  SmallVector<Value> inputs;
  for (unsigned k = 0; k < n; ++k)
    inputs.push_back(ensureBatched(b, getLoc(), operands[k], batched[k], batchSize));
  auto reduce = ReduceOp::create(b, getLoc(), inputs, operands.drop_front(n),
                                 shifted(getDimensions()));
  IRMapping map;
  getBody().cloneInto(&reduce.getBody(), map);
  results.append(reduce.getResults().begin(), reduce.getResults().end());
  return success();
}
