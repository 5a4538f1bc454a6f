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
// Batching rules: the batch dimension (in front) is replicated, or split
// over the vmap's spmd_axis_name
//======================================================================//

LogicalResult ShardingConstraintOp::batch(OpBuilder &b, ValueRange operands, ArrayRef<bool>,
                                          int64_t, SmallVectorImpl<Value> &results) {
  int64_t rank = getType().getRank();
  ShardingAttr sharding = getSharding().withReplicatedDimension(/*position=*/0, rank);
  results.push_back(ShardingConstraintOp::create(b, getLoc(), operands[0], sharding));
  return success();
}

/// Under vmap(spmd_axis_name=axes) the batch dimension is split over `axes`
/// (JAX's _sharding_constraint_batcher): they must be axes of the mesh the
/// constraint does not use yet, and divide the batch.
LogicalResult ShardingConstraintOp::batchOverSpmdAxes(OpBuilder &b, ValueRange operands,
                                                      ArrayRef<bool>, int64_t batchSize,
                                                      ArrayAttr spmdAxes,
                                                      SmallVectorImpl<Value> &results) {
  ShardingAttr sharding = getSharding();
  if (failed(sharding.getMesh().verifySpmdAxes(spmdAxes, batchSize,
                                               [&]() { return emitOpError(); })))
    return failure();
  SmallVector<StringAttr> axes;
  for (Attribute a : spmdAxes) {
    axes.push_back(llvm::cast<StringAttr>(a));
    if (sharding.usesAxis(axes.back().getValue()))
      return emitOpError() << "vmap spmd_axis_name \"" << axes.back().getValue()
                           << "\" cannot appear in with_sharding_constraint spec, but got "
                           << sharding;
  }
  int64_t rank = getType().getRank();
  results.push_back(ShardingConstraintOp::create(
      b, getLoc(), operands[0], sharding.withSplitDimension(/*position=*/0, rank, axes)));
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

/// The checks every collective shares, with messages at `loc` naming
/// `opName`: `axes` not empty, distinct strings, each a mesh axis of `mesh`
/// or a vmap axis of `vmap` (not both), and every vmap axis named.
LogicalResult checkAxes(std::optional<Location> loc, StringRef opName, ArrayAttr axes,
                        MeshAttr mesh, MeshAttr vmap) {
  auto error = [&]() -> InFlightDiagnostic {
    if (!loc)
      return InFlightDiagnostic();
    InFlightDiagnostic d = emitError(*loc);
    d << "'" << opName << "' op ";
    return d;
  };
  if (!mesh && !vmap)
    return emitOptionalError(loc, "'", opName,
                             "' op needs a #mlax.mesh 'mesh' or vmap axes 'vmap_axes'");
  if (!vmap)
    return mesh.verifyAxes(axes, "axes", error);
  if (!axes || axes.empty())
    return error() << "axes must name at least one axis";
  llvm::SmallSet<StringRef, 4> seen;
  for (Attribute a : axes) {
    auto name = llvm::dyn_cast<StringAttr>(a);
    if (!name)
      return error() << "axes must be strings, got " << a;
    if (!seen.insert(name.getValue()).second)
      return error() << "axis \"" << name.getValue() << "\" appears twice in axes";
    bool inMesh = mesh && mesh.getAxisIndex(name.getValue()) >= 0;
    bool inVmap = vmap.getAxisIndex(name.getValue()) >= 0;
    if (inMesh && inVmap)
      return error() << "axis \"" << name.getValue()
                     << "\" is both a mesh axis and a vmap axis";
    if (!inMesh && !inVmap) {
      InFlightDiagnostic d = error();
      d << "axis \"" << name.getValue() << "\" is neither a vmap axis ("
        << vmap.getMeshString() << ")";
      if (mesh)
        d << " nor a mesh axis (" << mesh.getMeshString() << ")";
      return d;
    }
  }
  for (StringAttr name : vmap.getAxisNames())
    if (!seen.contains(name.getValue()))
      return error() << "vmap_axes lists \"" << name.getValue()
                     << "\", which axes does not name";
  return success();
}

/// The size of axis `name` (valid), a vmap axis or a mesh axis.
int64_t axisSizeOf(MeshAttr mesh, MeshAttr vmap, StringRef name) {
  if (vmap)
    if (int64_t i = vmap.getAxisIndex(name); i >= 0)
      return vmap.getAxisSizes()[i];
  return mesh.getAxisSizes()[mesh.getAxisIndex(name)];
}

/// A collective's group size: the product of its axes' sizes.
int64_t groupSizeOf(MeshAttr mesh, MeshAttr vmap, ArrayAttr axes) {
  int64_t n = 1;
  for (Attribute a : axes)
    n *= axisSizeOf(mesh, vmap, llvm::cast<StringAttr>(a).getValue());
  return n;
}

} // namespace

