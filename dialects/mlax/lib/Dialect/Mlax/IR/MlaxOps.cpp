//===- MlaxOps.cpp - mlax op shape rules and verifiers --------------------===//
//
// Shape rules are written once, as `inferReturnTypes` where the result type
// follows from the operands (the verifier then compares against it) and as
// `verify` where the result type is chosen by the producer. Every message
// starts with the op's name so a user can tell which op is wrong.
//
//===----------------------------------------------------------------------===//

#include "mlax/Dialect/Mlax/IR/MlaxOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallSet.h"

using namespace mlir;
using namespace mlir::mlax;

#include "mlax/Dialect/Mlax/IR/MlaxEnums.cpp.inc"

namespace {

/// Formats a shape as `[2, 3]` for messages.
std::string shapeStr(ArrayRef<int64_t> shape) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "[";
  llvm::interleaveComma(shape, os);
  os << "]";
  return s;
}

RankedTensorType rankedOf(Value v) {
  return llvm::cast<RankedTensorType>(v.getType());
}

/// Custom assembly formats infer result types while parsing, before the ODS
/// type constraints run; inference must not look inside operands of the
/// wrong kind (the constraint reports them afterwards, with its message).
bool allRanked(ValueRange values) {
  return llvm::all_of(values, [](Value v) {
    return llvm::isa<RankedTensorType>(v.getType());
  });
}

LogicalResult notTensors(std::optional<Location> loc, StringRef opName) {
  return emitOptionalError(loc, "'", opName,
                           "' op operands must be statically shaped tensors");
}

/// Checks that `dims` are distinct and within [0, rank).
LogicalResult checkDims(std::optional<Location> loc, StringRef opName,
                        StringRef what, ArrayRef<int64_t> dims, int64_t rank) {
  llvm::SmallSet<int64_t, 8> seen;
  for (int64_t d : dims) {
    if (d < 0 || d >= rank)
      return emitOptionalError(loc, "'", opName, "' op ", what, " ", d,
                               " is out of range for rank ", rank);
    if (!seen.insert(d).second)
      return emitOptionalError(loc, "'", opName, "' op ", what, " ", d,
                               " appears twice");
  }
  return success();
}

} // namespace

//===----------------------------------------------------------------------===//
// constant
//===----------------------------------------------------------------------===//

LogicalResult ConstantOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                           Adaptor adaptor,
                                           SmallVectorImpl<Type> &results) {
  if (!adaptor.getValue())
    return emitOptionalError(loc, "'mlax.constant' op needs an elements attribute `value`");
  results.push_back(adaptor.getValue().getType());
  return success();
}

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValue(); }

//===----------------------------------------------------------------------===//
// is_finite, compare, select_n, convert
//===----------------------------------------------------------------------===//

static Type predLike(Type t) {
  auto ranked = llvm::cast<RankedTensorType>(t);
  return RankedTensorType::get(ranked.getShape(),
                               IntegerType::get(t.getContext(), 1));
}

LogicalResult IsFiniteOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                           Adaptor adaptor,
                                           SmallVectorImpl<Type> &results) {
  if (!allRanked(adaptor.getOperands()))
    return notTensors(loc, getOperationName());
  results.push_back(predLike(adaptor.getOperand().getType()));
  return success();
}

LogicalResult CompareOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &results) {
  if (!allRanked(adaptor.getOperands()))
    return notTensors(loc, getOperationName());
  results.push_back(predLike(adaptor.getLhs().getType()));
  return success();
}

LogicalResult SelectNOp::inferReturnTypes(MLIRContext *,
                                          std::optional<Location> loc,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &results) {
  ValueRange cases = adaptor.getCases();
  if (cases.empty())
    return emitOptionalError(loc, "'mlax.select_n' op needs at least one case");
  Type caseType = cases.front().getType();
  if (!allRanked(adaptor.getOperands())) {
    // Let the ODS type constraint name the bad operand.
    results.push_back(caseType);
    return success();
  }
  for (Value c : cases.drop_front())
    if (c.getType() != caseType)
      return emitOptionalError(loc, "'mlax.select_n' op cases must have one "
                                    "type, got ",
                               caseType, " and ", c.getType());
  auto which = rankedOf(adaptor.getWhich());
  auto caseShape = llvm::cast<RankedTensorType>(caseType).getShape();
  if (which.getRank() != 0 && which.getShape() != caseShape)
    return emitOptionalError(loc, "'mlax.select_n' op `which` must be a scalar "
                                  "or have the cases' shape ",
                             shapeStr(caseShape), ", got ",
                             shapeStr(which.getShape()));
  if (which.getElementType().isInteger(1) && cases.size() > 2)
    return emitOptionalError(loc, "'mlax.select_n' op a bool `which` selects "
                                  "between at most 2 cases, got ",
                             cases.size());
  results.push_back(caseType);
  return success();
}

