//===- Vectorize.cpp - the mlax-vectorize pass ----------------------------===//
//
// Expands `mlax.vmap` into a call of a generated batched function. The
// callee's body is copied op by op (nested `mlax.call`s inlined); an op whose
// operands are all unbatched is copied unchanged, any other is rewritten by
// its `BatchableOpInterface` rule (the op family's Mlax<Family>Ops.cpp). Batched
// values carry the batch dimension in front.
//
//===----------------------------------------------------------------------===//

#include "mlax/Dialect/Mlax/IR/MlaxBuilder.h"
#include "mlax/Dialect/Mlax/IR/MlaxOps.h"
#include "mlax/Transforms/Passes.h"
#include "mlax/Transforms/TransformRequests.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <map>

namespace mlir::mlax {
#define GEN_PASS_DEF_MLAXVECTORIZE
#include "mlax/Transforms/Passes.h.inc"
} // namespace mlir::mlax

using namespace mlir;
using namespace mlir::mlax;

namespace {

/// A value of the batched function and whether it has the batch dimension.
struct BValue {
  Value value;
  bool batched = false;
};

class Vectorizer {
public:
  explicit Vectorizer(SymbolTable &symbols) : symbols(symbols), generated(symbols) {}

  FailureOr<func::FuncOp> vmapFunction(func::FuncOp f, ArrayRef<int64_t> inAxes,
                                       ArrayRef<int64_t> outAxes, int64_t size);
  /// The vmap axis name of the vmap being expanded (null: none): the
  /// collectives naming it are rewritten by their NamedAxisOpInterface rule.
  void setAxisName(StringAttr name) { axis = name; }
  /// The mesh axes the batch of the vmap being expanded is split over
  /// (`spmd_axis_name`; null: none): sharding_constraint and shard_map
  /// split the batch dimension over them instead of replicating it.
  void setSpmdAxes(ArrayAttr axes) { spmd = axes; }
  func::FuncOp lookup(FlatSymbolRefAttr name) {
    return symbols.lookup<func::FuncOp>(name.getValue());
  }
  int64_t numGenerated() const { return generated.count(); }

private:
  LogicalResult batchBody(func::FuncOp f, ArrayRef<BValue> args, OpBuilder &b, int64_t size,
                          SmallVectorImpl<BValue> &results,
                          SmallPtrSetImpl<Operation *> &onStack);
  FailureOr<Operation *> batchCallLike(Operation *op, ArrayRef<BValue> operands, OpBuilder &b,
                                       int64_t size);
  /// cond / while / scan with some operand batched: their regions are
  /// outlined and batched like functions; the results' batch flags follow.
  LogicalResult batchControlFlow(Operation *op, func::FuncOp f, ArrayRef<BValue> operands,
                                 OpBuilder &b, int64_t size, SmallVectorImpl<BValue> &results);
  /// shard_map: the callee vmapped per device (the batch dimension is
  /// replicated: every device holds all of it; or, with spmd axes, split
  /// over them: each device holds its part of the batch).
  LogicalResult batchShardMap(ShardMapOp op, ArrayRef<BValue> operands, OpBuilder &b,
                              int64_t size, SmallVectorImpl<BValue> &results);
  /// The callee batched along axis 0 of every argument and result.
  FailureOr<FlatSymbolRefAttr> allBatched(FlatSymbolRefAttr name, int64_t size);
  /// Whether `op` (with its regions and the functions it names) holds a
  /// collective over the current vmap axis: it must be batched even when
  /// none of its operands is (axis_index has none; psum of an unbatched
  /// value multiplies it by the batch size).
  bool usesAxis(Operation *op);
  bool namesAxis(Operation *op) {
    auto named = llvm::dyn_cast<NamedAxisOpInterface>(op);
    return axis && named && named.namesVmapAxis(axis.getValue());
  }