#define MLAX_NAMED_AXIS_SIZES(Op)                                                          \
  int64_t Op::getGroupSize() { return groupSizeOf(getMeshAttr(), getVmapAxesAttr(), getAxes()); } \
  int64_t Op::getAxisSize(StringRef name) {                                                \
    return axisSizeOf(getMeshAttr(), getVmapAxesAttr(), name);                              \
  }
MLAX_NAMED_AXIS_SIZES(AllReduceOp)
MLAX_NAMED_AXIS_SIZES(AllGatherOp)
MLAX_NAMED_AXIS_SIZES(ReduceScatterOp)
MLAX_NAMED_AXIS_SIZES(PpermuteOp)
MLAX_NAMED_AXIS_SIZES(AllToAllOp)
MLAX_NAMED_AXIS_SIZES(AxisIndexOp)
#undef MLAX_NAMED_AXIS_SIZES

LogicalResult AllReduceOp::verify() {
  return checkAxes(getLoc(), getOperationName(), getAxes(), getMeshAttr(), getVmapAxesAttr());
}

LogicalResult PpermuteOp::verify() {
  if (failed(checkAxes(getLoc(), getOperationName(), getAxes(), getMeshAttr(), getVmapAxesAttr())))
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
  if (failed(checkAxes(loc, getOperationName(), adaptor.getAxes(), adaptor.getMeshAttr(),
                       adaptor.getVmapAxesAttr())))
    return failure();
  auto type = tensorOf(adaptor.getOperand());
  int64_t n = groupSizeOf(adaptor.getMeshAttr(), adaptor.getVmapAxesAttr(), adaptor.getAxes());
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
  if (failed(checkAxes(loc, getOperationName(), adaptor.getAxes(), adaptor.getMeshAttr(),
                       adaptor.getVmapAxesAttr())))
    return failure();
  auto type = tensorOf(adaptor.getOperand());
  int64_t n = groupSizeOf(adaptor.getMeshAttr(), adaptor.getVmapAxesAttr(), adaptor.getAxes());
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
  if (failed(checkAxes(loc, getOperationName(), adaptor.getAxes(), adaptor.getMeshAttr(),
                       adaptor.getVmapAxesAttr())))
    return failure();
  auto type = tensorOf(adaptor.getOperand());
  int64_t n = groupSizeOf(adaptor.getMeshAttr(), adaptor.getVmapAxesAttr(), adaptor.getAxes());
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
  if (failed(checkAxes(loc, getOperationName(), adaptor.getAxes(), adaptor.getMeshAttr(),
                       adaptor.getVmapAxesAttr())))
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
      t ? AllReduceOp::create(b, getLoc(), getKindAttr(), t, getAxesAttr(), getMeshAttr(), getVmapAxesAttr())
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
      ct ? AllReduceOp::create(b, getLoc(), getKindAttr(), ct, getAxesAttr(), getMeshAttr(), getVmapAxesAttr())
               .getResult()
         : Value());
  return success();
}

