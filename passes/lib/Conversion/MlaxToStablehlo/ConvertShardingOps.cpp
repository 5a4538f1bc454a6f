//===- ConvertShardingOps.cpp - shardings -> StableHLO ---------------------===//
//
// What jax emits for GSPMD (jax/_src/interpreters/mlir.py):
//  * mlax.sharding_constraint -> `stablehlo.custom_call @Sharding(%x)` with
//    the `mhlo.sharding` string of the sharding, same type in and out;
//  * `mlax.sharding = #mlax.sharding<...>` on a function's arguments and
//    results -> `mhlo.sharding = "<HLO sharding string>"`;
//  * a module holding any sharding gets `mhlo.num_partitions` (the mesh's
//    device count) and `mhlo.num_replicas = 1`, which XLA reads to partition
//    the program. Every sharding of a module must use the one mesh.
//  * mlax.shard_map -> per operand `custom_call @Sharding` (its in sharding)
//    and `custom_call @SPMDFullToShardShape` (`{manual}`, the piece's type),
//    a `func.call` of the body, per result `custom_call @Sharding`
//    (`{manual}`) and `@SPMDShardToFullShape` (its out sharding, the global
//    type), as jax's GSPMD lowering of shard_map;
//  * the collectives -> stablehlo.all_reduce / all_gather / reduce_scatter /
//    collective_permute / all_to_all over replica groups of partition ids
//    (a mesh position is its partition id: the device assignment is the
//    mesh's devices in row-major order), each with a channel handle unique
//    in the module (1, 2, ...; type 1, device to device) and, where
//    StableHLO has it, `use_global_device_ids`, as jax emits them under
//    shard_map; axis_index -> stablehlo.partition_id and integer arithmetic.
// The HLO string is ShardingAttr::toHloSharding (MlaxAttributes.cpp), the
// groups MeshAttr::getDeviceGroups.
//
//===----------------------------------------------------------------------===//

#include "mlax/Dialect/Mlax/IR/MlaxOps.h"
#include "mlax/Conversion/Passes.h"
#include "mlax/Conversion/MlaxToStablehlo/StablehloBuilder.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Transforms/DialectConversion.h"

#include <memory>

using namespace mlir;
using namespace mlir::mlax;

namespace {

constexpr StringLiteral kHloShardingAttr = "mhlo.sharding";

struct ShardingConstraintPattern : OpConversionPattern<ShardingConstraintOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ShardingConstraintOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    StablehloBuilder hlo(rewriter, op.getLoc());
    MLIRContext *ctx = op.getContext();
    std::string sharding = op.getSharding().toHloSharding(op.getType());
    rewriter.replaceOp(
        op, hlo.op("custom_call", adaptor.getOperand(), op.getType(),
                   {hlo.named("call_target_name", StringAttr::get(ctx, "Sharding")),
                    hlo.named(kHloShardingAttr, StringAttr::get(ctx, sharding))}));
    return success();
  }
};


//===----------------------------------------------------------------------===//
// shard_map
//===----------------------------------------------------------------------===//

Value customCall(StablehloBuilder &hlo, MLIRContext *ctx, StringRef target, Value x, Type type,
                 StringRef sharding) {
  return hlo.op("custom_call", x, type,
                {hlo.named("call_target_name", StringAttr::get(ctx, target)),
                 hlo.named(kHloShardingAttr, StringAttr::get(ctx, sharding))});
}

