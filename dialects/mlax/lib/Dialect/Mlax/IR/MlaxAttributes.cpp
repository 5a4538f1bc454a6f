//===- MlaxAttributes.cpp - #mlax.accuracy, #mlax.mesh, #mlax.sharding ----===//
//
// The accuracy attribute's parser, printer and verifier. The sharding
// attribute's parser and printer, its verifiers (on its own and
// against the type of the value that carries it) and its translation into
// XLA's HLO sharding string, which is what convert-mlax-to-stablehlo hands
// XLA as `mhlo.sharding`.
//
//===----------------------------------------------------------------------===//

#include "mlax/Dialect/Mlax/IR/MlaxOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::mlax;

#define GET_ATTRDEF_CLASSES
#include "mlax/Dialect/Mlax/IR/MlaxAttributes.cpp.inc"

void MlaxDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "mlax/Dialect/Mlax/IR/MlaxAttributes.cpp.inc"
      >();
}

namespace {

/// `{"a", "b"}`, as in the textual form.
std::string axesString(ArrayAttr axes) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "{";
  llvm::interleaveComma(axes, os, [&](Attribute a) {
    os << '"';
    llvm::printEscapedString(llvm::cast<StringAttr>(a).getValue(), os);
    os << '"';
  });
  os << "}";
  return s;
}

} // namespace

//===----------------------------------------------------------------------===//
// Syntax: <["data"=4, "model"=2], [{"data"}, {}]>
//===----------------------------------------------------------------------===//

/// The mesh list `["data"=4, "model"=2]` (`#mlax.mesh` and `#mlax.sharding`).
static ParseResult parseMeshAxes(AsmParser &parser, SmallVectorImpl<StringAttr> &names,
                                 SmallVectorImpl<int64_t> &sizes) {
  MLIRContext *ctx = parser.getContext();
  auto parseAxis = [&]() -> ParseResult {
    std::string name;
    int64_t size;
    if (parser.parseOptionalString(&name))
      return parser.emitError(parser.getCurrentLocation(),
                              "expected a mesh axis name (a string) in the mesh list");
    if (parser.parseOptionalEqual())
      return parser.emitError(parser.getCurrentLocation(), "expected '=' and the size of mesh "
                                                           "axis \"")
             << name << "\"";
    if (parser.parseInteger(size))
      return failure();
    names.push_back(StringAttr::get(ctx, name));
    sizes.push_back(size);
    return success();
  };
  return parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, parseAxis,
                                        " in the mesh list [\"name\"=size, ...]");
}

static std::string meshString(ArrayRef<StringAttr> names, ArrayRef<int64_t> sizes) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "[";
  llvm::interleaveComma(llvm::zip(names, sizes), os, [&](auto axis) {
    os << '"';
    llvm::printEscapedString(std::get<0>(axis).getValue(), os);
    os << "\"=" << std::get<1>(axis);
  });
  os << "]";
  return s;
}