LogicalResult AllGatherOp::jvp(OpBuilder &b, ArrayRef<Value> tangents,
                               SmallVectorImpl<Value> &resultTangents) {
  Value t = tangents[0];
  resultTangents.push_back(t ? AllGatherOp::create(b, getLoc(), t, getAxesAttr(), getMeshAttr(),
                                                   getDimensionAttr(), getTiledAttr(), getVmapAxesAttr())
                                   .getResult()
                             : Value());
  return success();
}

LogicalResult AllGatherOp::vjp(OpBuilder &b, ArrayRef<Value> cotangents,
                               SmallVectorImpl<Value> &operandCotangents) {
  Value ct = cotangents[0];
  operandCotangents.push_back(ct ? ReduceScatterOp::create(b, getLoc(), ct, getAxesAttr(),
                                                           getMeshAttr(), getDimensionAttr(),
                                                           getTiledAttr(), getVmapAxesAttr())
                                       .getResult()
                                 : Value());
  return success();
}

LogicalResult ReduceScatterOp::jvp(OpBuilder &b, ArrayRef<Value> tangents,
                                   SmallVectorImpl<Value> &resultTangents) {
  Value t = tangents[0];
  resultTangents.push_back(t ? ReduceScatterOp::create(b, getLoc(), t, getAxesAttr(),
                                                       getMeshAttr(), getDimensionAttr(),
                                                       getTiledAttr(), getVmapAxesAttr())
                                   .getResult()
                             : Value());
  return success();
}

LogicalResult ReduceScatterOp::vjp(OpBuilder &b, ArrayRef<Value> cotangents,
                                   SmallVectorImpl<Value> &operandCotangents) {
  Value ct = cotangents[0];
  operandCotangents.push_back(ct ? AllGatherOp::create(b, getLoc(), ct, getAxesAttr(),
                                                       getMeshAttr(), getDimensionAttr(),
                                                       getTiledAttr(), getVmapAxesAttr())
                                       .getResult()
                                 : Value());
  return success();
}

LogicalResult PpermuteOp::jvp(OpBuilder &b, ArrayRef<Value> tangents,
                              SmallVectorImpl<Value> &resultTangents) {
  Value t = tangents[0];
  resultTangents.push_back(
      t ? PpermuteOp::create(b, getLoc(), t, getAxesAttr(), getMeshAttr(), getPairsAttr(), getVmapAxesAttr())
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
                                                 b.getDenseI64ArrayAttr(inverse), getVmapAxesAttr()));
  return success();
}

LogicalResult AllToAllOp::jvp(OpBuilder &b, ArrayRef<Value> tangents,
                              SmallVectorImpl<Value> &resultTangents) {
  Value t = tangents[0];
  resultTangents.push_back(t ? AllToAllOp::create(b, getLoc(), t, getAxesAttr(), getMeshAttr(),
                                                  getSplitDimensionAttr(),
                                                  getConcatDimensionAttr(), getTiledAttr(), getVmapAxesAttr())
                                   .getResult()
                             : Value());
  return success();
}

LogicalResult AllToAllOp::vjp(OpBuilder &b, ArrayRef<Value> cotangents,
                              SmallVectorImpl<Value> &operandCotangents) {
  Value ct = cotangents[0];
  operandCotangents.push_back(ct ? AllToAllOp::create(b, getLoc(), ct, getAxesAttr(),
                                                      getMeshAttr(), getConcatDimensionAttr(),
                                                      getSplitDimensionAttr(), getTiledAttr(), getVmapAxesAttr())
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
      AllReduceOp::create(b, getLoc(), getKindAttr(), operands[0], getAxesAttr(), getMeshAttr(), getVmapAxesAttr()));
  return success();
}

LogicalResult AllGatherOp::batch(OpBuilder &b, ValueRange operands, ArrayRef<bool>, int64_t,
                                 SmallVectorImpl<Value> &results) {
  results.push_back(AllGatherOp::create(b, getLoc(), operands[0], getAxesAttr(), getMeshAttr(),
                                        b.getI64IntegerAttr(getDimension() + 1),
                                        getTiledAttr(), getVmapAxesAttr()));
  return success();
}

