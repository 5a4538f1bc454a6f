//===- ConvertControlFlow.cpp - cond, while and scan to StableHLO ---------===//
//
// `mlax.cond` becomes `stablehlo.case`, `mlax.while` `stablehlo.while`, and
// `mlax.scan` a `stablehlo.while` over (counter, carry, ys buffers, xs,
// consts) that slices xs[t] and writes ys[t] each step, as jax lowers scan.
// Region bodies are cloned into the StableHLO regions (the mlax ops in them
// are then converted like any other); `unroll` clones the body that many
// times per trip, and the remaining length % unroll steps run after the loop.
//
//===----------------------------------------------------------------------===//

#include "mlax/Dialect/Mlax/IR/MlaxOps.h"
#include "mlax/Conversion/Passes.h"
#include "mlax/Conversion/MlaxToStablehlo/StablehloBuilder.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::mlax;

namespace {

/// Clones `block`'s ops (not its terminator) at the rewriter's insertion
/// point with `args` for its arguments; returns the yielded values.
SmallVector<Value> cloneBody(ConversionPatternRewriter &rewriter, Block &block,
                             ValueRange args) {
  IRMapping map;
  map.map(block.getArguments(), args);
  for (Operation &op : block.without_terminator())
    rewriter.clone(op, map);
  SmallVector<Value> yielded;
  for (Value v : block.getTerminator()->getOperands())
    yielded.push_back(map.lookupOrDefault(v));
  return yielded;
}

RankedTensorType scalarOf(Type elementType) { return RankedTensorType::get({}, elementType); }

Value i32Constant(StablehloBuilder &hlo, int64_t value) {
  return hlo.constant(splatAttr(scalarOf(hlo.builder().getI32Type()), value));
}

struct CondPattern : OpConversionPattern<CondOp> {
  // Bodies are cloned, so a nested CondOp is converted by this pattern again.
  CondPattern(MLIRContext *ctx) : OpConversionPattern(ctx) { setHasBoundedRewriteRecursion(); }
  LogicalResult matchAndRewrite(CondOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    StablehloBuilder hlo(rewriter, op.getLoc());
    unsigned n = op.getBranches().size();
    Operation *cases =
        hlo.create("case", {adaptor.getIndex()}, op.getResultTypes(), {}, n);
    for (auto [i, region] : llvm::enumerate(op.getBranches())) {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.createBlock(&cases->getRegion(i));
      SmallVector<Value> results = cloneBody(rewriter, region.front(), adaptor.getInputs());
      hlo.create("return", results, {});
    }
    rewriter.replaceOp(op, cases->getResults());
    return success();
  }
};

struct WhilePattern : OpConversionPattern<WhileOp> {
  // Bodies are cloned, so a nested WhileOp is converted by this pattern again.
  WhilePattern(MLIRContext *ctx) : OpConversionPattern(ctx) { setHasBoundedRewriteRecursion(); }
  LogicalResult matchAndRewrite(WhileOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    StablehloBuilder hlo(rewriter, op.getLoc());
    Operation *loop = hlo.create("while", adaptor.getInputs(), op.getResultTypes(), {}, 2);
    SmallVector<Type> types(op.getResultTypes());
    SmallVector<Location> locs(types.size(), op.getLoc());
    for (auto [i, region] : llvm::enumerate(op->getRegions())) {
      OpBuilder::InsertionGuard guard(rewriter);
      Block *block = rewriter.createBlock(&loop->getRegion(i), {}, types, locs);
      SmallVector<Value> results = cloneBody(rewriter, region.front(), block->getArguments());
      hlo.create("return", results, {});
    }
    rewriter.replaceOp(op, loop->getResults());
    return success();
  }
};

struct ScanPattern : OpConversionPattern<ScanOp> {
  // Bodies are cloned, so a nested ScanOp is converted by this pattern again.
  ScanPattern(MLIRContext *ctx) : OpConversionPattern(ctx) { setHasBoundedRewriteRecursion(); }