/// The mesh's own checks (`#mlax.mesh` and the mesh of `#mlax.sharding`).
static LogicalResult verifyMeshAxes(function_ref<InFlightDiagnostic()> emitError,
                                    ArrayRef<StringAttr> axisNames, ArrayRef<int64_t> axisSizes,
                                    StringRef what) {
  if (axisNames.empty())
    return emitError() << what << " needs at least one axis";
  if (axisNames.size() != axisSizes.size())
    return emitError() << what << " has " << axisNames.size() << " axis names and "
                       << axisSizes.size() << " sizes";
  llvm::StringSet<> meshNames;
  for (auto [name, size] : llvm::zip(axisNames, axisSizes)) {
    if (!name)
      return emitError() << what << " has a null axis name";
    if (!meshNames.insert(name.getValue()).second)
      return emitError() << "mesh axis \"" << name.getValue() << "\" appears twice in the mesh";
    if (size < 1)
      return emitError() << "mesh axis \"" << name.getValue() << "\" has size " << size
                         << "; sizes must be at least 1";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// #mlax.accuracy<highest>, <default>, <atol = 1.0e-05, rtol = 0.001, ulps = 2>
//===----------------------------------------------------------------------===//

Attribute ResultAccuracyAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  auto emitError = [&] { return parser.emitError(loc); };
  MLIRContext *ctx = parser.getContext();
  if (parser.parseLess())
    return {};
  for (auto mode : {ResultAccuracyMode::HIGHEST, ResultAccuracyMode::DEFAULT})
    if (succeeded(parser.parseOptionalKeyword(stringifyResultAccuracyMode(mode).lower()))) {
      if (parser.parseGreater())
        return {};
      return getChecked(emitError, ctx, mode, APFloat(0.0), APFloat(0.0), 0);
    }
  APFloat atol(0.0), rtol(0.0);
  int64_t ulps = 0;
  llvm::StringSet<> seen;
  auto parseTolerance = [&]() -> ParseResult {
    SMLoc keyLoc = parser.getCurrentLocation();
    StringRef key;
    if (parser.parseOptionalKeyword(&key) || !llvm::is_contained({"atol", "rtol", "ulps"}, key))
      return parser.emitError(keyLoc, "expected 'highest', 'default' or tolerances "
                                      "(atol = <float>, rtol = <float>, ulps = <integer>)");
    if (!seen.insert(key).second)
      return parser.emitError(keyLoc) << "tolerance '" << key << "' given twice";
    if (parser.parseEqual())
      return failure();
    if (key == "ulps")
      return parser.parseInteger(ulps);
    return parser.parseFloat(APFloat::IEEEdouble(), key == "atol" ? atol : rtol);
  };
  if (parser.parseCommaSeparatedList(parseTolerance) || parser.parseGreater())
    return {};
  return getChecked(emitError, ctx, ResultAccuracyMode::TOLERANCE, atol, rtol, ulps);
}

void ResultAccuracyAttr::print(AsmPrinter &printer) const {
  raw_ostream &os = printer.getStream();
  if (getMode() != ResultAccuracyMode::TOLERANCE) {
    os << "<" << stringifyResultAccuracyMode(getMode()).lower() << ">";
    return;
  }
  // The tolerances left out are 0, as StableHLO prints them.
  llvm::ListSeparator sep;
  os << "<";
  for (auto [name, value] : {std::pair<StringRef, APFloat>{"atol", getAtol()},
                             std::pair<StringRef, APFloat>{"rtol", getRtol()}})
    if (!value.isZero()) {
      os << sep << name << " = ";
      printer.printFloat(value);
    }
  if (getUlps() != 0)
    os << sep << "ulps = " << getUlps();
  os << ">";
}

LogicalResult ResultAccuracyAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                         ResultAccuracyMode mode, APFloat atol, APFloat rtol,
                                         int64_t ulps) {
  if (&atol.getSemantics() != &APFloat::IEEEdouble() ||
      &rtol.getSemantics() != &APFloat::IEEEdouble())
    return emitError() << "accuracy tolerances atol and rtol must be f64 values";
  if (mode != ResultAccuracyMode::TOLERANCE) {
    if (!atol.isZero() || !rtol.isZero() || ulps != 0)
      return emitError() << "accuracy mode " << stringifyResultAccuracyMode(mode)
                         << " takes no tolerances";
    return success();
  }
  // As XLA's check: each tolerance >= 0 (NaN is not).
  auto negative = [](const APFloat &v) { return v.isNaN() || (v.isNegative() && !v.isZero()); };
  if (negative(atol) || negative(rtol) || ulps < 0)
    return emitError() << "accuracy tolerances must be non-negative; got atol = "
                       << atol.convertToDouble() << ", rtol = " << rtol.convertToDouble()
                       << ", ulps = " << ulps;
  if (atol.isZero() && rtol.isZero() && ulps == 0)
    return emitError() << "accuracy tolerances: at least one of atol, rtol or ulps must be "
                          "positive";
  return success();
}

//===----------------------------------------------------------------------===//
// #mlax.mesh<["data"=4, "model"=2]>
//===----------------------------------------------------------------------===//

Attribute MeshAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  SmallVector<StringAttr> names;
  SmallVector<int64_t> sizes;
  if (parser.parseLess() || parseMeshAxes(parser, names, sizes) || parser.parseGreater())
    return {};
  return MeshAttr::getChecked([&] { return parser.emitError(loc); }, parser.getContext(),
                              names, sizes);
}