LogicalResult ReduceScatterOp::batch(OpBuilder &b, ValueRange operands, ArrayRef<bool>,
                                     int64_t, SmallVectorImpl<Value> &results) {
  results.push_back(ReduceScatterOp::create(b, getLoc(), operands[0], getAxesAttr(),
                                            getMeshAttr(),
                                            b.getI64IntegerAttr(getDimension() + 1),
                                            getTiledAttr(), getVmapAxesAttr()));
  return success();
}

LogicalResult PpermuteOp::batch(OpBuilder &b, ValueRange operands, ArrayRef<bool>, int64_t,
                                SmallVectorImpl<Value> &results) {
  results.push_back(
      PpermuteOp::create(b, getLoc(), operands[0], getAxesAttr(), getMeshAttr(), getPairsAttr(), getVmapAxesAttr()));
  return success();
}

LogicalResult AllToAllOp::batch(OpBuilder &b, ValueRange operands, ArrayRef<bool>, int64_t,
                                SmallVectorImpl<Value> &results) {
  results.push_back(AllToAllOp::create(b, getLoc(), operands[0], getAxesAttr(), getMeshAttr(),
                                       b.getI64IntegerAttr(getSplitDimension() + 1),
                                       b.getI64IntegerAttr(getConcatDimension() + 1),
                                       getTiledAttr(), getVmapAxesAttr()));
  return success();
}

//======================================================================//
// Over a vmap axis (NamedAxisOpInterface): mlax-vectorize, expanding the
// vmap that binds `axis`, replaces the collective over that axis by ops
// over the batch dimension, as jax/_src/lax/parallel.py's batchers of the
// collectives over the vmapped axis do; the axes it names besides (other
// vmap axes, mesh axes) stay a collective, in the right order.
//======================================================================//

namespace {

/// The attributes of a collective over `names`, part of an op's axes: the
/// axes, the mesh if one of them is a mesh axis, the vmap axes among them.
struct SubAxes {
  ArrayAttr axes;
  MeshAttr mesh, vmap;
  int64_t size = 1;
  bool empty() const { return axes.empty(); }
};

SubAxes subAxes(MLIRContext *ctx, ArrayRef<StringAttr> names, MeshAttr mesh, MeshAttr vmap) {
  SubAxes out;
  SmallVector<Attribute> list;
  SmallVector<StringAttr> vmapNames;
  SmallVector<int64_t> vmapSizes;
  bool anyMesh = false;
  for (StringAttr name : names) {
    list.push_back(name);
    out.size *= axisSizeOf(mesh, vmap, name.getValue());
    if (int64_t i = vmap ? vmap.getAxisIndex(name.getValue()) : -1; i >= 0) {
      vmapNames.push_back(name);
      vmapSizes.push_back(vmap.getAxisSizes()[i]);
    } else {
      anyMesh = true;
    }
  }
  out.axes = ArrayAttr::get(ctx, list);
  out.mesh = anyMesh ? mesh : MeshAttr();
  out.vmap = vmapNames.empty() ? MeshAttr() : MeshAttr::get(ctx, vmapNames, vmapSizes);
  return out;
}

/// A collective's axes around its vmap axis `axis`: the axes before it
/// (major), after it (minor), and all but it.
struct AxisSplit {
  SubAxes before, after, rest;
};

AxisSplit splitAround(Operation *op, ArrayAttr axes, StringRef axis, MeshAttr mesh,
                      MeshAttr vmap) {
  SmallVector<StringAttr> before, after;
  bool seen = false;
  for (Attribute a : axes) {
    auto name = llvm::cast<StringAttr>(a);
    if (name.getValue() == axis)
      seen = true;
    else
      (seen ? after : before).push_back(name);
  }
  SmallVector<StringAttr> rest(before);
  rest.append(after);
  MLIRContext *ctx = op->getContext();
  return {subAxes(ctx, before, mesh, vmap), subAxes(ctx, after, mesh, vmap),
          subAxes(ctx, rest, mesh, vmap)};
}

/// The vmap expanding the op must have the size the op was traced with.
LogicalResult checkVmapSize(Operation *op, StringRef axis, int64_t traced, int64_t size) {
  if (traced == size)
    return success();
  return op->emitOpError() << "names vmap axis \"" << axis << "\" of size " << traced
                           << ", but the mlax.vmap binding it has size " << size;
}

/// Dimension `from` of `v` moved to position `to`.
Value reshapeTo(OpBuilder &b, Location loc, Value v, ArrayRef<int64_t> shape) {
  return MlaxBuilder(b, loc).reshape(v, tensorOf(v).clone(shape));
}

/// `v` with dimensions `d` and `d + 1` merged (row-major).
Value mergeDims(OpBuilder &b, Location loc, Value v, int64_t d) {
  SmallVector<int64_t> shape(tensorOf(v).getShape());
  shape[d] *= shape[d + 1];
  shape.erase(shape.begin() + d + 1);
  return reshapeTo(b, loc, v, shape);
}

LogicalResult onlyOneAxis(Operation *op, ArrayAttr axes, StringRef axis) {
  if (axes.size() == 1)
    return success();
  return op->emitOpError() << "over the vmap axis \"" << axis << "\" together with other axes "
                           << axes << " is not supported (mlax batches it over one vmap "
                           << "axis at a time; name the axes in separate calls)";
}

} // namespace

