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
// The HLO string is ShardingAttr::toHloSharding (MlaxAttributes.cpp).
//
//===----------------------------------------------------------------------===//

#include "mlax/Dialect/Mlax/IR/MlaxOps.h"
#include "mlax/Conversion/Passes.h"
#include "mlax/Conversion/MlaxToStablehlo/StablehloBuilder.h"

#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Transforms/DialectConversion.h"

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

} // namespace

void mlir::mlax::populateShardingToStablehloPatterns(RewritePatternSet &patterns) {
  patterns.add<ShardingConstraintPattern>(patterns.getContext());
}

LogicalResult mlir::mlax::lowerShardings(ModuleOp module) {
  MLIRContext *ctx = module.getContext();
  StringAttr name = StringAttr::get(ctx, MlaxDialect::getShardingAttrName());
  ShardingAttr first;
  Operation *firstOwner = nullptr;
  // Every sharding must be on the first one's mesh; reports the first that
  // is not, at the op or function that carries it.
  auto sameMesh = [&](ShardingAttr s, Operation *owner, StringRef where) -> LogicalResult {
    if (!first) {
      first = s;
      firstOwner = owner;
      return success();
    }
    if (s.hasSameMesh(first))
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
      return sameMesh(constraint.getSharding(), op, "this sharding_constraint's value");
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
      if (failed(sameMesh(sharding, op, where)))
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