void MeshAttr::print(AsmPrinter &printer) const {
  printer.getStream() << "<" << getMeshString() << ">";
}

std::string MeshAttr::getMeshString() const {
  return meshString(getAxisNames(), getAxisSizes());
}

LogicalResult MeshAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                               ArrayRef<StringAttr> axisNames, ArrayRef<int64_t> axisSizes) {
  return verifyMeshAxes(emitError, axisNames, axisSizes, "a mesh");
}

int64_t MeshAttr::getNumDevices() const {
  int64_t n = 1;
  for (int64_t s : getAxisSizes())
    n *= s;
  return n;
}

int64_t MeshAttr::getAxisIndex(StringRef name) const {
  for (auto [i, n] : llvm::enumerate(getAxisNames()))
    if (n.getValue() == name)
      return i;
  return -1;
}

LogicalResult MeshAttr::verifyAxes(Attribute axesAttr, StringRef what,
                                   function_ref<InFlightDiagnostic()> emitError) const {
  auto axes = llvm::dyn_cast_or_null<ArrayAttr>(axesAttr);
  if (!axes)
    return emitError() << what << " must be an array of mesh axis names";
  if (axes.empty())
    return emitError() << what << " must name at least one mesh axis";
  llvm::StringSet<> seen;
  for (Attribute a : axes) {
    auto name = llvm::dyn_cast<StringAttr>(a);
    if (!name)
      return emitError() << what << " holds " << a << ", not a mesh axis name";
    if (getAxisIndex(name.getValue()) < 0)
      return emitError() << what << " names mesh axis \"" << name.getValue()
                         << "\", which is not in the mesh " << getMeshString();
    if (!seen.insert(name.getValue()).second)
      return emitError() << what << " names mesh axis \"" << name.getValue() << "\" twice";
  }
  return success();
}

LogicalResult MeshAttr::verifySpmdAxes(ArrayAttr axes, int64_t batchSize,
                                       function_ref<InFlightDiagnostic()> emitError) const {
  if (failed(verifyAxes(axes, "vmap spmd_axis_name", emitError)))
    return failure();
  int64_t n = getGroupSize(axes);
  if (batchSize % n != 0) {
    InFlightDiagnostic d = emitError();
    d << "vmap spmd_axis_name: the batch size " << batchSize << " is not divisible by " << n
      << ", the size of mesh axes {";
    llvm::interleaveComma(axes, d, [&](Attribute a) {
      d << "\"" << llvm::cast<StringAttr>(a).getValue() << "\"";
    });
    return d << "} the mapped dimension is split over";
  }
  return success();
}

SmallVector<int64_t> MeshAttr::getAxisPositions(ArrayAttr axes) const {
  SmallVector<int64_t> out;
  for (Attribute a : axes)
    out.push_back(getAxisIndex(llvm::cast<StringAttr>(a).getValue()));
  return out;
}

int64_t MeshAttr::getGroupSize(ArrayAttr axes) const {
  int64_t n = 1;
  for (int64_t a : getAxisPositions(axes))
    n *= getAxisSizes()[a];
  return n;
}

SmallVector<SmallVector<int64_t>> MeshAttr::getDeviceGroups(ArrayAttr axes) const {
  ArrayRef<int64_t> sizes = getAxisSizes();
  int64_t rank = sizes.size();
  SmallVector<int64_t> inGroup = getAxisPositions(axes), others;
  for (int64_t a = 0; a < rank; ++a)
    if (!llvm::is_contained(inGroup, a))
      others.push_back(a);
  SmallVector<int64_t> strides(rank, 1); // row-major strides of the mesh
  for (int64_t a = rank - 2; a >= 0; --a)
    strides[a] = strides[a + 1] * sizes[a + 1];
  // Enumerates the coordinates over `axes` row-major, calling f(offset).
  auto enumerate = [&](ArrayRef<int64_t> which, auto f) {
    SmallVector<int64_t> coord(which.size(), 0);
    while (true) {
      int64_t offset = 0;
      for (auto [k, a] : llvm::enumerate(which))
        offset += coord[k] * strides[a];
      f(offset);
      int64_t k = (int64_t)which.size() - 1;
      for (; k >= 0; --k) {
        if (++coord[k] < sizes[which[k]])
          break;
        coord[k] = 0;
      }
      if (k < 0)
        return;
    }
  };
  SmallVector<SmallVector<int64_t>> groups;
  enumerate(others, [&](int64_t base) {
    SmallVector<int64_t> &group = groups.emplace_back();
    enumerate(inGroup, [&](int64_t offset) { group.push_back(base + offset); });
  });
  return groups;
}