// psum / pmax / pmin: the reduction over the batch dimension, the same for
// every example (not batched); then over the other axes.
LogicalResult AllReduceOp::batchOverVmapAxis(OpBuilder &b, ValueRange operands,
                                             ArrayRef<bool> batched, int64_t size,
                                             StringRef axis, SmallVectorImpl<Value> &results,
                                             SmallVectorImpl<bool> &resultBatched) {
  Location loc = getLoc();
  if (failed(checkVmapSize(*this, axis, getAxisSize(axis), size)))
    return failure();
  MlaxBuilder m(b, loc);
  Value x = operands[0], y;
  if (!batched[0]) // every example holds x: its sum is size * x, its max/min x
    y = getKind() == AllReduceKind::Sum ? m.mul(x, m.like(x, (double)size)) : x;
  else if (getKind() == AllReduceKind::Sum)
    y = ReduceSumOp::create(b, loc, x, ArrayRef<int64_t>{0});
  else if (getKind() == AllReduceKind::Max)
    y = ReduceMaxOp::create(b, loc, x, ArrayRef<int64_t>{0});
  else
    y = ReduceMinOp::create(b, loc, x, ArrayRef<int64_t>{0});
  AxisSplit split = splitAround(*this, getAxes(), axis, getMeshAttr(), getVmapAxesAttr());
  if (!split.rest.empty())
    y = AllReduceOp::create(b, loc, getKindAttr(), y, split.rest.axes, split.rest.mesh,
                            split.rest.vmap);
  results.push_back(y);
  resultBatched.push_back(false);
  return success();
}

// axis_index: an iota along the batch, combined row-major with the index
// along the other axes.
LogicalResult AxisIndexOp::batchOverVmapAxis(OpBuilder &b, ValueRange, ArrayRef<bool>,
                                             int64_t size, StringRef axis,
                                             SmallVectorImpl<Value> &results,
                                             SmallVectorImpl<bool> &resultBatched) {
  Location loc = getLoc();
  if (failed(checkVmapSize(*this, axis, getAxisSize(axis), size)))
    return failure();
  MlaxBuilder m(b, loc);
  auto type = RankedTensorType::get({size}, b.getI32Type());
  Value v = IotaOp::create(b, loc, type, b.getI64IntegerAttr(0));
  AxisSplit split = splitAround(*this, getAxes(), axis, getMeshAttr(), getVmapAxesAttr());
  if (!split.after.empty()) {
    Value minor = AxisIndexOp::create(b, loc, split.after.axes, split.after.mesh,
                                      split.after.vmap);
    v = m.add(m.mul(v, m.splat(type, (double)split.after.size)), m.broadcast(minor, type));
  }
  if (!split.before.empty()) {
    Value major = AxisIndexOp::create(b, loc, split.before.axes, split.before.mesh,
                                      split.before.vmap);
    major = m.mul(major, m.like(major, (double)(size * split.after.size)));
    v = m.add(m.broadcast(major, type), v);
  }
  results.push_back(v);
  resultBatched.push_back(true);
  return success();
}