  LogicalResult matchAndRewrite(ScanOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    StablehloBuilder hlo(rewriter, loc);
    int64_t length = op.getLength(), unroll = std::min<int64_t>(op.getUnroll(), length);
    if (unroll < 1)
      unroll = 1;
    bool reverse = op.getReverse();
    Block &body = op.getBody().front();
    unsigned nc = op.getInit().size(), nx = op.getXs().size(), nk = op.getConsts().size();
    auto ysTypes = op.getYs().getTypes();
    unsigned ny = ysTypes.size();
    auto i32 = scalarOf(rewriter.getI32Type());

    // One step at counter value `t` (a tensor<i32>): the new carry and y[t].
    auto step = [&](Value t, ValueRange carry, ValueRange xs, ValueRange consts,
                    SmallVectorImpl<Value> &newCarry, SmallVectorImpl<Value> &ys) {
      Value idx = reverse ? hlo.op("subtract", {i32Constant(hlo, length - 1), t}, i32) : t;
      SmallVector<Value> args(carry);
      for (Value x : xs) {
        auto type = llvm::cast<RankedTensorType>(x.getType());
        SmallVector<Value> starts{idx};
        for (int64_t d = 1; d < type.getRank(); ++d)
          starts.push_back(i32Constant(hlo, 0));
        SmallVector<int64_t> sizes(type.getShape());
        sizes[0] = 1;
        SmallVector<Value> operands{x};
        operands.append(starts);
        Value slice = hlo.op("dynamic_slice", operands,
                             RankedTensorType::get(sizes, type.getElementType()),
                             {hlo.i64Array("slice_sizes", sizes)});
        args.push_back(hlo.op("reshape", {slice},
                              RankedTensorType::get(type.getShape().drop_front(),
                                                    type.getElementType())));
      }
      args.append(consts.begin(), consts.end());
      SmallVector<Value> out = cloneBody(rewriter, body, args);
      newCarry.assign(out.begin(), out.begin() + nc);
      for (Value y : ArrayRef<Value>(out).drop_front(nc)) {
        auto type = llvm::cast<RankedTensorType>(y.getType());
        SmallVector<int64_t> shape{1};
        llvm::append_range(shape, type.getShape());
        ys.push_back(hlo.op("reshape", {y}, RankedTensorType::get(shape, type.getElementType())));
      }
      (void)idx;
      return idx;
    };
    auto writeYs = [&](Value idx, ValueRange bufs, ValueRange ys,
                       SmallVectorImpl<Value> &newBufs) {
      for (auto [buf, y] : llvm::zip(bufs, ys)) {
        auto type = llvm::cast<RankedTensorType>(buf.getType());
        SmallVector<Value> operands{buf, y, idx};
        for (int64_t d = 1; d < type.getRank(); ++d)
          operands.push_back(i32Constant(hlo, 0));
        newBufs.push_back(hlo.op("dynamic_update_slice", operands, type));
      }
    };

    SmallVector<Value> carry(adaptor.getInit());
    SmallVector<Value> bufs;
    for (Type t : ysTypes)
      bufs.push_back(hlo.constant(splatAttr(llvm::cast<RankedTensorType>(t), 0.0)));
    ValueRange xs = adaptor.getXs(), consts = adaptor.getConsts();
    int64_t trips = length / unroll, rest = length % unroll;

    if (trips > 0) {
      // while (t < trips * unroll) { unroll steps }, over
      // (t, carry..., bufs..., xs..., consts...).
      SmallVector<Value> state{i32Constant(hlo, 0)};
      state.append(carry);
      state.append(bufs);
      state.append(xs.begin(), xs.end());
      state.append(consts.begin(), consts.end());
      SmallVector<Type> types;
      for (Value v : state)
        types.push_back(v.getType());
      SmallVector<Location> locs(types.size(), loc);
      Operation *loop = hlo.create("while", state, types, {}, 2);
      {
        OpBuilder::InsertionGuard guard(rewriter);
        Block *cond = rewriter.createBlock(&loop->getRegion(0), {}, types, locs);
        Value limit = i32Constant(hlo, trips * unroll);
        hlo.create("return", {hlo.compare("LT", cond->getArgument(0), limit)}, {});
      }
      {
        OpBuilder::InsertionGuard guard(rewriter);
        Block *b = rewriter.createBlock(&loop->getRegion(1), {}, types, locs);
        Value t = b->getArgument(0);
        SmallVector<Value> c(b->getArguments().slice(1, nc));
        SmallVector<Value> bs(b->getArguments().slice(1 + nc, ny));
        ValueRange bxs = b->getArguments().slice(1 + nc + ny, nx);
        ValueRange bks = b->getArguments().slice(1 + nc + ny + nx, nk);
        for (int64_t u = 0; u < unroll; ++u) {
          SmallVector<Value> newCarry, ys, newBufs;
          Value idx = step(t, c, bxs, bks, newCarry, ys);
          writeYs(idx, bs, ys, newBufs);
          c = newCarry;
          bs = newBufs;
          t = hlo.op("add", {t, i32Constant(hlo, 1)}, i32);
        }
        SmallVector<Value> next{t};
        next.append(c);
        next.append(bs);
        next.append(bxs.begin(), bxs.end());
        next.append(bks.begin(), bks.end());
        hlo.create("return", next, {});
      }
      carry.assign(loop->getResults().begin() + 1, loop->getResults().begin() + 1 + nc);
      bufs.assign(loop->getResults().begin() + 1 + nc, loop->getResults().begin() + 1 + nc + ny);
    }
    for (int64_t s = trips * unroll; s < trips * unroll + rest; ++s) {
      SmallVector<Value> newCarry, ys, newBufs;
      Value idx = step(i32Constant(hlo, s), carry, xs, consts, newCarry, ys);
      writeYs(idx, bufs, ys, newBufs);
      carry = newCarry;
      bufs = newBufs;
    }
    SmallVector<Value> results(carry);
    results.append(bufs);
    rewriter.replaceOp(op, results);
    return success();
  }
};

} // namespace

void mlax::populateControlFlowToStablehloPatterns(RewritePatternSet &patterns) {
  patterns.add<CondPattern, WhilePattern, ScanPattern>(patterns.getContext());
}