LogicalResult ConvertOp::verify() {
  if (rankedOf(getOperand()).getShape() != getType().getShape())
    return emitOpError("changes only the element type; shapes differ: ")
           << getOperand().getType() << " vs " << getType();
  return success();
}

//===----------------------------------------------------------------------===//
// Shape ops
//===----------------------------------------------------------------------===//

LogicalResult BroadcastInDimOp::verify() {
  auto in = rankedOf(getOperand());
  auto out = getType();
  ArrayRef<int64_t> dims = getBroadcastDimensions();
  if (in.getElementType() != out.getElementType())
    return emitOpError("keeps the element type; got ")
           << in.getElementType() << " -> " << out.getElementType();
  if ((int64_t)dims.size() != in.getRank())
    return emitOpError("needs one broadcast dimension per operand dimension: "
                       "operand rank ")
           << in.getRank() << ", got " << dims.size() << " dimensions";
  if (failed(checkDims(getLoc(), getOperationName(), "broadcast dimension",
                       dims, out.getRank())))
    return failure();
  for (auto [i, d] : llvm::enumerate(dims)) {
    if (i > 0 && d <= dims[i - 1])
      return emitOpError("broadcast dimensions must be increasing, got ")
             << shapeStr(dims);
    int64_t inSize = in.getDimSize(i), outSize = out.getDimSize(d);
    if (inSize != 1 && inSize != outSize)
      return emitOpError("cannot broadcast operand shape ")
             << shapeStr(in.getShape()) << " to " << shapeStr(out.getShape())
             << ": operand dimension " << i << " has size " << inSize
             << " but result dimension " << d << " has size " << outSize;
  }
  return success();
}

LogicalResult ReshapeOp::verify() {
  auto in = rankedOf(getOperand());
  auto out = getType();
  if (in.getElementType() != out.getElementType())
    return emitOpError("keeps the element type; got ")
           << in.getElementType() << " -> " << out.getElementType();
  if (in.getNumElements() != out.getNumElements())
    return emitOpError("cannot reshape ")
           << shapeStr(in.getShape()) << " (" << in.getNumElements()
           << " elements) to " << shapeStr(out.getShape()) << " ("
           << out.getNumElements() << " elements)";
  return success();
}

LogicalResult TransposeOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &results) {
  if (!allRanked(adaptor.getOperands()))
    return notTensors(loc, getOperationName());
  auto in = rankedOf(adaptor.getOperand());
  ArrayRef<int64_t> perm = adaptor.getPermutation();
  if ((int64_t)perm.size() != in.getRank())
    return emitOptionalError(loc, "'mlax.transpose' op permutation ",
                             shapeStr(perm), " does not match operand rank ",
                             in.getRank());
  if (failed(checkDims(loc, "mlax.transpose", "permutation entry", perm,
                       in.getRank())))
    return failure();
  SmallVector<int64_t> shape;
  for (int64_t p : perm)
    shape.push_back(in.getDimSize(p));
  results.push_back(RankedTensorType::get(shape, in.getElementType()));
  return success();
}

LogicalResult SliceOp::inferReturnTypes(MLIRContext *,
                                        std::optional<Location> loc,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &results) {
  if (!allRanked(adaptor.getOperands()))
    return notTensors(loc, getOperationName());
  auto in = rankedOf(adaptor.getOperand());
  ArrayRef<int64_t> start = adaptor.getStartIndices(),
                    limit = adaptor.getLimitIndices(),
                    strides = adaptor.getStrides();
  int64_t rank = in.getRank();
  if ((int64_t)start.size() != rank || (int64_t)limit.size() != rank ||
      (int64_t)strides.size() != rank)
    return emitOptionalError(loc, "'mlax.slice' op needs one start, limit and "
                                  "stride per dimension of the rank-",
                             rank, " operand");
  SmallVector<int64_t> shape;
  for (int64_t i = 0; i < rank; ++i) {
    if (start[i] < 0 || limit[i] > in.getDimSize(i) || start[i] > limit[i] ||
        strides[i] < 1)
      return emitOptionalError(
          loc, "'mlax.slice' op dimension ", i, ": need 0 <= start (",
          start[i], ") <= limit (", limit[i], ") <= size (", in.getDimSize(i),
          ") and stride (", strides[i], ") >= 1");
    shape.push_back((limit[i] - start[i] + strides[i] - 1) / strides[i]);
  }
  results.push_back(RankedTensorType::get(shape, in.getElementType()));
  return success();
}