// all_gather: the batch dimension is the gathered dimension (the examples
// in order), the same for every example; the axes after it are gathered
// first (minor), those before it last (major).
LogicalResult AllGatherOp::batchOverVmapAxis(OpBuilder &b, ValueRange operands,
                                             ArrayRef<bool> batched, int64_t size,
                                             StringRef axis, SmallVectorImpl<Value> &results,
                                             SmallVectorImpl<bool> &resultBatched) {
  Location loc = getLoc();
  if (failed(checkVmapSize(*this, axis, getAxisSize(axis), size)))
    return failure();
  AxisSplit split = splitAround(*this, getAxes(), axis, getMeshAttr(), getVmapAxesAttr());
  int64_t d = getDimension();
  Value v = ensureBatched(b, loc, operands[0], batched[0], size);
  if (!split.after.empty())
    v = AllGatherOp::create(b, loc, v, split.after.axes, split.after.mesh,
                            b.getI64IntegerAttr(d + 1), UnitAttr(), split.after.vmap);
  v = MlaxBuilder(b, loc).moveAxis(v, 0, d);
  if (!split.after.empty())
    v = mergeDims(b, loc, v, d);
  if (!split.before.empty())
    v = AllGatherOp::create(b, loc, v, split.before.axes, split.before.mesh,
                            b.getI64IntegerAttr(d), b.getUnitAttr(), split.before.vmap);
  if (getTiled()) // the group's pieces, each of the operand's size along d
    v = mergeDims(b, loc, v, d);
  results.push_back(v);
  resultBatched.push_back(false);
  return success();
}

// psum_scatter: the sum over the batch, whose pieces along `dimension` go
// to the examples (piece i to example i): the piece index becomes the batch
// dimension; the other axes scatter within it.
LogicalResult ReduceScatterOp::batchOverVmapAxis(OpBuilder &b, ValueRange operands,
                                                 ArrayRef<bool> batched, int64_t size,
                                                 StringRef axis,
                                                 SmallVectorImpl<Value> &results,
                                                 SmallVectorImpl<bool> &resultBatched) {
  Location loc = getLoc();
  if (failed(checkVmapSize(*this, axis, getAxisSize(axis), size)))
    return failure();
  AxisSplit split = splitAround(*this, getAxes(), axis, getMeshAttr(), getVmapAxesAttr());
  MlaxBuilder m(b, loc);
  int64_t d = getDimension();
  ArrayRef<int64_t> shape = tensorOf(getOperand()).getShape();
  int64_t before = split.before.size, after = split.after.size;
  int64_t piece = shape[d] / (before * size * after); // 1 when not tiled
  Value x = operands[0];
  Value sum = batched[0] ? m.reduceSum(x, {0}) : m.mul(x, m.like(x, (double)size));
  // d split into [before, size, after * piece], size moved to the front.
  SmallVector<int64_t> split3(shape.take_front(d));
  split3.append({before, size, after * piece});
  split3.append(shape.begin() + d + 1, shape.end());
  Value v = MlaxBuilder(b, loc).moveAxis(reshapeTo(b, loc, sum, split3), d + 1, 0);
  v = mergeDims(b, loc, v, d + 1); // [size, ..., before * after * piece, ...]
  if (!split.rest.empty())
    v = ReduceScatterOp::create(b, loc, v, split.rest.axes, split.rest.mesh,
                                b.getI64IntegerAttr(d + 1), b.getUnitAttr(), split.rest.vmap);
  results.push_back(m.reshape(v, vec::batchedType(getType(), size)));
  resultBatched.push_back(true);
  return success();
}