//===----------------------------------------------------------------------===//
// Syntax: <["data"=4, "model"=2], [{"data"}, {}]>
//===----------------------------------------------------------------------===//

Attribute ShardingAttr::parse(AsmParser &parser, Type) {
  MLIRContext *ctx = parser.getContext();
  SMLoc loc = parser.getCurrentLocation();
  SmallVector<StringAttr> names;
  SmallVector<int64_t> sizes;
  SmallVector<ArrayAttr> spec;
  if (parser.parseLess() || parseMeshAxes(parser, names, sizes) || parser.parseComma())
    return {};
  auto parseDim = [&]() -> ParseResult {
    SmallVector<Attribute> axes;
    if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Braces, [&]() -> ParseResult {
          std::string name;
          if (parser.parseOptionalString(&name))
            return parser.emitError(parser.getCurrentLocation(),
                                    "expected a mesh axis name (a string) in a spec entry");
          axes.push_back(StringAttr::get(ctx, name));
          return success();
        }, " in a spec entry {\"axis\", ...}"))
      return failure();
    spec.push_back(ArrayAttr::get(ctx, axes));
    return success();
  };
  if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, parseDim,
                                     " in the partition spec [{...}, ...]") ||
      parser.parseGreater())
    return {};
  return ShardingAttr::getChecked([&] { return parser.emitError(loc); }, ctx, names, sizes,
                                  spec);
}

void ShardingAttr::print(AsmPrinter &printer) const {
  raw_ostream &os = printer.getStream();
  os << "<" << getMeshString() << ", [";
  llvm::interleaveComma(getSpec(), os, [&](ArrayAttr axes) { os << axesString(axes); });
  os << "]>";
}

std::string ShardingAttr::getMeshString() const {
  return meshString(getAxisNames(), getAxisSizes());
}

MeshAttr ShardingAttr::getMesh() const {
  return MeshAttr::get(getContext(), getAxisNames(), getAxisSizes());
}

//===----------------------------------------------------------------------===//
// Verification
//===----------------------------------------------------------------------===//

LogicalResult ShardingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                   ArrayRef<StringAttr> axisNames, ArrayRef<int64_t> axisSizes,
                                   ArrayRef<ArrayAttr> spec) {
  if (failed(verifyMeshAxes(emitError, axisNames, axisSizes, "a sharding's mesh")))
    return failure();
  llvm::StringSet<> meshNames;
  for (StringAttr name : axisNames)
    meshNames.insert(name.getValue());
  auto mesh = [&] { return meshString(axisNames, axisSizes); };
  llvm::StringSet<> used;
  for (auto [d, axes] : llvm::enumerate(spec)) {
    if (!axes)
      return emitError() << "sharding spec entry " << d << " is null";
    for (Attribute a : axes) {
      auto name = llvm::dyn_cast<StringAttr>(a);
      if (!name)
        return emitError() << "sharding spec entry " << d << " holds " << a
                           << ", not a mesh axis name";
      if (!meshNames.contains(name.getValue()))
        return emitError() << "sharding spec names mesh axis \"" << name.getValue()
                           << "\", which is not in the mesh " << mesh();
      if (!used.insert(name.getValue()).second)
        return emitError() << "sharding spec uses mesh axis \"" << name.getValue()
                           << "\" twice (each mesh axis shards at most one dimension, once)";
    }
  }
  return success();
}