LogicalResult ConcatenateOp::inferReturnTypes(MLIRContext *,
                                              std::optional<Location> loc,
                                              Adaptor adaptor,
                                              SmallVectorImpl<Type> &results) {
  ValueRange inputs = adaptor.getInputs();
  if (inputs.empty())
    return emitOptionalError(loc, "'mlax.concatenate' op needs at least one input");
  if (!allRanked(inputs))
    return notTensors(loc, getOperationName());
  auto first = rankedOf(inputs.front());
  int64_t dim = adaptor.getDimension();
  if (dim < 0 || dim >= first.getRank())
    return emitOptionalError(loc, "'mlax.concatenate' op dimension ", dim,
                             " is out of range for rank ", first.getRank());
  SmallVector<int64_t> shape(first.getShape());
  for (Value v : inputs.drop_front()) {
    auto t = rankedOf(v);
    bool ok = t.getElementType() == first.getElementType() &&
              t.getRank() == first.getRank();
    for (int64_t i = 0; ok && i < t.getRank(); ++i)
      ok = i == dim || t.getDimSize(i) == first.getDimSize(i);
    if (!ok)
      return emitOptionalError(loc, "'mlax.concatenate' op inputs must agree "
                                    "except in dimension ",
                               dim, ", got ", first, " and ", t);
    shape[dim] += t.getDimSize(dim);
  }
  results.push_back(RankedTensorType::get(shape, first.getElementType()));
  return success();
}

LogicalResult PadOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                      Adaptor adaptor,
                                      SmallVectorImpl<Type> &results) {
  if (!allRanked(adaptor.getOperands()))
    return notTensors(loc, getOperationName());
  auto in = rankedOf(adaptor.getOperand());
  auto padValue = rankedOf(adaptor.getPaddingValue());
  if (padValue.getRank() != 0 ||
      padValue.getElementType() != in.getElementType())
    return emitOptionalError(loc, "'mlax.pad' op padding value must be a "
                                  "scalar of the operand's element type, got ",
                             padValue);
  ArrayRef<int64_t> lo = adaptor.getEdgePaddingLow(),
                    hi = adaptor.getEdgePaddingHigh(),
                    interior = adaptor.getInteriorPadding();
  int64_t rank = in.getRank();
  if ((int64_t)lo.size() != rank || (int64_t)hi.size() != rank ||
      (int64_t)interior.size() != rank)
    return emitOptionalError(loc, "'mlax.pad' op needs one low, high and "
                                  "interior padding per dimension of the rank-",
                             rank, " operand");
  SmallVector<int64_t> shape;
  for (int64_t i = 0; i < rank; ++i) {
    int64_t n = in.getDimSize(i);
    if (interior[i] < 0)
      return emitOptionalError(loc, "'mlax.pad' op interior padding must be "
                                    "non-negative, got ",
                             interior[i], " in dimension ", i);
    int64_t size = lo[i] + hi[i] + n + std::max<int64_t>(n - 1, 0) * interior[i];
    if (size < 0)
      return emitOptionalError(loc, "'mlax.pad' op negative padding removes "
                                    "more than dimension ",
                               i, " holds");
    shape.push_back(size);
  }
  results.push_back(RankedTensorType::get(shape, in.getElementType()));
  return success();
}