struct ShardMapPattern : OpConversionPattern<ShardMapOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ShardMapOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    StablehloBuilder hlo(rewriter, op.getLoc());
    MLIRContext *ctx = op.getContext();
    SmallVector<Value> locals;
    for (auto [i, x] : llvm::enumerate(adaptor.getOperands())) {
      auto global = cast<RankedTensorType>(x.getType());
      ShardingAttr sharding = op.getInSharding(i);
      Value s = customCall(hlo, ctx, "Sharding", x, global, sharding.toHloSharding(global));
      locals.push_back(customCall(hlo, ctx, "SPMDFullToShardShape", s,
                                  sharding.getShardType(global), "{manual}"));
    }
    SmallVector<Type> localTypes;
    for (auto [i, r] : llvm::enumerate(op.getResults()))
      localTypes.push_back(op.getOutSharding(i).getShardType(cast<RankedTensorType>(r.getType())));
    auto call = func::CallOp::create(rewriter, op.getLoc(), op.getCalleeAttr(), localTypes,
                                     locals);
    SmallVector<Value> results;
    for (auto [i, r] : llvm::enumerate(call.getResults())) {
      auto global = cast<RankedTensorType>(op.getResult(i).getType());
      Value s = customCall(hlo, ctx, "Sharding", r, r.getType(), "{manual}");
      results.push_back(customCall(hlo, ctx, "SPMDShardToFullShape", s, global,
                                   op.getOutSharding(i).toHloSharding(global)));
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Collectives
//===----------------------------------------------------------------------===//

/// Hands out the channel handles of one run of the lowering: 1, 2, ...
using ChannelCounter = std::shared_ptr<int64_t>;

/// `replica_groups`, `channel_handle` (and `use_global_device_ids`) of a
/// collective over `axes` of `mesh`.
SmallVector<NamedAttribute> collectiveAttrs(StablehloBuilder &hlo, MeshAttr mesh, ArrayAttr axes,
                                            const ChannelCounter &channels,
                                            bool globalDeviceIds) {
  OpBuilder &b = hlo.builder();
  SmallVector<SmallVector<int64_t>> groups = mesh.getDeviceGroups(axes);
  SmallVector<int64_t> flat;
  for (auto &g : groups)
    flat.append(g.begin(), g.end());
  auto type = RankedTensorType::get({(int64_t)groups.size(), (int64_t)groups.front().size()},
                                    b.getI64Type());
  SmallVector<NamedAttribute> attrs = {
      hlo.named("replica_groups", DenseIntElementsAttr::get(type, flat)),
      hlo.named("channel_handle",
                hlo.attr(("#stablehlo.channel_handle<handle = " + Twine(++*channels) +
                          ", type = 1>")
                             .str()))};
  if (globalDeviceIds)
    attrs.push_back(hlo.named("use_global_device_ids", b.getUnitAttr()));
  return attrs;
}

/// The scalar body of an all_reduce / reduce_scatter applying `kind`.
void fillReduction(StablehloBuilder &hlo, Location loc, Operation *op, AllReduceKind kind,
                   Type elem) {
  OpBuilder &b = hlo.builder();
  OpBuilder::InsertionGuard guard(b);
  auto scalar = RankedTensorType::get({}, elem);
  Block *body = b.createBlock(&op->getRegion(0), {}, {scalar, scalar}, {loc, loc});
  bool pred = elem.isInteger(1);
  StringRef name = kind == AllReduceKind::Sum ? (pred ? "or" : "add")
                   : kind == AllReduceKind::Max ? (pred ? "or" : "maximum")
                                                : (pred ? "and" : "minimum");
  Value combined = hlo.op(name, {body->getArgument(0), body->getArgument(1)}, scalar);
  hlo.create("return", {combined}, {});
}

template <typename OpTy>
struct CollectivePattern : OpConversionPattern<OpTy> {
  CollectivePattern(MLIRContext *ctx, ChannelCounter channels)
      : OpConversionPattern<OpTy>(ctx), channels(std::move(channels)) {}
  ChannelCounter channels;
};

struct AllReducePattern : CollectivePattern<AllReduceOp> {
  using CollectivePattern::CollectivePattern;
  LogicalResult
  matchAndRewrite(AllReduceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    StablehloBuilder hlo(rewriter, op.getLoc());
    Operation *reduce = hlo.create(
        "all_reduce", adaptor.getOperand(), op.getType(),
        collectiveAttrs(hlo, op.getMeshAttr(), op.getAxes(), channels, /*globalDeviceIds=*/true),
        /*regions=*/1);
    fillReduction(hlo, op.getLoc(), reduce, op.getKind(), op.getType().getElementType());
    rewriter.replaceOp(op, reduce->getResults());
    return success();
  }
};

struct AllGatherPattern : CollectivePattern<AllGatherOp> {
  using CollectivePattern::CollectivePattern;
  LogicalResult
  matchAndRewrite(AllGatherOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    StablehloBuilder hlo(rewriter, op.getLoc());
    Value x = adaptor.getOperand();
    int64_t d = op.getDimension();
    auto resultType = cast<RankedTensorType>(op.getType());
    RankedTensorType gathered = resultType;
    if (!op.getTiled()) { // as jax: a new dimension of 1, gathered tiled
      SmallVector<int64_t> shape(tensorOf(x).getShape());
      shape.insert(shape.begin() + d, 1);
      x = hlo.op("reshape", x, tensorOf(x).clone(shape));
    }
    SmallVector<NamedAttribute> attrs =
        collectiveAttrs(hlo, op.getMeshAttr(), op.getAxes(), channels, /*globalDeviceIds=*/true);
    attrs.push_back(hlo.named("all_gather_dim", rewriter.getI64IntegerAttr(d)));
    rewriter.replaceOp(op, hlo.op("all_gather", x, gathered, attrs));
    return success();
  }
};

struct ReduceScatterPattern : CollectivePattern<ReduceScatterOp> {
  using CollectivePattern::CollectivePattern;
  LogicalResult
  matchAndRewrite(ReduceScatterOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    StablehloBuilder hlo(rewriter, op.getLoc());
    Value x = adaptor.getOperand();
    int64_t d = op.getDimension();
    auto resultType = cast<RankedTensorType>(op.getType());
    SmallVector<int64_t> shape(tensorOf(x).getShape());
    shape[d] /= op.getGroupSize();
    RankedTensorType scattered = resultType.clone(shape);
    SmallVector<NamedAttribute> attrs =
        collectiveAttrs(hlo, op.getMeshAttr(), op.getAxes(), channels, /*globalDeviceIds=*/true);
    attrs.push_back(hlo.named("scatter_dimension", rewriter.getI64IntegerAttr(d)));
    Operation *scatter = hlo.create("reduce_scatter", x, scattered, attrs, /*regions=*/1);
    fillReduction(hlo, op.getLoc(), scatter, AllReduceKind::Sum, resultType.getElementType());
    Value result = scatter->getResult(0);
    if (!op.getTiled()) // the dimension, now of size 1, is dropped
      result = hlo.op("reshape", result, resultType);
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct PpermutePattern : CollectivePattern<PpermuteOp> {
  using CollectivePattern::CollectivePattern;
  LogicalResult
  matchAndRewrite(PpermuteOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    StablehloBuilder hlo(rewriter, op.getLoc());
    ArrayRef<int64_t> pairs = op.getPairs();
    if (pairs.empty()) { // nobody receives anything: zeros everywhere
      rewriter.replaceOp(op, hlo.constant(splatAttr(cast<ShapedType>(op.getType()), 0.0)));
      return success();
    }
    // Each pair of positions, in every group. As jax's ppermute lowering,
    // a position indexes the group's devices in increasing order (the axes'
    // coordinates row-major in mesh order, whatever order `axes` lists).
    SmallVector<int64_t> flat;
    for (auto &group : op.getMeshAttr().getDeviceGroups(op.getAxes())) {
      llvm::sort(group);
      for (size_t k = 0; k + 1 < pairs.size(); k += 2) {
        flat.push_back(group[pairs[k]]);
        flat.push_back(group[pairs[k + 1]]);
      }
    }
    SmallVector<NamedAttribute> attrs =
        collectiveAttrs(hlo, op.getMeshAttr(), op.getAxes(), channels, /*globalDeviceIds=*/false);
    attrs.erase(attrs.begin()); // no replica_groups: the pairs say it all
    auto type = RankedTensorType::get({(int64_t)flat.size() / 2, 2}, rewriter.getI64Type());
    attrs.push_back(
        hlo.named("source_target_pairs", DenseIntElementsAttr::get(type, flat)));
    rewriter.replaceOp(op, hlo.op("collective_permute", adaptor.getOperand(), op.getType(),
                                  attrs));
    return success();
  }
};

struct AllToAllPattern : CollectivePattern<AllToAllOp> {
  using CollectivePattern::CollectivePattern;
  LogicalResult
  matchAndRewrite(AllToAllOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    StablehloBuilder hlo(rewriter, op.getLoc());
    Value x = adaptor.getOperand();
    int64_t n = op.getGroupSize();
    int64_t split = op.getSplitDimension(), concat = op.getConcatDimension();
    auto resultType = cast<RankedTensorType>(op.getType());
    SmallVector<int64_t> shape(tensorOf(x).getShape());
    if (!op.getTiled() && split != concat) {
      // As jax.lax.all_to_all: a dimension of 1 inserted where the group's
      // pieces go, the tiled exchange, then the split dimension (now 1)
      // dropped.
      if (split < concat) {
        concat += 1;
      } else {
        split += 1;
      }
      shape.insert(shape.begin() + concat, 1);
      x = hlo.op("reshape", x, resultType.clone(shape));
    }
    shape[split] /= n;
    shape[concat] *= n;
    SmallVector<NamedAttribute> attrs =
        collectiveAttrs(hlo, op.getMeshAttr(), op.getAxes(), channels, /*globalDeviceIds=*/false);
    attrs.push_back(hlo.named("split_dimension", rewriter.getI64IntegerAttr(split)));
    attrs.push_back(hlo.named("concat_dimension", rewriter.getI64IntegerAttr(concat)));
    attrs.push_back(hlo.named("split_count", rewriter.getI64IntegerAttr(n)));
    Value result = hlo.op("all_to_all", x, resultType.clone(shape), attrs);
    if (result.getType() != resultType)
      result = hlo.op("reshape", result, resultType);
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct AxisIndexPattern : OpConversionPattern<AxisIndexOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AxisIndexOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    StablehloBuilder hlo(rewriter, op.getLoc());
    MeshAttr mesh = op.getMeshAttr();
    ArrayRef<int64_t> sizes = mesh.getAxisSizes();
    auto i32 = RankedTensorType::get({}, rewriter.getI32Type());
    auto ui32 = RankedTensorType::get({}, rewriter.getIntegerType(32, /*isSigned=*/false));
    auto constant = [&](int64_t v) { return hlo.constant(splatAttr(i32, (double)v)); };
    Value pid = hlo.op("convert", hlo.op("partition_id", {}, ui32), i32);
    // The position along `axes`: each axis's coordinate (partition id
    // divided by the axis's row-major stride, modulo its size), row-major.
    Value index;
    for (int64_t a : mesh.getAxisPositions(op.getAxes())) {
      int64_t stride = 1;
      for (int64_t k = a + 1, e = sizes.size(); k < e; ++k)
        stride *= sizes[k];
      Value coord = pid;
      if (stride != 1)
        coord = hlo.op("divide", {coord, constant(stride)}, i32);
      if (stride * sizes[a] != mesh.getNumDevices())
        coord = hlo.op("remainder", {coord, constant(sizes[a])}, i32);
      index = index ? hlo.op("add", {hlo.op("multiply", {index, constant(sizes[a])}, i32), coord},
                             i32)
                    : coord;
    }
    rewriter.replaceOp(op, index);
    return success();
  }
};

} // namespace

void mlir::mlax::populateShardingToStablehloPatterns(RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<ShardingConstraintPattern, ShardMapPattern, AxisIndexPattern>(ctx);
  auto channels = std::make_shared<int64_t>(0);
  patterns.add<AllReducePattern, AllGatherPattern, ReduceScatterPattern, PpermutePattern,
               AllToAllPattern>(ctx, channels);
}

LogicalResult mlir::mlax::lowerShardings(ModuleOp module) {
  MLIRContext *ctx = module.getContext();
  StringAttr name = StringAttr::get(ctx, MlaxDialect::getShardingAttrName());
  MeshAttr first;
  Operation *firstOwner = nullptr;
  // Every sharding (and every collective) must be on the first one's mesh;
  // reports the first that is not, at the op or function that carries it.
  auto sameMesh = [&](MeshAttr s, Operation *owner, StringRef where) -> LogicalResult {
    if (!first) {
      first = s;
      firstOwner = owner;
      return success();
    }
    if (s == first)
      return success();
    InFlightDiagnostic diag = owner->emitError()
                              << where << " is sharded over the mesh " << s.getMeshString()
                              << ", but the module's shardings use the mesh "
                              << first.getMeshString()
                              << "; all shardings of one program must use the same mesh";
    diag.attachNote(firstOwner->getLoc()) << "the first sharding on " << first.getMeshString();
    return failure();
  };

  // Pre-order: a function's signature comes before its body.
  WalkResult walk = module.walk<WalkOrder::PreOrder>([&](Operation *op) -> WalkResult {
    if (auto constraint = dyn_cast<ShardingConstraintOp>(op))
      return sameMesh(constraint.getSharding().getMesh(), op,
                      "this sharding_constraint's value");
    if (auto shardMap = dyn_cast<ShardMapOp>(op)) {
      MeshAttr mesh = shardMap.getMesh();
      if (!mesh)
        return WalkResult::advance();
      return sameMesh(mesh, op, "this shard_map");
    }
    // A collective over a vmap axis is rewritten by mlax-vectorize when it
    // expands the vmap that binds the axis; one left here is outside it.
    if (isa<NamedAxisOpInterface>(op)) {
      if (auto vmap = op->getAttrOfType<MeshAttr>("vmap_axes")) {
        op->emitOpError() << "names the vmap axis \"" << vmap.getAxisNames().front().getValue()
                          << "\", which no enclosing mlax.vmap binds (a collective over a vmap "
                             "axis must be inside the vmap(axis_name=...) that names it)";
        return WalkResult::interrupt();
      }
    }
    if (auto mesh = op->getAttrOfType<MeshAttr>("mesh");
        mesh && op->getDialect() == module->getContext()->getLoadedDialect<MlaxDialect>())
      return sameMesh(mesh, op, ("this " + op->getName().getStringRef() + "'s group").str());
    auto fn = dyn_cast<FunctionOpInterface>(op);
    if (!fn)
      return WalkResult::advance();
    auto lower = [&](DictionaryAttr attrs, Type type, StringRef where,
                     auto set) -> LogicalResult {
      if (!attrs)
        return success();
      Attribute value = attrs.get(name);
      if (!value)
        return success();
      auto sharding = dyn_cast<ShardingAttr>(value);
      auto tensor = dyn_cast<RankedTensorType>(type);
      if (!sharding || !tensor)
        return op->emitError() << where << ": '" << name.getValue()
                               << "' is not a #mlax.sharding on a tensor";
      if (failed(sameMesh(sharding.getMesh(), op, where)))
        return failure();
      NamedAttrList list(attrs);
      list.erase(name);
      list.set(kHloShardingAttr, StringAttr::get(ctx, sharding.toHloSharding(tensor)));
      set(list.getDictionary(ctx));
      return success();
    };
    for (unsigned i = 0, e = fn.getNumArguments(); i < e; ++i)
      if (failed(lower(fn.getArgAttrDict(i), fn.getArgumentTypes()[i],
                       ("argument #" + Twine(i) + " of @" + fn.getName()).str(),
                       [&](DictionaryAttr d) { fn.setArgAttrs(i, d); })))
        return WalkResult::interrupt();
    for (unsigned i = 0, e = fn.getNumResults(); i < e; ++i)
      if (failed(lower(fn.getResultAttrDict(i), fn.getResultTypes()[i],
                       ("result #" + Twine(i) + " of @" + fn.getName()).str(),
                       [&](DictionaryAttr d) { fn.setResultAttrs(i, d); })))
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  if (first) {
    auto i32 = IntegerType::get(ctx, 32);
    module->setAttr("mhlo.num_partitions", IntegerAttr::get(i32, first.getNumDevices()));
    module->setAttr("mhlo.num_replicas", IntegerAttr::get(i32, 1));
  }
  return success();
}
