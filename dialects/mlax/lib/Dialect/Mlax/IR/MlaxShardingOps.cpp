//===- MlaxShardingOps.cpp - sharding_constraint --------------------------===//
//
// The verifier, folder, derivative rules and batching rule of
// `mlax.sharding_constraint` (jax.lax.with_sharding_constraint); the
// verifiers of `mlax.shard_map` (whose derivatives and batching
// mlax-autodiff and mlax-vectorize build from its callee's) and the
// verifiers, result types, derivative and batching rules of the SPMD
// collectives (all_reduce, all_gather, reduce_scatter, ppermute,
// all_to_all, axis_index). The attributes' own C++ (`#mlax.sharding`,
// `#mlax.mesh`) is in MlaxAttributes.cpp.
//
//===----------------------------------------------------------------------===//

#include "mlax/Dialect/Mlax/IR/MlaxOps.h"
#include "MlaxRuleUtils.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/SmallSet.h"

using namespace mlir;
using namespace mlir::mlax;
using namespace mlir::mlax::detail;

//======================================================================//
// Verifier
//======================================================================//

LogicalResult ShardingConstraintOp::verify() {
  return getSharding().verifyForType(getOperand().getType(),
                                     [&]() { return emitOpError(); });
}

//======================================================================//
// Folder
//======================================================================//

/// A constraint of a value already constrained to the same sharding is that
/// value. Nothing else folds: a constant stays constrained, as in JAX.
OpFoldResult ShardingConstraintOp::fold(FoldAdaptor) {
  auto inner = getOperand().getDefiningOp<ShardingConstraintOp>();
  if (inner && inner.getSharding() == getSharding())
    return getOperand();
  return {};
}

//======================================================================//
// Derivative rules (jax: the tangent and the cotangent are constrained
// alike; the transpose of the constraint is the same constraint)
//======================================================================//

LogicalResult ShardingConstraintOp::jvp(OpBuilder &b, ArrayRef<Value> tangents,
                                        SmallVectorImpl<Value> &resultTangents) {
  Value t = tangents[0];
  resultTangents.push_back(
      t ? ShardingConstraintOp::create(b, getLoc(), t, getSharding()).getResult() : Value());
  return success();
}

LogicalResult ShardingConstraintOp::vjp(OpBuilder &b, ArrayRef<Value> cotangents,
                                        SmallVectorImpl<Value> &operandCotangents) {
  Value ct = cotangents[0];
  operandCotangents.push_back(
      ct ? ShardingConstraintOp::create(b, getLoc(), ct, getSharding()).getResult() : Value());
  return success();
}

//======================================================================//
// Batching rule: the batch dimension (in front) is replicated
//======================================================================//

LogicalResult ShardingConstraintOp::batch(OpBuilder &b, ValueRange operands, ArrayRef<bool>,
                                          int64_t, SmallVectorImpl<Value> &results) {
  int64_t rank = getType().getRank();
  ShardingAttr sharding = getSharding().withReplicatedDimension(/*position=*/0, rank);
  results.push_back(ShardingConstraintOp::create(b, getLoc(), operands[0], sharding));
  return success();
}

//======================================================================//
// shard_map: the shardings against the operands, results and the callee
//======================================================================//

MeshAttr ShardMapOp::getMesh() {
  for (ArrayAttr list : {getInShardings(), getOutShardings()})
    for (Attribute a : list)
      if (auto s = llvm::dyn_cast<ShardingAttr>(a))
        return s.getMesh();
  return {};
}

LogicalResult ShardMapOp::verify() {
  if (getInShardings().size() != getOperands().size())
    return emitOpError() << "has " << getOperands().size() << " operands but "
                         << getInShardings().size() << " in_shardings";
  if (getOutShardings().size() != getNumResults())
    return emitOpError() << "has " << getNumResults() << " results but "
                         << getOutShardings().size() << " out_shardings";
  MeshAttr mesh = getMesh();
  auto check = [&](ShardingAttr s, Type type, StringRef what, unsigned i) -> LogicalResult {
    if (s.getMesh() != mesh)
      return emitOpError() << what << " #" << i << " is sharded over the mesh "
                           << s.getMeshString() << ", but the shard_map's mesh is "
                           << mesh.getMeshString() << "; all its shardings use one mesh";
    return s.verifyForType(type, [&]() {
      InFlightDiagnostic d = emitOpError();
      d << what << " #" << i << ": ";
      return d;
    });
  };
  for (auto [i, v] : llvm::enumerate(getOperands()))
    if (failed(check(getInSharding(i), v.getType(), "operand", i)))
      return failure();
  for (auto [i, r] : llvm::enumerate(getResults()))
    if (failed(check(getOutSharding(i), r.getType(), "result", i)))
      return failure();
  return success();
}