// ppermute over one vmap axis: example dst gets example src's value (pairs
// (src, dst)), zeros where no pair sends.
LogicalResult PpermuteOp::batchOverVmapAxis(OpBuilder &b, ValueRange operands,
                                            ArrayRef<bool> batched, int64_t size,
                                            StringRef axis, SmallVectorImpl<Value> &results,
                                            SmallVectorImpl<bool> &resultBatched) {
  Location loc = getLoc();
  if (failed(checkVmapSize(*this, axis, getAxisSize(axis), size)) ||
      failed(onlyOneAxis(*this, getAxes(), axis)))
    return failure();
  SmallVector<int64_t> sourceOf(size, -1);
  ArrayRef<int64_t> pairs = getPairs();
  for (size_t k = 0; k + 1 < pairs.size(); k += 2)
    sourceOf[pairs[k + 1]] = pairs[k];
  Value x = operands[0];
  bool identity = llvm::all_of(llvm::seq<int64_t>(0, size),
                               [&](int64_t i) { return sourceOf[i] == i; });
  bool complete = llvm::all_of(sourceOf, [](int64_t s) { return s >= 0; });
  if (identity || (!batched[0] && complete)) { // every example keeps / gets the same value
    results.push_back(x);
    resultBatched.push_back(batched[0]);
    return success();
  }
  x = ensureBatched(b, loc, x, batched[0], size);
  auto type = tensorOf(x);
  SmallVector<int64_t> one(type.getShape());
  one[0] = 1;
  MlaxBuilder m(b, loc);
  SmallVector<Value> rows;
  for (int64_t dst = 0; dst < size; ++dst) {
    int64_t src = sourceOf[dst];
    if (src < 0) {
      rows.push_back(m.zeros(type.clone(one)));
      continue;
    }
    SmallVector<int64_t> start(type.getRank(), 0), limit(type.getShape()),
        strides(type.getRank(), 1);
    start[0] = src;
    limit[0] = src + 1;
    rows.push_back(SliceOp::create(b, loc, x, start, limit, strides));
  }
  results.push_back(rows.size() == 1 ? rows[0]
                                     : ConcatenateOp::create(b, loc, rows, 0).getResult());
  resultBatched.push_back(true);
  return success();
}

// all_to_all over one vmap axis: example j gets piece j (along
// split_dimension) of every example, placed in example order along
// concat_dimension.
LogicalResult AllToAllOp::batchOverVmapAxis(OpBuilder &b, ValueRange operands,
                                            ArrayRef<bool> batched, int64_t size,
                                            StringRef axis, SmallVectorImpl<Value> &results,
                                            SmallVectorImpl<bool> &resultBatched) {
  Location loc = getLoc();
  if (failed(checkVmapSize(*this, axis, getAxisSize(axis), size)) ||
      failed(onlyOneAxis(*this, getAxes(), axis)))
    return failure();
  int64_t s = getSplitDimension(), c = getConcatDimension();
  Value v = ensureBatched(b, loc, operands[0], batched[0], size);
  if (getTiled()) { // split dimension -> [size, piece]
    SmallVector<int64_t> shape(tensorOf(v).getShape());
    int64_t piece = shape[s + 1] / size;
    shape[s + 1] = piece;
    shape.insert(shape.begin() + s + 1, size);
    v = reshapeTo(b, loc, v, shape);
  }
  v = MlaxBuilder(b, loc).moveAxis(v, s + 1, 0); // [piece index j, example b, ...]
  v = MlaxBuilder(b, loc).moveAxis(v, 1, c + 1); // example b at concat_dimension
  if (getTiled())
    v = mergeDims(b, loc, v, c + 1);
  results.push_back(v);
  resultBatched.push_back(true);
  return success();
}