  SymbolTable &symbols;
  GeneratedFunctions generated;
  StringAttr axis;
  ArrayAttr spmd;
  std::map<std::tuple<std::string, SmallVector<int64_t>, SmallVector<int64_t>, int64_t,
                      std::string, const void *>,
           func::FuncOp>
      cache;
  DenseMap<std::pair<Operation *, StringAttr>, bool> functionUsesAxis;
};

FailureOr<func::FuncOp> Vectorizer::vmapFunction(func::FuncOp f, ArrayRef<int64_t> inAxes,
                                                 ArrayRef<int64_t> outAxes, int64_t size) {
  auto key = std::make_tuple(f.getSymName().str(), SmallVector<int64_t>(inAxes),
                             SmallVector<int64_t>(outAxes), size,
                             axis ? axis.getValue().str() : std::string(),
                             spmd ? spmd.getAsOpaquePointer() : nullptr);
  if (auto it = cache.find(key); it != cache.end())
    return it->second;
  FunctionType type = f.getFunctionType();
  SmallVector<Type> inputs, results;
  for (auto [t, a] : llvm::zip(type.getInputs(), inAxes))
    inputs.push_back(a < 0 ? t : vec::insertAxis(t, a, size));
  for (auto [t, a] : llvm::zip(type.getResults(), outAxes))
    results.push_back(a < 0 ? t : vec::insertAxis(t, a, size));

  func::FuncOp fn =
      generated.create(f, "_vmap", FunctionType::get(f.getContext(), inputs, results));
  cache[key] = fn;

  Block *entry = &fn.getBody().front();
  OpBuilder b = OpBuilder::atBlockEnd(entry);
  SmallVector<BValue> args;
  for (auto [arg, a] : llvm::zip(entry->getArguments(), inAxes))
    args.push_back(a < 0 ? BValue{arg, false}
                         : BValue{MlaxBuilder(b, f.getLoc()).moveAxis(arg, a, 0),
                                  true});
  SmallVector<BValue> outs;
  SmallPtrSet<Operation *, 4> onStack;
  if (failed(batchBody(f, args, b, size, outs, onStack)))
    return failure();
  SmallVector<Value> returned;
  for (auto [i, pair] : llvm::enumerate(llvm::zip(outs, outAxes))) {
    auto [v, a] = pair;
    if (a < 0) {
      if (v.batched)
        return f.emitOpError() << "mlax-vectorize: result #" << i
                               << " depends on the batch but its out_axes is none";
      returned.push_back(v.value);
      continue;
    }
    Value batched = v.batched ? v.value : vec::broadcastToBatch(b, f.getLoc(), v.value, size);
    returned.push_back(MlaxBuilder(b, f.getLoc()).moveAxis(batched, 0, a));
  }
  func::ReturnOp::create(b, f.getLoc(), returned);
  return fn;
}

LogicalResult Vectorizer::batchBody(func::FuncOp f, ArrayRef<BValue> args, OpBuilder &b,
                                    int64_t size, SmallVectorImpl<BValue> &results,
                                    SmallPtrSetImpl<Operation *> &onStack) {
  if (!f.getBody().hasOneBlock())
    return f.emitOpError("mlax-vectorize: can only batch single-block functions");
  if (!onStack.insert(f).second)
    return f.emitOpError("mlax-vectorize: cannot batch a recursive function");
  DenseMap<Value, BValue> map;
  Block &body = f.getBody().front();
  for (auto [arg, v] : llvm::zip(body.getArguments(), args))
    map[arg] = v;
  for (Operation &op : body) {
    SmallVector<BValue> operands;
    for (Value v : op.getOperands())
      operands.push_back(map.lookup(v));
    if (auto ret = llvm::dyn_cast<func::ReturnOp>(op)) {
      results.append(operands);
      continue;
    }
    if (auto call = llvm::dyn_cast<CallOp>(op)) {
      func::FuncOp callee = lookup(call.getCalleeAttr());
      if (!callee)
        return call.emitOpError("mlax-vectorize: callee not found");
      SmallVector<BValue> inner;
      if (failed(batchBody(callee, operands, b, size, inner, onStack)))
        return failure();
      for (auto [r, v] : llvm::zip(call.getResults(), inner))
        map[r] = v;
      continue;
    }
    if (namesAxis(&op)) { // a collective over this vmap's axis
      SmallVector<Value> values, newValues;
      SmallVector<bool> flags, newFlags;
      for (const BValue &v : operands) {
        values.push_back(v.value);
        flags.push_back(v.batched);
      }
      if (failed(llvm::cast<NamedAxisOpInterface>(op).batchOverVmapAxis(
              b, values, flags, size, axis.getValue(), newValues, newFlags)))
        return failure();
      for (auto [r, v, flag] : llvm::zip(op.getResults(), newValues, newFlags))
        map[r] = BValue{v, flag};
      continue;
    }
    bool anyBatched = llvm::any_of(operands, [](const BValue &v) { return v.batched; });
    if (!anyBatched && !usesAxis(&op)) {
      IRMapping m;
      for (auto [old, v] : llvm::zip(op.getOperands(), operands))
        m.map(old, v.value);
      Operation *clone = b.clone(op, m);
      for (auto [r, c] : llvm::zip(op.getResults(), clone->getResults()))
        map[r] = BValue{c, false};
      continue;
    }
    if (llvm::isa<CondOp, WhileOp, ScanOp>(op)) {
      SmallVector<BValue> batched;
      if (failed(batchControlFlow(&op, f, operands, b, size, batched)))
        return failure();
      for (auto [r, v] : llvm::zip(op.getResults(), batched))
        map[r] = v;
      continue;
    }
    if (auto shardMap = llvm::dyn_cast<ShardMapOp>(op)) {
      SmallVector<BValue> batched;
      if (failed(batchShardMap(shardMap, operands, b, size, batched)))
        return failure();
      for (auto [r, v] : llvm::zip(op.getResults(), batched))
        map[r] = v;
      continue;
    }
    SmallVector<Value> newResults;
    if (llvm::isa<CustomJvpCallOp, CustomVjpCallOp, RematCallOp>(op)) {
      FailureOr<Operation *> batched = batchCallLike(&op, operands, b, size);
      if (failed(batched))
        return failure();
      newResults.append((*batched)->getResults().begin(), (*batched)->getResults().end());
    } else if (auto spmdRule = llvm::dyn_cast<SpmdBatchableOpInterface>(op); spmd && spmdRule) {
      SmallVector<Value> values;
      SmallVector<bool> flags;
      for (const BValue &v : operands) {
        values.push_back(v.value);
        flags.push_back(v.batched);
      }
      if (failed(spmdRule.batchOverSpmdAxes(b, values, flags, size, spmd, newResults)))
        return failure();
    } else {
      auto iface = llvm::dyn_cast<BatchableOpInterface>(op);
      if (!iface)
        return op.emitOpError("has no batching rule (BatchableOpInterface); "
                              "mlax-vectorize cannot batch it");
      SmallVector<Value> values;
      SmallVector<bool> flags;
      for (const BValue &v : operands) {
        values.push_back(v.value);
        flags.push_back(v.batched);
      }
      if (failed(iface.batch(b, values, flags, size, newResults)))
        return failure();
    }
    for (auto [r, v] : llvm::zip(op.getResults(), newResults))
      map[r] = BValue{v, true};
  }
  onStack.erase(f);
  return success();
}

bool Vectorizer::usesAxis(Operation *op) {
  if (!axis)
    return false;
  auto usesIn = [&](Operation *root) {
    WalkResult walk = root->walk([&](Operation *inner) {
      if (inner != root && llvm::isa<func::FuncOp>(inner))
        return WalkResult::skip();
      if (namesAxis(inner))
        return WalkResult::interrupt();
      for (NamedAttribute attr : inner->getAttrs())
        if (auto ref = llvm::dyn_cast<FlatSymbolRefAttr>(attr.getValue()))
          if (func::FuncOp fn = lookup(ref); fn && usesAxis(fn))
            return WalkResult::interrupt();
      return WalkResult::advance();
    });
    return walk.wasInterrupted();
  };
  if (!llvm::isa<func::FuncOp>(op))
    return (op->getNumRegions() || !op->getAttrDictionary().empty()) && usesIn(op);
  auto key = std::make_pair(op, axis);
  auto [it, inserted] = functionUsesAxis.try_emplace(key, false); // false while on the stack
  if (!inserted)
    return it->second;
  bool uses = usesIn(op);
  functionUsesAxis[key] = uses;
  return uses;
}

FailureOr<FlatSymbolRefAttr> Vectorizer::allBatched(FlatSymbolRefAttr name, int64_t size) {
  func::FuncOp fn = lookup(name);
  SmallVector<int64_t> in(fn.getNumArguments(), 0), out(fn.getNumResults(), 0);
  FailureOr<func::FuncOp> batched = vmapFunction(fn, in, out, size);
  if (failed(batched))
    return failure();
  return FlatSymbolRefAttr::get(batched->getSymNameAttr());
}

/// Calls with user-defined derivatives are batched whole: every operand is
/// given the batch dimension, and the callee and its rules are vmapped, so
/// the rules still apply to the batched call.
FailureOr<Operation *> Vectorizer::batchCallLike(Operation *op, ArrayRef<BValue> operands,
                                                 OpBuilder &b, int64_t size) {
  Location loc = op->getLoc();
  SmallVector<Value> values;
  for (const BValue &v : operands)
    values.push_back(v.batched ? v.value : vec::broadcastToBatch(b, loc, v.value, size));
  SmallVector<Type> types;
  for (Type t : op->getResultTypes())
    types.push_back(vec::batchedType(t, size));
  auto callee = allBatched(op->getAttrOfType<FlatSymbolRefAttr>("callee"), size);
  if (failed(callee))
    return failure();
  if (auto custom = llvm::dyn_cast<CustomJvpCallOp>(op)) {
    auto rule = allBatched(custom.getJvpRuleAttr(), size);
    if (failed(rule))
      return failure();
    return CustomJvpCallOp::create(b, loc, types, *callee, *rule, values).getOperation();
  }
  if (auto custom = llvm::dyn_cast<CustomVjpCallOp>(op)) {
    auto fwd = allBatched(custom.getFwdAttr(), size);
    auto bwd = allBatched(custom.getBwdAttr(), size);
    if (failed(fwd) || failed(bwd))
      return failure();
    return CustomVjpCallOp::create(b, loc, types, *callee, *fwd, *bwd, values).getOperation();
  }
  return RematCallOp::create(b, loc, types, *callee, values).getOperation();
}

LogicalResult Vectorizer::batchShardMap(ShardMapOp op, ArrayRef<BValue> operands, OpBuilder &b,
                                        int64_t size, SmallVectorImpl<BValue> &results) {
  // With spmd axes (JAX's _shard_map_batch with spmd_axis_name), the batch
  // dimension of each batched operand and of each result is split over
  // them, and the body sees its device's part: a batch of size / (their
  // size). They must be axes of the mesh no in or out spec uses.
  SmallVector<StringAttr> split;
  int64_t localSize = size;
  if (spmd) {
    MeshAttr mesh = op.getMesh();
    if (failed(mesh.verifySpmdAxes(spmd, size, [&]() { return op.emitOpError(); })))
      return failure();
    for (Attribute a : spmd) {
      split.push_back(llvm::cast<StringAttr>(a));
      StringRef name = split.back().getValue();
      for (auto [list, what] : {std::make_pair(op.getInShardings(), "in_specs"),
                                std::make_pair(op.getOutShardings(), "out_specs")})
        for (Attribute s : list)
          if (llvm::cast<ShardingAttr>(s).usesAxis(name))
            return op.emitOpError() << "vmap spmd_axis_name \"" << name
                                    << "\" cannot appear in shard_map " << what;
    }
    localSize = size / mesh.getGroupSize(spmd);
    func::FuncOp body = lookup(op.getCalleeAttr());
    if (axis && body && usesAxis(body))
      return op.emitOpError() << "a collective over vmap axis \"" << axis.getValue()
                              << "\" inside a shard_map batched with spmd_axis_name is "
                                 "not implemented";
  }
  SmallVector<int64_t> inAxes, outAxes(op.getNumResults(), 0);
  SmallVector<Value> values;
  SmallVector<Attribute> in, out;
  for (auto [i, v] : llvm::enumerate(operands)) {
    inAxes.push_back(v.batched ? 0 : -1);
    values.push_back(v.value);
    ShardingAttr s = op.getInSharding(i);
    int64_t rank = tensorOf(op.getOperands()[i]).getRank();
    in.push_back(v.batched ? s.withSplitDimension(0, rank, split) : s);
  }
  SmallVector<Type> types;
  for (auto [i, r] : llvm::enumerate(op.getResults())) {
    out.push_back(op.getOutSharding(i).withSplitDimension(0, tensorOf(r).getRank(), split));
    types.push_back(vec::batchedType(r.getType(), size));
  }
  // The body is per device (manual over the whole mesh): the spmd axes
  // say nothing about the shardings inside it.
  ArrayAttr outerSpmd = spmd;
  spmd = nullptr;
  FailureOr<func::FuncOp> callee =
      vmapFunction(lookup(op.getCalleeAttr()), inAxes, outAxes, localSize);
  spmd = outerSpmd;
  if (failed(callee))
    return failure();
  auto batched =
      ShardMapOp::create(b, op.getLoc(), types, FlatSymbolRefAttr::get(callee->getSymNameAttr()),
                         values, b.getArrayAttr(in), b.getArrayAttr(out));
  for (Value r : batched.getResults())
    results.push_back(BValue{r, true});
  return success();
}

/// `pred` (batched, shape [size]) broadcast to `like`'s shape along axis 0.
static Value broadcastPred(OpBuilder &b, Location loc, Value pred, Value like) {
  auto type = llvm::cast<RankedTensorType>(like.getType());
  auto predType = llvm::cast<RankedTensorType>(pred.getType());
  return BroadcastInDimOp::create(b, loc, type.clone(predType.getElementType()), pred,
                                  ArrayRef<int64_t>{0});
}

LogicalResult Vectorizer::batchControlFlow(Operation *op, func::FuncOp f,
                                           ArrayRef<BValue> operands, OpBuilder &b,
                                           int64_t size, SmallVectorImpl<BValue> &results) {
  Location loc = op->getLoc();
  auto axesOf = [](ArrayRef<bool> flags) {
    SmallVector<int64_t> axes;
    for (bool flag : flags)
      axes.push_back(flag ? 0 : -1);
    return axes;
  };
  auto batchedAs = [&](const BValue &v, bool batched) {
    return batched && !v.batched ? vec::broadcastToBatch(b, loc, v.value, size) : v.value;
  };
  auto vmapped = [&](Region &region, StringRef suffix, ArrayRef<bool> in,
                     ArrayRef<bool> out) -> FailureOr<func::FuncOp> {
    func::FuncOp outlined = outlineRegion(region, f, suffix, generated);
    return vmapFunction(outlined, axesOf(in), axesOf(out), size);
  };

  if (auto cond = llvm::dyn_cast<CondOp>(op)) {
    ArrayRef<BValue> inputs = operands.drop_front();
    SmallVector<bool> in;
    SmallVector<Value> values;
    for (const BValue &v : inputs) {
      in.push_back(v.batched);
      values.push_back(v.value);
    }
    unsigned n = cond.getNumResults();
    bool indexBatched = operands[0].batched;
    // A result is batched if any branch makes it depend on a batched input
    // (all are, when the index is batched: the branches are selected from,
    // or when a branch has a collective over this vmap's axis).
    SmallVector<bool> out(n, indexBatched || usesAxis(op));
    for (Region &region : cond.getBranches()) {
      SmallVector<bool> dep = dependentResults(region.front(), in, /*floatOnly=*/false);
      for (unsigned i = 0; i < n; ++i)
        out[i] = out[i] || dep[i];
    }
    SmallVector<func::FuncOp> fns;
    for (Region &region : cond.getBranches()) {
      FailureOr<func::FuncOp> fn = vmapped(region, "_branch", in, out);
      if (failed(fn))
        return failure();
      fns.push_back(*fn);
    }
    if (!indexBatched) {
      SmallVector<Type> types;
      for (auto [t, flag] : llvm::zip(cond.getResultTypes(), out))
        types.push_back(flag ? Type(vec::batchedType(t, size)) : t);
      auto batched = CondOp::create(b, loc, types, operands[0].value, values, fns.size());
      for (auto [region, fn] : llvm::zip(batched.getBranches(), fns))
        fillRegion(b, loc, region, ValueRange(values).getTypes(),
                   [&](OpBuilder &rb, Block *block) {
                     return callFunction(rb, loc, fn, block->getArguments());
                   });
      for (auto [r, flag] : llvm::zip(batched.getResults(), out))
        results.push_back(BValue{r, flag});
      return success();
    }
    // A batched index: run every branch and select per example. An index
    // out of range picks the last branch, as stablehlo.case does.
    SmallVector<SmallVector<Value>> perBranch;
    for (func::FuncOp fn : fns)
      perBranch.push_back(callFunction(b, loc, fn, values));
    int64_t last = fns.size() - 1;
    Value index = operands[0].value;
    auto indexType = llvm::cast<RankedTensorType>(index.getType());
    auto splat = [&](int64_t v) {
      return BroadcastInDimOp::create(b, loc, indexType,
                                      MlaxBuilder(b, loc).scalar(b.getI32Type(), v),
                                      ArrayRef<int64_t>{});
    };
    Value low = CompareOp::create(b, loc, ComparisonDirection::LT, index, splat(0));
    Value high = CompareOp::create(b, loc, ComparisonDirection::GT, index, splat(last));
    Value outside = OrOp::create(b, loc, low, high);
    index = SelectNOp::create(b, loc, outside, ValueRange{index, splat(last)});
    for (unsigned i = 0; i < n; ++i) {
      SmallVector<Value> cases;
      for (auto &rs : perBranch)
        cases.push_back(rs[i]);
      Value which = broadcastPred(b, loc, index, cases[0]);
      results.push_back(BValue{SelectNOp::create(b, loc, which, cases), true});
    }
    return success();
  }

  if (auto loop = llvm::dyn_cast<WhileOp>(op)) {
    unsigned n = loop.getNumResults();
    SmallVector<bool> start;
    for (const BValue &v : operands)
      start.push_back(v.batched);
    SmallVector<bool> state =
        loopFixedPoint(loop.getBody().front(), start, {}, n, /*floatOnly=*/false);
    bool overAxis = usesAxis(op); // a collective over this vmap's axis inside
    if (overAxis)
      state.assign(n, true);
    bool predBatched = overAxis || dependentResults(loop.getCond().front(), state, false)[0];
    if (predBatched)
      state.assign(n, true);
    SmallVector<Value> values;
    for (auto [v, flag] : llvm::zip(operands, state))
      values.push_back(batchedAs(v, flag));
    FailureOr<func::FuncOp> condFn =
        vmapped(loop.getCond(), "_cond", state, ArrayRef<bool>{predBatched});
    FailureOr<func::FuncOp> bodyFn = vmapped(loop.getBody(), "_body", state, state);
    if (failed(condFn) || failed(bodyFn))
      return failure();
    TypeRange types = ValueRange(values).getTypes();
    auto batched = WhileOp::create(b, loc, types, values);
    fillRegion(b, loc, batched.getCond(), types, [&](OpBuilder &rb, Block *block) {
      Value p = callFunction(rb, loc, *condFn, block->getArguments())[0];
      if (predBatched) // run while any example's condition holds
        p = ReduceOrOp::create(rb, loc, p, ArrayRef<int64_t>{0});
      return SmallVector<Value>{p};
    });
    fillRegion(b, loc, batched.getBody(), types, [&](OpBuilder &rb, Block *block) {
      SmallVector<Value> next = callFunction(rb, loc, *bodyFn, block->getArguments());
      if (predBatched) { // examples whose condition is false keep their state
        Value p = callFunction(rb, loc, *condFn, block->getArguments())[0];
        for (unsigned i = 0; i < next.size(); ++i)
          next[i] = SelectNOp::create(rb, loc, broadcastPred(rb, loc, p, next[i]),
                                      ValueRange{block->getArgument(i), next[i]});
      }
      return next;
    });
    for (auto [r, flag] : llvm::zip(batched.getResults(), state))
      results.push_back(BValue{r, flag});
    return success();
  }

  auto scan = llvm::cast<ScanOp>(op);
  unsigned nc = scan.getInit().size(), nx = scan.getXs().size(), nk = scan.getConsts().size();
  unsigned ny = scan.getYs().size();
  SmallVector<bool> start, other;
  for (const BValue &v : operands.take_front(nc))
    start.push_back(v.batched);
  for (const BValue &v : operands.drop_front(nc))
    other.push_back(v.batched);
  Block &body = scan.getBody().front();
  SmallVector<bool> state = loopFixedPoint(body, start, other, nc, /*floatOnly=*/false);
  bool overAxis = usesAxis(op); // a collective over this vmap's axis inside
  if (overAxis)
    state.assign(nc, true);
  SmallVector<bool> in(state);
  in.append(other);
  SmallVector<bool> dep = dependentResults(body, in, /*floatOnly=*/false);
  if (overAxis)
    dep.assign(dep.size(), true);
  SmallVector<bool> out(state);
  out.append(dep.begin() + nc, dep.end());
  FailureOr<func::FuncOp> bodyFn = vmapped(scan.getBody(), "_body", in, out);
  if (failed(bodyFn))
    return failure();
  SmallVector<Value> init, xs, consts;
  for (unsigned i = 0; i < nc; ++i)
    init.push_back(batchedAs(operands[i], state[i]));
  for (unsigned k = 0; k < nx; ++k) {
    const BValue &v = operands[nc + k];
    // The batch axis goes second: the scan runs over the first.
    xs.push_back(v.batched ? MlaxBuilder(b, loc).moveAxis(v.value, 0, 1) : v.value);
  }
  for (unsigned k = 0; k < nk; ++k)
    consts.push_back(operands[nc + nx + k].value);
  SmallVector<Type> types(ValueRange(init).getTypes());
  for (auto [t, flag] : llvm::zip(scan.getYs().getTypes(), ArrayRef<bool>(out).drop_front(nc)))
    types.push_back(flag ? Type(vec::insertAxis(t, 1, size)) : t);
  auto batched = ScanOp::create(b, loc, types, init, xs, consts, scan.getLengthAttr(),
                                scan.getReverseAttr(), scan.getUnrollAttr());
  fillRegion(b, loc, batched.getBody(), scanBodyTypes(init, xs, consts), [&](OpBuilder &rb, Block *block) {
    return callFunction(rb, loc, *bodyFn, block->getArguments());
  });
  for (unsigned i = 0; i < nc; ++i)
    results.push_back(BValue{batched.getResult(i), state[i]});
  for (unsigned j = 0; j < ny; ++j) {
    Value y = batched.getResult(nc + j);
    bool flag = out[nc + j];
    results.push_back(BValue{flag ? MlaxBuilder(b, loc).moveAxis(y, 1, 0) : y, flag});
  }
  return success();
}

class VectorizeExpander : public RequestExpander {
public:
  explicit VectorizeExpander(SymbolTable &symbols) : vec(symbols) {}
  bool handles(Operation *op) const override { return llvm::isa<VmapOp>(op); }
  int64_t numGenerated() const override { return vec.numGenerated(); }