LogicalResult ShardMapOp::verifySymbolUses(SymbolTableCollection &symbols) {
  auto fn = symbols.lookupNearestSymbolFrom<func::FuncOp>(*this, getCalleeAttr());
  if (!fn)
    return emitOpError() << "callee '" << getCallee() << "' does not name a func.func";
  FunctionType type = fn.getFunctionType();
  if (type.getNumInputs() != getOperands().size() ||
      type.getNumResults() != getNumResults())
    return emitOpError() << "has " << getOperands().size() << " operands and "
                         << getNumResults() << " results, but @" << getCallee() << " takes "
                         << type.getNumInputs() << " arguments and returns "
                         << type.getNumResults() << " results";
  for (auto [i, v] : llvm::enumerate(getOperands())) {
    RankedTensorType local = getInSharding(i).getShardType(tensorOf(v));
    if (type.getInput(i) != local)
      return emitOpError() << "operand #" << i << " of type " << v.getType()
                           << " sharded as " << getInSharding(i) << " has pieces of type "
                           << local << ", but @" << getCallee() << " takes "
                           << type.getInput(i);
  }
  for (auto [i, r] : llvm::enumerate(getResults())) {
    RankedTensorType local = getOutSharding(i).getShardType(tensorOf(r));
    if (type.getResult(i) != local)
      return emitOpError() << "result #" << i << " of type " << r.getType() << " sharded as "
                           << getOutSharding(i) << " has pieces of type " << local
                           << ", but @" << getCallee() << " returns " << type.getResult(i);
  }
  return success();
}

//======================================================================//
// Collectives: verifiers and result types
//======================================================================//

namespace {

/// The checks every collective shares (axes and mesh), with messages at
/// `loc` naming `opName`; then, for `result`, the group size.
LogicalResult checkAxes(std::optional<Location> loc, StringRef opName, ArrayAttr axes,
                        MeshAttr mesh) {
  if (!mesh)
    return emitOptionalError(loc, "'", opName, "' op needs a #mlax.mesh 'mesh'");
  if (!loc)
    return mesh.verifyAxes(axes, "axes", [&] { return InFlightDiagnostic(); });
  return mesh.verifyAxes(axes, "axes", [&] {
    InFlightDiagnostic d = emitError(*loc);
    d << "'" << opName << "' op ";
    return d;
  });
}

} // namespace

LogicalResult AllReduceOp::verify() {
  return checkAxes(getLoc(), getOperationName(), getAxes(), getMesh());
}

LogicalResult PpermuteOp::verify() {
  if (failed(checkAxes(getLoc(), getOperationName(), getAxes(), getMesh())))
    return failure();
  ArrayRef<int64_t> pairs = getPairs();
  if (pairs.size() % 2 != 0)
    return emitOpError() << "pairs must be flattened (source, destination) pairs; it has "
                         << pairs.size() << " entries";
  int64_t n = getGroupSize();
  llvm::SmallSet<int64_t, 8> sources, destinations;
  for (size_t k = 0; k < pairs.size(); k += 2) {
    int64_t src = pairs[k], dst = pairs[k + 1];
    for (int64_t i : {src, dst})
      if (i < 0 || i >= n)
        return emitOpError() << "pair (" << src << ", " << dst << ") is out of range: "
                             << "positions in a group of axes " << getAxes() << " are 0 to "
                             << n - 1;
    if (!sources.insert(src).second)
      return emitOpError() << "source " << src << " appears in two pairs (sources must be "
                           << "distinct)";
    if (!destinations.insert(dst).second)
      return emitOpError() << "destination " << dst << " appears in two pairs (destinations "
                           << "must be distinct)";
  }
  return success();
}