LogicalResult
ShardingAttr::verifyForType(Type type, function_ref<InFlightDiagnostic()> emitError) const {
  auto tensor = llvm::dyn_cast<RankedTensorType>(type);
  if (!tensor || !tensor.hasStaticShape())
    return emitError() << "a sharding applies to statically shaped tensors, not " << type;
  ArrayRef<ArrayAttr> spec = getSpec();
  if ((int64_t)spec.size() > tensor.getRank())
    return emitError() << "sharding spec has " << spec.size() << " entries, more than the rank "
                       << tensor.getRank() << " of " << type;
  ArrayRef<int64_t> sizes = getAxisSizes();
  for (auto [d, axes] : llvm::enumerate(getSpecAxes())) {
    int64_t tiles = 1;
    for (int64_t a : axes)
      tiles *= sizes[a];
    int64_t dim = tensor.getDimSize(d);
    if (dim % tiles != 0)
      return emitError() << "dimension " << d << " of size " << dim << " is not divisible by "
                         << tiles << ", the size of mesh axes " << axesString(spec[d])
                         << " (in " << type << ")";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Queries
//===----------------------------------------------------------------------===//

int64_t ShardingAttr::getNumDevices() const {
  int64_t n = 1;
  for (int64_t s : getAxisSizes())
    n *= s;
  return n;
}

int64_t ShardingAttr::getAxisIndex(StringRef name) const {
  for (auto [i, n] : llvm::enumerate(getAxisNames()))
    if (n.getValue() == name)
      return i;
  return -1;
}

SmallVector<SmallVector<int64_t>> ShardingAttr::getSpecAxes() const {
  SmallVector<SmallVector<int64_t>> out;
  for (ArrayAttr axes : getSpec()) {
    SmallVector<int64_t> &dim = out.emplace_back();
    for (Attribute a : axes)
      dim.push_back(getAxisIndex(llvm::cast<StringAttr>(a).getValue()));
  }
  return out;
}

SmallVector<int64_t> ShardingAttr::getUnusedAxes() const {
  SmallVector<int64_t> unused;
  SmallVector<SmallVector<int64_t>> used = getSpecAxes();
  for (int64_t a = 0, e = getAxisSizes().size(); a < e; ++a)
    if (llvm::none_of(used, [&](ArrayRef<int64_t> axes) { return llvm::is_contained(axes, a); }))
      unused.push_back(a);
  return unused;
}

SmallVector<int64_t> ShardingAttr::getTileCounts(int64_t rank) const {
  SmallVector<int64_t> tiles(rank, 1);
  for (auto [d, axes] : llvm::enumerate(getSpecAxes()))
    if ((int64_t)d < rank)
      for (int64_t a : axes)
        tiles[d] *= getAxisSizes()[a];
  return tiles;
}

RankedTensorType ShardingAttr::getShardType(RankedTensorType global) const {
  SmallVector<int64_t> shape(global.getShape());
  for (auto [d, t] : llvm::enumerate(getTileCounts(global.getRank())))
    shape[d] /= t;
  return global.clone(shape);
}

RankedTensorType ShardingAttr::getGlobalType(RankedTensorType local) const {
  SmallVector<int64_t> shape(local.getShape());
  for (auto [d, t] : llvm::enumerate(getTileCounts(local.getRank())))
    shape[d] *= t;
  return local.clone(shape);
}

bool ShardingAttr::hasSameMesh(ShardingAttr other) const {
  return getAxisNames() == other.getAxisNames() && getAxisSizes() == other.getAxisSizes();
}

ShardingAttr ShardingAttr::withReplicatedDimension(int64_t position, int64_t rank) const {
  return withSplitDimension(position, rank, {});
}

ShardingAttr ShardingAttr::withSplitDimension(int64_t position, int64_t rank,
                                              ArrayRef<StringAttr> axes) const {
  MLIRContext *ctx = getContext();
  SmallVector<ArrayAttr> spec(getSpec());
  auto replicated = ArrayAttr::get(ctx, {});
  while ((int64_t)spec.size() < rank)
    spec.push_back(replicated);
  SmallVector<Attribute> split(axes.begin(), axes.end());
  spec.insert(spec.begin() + position, ArrayAttr::get(ctx, split));
  return ShardingAttr::get(ctx, getAxisNames(), getAxisSizes(), spec);
}

bool ShardingAttr::usesAxis(StringRef name) const {
  for (ArrayAttr entry : getSpec())
    for (Attribute a : entry)
      if (llvm::cast<StringAttr>(a).getValue() == name)
        return true;
  return false;
}

//===----------------------------------------------------------------------===//
// XLA's HLO sharding string
//
// The mesh's devices are 0..N-1 in row-major order over its axes, i.e. the
// iota over the mesh shape. A value split along dimension d over axes
// spec[d] has t_d = prod(sizes of spec[d]) tiles there; the tile assignment
// is the mesh iota transposed so that its axes come in the order (axes of
// dimension 0, axes of dimension 1, ..., the unused axes), then reshaped to
// [t_0, ..., t_{r-1}] plus, when unused axes have more than one device, a
// trailing dimension of their product marked `last_tile_dim_replicate`.
// XLA prints an iota tile assignment canonically (size-1 mesh axes dropped,
// axes adjacent in both orders merged, the transpose left out when it is
// the identity), and so do we, so the strings read back as XLA writes them.
//===----------------------------------------------------------------------===//

std::string ShardingAttr::toHloSharding(RankedTensorType type) const {
  ArrayRef<int64_t> sizes = getAxisSizes();
  SmallVector<SmallVector<int64_t>> specAxes = getSpecAxes();
  int64_t rank = type.getRank();
  SmallVector<int64_t> tiles(rank, 1);
  SmallVector<int64_t> order; // the mesh axes in tile-assignment order
  for (auto [d, axes] : llvm::enumerate(specAxes)) {
    if ((int64_t)d >= rank) // not valid for `type`; verifyForType reports it
      break;
    for (int64_t a : axes) {
      tiles[d] *= sizes[a];
      order.push_back(a);
    }
  }
  int64_t replicated = 1;
  for (int64_t a = 0, e = sizes.size(); a < e; ++a)
    if (!llvm::is_contained(order, a)) {
      replicated *= sizes[a];
      order.push_back(a);
    }
  if (llvm::all_of(tiles, [](int64_t t) { return t == 1; }))
    return "{replicated}";

  // Canonical iota: drop size-1 axes, then merge runs of axes that are
  // consecutive both in the mesh and in `order`.
  SmallVector<int64_t> kept;
  for (int64_t a : order)
    if (sizes[a] > 1)
      kept.push_back(a);
  // Groups of consecutive mesh axes (among those of size > 1), in `order`.
  SmallVector<std::pair<int64_t, int64_t>> groups; // [first axis, product]
  SmallVector<int64_t> lastOf;
  auto nextKept = [&](int64_t a) { // the next mesh axis of size > 1 after a
    for (int64_t b = a + 1, e = sizes.size(); b < e; ++b)
      if (sizes[b] > 1)
        return b;
    return (int64_t)-1;
  };
  for (int64_t a : kept) {
    if (!groups.empty() && nextKept(lastOf.back()) == a) {
      groups.back().second *= sizes[a];
      lastOf.back() = a;
    } else {
      groups.push_back({a, sizes[a]});
      lastOf.push_back(a);
    }
  }
  // The reshape dims are the groups in mesh order; the permutation lists
  // each group's position in that order, in `order`.
  SmallVector<int64_t> byMesh = llvm::to_vector(llvm::seq<int64_t>(0, groups.size()));
  llvm::sort(byMesh, [&](int64_t x, int64_t y) { return groups[x].first < groups[y].first; });
  SmallVector<int64_t> reshape, perm(groups.size());
  for (auto [pos, g] : llvm::enumerate(byMesh)) {
    reshape.push_back(groups[g].second);
    perm[g] = pos;
  }
  bool identity = llvm::all_of(llvm::enumerate(perm),
                               [](auto p) { return (int64_t)p.index() == p.value(); });

  std::string s;
  llvm::raw_string_ostream os(s);
  os << "{devices=[";
  llvm::interleave(tiles, os, ",");
  if (replicated > 1)
    os << "," << replicated;
  os << "]<=[";
  if (identity) {
    os << getNumDevices();
  } else {
    llvm::interleave(reshape, os, ",");
  }
  os << "]";
  if (!identity) {
    os << "T(";
    llvm::interleave(perm, os, ",");
    os << ")";
  }
  if (replicated > 1)
    os << " last_tile_dim_replicate";
  os << "}";
  return s;
}