  LogicalResult expand(Operation *op) override {
    auto vmap = llvm::cast<VmapOp>(op);
    vec.setAxisName(vmap.getAxisNameAttr());
    vec.setSpmdAxes(vmap.getSpmdAxisNameAttr());
    FailureOr<func::FuncOp> fn = vec.vmapFunction(vec.lookup(vmap.getCalleeAttr()),
                                                  vmap.getInAxes(), vmap.getOutAxes(),
                                                  vmap.getBatchSize());
    if (failed(fn))
      return failure();
    replaceWithCall(op, FlatSymbolRefAttr::get(fn->getSymNameAttr()));
    return success();
  }

private:
  Vectorizer vec;
};

struct MlaxVectorizePass : mlir::mlax::impl::MlaxVectorizeBase<MlaxVectorizePass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    VectorizeExpander vectorize(symbols);
    FailureOr<int64_t> n = expandRequests(module, symbols, {&vectorize});
    if (failed(n))
      return signalPassFailure();
    numExpanded += *n;
    numGenerated += vectorize.numGenerated();
  }
};

} // namespace

std::unique_ptr<RequestExpander> mlax::createVectorizeExpander(ModuleOp module,
                                                               SymbolTable &symbols) {
  return std::make_unique<VectorizeExpander>(symbols);
}