LogicalResult AllGatherOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &inferred) {
  if (!allRanked(adaptor.getOperands()))
    return notTensors(loc, getOperationName());
  if (failed(checkAxes(loc, getOperationName(), adaptor.getAxes(), adaptor.getMesh())))
    return failure();
  auto type = tensorOf(adaptor.getOperand());
  int64_t n = adaptor.getMesh().getGroupSize(adaptor.getAxes());
  int64_t d = adaptor.getDimension(), rank = type.getRank();
  bool tiled = adaptor.getTiled();
  if (d < 0 || d > rank || (tiled && d == rank))
    return emitOptionalError(loc, "'", getOperationName(), "' op dimension ", d,
                             " is out of range for an operand of rank ", rank,
                             tiled ? "" : " (a new dimension goes at 0 to the rank)");
  SmallVector<int64_t> shape(type.getShape());
  if (tiled)
    shape[d] *= n;
  else
    shape.insert(shape.begin() + d, n);
  inferred.push_back(type.clone(shape));
  return success();
}

LogicalResult ReduceScatterOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                                Adaptor adaptor,
                                                SmallVectorImpl<Type> &inferred) {
  if (!allRanked(adaptor.getOperands()))
    return notTensors(loc, getOperationName());
  if (failed(checkAxes(loc, getOperationName(), adaptor.getAxes(), adaptor.getMesh())))
    return failure();
  auto type = tensorOf(adaptor.getOperand());
  int64_t n = adaptor.getMesh().getGroupSize(adaptor.getAxes());
  int64_t d = adaptor.getDimension(), rank = type.getRank();
  if (d < 0 || d >= rank)
    return emitOptionalError(loc, "'", getOperationName(), "' op dimension ", d,
                             " is out of range for an operand of rank ", rank);
  SmallVector<int64_t> shape(type.getShape());
  if (adaptor.getTiled()) {
    if (shape[d] % n != 0)
      return emitOptionalError(loc, "'", getOperationName(), "' op dimension ", d,
                               " of size ", shape[d], " is not divisible by the group size ",
                               n, " of axes ", adaptor.getAxes());
    shape[d] /= n;
  } else {
    if (shape[d] != n)
      return emitOptionalError(loc, "'", getOperationName(), "' op dimension ", d,
                               " has size ", shape[d], ", but not tiled it must be the group "
                               "size ", n, " of axes ", adaptor.getAxes());
    shape.erase(shape.begin() + d);
  }
  inferred.push_back(type.clone(shape));
  return success();
}

LogicalResult AllToAllOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                           Adaptor adaptor, SmallVectorImpl<Type> &inferred) {
  if (!allRanked(adaptor.getOperands()))
    return notTensors(loc, getOperationName());
  if (failed(checkAxes(loc, getOperationName(), adaptor.getAxes(), adaptor.getMesh())))
    return failure();
  auto type = tensorOf(adaptor.getOperand());
  int64_t n = adaptor.getMesh().getGroupSize(adaptor.getAxes());
  int64_t s = adaptor.getSplitDimension(), c = adaptor.getConcatDimension();
  int64_t rank = type.getRank();
  for (auto [what, d] : {std::pair<StringRef, int64_t>{"split_dimension", s},
                         std::pair<StringRef, int64_t>{"concat_dimension", c}})
    if (d < 0 || d >= rank)
      return emitOptionalError(loc, "'", getOperationName(), "' op ", what, " ", d,
                               " is out of range for an operand of rank ", rank);
  SmallVector<int64_t> shape(type.getShape());
  if (adaptor.getTiled()) {
    if (shape[s] % n != 0)
      return emitOptionalError(loc, "'", getOperationName(), "' op split dimension ", s,
                               " of size ", shape[s], " is not divisible by the group size ",
                               n, " of axes ", adaptor.getAxes());
    shape[s] /= n;
    shape[c] *= n;
  } else {
    if (shape[s] != n)
      return emitOptionalError(loc, "'", getOperationName(), "' op split dimension ", s,
                               " has size ", shape[s], ", but not tiled it must be the "
                               "group size ", n, " of axes ", adaptor.getAxes(),
                               " (as jax.lax.all_to_all)");
    shape.erase(shape.begin() + s);
    shape.insert(shape.begin() + c, n);
  }
  inferred.push_back(type.clone(shape));
  return success();
}