LogicalResult IotaOp::verify() {
  int64_t dim = getIotaDimension();
  if (dim < 0 || dim >= getType().getRank())
    return emitOpError("dimension ")
           << dim << " is out of range for result rank " << getType().getRank();
  return success();
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

static LogicalResult inferReduce(StringRef opName, std::optional<Location> loc,
                                 Value operand, ArrayRef<int64_t> axes,
                                 SmallVectorImpl<Type> &results) {
  if (!allRanked(operand))
    return notTensors(loc, opName);
  auto in = rankedOf(operand);
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
// dot_general
//===----------------------------------------------------------------------===//

LogicalResult DotGeneralOp::verify() {
  auto lhs = rankedOf(getLhs()), rhs = rankedOf(getRhs());
  ArrayRef<int64_t> lb = getLhsBatchingDimensions(),
                    rb = getRhsBatchingDimensions(),
                    lc = getLhsContractingDimensions(),
                    rc = getRhsContractingDimensions();
  if (lb.size() != rb.size())
    return emitOpError("lhs and rhs need as many batch dimensions, got ")
           << shapeStr(lb) << " and " << shapeStr(rb);
  if (lc.size() != rc.size())
    return emitOpError("lhs and rhs need as many contracting dimensions, got ")
           << shapeStr(lc) << " and " << shapeStr(rc);
  SmallVector<int64_t> lAll(lb), rAll(rb);
  lAll.append(lc.begin(), lc.end());
  rAll.append(rc.begin(), rc.end());
  if (failed(checkDims(getLoc(), getOperationName(), "lhs dimension", lAll,
                       lhs.getRank())) ||
      failed(checkDims(getLoc(), getOperationName(), "rhs dimension", rAll,
                       rhs.getRank())))
    return failure();
  for (auto [l, r] : llvm::zip(lAll, rAll))
    if (lhs.getDimSize(l) != rhs.getDimSize(r))
      return emitOpError("lhs dimension ")
             << l << " (size " << lhs.getDimSize(l) << ") does not match rhs "
             << "dimension " << r << " (size " << rhs.getDimSize(r)
             << "); shapes " << shapeStr(lhs.getShape()) << " and "
             << shapeStr(rhs.getShape());
  SmallVector<int64_t> shape;
  for (int64_t d : lb)
    shape.push_back(lhs.getDimSize(d));
  for (int64_t i = 0; i < lhs.getRank(); ++i)
    if (!llvm::is_contained(lAll, i))
      shape.push_back(lhs.getDimSize(i));
  for (int64_t i = 0; i < rhs.getRank(); ++i)
    if (!llvm::is_contained(rAll, i))
      shape.push_back(rhs.getDimSize(i));
  if (getType().getShape() != ArrayRef<int64_t>(shape))
    return emitOpError("result shape should be ")
           << shapeStr(shape) << ", got " << shapeStr(getType().getShape());
  if (lhs.getElementType() != rhs.getElementType())
    return emitOpError("operands must have one element type, got ")
           << lhs.getElementType() << " and " << rhs.getElementType();
  Type in = lhs.getElementType(), out = getType().getElementType();
  bool sameKind = (llvm::isa<FloatType>(in) && llvm::isa<FloatType>(out)) ||
                  (llvm::isa<ComplexType>(in) && llvm::isa<ComplexType>(out)) ||
                  (llvm::isa<IntegerType>(in) && llvm::isa<IntegerType>(out));
  if (!sameKind)
    return emitOpError("result element type ")
           << out << " is not of the operands' kind (" << in << ")";
  return success();
}

//===----------------------------------------------------------------------===//
// call
//===----------------------------------------------------------------------===//

LogicalResult CallOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  auto fn = symbolTable.lookupNearestSymbolFrom<func::FuncOp>(*this,
                                                               getCalleeAttr());
  if (!fn)
    return emitOpError("'") << getCallee() << "' does not name a func.func";
  FunctionType type = fn.getFunctionType();
  if (TypeRange(type.getInputs()) != TypeRange(getOperandTypes()))
    return emitOpError("operand types do not match the callee's inputs ")
           << type;
  if (TypeRange(type.getResults()) != TypeRange(getResultTypes()))
    return emitOpError("result types do not match the callee's results ")
           << type;
  return success();
}

// Custom assembly directives of the regions of mlax.cond, mlax.while and
// mlax.scan (MlaxControlFlowOps.cpp).
namespace mlir::mlax {
ParseResult parseBranches(OpAsmParser &parser,
                          SmallVectorImpl<std::unique_ptr<Region>> &branches);
void printBranches(OpAsmPrinter &printer, Operation *op, MutableArrayRef<Region> branches);
ParseResult parseLoopRegions(OpAsmParser &parser, Region &cond, Region &body);
void printLoopRegions(OpAsmPrinter &printer, Operation *op, Region &cond, Region &body);
ParseResult parseBody(OpAsmParser &parser, Region &body);
void printBody(OpAsmPrinter &printer, Operation *op, Region &body);
} // namespace mlir::mlax

#define GET_OP_CLASSES
#include "mlax/Dialect/Mlax/IR/MlaxOps.cpp.inc"