LogicalResult AxisIndexOp::inferReturnTypes(MLIRContext *ctx, std::optional<Location> loc,
                                            Adaptor adaptor, SmallVectorImpl<Type> &inferred) {
  if (failed(checkAxes(loc, getOperationName(), adaptor.getAxes(), adaptor.getMesh())))
    return failure();
  inferred.push_back(RankedTensorType::get({}, IntegerType::get(ctx, 32)));
  return success();
}

//======================================================================//
// Derivative rules (jax/_src/lax/parallel.py): every collective is linear,
// its tangent the same collective of the tangent; the transposes are
// psum -> psum, all_gather <-> psum_scatter, ppermute -> the inverse
// permutation, all_to_all -> split and concat swapped. pmax and pmin have
// no derivative in JAX.
//======================================================================//

namespace {

LogicalResult notDifferentiable(AllReduceOp op) {
  return op.emitOpError() << "with kind '" << stringifyAllReduceKind(op.getKind())
                          << "' is not differentiable (as jax.lax.pmax and pmin); only "
                             "'sum' (psum) is";
}

} // namespace

LogicalResult AllReduceOp::jvp(OpBuilder &b, ArrayRef<Value> tangents,
                               SmallVectorImpl<Value> &resultTangents) {
  if (getKind() != AllReduceKind::Sum)
    return notDifferentiable(*this);
  Value t = tangents[0];
  resultTangents.push_back(
      t ? AllReduceOp::create(b, getLoc(), getKindAttr(), t, getAxesAttr(), getMeshAttr())
              .getResult()
        : Value());
  return success();
}

LogicalResult AllReduceOp::vjp(OpBuilder &b, ArrayRef<Value> cotangents,
                               SmallVectorImpl<Value> &operandCotangents) {
  if (getKind() != AllReduceKind::Sum)
    return notDifferentiable(*this);
  Value ct = cotangents[0];
  operandCotangents.push_back(
      ct ? AllReduceOp::create(b, getLoc(), getKindAttr(), ct, getAxesAttr(), getMeshAttr())
               .getResult()
         : Value());
  return success();
}

LogicalResult AllGatherOp::jvp(OpBuilder &b, ArrayRef<Value> tangents,
                               SmallVectorImpl<Value> &resultTangents) {
  Value t = tangents[0];
  resultTangents.push_back(t ? AllGatherOp::create(b, getLoc(), t, getAxesAttr(), getMeshAttr(),
                                                   getDimensionAttr(), getTiledAttr())
                                   .getResult()
                             : Value());
  return success();
}

LogicalResult AllGatherOp::vjp(OpBuilder &b, ArrayRef<Value> cotangents,
                               SmallVectorImpl<Value> &operandCotangents) {
  Value ct = cotangents[0];
  operandCotangents.push_back(ct ? ReduceScatterOp::create(b, getLoc(), ct, getAxesAttr(),
                                                           getMeshAttr(), getDimensionAttr(),
                                                           getTiledAttr())
                                       .getResult()
                                 : Value());
  return success();
}

LogicalResult ReduceScatterOp::jvp(OpBuilder &b, ArrayRef<Value> tangents,
                                   SmallVectorImpl<Value> &resultTangents) {
  Value t = tangents[0];
  resultTangents.push_back(t ? ReduceScatterOp::create(b, getLoc(), t, getAxesAttr(),
                                                       getMeshAttr(), getDimensionAttr(),
                                                       getTiledAttr())
                                   .getResult()
                             : Value());
  return success();
}

LogicalResult ReduceScatterOp::vjp(OpBuilder &b, ArrayRef<Value> cotangents,
                                   SmallVectorImpl<Value> &operandCotangents) {
  Value ct = cotangents[0];
  operandCotangents.push_back(ct ? AllGatherOp::create(b, getLoc(), ct, getAxesAttr(),
                                                       getMeshAttr(), getDimensionAttr(),
                                                       getTiledAttr())
                                       .getResult()
                                 : Value());
  return success();
}

LogicalResult PpermuteOp::jvp(OpBuilder &b, ArrayRef<Value> tangents,
                              SmallVectorImpl<Value> &resultTangents) {
  Value t = tangents[0];
  resultTangents.push_back(
      t ? PpermuteOp::create(b, getLoc(), t, getAxesAttr(), getMeshAttr(), getPairsAttr())
              .getResult()
        : Value());
  return success();
}

LogicalResult PpermuteOp::vjp(OpBuilder &b, ArrayRef<Value> cotangents,
                              SmallVectorImpl<Value> &operandCotangents) {
  Value ct = cotangents[0];
  if (!ct) {
    operandCotangents.push_back(Value());
    return success();
  }
  SmallVector<int64_t> inverse;
  ArrayRef<int64_t> pairs = getPairs();
  for (size_t k = 0; k + 1 < pairs.size(); k += 2) {
    inverse.push_back(pairs[k + 1]);
    inverse.push_back(pairs[k]);
  }
  operandCotangents.push_back(PpermuteOp::create(b, getLoc(), ct, getAxesAttr(), getMeshAttr(),
                                                 b.getDenseI64ArrayAttr(inverse)));
  return success();
}

LogicalResult AllToAllOp::jvp(OpBuilder &b, ArrayRef<Value> tangents,
                              SmallVectorImpl<Value> &resultTangents) {
  Value t = tangents[0];
  resultTangents.push_back(t ? AllToAllOp::create(b, getLoc(), t, getAxesAttr(), getMeshAttr(),
                                                  getSplitDimensionAttr(),
                                                  getConcatDimensionAttr(), getTiledAttr())
                                   .getResult()
                             : Value());
  return success();
}

LogicalResult AllToAllOp::vjp(OpBuilder &b, ArrayRef<Value> cotangents,
                              SmallVectorImpl<Value> &operandCotangents) {
  Value ct = cotangents[0];
  operandCotangents.push_back(ct ? AllToAllOp::create(b, getLoc(), ct, getAxesAttr(),
                                                      getMeshAttr(), getConcatDimensionAttr(),
                                                      getSplitDimensionAttr(), getTiledAttr())
                                       .getResult()
                                 : Value());
  return success();
}

//======================================================================//
// Batching rules: the batch dimension (in front) is one more dimension of
// each device's piece; the collectives act on it like on any other, so
// dimension attributes shift by one.
//======================================================================//

LogicalResult AllReduceOp::batch(OpBuilder &b, ValueRange operands, ArrayRef<bool>, int64_t,
                                 SmallVectorImpl<Value> &results) {
  results.push_back(
      AllReduceOp::create(b, getLoc(), getKindAttr(), operands[0], getAxesAttr(), getMeshAttr()));
  return success();
}

LogicalResult AllGatherOp::batch(OpBuilder &b, ValueRange operands, ArrayRef<bool>, int64_t,
                                 SmallVectorImpl<Value> &results) {
  results.push_back(AllGatherOp::create(b, getLoc(), operands[0], getAxesAttr(), getMeshAttr(),
                                        b.getI64IntegerAttr(getDimension() + 1),
                                        getTiledAttr()));
  return success();
}

LogicalResult ReduceScatterOp::batch(OpBuilder &b, ValueRange operands, ArrayRef<bool>,
                                     int64_t, SmallVectorImpl<Value> &results) {
  results.push_back(ReduceScatterOp::create(b, getLoc(), operands[0], getAxesAttr(),
                                            getMeshAttr(),
                                            b.getI64IntegerAttr(getDimension() + 1),
                                            getTiledAttr()));
  return success();
}

LogicalResult PpermuteOp::batch(OpBuilder &b, ValueRange operands, ArrayRef<bool>, int64_t,
                                SmallVectorImpl<Value> &results) {
  results.push_back(
      PpermuteOp::create(b, getLoc(), operands[0], getAxesAttr(), getMeshAttr(), getPairsAttr()));
  return success();
}

LogicalResult AllToAllOp::batch(OpBuilder &b, ValueRange operands, ArrayRef<bool>, int64_t,
                                SmallVectorImpl<Value> &results) {
  results.push_back(AllToAllOp::create(b, getLoc(), operands[0], getAxesAttr(), getMeshAttr(),
                                       b.getI64IntegerAttr(getSplitDimension() + 1),
                                       b.getI64IntegerAttr(getConcatDimension() + 1),
                                       getTiledAttr()));
  return success();
}
