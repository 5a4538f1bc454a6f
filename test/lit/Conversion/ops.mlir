// Lowering of every mlax op to (generic-form, unregistered) StableHLO.
//
// RUN: mlax-opt %s --convert-mlax-to-stablehlo | FileCheck %s
// RUN: mlax-opt %s --convert-mlax-to-stablehlo | FileCheck %s --check-prefix=NOMLAX
// RUN: mlax-opt %s --convert-mlax-to-stablehlo | %PYTHON -m mlax.tools.compile_stablehlo --verify-only -
//
// NOMLAX-NOT: mlax.

//===----------------------------------------------------------------------===//
// constant
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @constant(
// CHECK: %[[C:.*]] = "stablehlo.constant"() {value = dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>} : () -> tensor<2xf32>
// CHECK: return %[[C]] : tensor<2xf32>
func.func @constant() -> tensor<2xf32> {
  %0 = mlax.constant dense<[1.0, 2.0]> : tensor<2xf32>
  return %0 : tensor<2xf32>
}

// A non-splat bool constant goes to jaxlib as i8 plus a convert (see
// constants.mlir).
// CHECK-LABEL: func.func @constant_bool(
// CHECK: %[[C:.*]] = "stablehlo.constant"() {value = dense<[1, 0]> : tensor<2xi8>} : () -> tensor<2xi8>
// CHECK: "stablehlo.convert"(%[[C]]) : (tensor<2xi8>) -> tensor<2xi1>
func.func @constant_bool() -> tensor<2xi1> {
  %0 = mlax.constant dense<[true, false]> : tensor<2xi1>
  return %0 : tensor<2xi1>
}

//===----------------------------------------------------------------------===//
// Elementwise unary ops (one-to-one)
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @neg(
// CHECK-SAME: %[[X:.*]]: tensor<4xf32>)
// CHECK: %[[R:.*]] = "stablehlo.negate"(%[[X]]) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK: return %[[R]]
func.func @neg(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mlax.neg %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @exp(
// CHECK-SAME: %[[X:.*]]: tensor<4xf32>)
// CHECK: %[[R:.*]] = "stablehlo.exponential"(%[[X]]) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK: return %[[R]]
func.func @exp(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mlax.exp %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @log(
// CHECK-SAME: %[[X:.*]]: tensor<4xf32>)
// CHECK: %[[R:.*]] = "stablehlo.log"(%[[X]]) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK: return %[[R]]
func.func @log(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mlax.log %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @sin(
// CHECK-SAME: %[[X:.*]]: tensor<4xf32>)
// CHECK: %[[R:.*]] = "stablehlo.sine"(%[[X]]) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK: return %[[R]]
func.func @sin(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mlax.sin %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @cos(
// CHECK-SAME: %[[X:.*]]: tensor<4xf32>)
// CHECK: %[[R:.*]] = "stablehlo.cosine"(%[[X]]) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK: return %[[R]]
func.func @cos(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mlax.cos %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @tan(
// CHECK-SAME: %[[X:.*]]: tensor<4xf32>)
// CHECK: %[[R:.*]] = "stablehlo.tan"(%[[X]]) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK: return %[[R]]
func.func @tan(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mlax.tan %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @tanh(
// CHECK-SAME: %[[X:.*]]: tensor<4xf32>)
// CHECK: %[[R:.*]] = "stablehlo.tanh"(%[[X]]) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK: return %[[R]]
func.func @tanh(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mlax.tanh %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @sqrt(
// CHECK-SAME: %[[X:.*]]: tensor<4xf32>)
// CHECK: %[[R:.*]] = "stablehlo.sqrt"(%[[X]]) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK: return %[[R]]
func.func @sqrt(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mlax.sqrt %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @rsqrt(
// CHECK-SAME: %[[X:.*]]: tensor<4xf32>)
// CHECK: %[[R:.*]] = "stablehlo.rsqrt"(%[[X]]) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK: return %[[R]]
func.func @rsqrt(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mlax.rsqrt %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @abs(
// CHECK-SAME: %[[X:.*]]: tensor<4xf32>)
// CHECK: %[[R:.*]] = "stablehlo.abs"(%[[X]]) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK: return %[[R]]
func.func @abs(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mlax.abs %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @sign(
// CHECK-SAME: %[[X:.*]]: tensor<4xf32>)
// CHECK: %[[R:.*]] = "stablehlo.sign"(%[[X]]) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK: return %[[R]]
func.func @sign(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mlax.sign %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @floor(
// CHECK-SAME: %[[X:.*]]: tensor<4xf32>)
// CHECK: %[[R:.*]] = "stablehlo.floor"(%[[X]]) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK: return %[[R]]
func.func @floor(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mlax.floor %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @ceil(
// CHECK-SAME: %[[X:.*]]: tensor<4xf32>)
// CHECK: %[[R:.*]] = "stablehlo.ceil"(%[[X]]) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK: return %[[R]]
func.func @ceil(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mlax.ceil %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @round(
// CHECK-SAME: %[[X:.*]]: tensor<4xf32>)
// CHECK: %[[R:.*]] = "stablehlo.round_nearest_afz"(%[[X]]) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK: return %[[R]]
func.func @round(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mlax.round %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @round_even(
// CHECK-SAME: %[[X:.*]]: tensor<4xf32>)
// CHECK: %[[R:.*]] = "stablehlo.round_nearest_even"(%[[X]]) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK: return %[[R]]
func.func @round_even(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mlax.round_even %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @logistic(
// CHECK-SAME: %[[X:.*]]: tensor<4xf32>)
// CHECK: %[[R:.*]] = "stablehlo.logistic"(%[[X]]) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK: return %[[R]]
func.func @logistic(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mlax.logistic %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @log1p(
// CHECK-SAME: %[[X:.*]]: tensor<4xf32>)
// CHECK: %[[R:.*]] = "stablehlo.log_plus_one"(%[[X]]) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK: return %[[R]]
func.func @log1p(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mlax.log1p %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @expm1(
// CHECK-SAME: %[[X:.*]]: tensor<4xf32>)
// CHECK: %[[R:.*]] = "stablehlo.exponential_minus_one"(%[[X]]) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK: return %[[R]]
func.func @expm1(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mlax.expm1 %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @not(
// CHECK-SAME: %[[X:.*]]: tensor<4xi1>)
// CHECK: %[[R:.*]] = "stablehlo.not"(%[[X]]) : (tensor<4xi1>) -> tensor<4xi1>
// CHECK: return %[[R]]
func.func @not(%x: tensor<4xi1>) -> tensor<4xi1> {
  %0 = mlax.not %x : tensor<4xi1>
  return %0 : tensor<4xi1>
}

// CHECK-LABEL: func.func @neg_i32(
// CHECK: "stablehlo.negate"(%{{.*}}) : (tensor<4xi32>) -> tensor<4xi32>
func.func @neg_i32(%x: tensor<4xi32>) -> tensor<4xi32> {
  %0 = mlax.neg %x : tensor<4xi32>
  return %0 : tensor<4xi32>
}

// CHECK-LABEL: func.func @not_i32(
// CHECK: "stablehlo.not"(%{{.*}}) : (tensor<4xi32>) -> tensor<4xi32>
func.func @not_i32(%x: tensor<4xi32>) -> tensor<4xi32> {
  %0 = mlax.not %x : tensor<4xi32>
  return %0 : tensor<4xi32>
}

// CHECK-LABEL: func.func @is_finite(
// CHECK-SAME: %[[X:.*]]: tensor<4xf32>)
// CHECK: %[[R:.*]] = "stablehlo.is_finite"(%[[X]]) : (tensor<4xf32>) -> tensor<4xi1>
// CHECK: return %[[R]] : tensor<4xi1>
func.func @is_finite(%x: tensor<4xf32>) -> tensor<4xi1> {
  %0 = mlax.is_finite %x : tensor<4xf32>
  return %0 : tensor<4xi1>
}

//===----------------------------------------------------------------------===//
// Elementwise binary ops (one-to-one)
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @add(
// CHECK-SAME: %[[X:.*]]: tensor<2x3xf32>, %[[Y:.*]]: tensor<2x3xf32>)
// CHECK: %[[R:.*]] = "stablehlo.add"(%[[X]], %[[Y]]) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK: return %[[R]]
func.func @add(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = mlax.add %x, %y : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @sub(
// CHECK-SAME: %[[X:.*]]: tensor<2x3xf32>, %[[Y:.*]]: tensor<2x3xf32>)
// CHECK: %[[R:.*]] = "stablehlo.subtract"(%[[X]], %[[Y]]) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK: return %[[R]]
func.func @sub(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = mlax.sub %x, %y : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @mul(
// CHECK-SAME: %[[X:.*]]: tensor<2x3xf32>, %[[Y:.*]]: tensor<2x3xf32>)
// CHECK: %[[R:.*]] = "stablehlo.multiply"(%[[X]], %[[Y]]) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK: return %[[R]]
func.func @mul(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = mlax.mul %x, %y : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @div(
// CHECK-SAME: %[[X:.*]]: tensor<2x3xf32>, %[[Y:.*]]: tensor<2x3xf32>)
// CHECK: %[[R:.*]] = "stablehlo.divide"(%[[X]], %[[Y]]) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK: return %[[R]]
func.func @div(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = mlax.div %x, %y : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @pow(
// CHECK-SAME: %[[X:.*]]: tensor<2x3xf32>, %[[Y:.*]]: tensor<2x3xf32>)
// CHECK: %[[R:.*]] = "stablehlo.power"(%[[X]], %[[Y]]) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK: return %[[R]]
func.func @pow(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = mlax.pow %x, %y : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @max(
// CHECK-SAME: %[[X:.*]]: tensor<2x3xf32>, %[[Y:.*]]: tensor<2x3xf32>)
// CHECK: %[[R:.*]] = "stablehlo.maximum"(%[[X]], %[[Y]]) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK: return %[[R]]
func.func @max(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = mlax.max %x, %y : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @min(
// CHECK-SAME: %[[X:.*]]: tensor<2x3xf32>, %[[Y:.*]]: tensor<2x3xf32>)
// CHECK: %[[R:.*]] = "stablehlo.minimum"(%[[X]], %[[Y]]) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK: return %[[R]]
func.func @min(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = mlax.min %x, %y : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @rem(
// CHECK-SAME: %[[X:.*]]: tensor<2x3xf32>, %[[Y:.*]]: tensor<2x3xf32>)
// CHECK: %[[R:.*]] = "stablehlo.remainder"(%[[X]], %[[Y]]) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK: return %[[R]]
func.func @rem(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = mlax.rem %x, %y : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @atan2(
// CHECK-SAME: %[[X:.*]]: tensor<2x3xf32>, %[[Y:.*]]: tensor<2x3xf32>)
// CHECK: %[[R:.*]] = "stablehlo.atan2"(%[[X]], %[[Y]]) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK: return %[[R]]
func.func @atan2(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = mlax.atan2 %x, %y : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @and(
// CHECK-SAME: %[[X:.*]]: tensor<2x3xi1>, %[[Y:.*]]: tensor<2x3xi1>)
// CHECK: %[[R:.*]] = "stablehlo.and"(%[[X]], %[[Y]]) : (tensor<2x3xi1>, tensor<2x3xi1>) -> tensor<2x3xi1>
// CHECK: return %[[R]]
func.func @and(%x: tensor<2x3xi1>, %y: tensor<2x3xi1>) -> tensor<2x3xi1> {
  %0 = mlax.and %x, %y : tensor<2x3xi1>
  return %0 : tensor<2x3xi1>
}

// CHECK-LABEL: func.func @or(
// CHECK-SAME: %[[X:.*]]: tensor<2x3xi1>, %[[Y:.*]]: tensor<2x3xi1>)
// CHECK: %[[R:.*]] = "stablehlo.or"(%[[X]], %[[Y]]) : (tensor<2x3xi1>, tensor<2x3xi1>) -> tensor<2x3xi1>
// CHECK: return %[[R]]
func.func @or(%x: tensor<2x3xi1>, %y: tensor<2x3xi1>) -> tensor<2x3xi1> {
  %0 = mlax.or %x, %y : tensor<2x3xi1>
  return %0 : tensor<2x3xi1>
}

// CHECK-LABEL: func.func @xor(
// CHECK-SAME: %[[X:.*]]: tensor<2x3xi1>, %[[Y:.*]]: tensor<2x3xi1>)
// CHECK: %[[R:.*]] = "stablehlo.xor"(%[[X]], %[[Y]]) : (tensor<2x3xi1>, tensor<2x3xi1>) -> tensor<2x3xi1>
// CHECK: return %[[R]]
func.func @xor(%x: tensor<2x3xi1>, %y: tensor<2x3xi1>) -> tensor<2x3xi1> {
  %0 = mlax.xor %x, %y : tensor<2x3xi1>
  return %0 : tensor<2x3xi1>
}

// CHECK-LABEL: func.func @div_ui32(
// CHECK: "stablehlo.divide"(%{{.*}}, %{{.*}}) : (tensor<4xui32>, tensor<4xui32>) -> tensor<4xui32>
func.func @div_ui32(%x: tensor<4xui32>, %y: tensor<4xui32>) -> tensor<4xui32> {
  %0 = mlax.div %x, %y : tensor<4xui32>
  return %0 : tensor<4xui32>
}

// CHECK-LABEL: func.func @and_i32(
// CHECK: "stablehlo.and"(%{{.*}}, %{{.*}}) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
func.func @and_i32(%x: tensor<4xi32>, %y: tensor<4xi32>) -> tensor<4xi32> {
  %0 = mlax.and %x, %y : tensor<4xi32>
  return %0 : tensor<4xi32>
}

// Discardable attributes travel with the one-to-one lowering.
// CHECK-LABEL: func.func @keeps_discardable_attrs(
// CHECK: "stablehlo.add"(%{{.*}}, %{{.*}}) {mhlo.sharding = "{replicated}"} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
func.func @keeps_discardable_attrs(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mlax.add %x, %x {mhlo.sharding = "{replicated}"} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

//===----------------------------------------------------------------------===//
// compare: direction, and compare_type from the element type
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @compare_eq_f32(
// CHECK-SAME: %[[X:.*]]: tensor<4xf32>, %[[Y:.*]]: tensor<4xf32>)
// CHECK: %[[R:.*]] = "stablehlo.compare"(%[[X]], %[[Y]]) {compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction EQ>} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
// CHECK: return %[[R]] : tensor<4xi1>
func.func @compare_eq_f32(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xi1> {
  %0 = mlax.compare EQ, %x, %y : tensor<4xf32>
  return %0 : tensor<4xi1>
}

// CHECK-LABEL: func.func @compare_ne_f32(
// CHECK-SAME: %[[X:.*]]: tensor<4xf32>, %[[Y:.*]]: tensor<4xf32>)
// CHECK: %[[R:.*]] = "stablehlo.compare"(%[[X]], %[[Y]]) {compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction NE>} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
// CHECK: return %[[R]] : tensor<4xi1>
func.func @compare_ne_f32(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xi1> {
  %0 = mlax.compare NE, %x, %y : tensor<4xf32>
  return %0 : tensor<4xi1>
}

// CHECK-LABEL: func.func @compare_lt_f32(
// CHECK-SAME: %[[X:.*]]: tensor<4xf32>, %[[Y:.*]]: tensor<4xf32>)
// CHECK: %[[R:.*]] = "stablehlo.compare"(%[[X]], %[[Y]]) {compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
// CHECK: return %[[R]] : tensor<4xi1>
func.func @compare_lt_f32(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xi1> {
  %0 = mlax.compare LT, %x, %y : tensor<4xf32>
  return %0 : tensor<4xi1>
}

// CHECK-LABEL: func.func @compare_le_f32(
// CHECK-SAME: %[[X:.*]]: tensor<4xf32>, %[[Y:.*]]: tensor<4xf32>)
// CHECK: %[[R:.*]] = "stablehlo.compare"(%[[X]], %[[Y]]) {compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction LE>} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
// CHECK: return %[[R]] : tensor<4xi1>
func.func @compare_le_f32(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xi1> {
  %0 = mlax.compare LE, %x, %y : tensor<4xf32>
  return %0 : tensor<4xi1>
}

// CHECK-LABEL: func.func @compare_gt_f32(
// CHECK-SAME: %[[X:.*]]: tensor<4xf32>, %[[Y:.*]]: tensor<4xf32>)
// CHECK: %[[R:.*]] = "stablehlo.compare"(%[[X]], %[[Y]]) {compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction GT>} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
// CHECK: return %[[R]] : tensor<4xi1>
func.func @compare_gt_f32(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xi1> {
  %0 = mlax.compare GT, %x, %y : tensor<4xf32>
  return %0 : tensor<4xi1>
}

// CHECK-LABEL: func.func @compare_ge_f32(
// CHECK-SAME: %[[X:.*]]: tensor<4xf32>, %[[Y:.*]]: tensor<4xf32>)
// CHECK: %[[R:.*]] = "stablehlo.compare"(%[[X]], %[[Y]]) {compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction GE>} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
// CHECK: return %[[R]] : tensor<4xi1>
func.func @compare_ge_f32(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xi1> {
  %0 = mlax.compare GE, %x, %y : tensor<4xf32>
  return %0 : tensor<4xi1>
}

// CHECK-LABEL: func.func @compare_signed(
// CHECK: "stablehlo.compare"(%{{.*}}, %{{.*}}) {compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
func.func @compare_signed(%x: tensor<4xi32>, %y: tensor<4xi32>) -> tensor<4xi1> {
  %0 = mlax.compare LT, %x, %y : tensor<4xi32>
  return %0 : tensor<4xi1>
}

// CHECK-LABEL: func.func @compare_signed_i8(
// CHECK: "stablehlo.compare"(%{{.*}}, %{{.*}}) {compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction GE>} : (tensor<4xi8>, tensor<4xi8>) -> tensor<4xi1>
func.func @compare_signed_i8(%x: tensor<4xi8>, %y: tensor<4xi8>) -> tensor<4xi1> {
  %0 = mlax.compare GE, %x, %y : tensor<4xi8>
  return %0 : tensor<4xi1>
}

// CHECK-LABEL: func.func @compare_unsigned(
// CHECK: "stablehlo.compare"(%{{.*}}, %{{.*}}) {compare_type = #stablehlo<comparison_type UNSIGNED>, comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<4xui32>, tensor<4xui32>) -> tensor<4xi1>
func.func @compare_unsigned(%x: tensor<4xui32>, %y: tensor<4xui32>) -> tensor<4xi1> {
  %0 = mlax.compare LT, %x, %y : tensor<4xui32>
  return %0 : tensor<4xi1>
}

// CHECK-LABEL: func.func @compare_bool(
// CHECK: "stablehlo.compare"(%{{.*}}, %{{.*}}) {compare_type = #stablehlo<comparison_type UNSIGNED>, comparison_direction = #stablehlo<comparison_direction EQ>} : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
func.func @compare_bool(%x: tensor<4xi1>, %y: tensor<4xi1>) -> tensor<4xi1> {
  %0 = mlax.compare EQ, %x, %y : tensor<4xi1>
  return %0 : tensor<4xi1>
}

// CHECK-LABEL: func.func @compare_bf16(
// CHECK: "stablehlo.compare"(%{{.*}}, %{{.*}}) {compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction NE>} : (tensor<4xbf16>, tensor<4xbf16>) -> tensor<4xi1>
func.func @compare_bf16(%x: tensor<4xbf16>, %y: tensor<4xbf16>) -> tensor<4xi1> {
  %0 = mlax.compare NE, %x, %y : tensor<4xbf16>
  return %0 : tensor<4xi1>
}

//===----------------------------------------------------------------------===//
// select_n
//===----------------------------------------------------------------------===//

// A bool `which` is one stablehlo.select; false picks case 0, so the cases
// are swapped.
// CHECK-LABEL: func.func @select_n_bool(
// CHECK-SAME: %[[P:.*]]: tensor<4xi1>, %[[A:.*]]: tensor<4xf32>, %[[B:.*]]: tensor<4xf32>)
// CHECK: %[[R:.*]] = "stablehlo.select"(%[[P]], %[[B]], %[[A]]) : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK: return %[[R]] : tensor<4xf32>
func.func @select_n_bool(%p: tensor<4xi1>, %a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mlax.select_n %p, %a, %b : tensor<4xi1>, tensor<4xf32>, tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @select_n_bool_scalar(
// CHECK-SAME: %[[P:.*]]: tensor<i1>, %[[A:.*]]: tensor<2x3xi32>, %[[B:.*]]: tensor<2x3xi32>)
// CHECK: "stablehlo.select"(%[[P]], %[[B]], %[[A]]) : (tensor<i1>, tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
func.func @select_n_bool_scalar(%p: tensor<i1>, %a: tensor<2x3xi32>, %b: tensor<2x3xi32>) -> tensor<2x3xi32> {
  %0 = mlax.select_n %p, %a, %b : tensor<i1>, tensor<2x3xi32>, tensor<2x3xi32>
  return %0 : tensor<2x3xi32>
}

// An i32 `which` is a chain `which <= i ? case_i : (...)`, built from the last
// case backwards.
// CHECK-LABEL: func.func @select_n_i32(
// CHECK-SAME: %[[W:.*]]: tensor<4xi32>, %[[A:.*]]: tensor<4xf32>, %[[B:.*]]: tensor<4xf32>, %[[C:.*]]: tensor<4xf32>)
// CHECK: %[[ONE:.*]] = "stablehlo.constant"() {value = dense<1> : tensor<4xi32>} : () -> tensor<4xi32>
// CHECK: %[[LE1:.*]] = "stablehlo.compare"(%[[W]], %[[ONE]]) {compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LE>} : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
// CHECK: %[[S1:.*]] = "stablehlo.select"(%[[LE1]], %[[B]], %[[C]]) : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK: %[[ZERO:.*]] = "stablehlo.constant"() {value = dense<0> : tensor<4xi32>} : () -> tensor<4xi32>
// CHECK: %[[LE0:.*]] = "stablehlo.compare"(%[[W]], %[[ZERO]]) {compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LE>} : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
// CHECK: %[[S0:.*]] = "stablehlo.select"(%[[LE0]], %[[A]], %[[S1]]) : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK: return %[[S0]] : tensor<4xf32>
func.func @select_n_i32(%w: tensor<4xi32>, %a: tensor<4xf32>, %b: tensor<4xf32>, %c: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mlax.select_n %w, %a, %b, %c : tensor<4xi32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @select_n_i32_scalar(
// CHECK-SAME: %[[W:.*]]: tensor<i32>, %[[A:.*]]: tensor<4xf32>, %[[B:.*]]: tensor<4xf32>)
// CHECK: %[[ZERO:.*]] = "stablehlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
// CHECK: %[[LE0:.*]] = "stablehlo.compare"(%[[W]], %[[ZERO]]) {compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LE>} : (tensor<i32>, tensor<i32>) -> tensor<i1>
// CHECK: %[[S0:.*]] = "stablehlo.select"(%[[LE0]], %[[A]], %[[B]]) : (tensor<i1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK: return %[[S0]] : tensor<4xf32>
func.func @select_n_i32_scalar(%w: tensor<i32>, %a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mlax.select_n %w, %a, %b : tensor<i32>, tensor<4xf32>, tensor<4xf32>
  return %0 : tensor<4xf32>
}

// One case is that case.
// CHECK-LABEL: func.func @select_n_one_case(
// CHECK-SAME: %[[W:.*]]: tensor<4xi32>, %[[A:.*]]: tensor<4xf32>)
// CHECK-NEXT: return %[[A]] : tensor<4xf32>
func.func @select_n_one_case(%w: tensor<4xi32>, %a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mlax.select_n %w, %a : tensor<4xi32>, tensor<4xf32>
  return %0 : tensor<4xf32>
}

//===----------------------------------------------------------------------===//
// convert
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @convert_f32_to_i32(
// CHECK-SAME: %[[X:.*]]: tensor<4xf32>)
// CHECK: %[[R:.*]] = "stablehlo.convert"(%[[X]]) : (tensor<4xf32>) -> tensor<4xi32>
// CHECK: return %[[R]] : tensor<4xi32>
func.func @convert_f32_to_i32(%x: tensor<4xf32>) -> tensor<4xi32> {
  %0 = mlax.convert %x : tensor<4xf32> -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// CHECK-LABEL: func.func @convert_bool_to_f32(
// CHECK: "stablehlo.convert"(%{{.*}}) : (tensor<4xi1>) -> tensor<4xf32>
func.func @convert_bool_to_f32(%x: tensor<4xi1>) -> tensor<4xf32> {
  %0 = mlax.convert %x : tensor<4xi1> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// Conversion to bool is `x != 0`, not a truncation.
// CHECK-LABEL: func.func @convert_f32_to_bool(
// CHECK-SAME: %[[X:.*]]: tensor<4xf32>)
// CHECK: %[[Z:.*]] = "stablehlo.constant"() {value = dense<0.000000e+00> : tensor<4xf32>} : () -> tensor<4xf32>
// CHECK: %[[R:.*]] = "stablehlo.compare"(%[[X]], %[[Z]]) {compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction NE>} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
// CHECK: return %[[R]] : tensor<4xi1>
func.func @convert_f32_to_bool(%x: tensor<4xf32>) -> tensor<4xi1> {
  %0 = mlax.convert %x : tensor<4xf32> -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// CHECK-LABEL: func.func @convert_i32_to_bool(
// CHECK-SAME: %[[X:.*]]: tensor<2x2xi32>)
// CHECK: %[[Z:.*]] = "stablehlo.constant"() {value = dense<0> : tensor<2x2xi32>} : () -> tensor<2x2xi32>
// CHECK: "stablehlo.compare"(%[[X]], %[[Z]]) {compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction NE>} : (tensor<2x2xi32>, tensor<2x2xi32>) -> tensor<2x2xi1>
// CHECK-NOT: stablehlo.convert
func.func @convert_i32_to_bool(%x: tensor<2x2xi32>) -> tensor<2x2xi1> {
  %0 = mlax.convert %x : tensor<2x2xi32> -> tensor<2x2xi1>
  return %0 : tensor<2x2xi1>
}

// CHECK-LABEL: func.func @convert_ui8_to_bool(
// CHECK: %[[Z:.*]] = "stablehlo.constant"() {value = dense<0> : tensor<ui8>} : () -> tensor<ui8>
// CHECK: "stablehlo.compare"(%{{.*}}, %[[Z]]) {compare_type = #stablehlo<comparison_type UNSIGNED>, comparison_direction = #stablehlo<comparison_direction NE>} : (tensor<ui8>, tensor<ui8>) -> tensor<i1>
func.func @convert_ui8_to_bool(%x: tensor<ui8>) -> tensor<i1> {
  %0 = mlax.convert %x : tensor<ui8> -> tensor<i1>
  return %0 : tensor<i1>
}

// bool to bool is the identity: the convert folder removes it (dialect
// conversion folds ops before it rewrites them).
// CHECK-LABEL: func.func @convert_bool_to_bool(
// CHECK-SAME: %[[X:.*]]: tensor<4xi1>)
// CHECK-NEXT: return %[[X]]
func.func @convert_bool_to_bool(%x: tensor<4xi1>) -> tensor<4xi1> {
  %0 = mlax.convert %x : tensor<4xi1> -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

//===----------------------------------------------------------------------===//
// Shape ops keep their attributes
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @broadcast_in_dim(
// CHECK-SAME: %[[X:.*]]: tensor<3xf32>)
// CHECK: %[[R:.*]] = "stablehlo.broadcast_in_dim"(%[[X]]) {broadcast_dimensions = array<i64: 1>} : (tensor<3xf32>) -> tensor<2x3xf32>
// CHECK: return %[[R]]
func.func @broadcast_in_dim(%x: tensor<3xf32>) -> tensor<2x3xf32> {
  %0 = mlax.broadcast_in_dim %x, dims = [1] : tensor<3xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @broadcast_in_dim_scalar(
// CHECK: "stablehlo.broadcast_in_dim"(%{{.*}}) {broadcast_dimensions = array<i64>} : (tensor<f32>) -> tensor<2x3xf32>
func.func @broadcast_in_dim_scalar(%x: tensor<f32>) -> tensor<2x3xf32> {
  %0 = mlax.broadcast_in_dim %x, dims = [] : tensor<f32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @reshape(
// CHECK-SAME: %[[X:.*]]: tensor<2x3xf32>)
// CHECK: %[[R:.*]] = "stablehlo.reshape"(%[[X]]) : (tensor<2x3xf32>) -> tensor<6xf32>
// CHECK: return %[[R]]
func.func @reshape(%x: tensor<2x3xf32>) -> tensor<6xf32> {
  %0 = mlax.reshape %x : tensor<2x3xf32> -> tensor<6xf32>
  return %0 : tensor<6xf32>
}

// CHECK-LABEL: func.func @transpose(
// CHECK-SAME: %[[X:.*]]: tensor<2x3x4xf32>)
// CHECK: %[[R:.*]] = "stablehlo.transpose"(%[[X]]) {permutation = array<i64: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
// CHECK: return %[[R]]
func.func @transpose(%x: tensor<2x3x4xf32>) -> tensor<4x2x3xf32> {
  %0 = mlax.transpose %x, permutation = [2, 0, 1] : tensor<2x3x4xf32> -> tensor<4x2x3xf32>
  return %0 : tensor<4x2x3xf32>
}

// CHECK-LABEL: func.func @slice(
// CHECK-SAME: %[[X:.*]]: tensor<4x6xf32>)
// CHECK: %[[R:.*]] = "stablehlo.slice"(%[[X]]) {limit_indices = array<i64: 3, 5>, start_indices = array<i64: 1, 0>, strides = array<i64: 1, 2>} : (tensor<4x6xf32>) -> tensor<2x3xf32>
// CHECK: return %[[R]]
func.func @slice(%x: tensor<4x6xf32>) -> tensor<2x3xf32> {
  %0 = mlax.slice %x, start = [1, 0], limit = [3, 5], strides = [1, 2] : tensor<4x6xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @concatenate(
// CHECK-SAME: %[[A:.*]]: tensor<2x3xf32>, %[[B:.*]]: tensor<2x1xf32>)
// CHECK: %[[R:.*]] = "stablehlo.concatenate"(%[[A]], %[[B]], %[[A]]) {dimension = 1 : i64} : (tensor<2x3xf32>, tensor<2x1xf32>, tensor<2x3xf32>) -> tensor<2x7xf32>
// CHECK: return %[[R]]
func.func @concatenate(%a: tensor<2x3xf32>, %b: tensor<2x1xf32>) -> tensor<2x7xf32> {
  %0 = "mlax.concatenate"(%a, %b, %a) {dimension = 1 : i64} : (tensor<2x3xf32>, tensor<2x1xf32>, tensor<2x3xf32>) -> tensor<2x7xf32>
  return %0 : tensor<2x7xf32>
}

// CHECK-LABEL: func.func @pad(
// CHECK-SAME: %[[X:.*]]: tensor<3xf32>, %[[P:.*]]: tensor<f32>)
// CHECK: %[[R:.*]] = "stablehlo.pad"(%[[X]], %[[P]]) {edge_padding_high = array<i64: -1>, edge_padding_low = array<i64: 1>, interior_padding = array<i64: 2>} : (tensor<3xf32>, tensor<f32>) -> tensor<7xf32>
// CHECK: return %[[R]]
func.func @pad(%x: tensor<3xf32>, %p: tensor<f32>) -> tensor<7xf32> {
  %0 = mlax.pad %x, %p, low = [1], high = [-1], interior = [2] : tensor<3xf32>, tensor<f32> -> tensor<7xf32>
  return %0 : tensor<7xf32>
}

// CHECK-LABEL: func.func @iota(
// CHECK: %[[R:.*]] = "stablehlo.iota"() {iota_dimension = 1 : i64} : () -> tensor<2x3xi32>
// CHECK: return %[[R]]
func.func @iota() -> tensor<2x3xi32> {
  %0 = mlax.iota dim = 1 : tensor<2x3xi32>
  return %0 : tensor<2x3xi32>
}

//===----------------------------------------------------------------------===//
// Reductions: stablehlo.reduce with the combiner's identity as init
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @reduce_sum_f32(
// CHECK-SAME: %[[X:.*]]: tensor<2x3xf32>)
// CHECK: %[[INIT:.*]] = "stablehlo.constant"() {value = dense<0.000000e+00> : tensor<f32>} : () -> tensor<f32>
// CHECK: %[[R:.*]] = "stablehlo.reduce"(%[[X]], %[[INIT]]) ({
// CHECK-NEXT: ^bb0(%[[L:.*]]: tensor<f32>, %[[RR:.*]]: tensor<f32>):
// CHECK-NEXT: %[[S:.*]] = "stablehlo.add"(%[[L]], %[[RR]]) : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT: "stablehlo.return"(%[[S]]) : (tensor<f32>) -> ()
// CHECK-NEXT: }) {dimensions = array<i64: 1>} : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
// CHECK: return %[[R]] : tensor<2xf32>
func.func @reduce_sum_f32(%x: tensor<2x3xf32>) -> tensor<2xf32> {
  %0 = mlax.reduce_sum %x, axes = [1] : tensor<2x3xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// CHECK-LABEL: func.func @reduce_sum_i32(
// CHECK: %[[INIT:.*]] = "stablehlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
// CHECK: "stablehlo.reduce"(%{{.*}}, %[[INIT]]) ({
// CHECK: "stablehlo.add"(%{{.*}}, %{{.*}}) : (tensor<i32>, tensor<i32>) -> tensor<i32>
// CHECK: {dimensions = array<i64: 1>} : (tensor<2x3xi32>, tensor<i32>) -> tensor<2xi32>
func.func @reduce_sum_i32(%x: tensor<2x3xi32>) -> tensor<2xi32> {
  %0 = mlax.reduce_sum %x, axes = [1] : tensor<2x3xi32> -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

// CHECK-LABEL: func.func @reduce_sum_ui8(
// CHECK: %[[INIT:.*]] = "stablehlo.constant"() {value = dense<0> : tensor<ui8>} : () -> tensor<ui8>
// CHECK: "stablehlo.reduce"(%{{.*}}, %[[INIT]]) ({
// CHECK: "stablehlo.add"(%{{.*}}, %{{.*}}) : (tensor<ui8>, tensor<ui8>) -> tensor<ui8>
// CHECK: {dimensions = array<i64: 1>} : (tensor<2x3xui8>, tensor<ui8>) -> tensor<2xui8>
func.func @reduce_sum_ui8(%x: tensor<2x3xui8>) -> tensor<2xui8> {
  %0 = mlax.reduce_sum %x, axes = [1] : tensor<2x3xui8> -> tensor<2xui8>
  return %0 : tensor<2xui8>
}

// CHECK-LABEL: func.func @reduce_prod_f32(
// CHECK: %[[INIT:.*]] = "stablehlo.constant"() {value = dense<1.000000e+00> : tensor<f32>} : () -> tensor<f32>
// CHECK: "stablehlo.reduce"(%{{.*}}, %[[INIT]]) ({
// CHECK: "stablehlo.multiply"(%{{.*}}, %{{.*}}) : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK: {dimensions = array<i64: 1>} : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
func.func @reduce_prod_f32(%x: tensor<2x3xf32>) -> tensor<2xf32> {
  %0 = mlax.reduce_prod %x, axes = [1] : tensor<2x3xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// CHECK-LABEL: func.func @reduce_prod_i32(
// CHECK: %[[INIT:.*]] = "stablehlo.constant"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
// CHECK: "stablehlo.reduce"(%{{.*}}, %[[INIT]]) ({
// CHECK: "stablehlo.multiply"(%{{.*}}, %{{.*}}) : (tensor<i32>, tensor<i32>) -> tensor<i32>
// CHECK: {dimensions = array<i64: 1>} : (tensor<2x3xi32>, tensor<i32>) -> tensor<2xi32>
func.func @reduce_prod_i32(%x: tensor<2x3xi32>) -> tensor<2xi32> {
  %0 = mlax.reduce_prod %x, axes = [1] : tensor<2x3xi32> -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

// CHECK-LABEL: func.func @reduce_max_f32(
// CHECK: %[[INIT:.*]] = "stablehlo.constant"() {value = dense<0xFF800000> : tensor<f32>} : () -> tensor<f32>
// CHECK: "stablehlo.reduce"(%{{.*}}, %[[INIT]]) ({
// CHECK: "stablehlo.maximum"(%{{.*}}, %{{.*}}) : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK: {dimensions = array<i64: 1>} : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
func.func @reduce_max_f32(%x: tensor<2x3xf32>) -> tensor<2xf32> {
  %0 = mlax.reduce_max %x, axes = [1] : tensor<2x3xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// CHECK-LABEL: func.func @reduce_max_bf16(
// CHECK: %[[INIT:.*]] = "stablehlo.constant"() {value = dense<0xFF80> : tensor<bf16>} : () -> tensor<bf16>
// CHECK: "stablehlo.reduce"(%{{.*}}, %[[INIT]]) ({
// CHECK: "stablehlo.maximum"(%{{.*}}, %{{.*}}) : (tensor<bf16>, tensor<bf16>) -> tensor<bf16>
// CHECK: {dimensions = array<i64: 1>} : (tensor<2x3xbf16>, tensor<bf16>) -> tensor<2xbf16>
func.func @reduce_max_bf16(%x: tensor<2x3xbf16>) -> tensor<2xbf16> {
  %0 = mlax.reduce_max %x, axes = [1] : tensor<2x3xbf16> -> tensor<2xbf16>
  return %0 : tensor<2xbf16>
}

// CHECK-LABEL: func.func @reduce_max_i32(
// CHECK: %[[INIT:.*]] = "stablehlo.constant"() {value = dense<-2147483648> : tensor<i32>} : () -> tensor<i32>
// CHECK: "stablehlo.reduce"(%{{.*}}, %[[INIT]]) ({
// CHECK: "stablehlo.maximum"(%{{.*}}, %{{.*}}) : (tensor<i32>, tensor<i32>) -> tensor<i32>
// CHECK: {dimensions = array<i64: 1>} : (tensor<2x3xi32>, tensor<i32>) -> tensor<2xi32>
func.func @reduce_max_i32(%x: tensor<2x3xi32>) -> tensor<2xi32> {
  %0 = mlax.reduce_max %x, axes = [1] : tensor<2x3xi32> -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

// CHECK-LABEL: func.func @reduce_max_i8(
// CHECK: %[[INIT:.*]] = "stablehlo.constant"() {value = dense<-128> : tensor<i8>} : () -> tensor<i8>
// CHECK: "stablehlo.reduce"(%{{.*}}, %[[INIT]]) ({
// CHECK: "stablehlo.maximum"(%{{.*}}, %{{.*}}) : (tensor<i8>, tensor<i8>) -> tensor<i8>
// CHECK: {dimensions = array<i64: 1>} : (tensor<2x3xi8>, tensor<i8>) -> tensor<2xi8>
func.func @reduce_max_i8(%x: tensor<2x3xi8>) -> tensor<2xi8> {
  %0 = mlax.reduce_max %x, axes = [1] : tensor<2x3xi8> -> tensor<2xi8>
  return %0 : tensor<2xi8>
}

// CHECK-LABEL: func.func @reduce_max_ui8(
// CHECK: %[[INIT:.*]] = "stablehlo.constant"() {value = dense<0> : tensor<ui8>} : () -> tensor<ui8>
// CHECK: "stablehlo.reduce"(%{{.*}}, %[[INIT]]) ({
// CHECK: "stablehlo.maximum"(%{{.*}}, %{{.*}}) : (tensor<ui8>, tensor<ui8>) -> tensor<ui8>
// CHECK: {dimensions = array<i64: 1>} : (tensor<2x3xui8>, tensor<ui8>) -> tensor<2xui8>
func.func @reduce_max_ui8(%x: tensor<2x3xui8>) -> tensor<2xui8> {
  %0 = mlax.reduce_max %x, axes = [1] : tensor<2x3xui8> -> tensor<2xui8>
  return %0 : tensor<2xui8>
}

// CHECK-LABEL: func.func @reduce_max_bool(
// CHECK: %[[INIT:.*]] = "stablehlo.constant"() {value = dense<false> : tensor<i1>} : () -> tensor<i1>
// CHECK: "stablehlo.reduce"(%{{.*}}, %[[INIT]]) ({
// CHECK: "stablehlo.maximum"(%{{.*}}, %{{.*}}) : (tensor<i1>, tensor<i1>) -> tensor<i1>
// CHECK: {dimensions = array<i64: 1>} : (tensor<2x3xi1>, tensor<i1>) -> tensor<2xi1>
func.func @reduce_max_bool(%x: tensor<2x3xi1>) -> tensor<2xi1> {
  %0 = mlax.reduce_max %x, axes = [1] : tensor<2x3xi1> -> tensor<2xi1>
  return %0 : tensor<2xi1>
}

// CHECK-LABEL: func.func @reduce_min_f32(
// CHECK: %[[INIT:.*]] = "stablehlo.constant"() {value = dense<0x7F800000> : tensor<f32>} : () -> tensor<f32>
// CHECK: "stablehlo.reduce"(%{{.*}}, %[[INIT]]) ({
// CHECK: "stablehlo.minimum"(%{{.*}}, %{{.*}}) : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK: {dimensions = array<i64: 1>} : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
func.func @reduce_min_f32(%x: tensor<2x3xf32>) -> tensor<2xf32> {
  %0 = mlax.reduce_min %x, axes = [1] : tensor<2x3xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// CHECK-LABEL: func.func @reduce_min_f16(
// CHECK: %[[INIT:.*]] = "stablehlo.constant"() {value = dense<0x7C00> : tensor<f16>} : () -> tensor<f16>
// CHECK: "stablehlo.reduce"(%{{.*}}, %[[INIT]]) ({
// CHECK: "stablehlo.minimum"(%{{.*}}, %{{.*}}) : (tensor<f16>, tensor<f16>) -> tensor<f16>
// CHECK: {dimensions = array<i64: 1>} : (tensor<2x3xf16>, tensor<f16>) -> tensor<2xf16>
func.func @reduce_min_f16(%x: tensor<2x3xf16>) -> tensor<2xf16> {
  %0 = mlax.reduce_min %x, axes = [1] : tensor<2x3xf16> -> tensor<2xf16>
  return %0 : tensor<2xf16>
}

// CHECK-LABEL: func.func @reduce_min_i64(
// CHECK: %[[INIT:.*]] = "stablehlo.constant"() {value = dense<9223372036854775807> : tensor<i64>} : () -> tensor<i64>
// CHECK: "stablehlo.reduce"(%{{.*}}, %[[INIT]]) ({
// CHECK: "stablehlo.minimum"(%{{.*}}, %{{.*}}) : (tensor<i64>, tensor<i64>) -> tensor<i64>
// CHECK: {dimensions = array<i64: 1>} : (tensor<2x3xi64>, tensor<i64>) -> tensor<2xi64>
func.func @reduce_min_i64(%x: tensor<2x3xi64>) -> tensor<2xi64> {
  %0 = mlax.reduce_min %x, axes = [1] : tensor<2x3xi64> -> tensor<2xi64>
  return %0 : tensor<2xi64>
}

// CHECK-LABEL: func.func @reduce_min_ui32(
// CHECK: %[[INIT:.*]] = "stablehlo.constant"() {value = dense<4294967295> : tensor<ui32>} : () -> tensor<ui32>
// CHECK: "stablehlo.reduce"(%{{.*}}, %[[INIT]]) ({
// CHECK: "stablehlo.minimum"(%{{.*}}, %{{.*}}) : (tensor<ui32>, tensor<ui32>) -> tensor<ui32>
// CHECK: {dimensions = array<i64: 1>} : (tensor<2x3xui32>, tensor<ui32>) -> tensor<2xui32>
func.func @reduce_min_ui32(%x: tensor<2x3xui32>) -> tensor<2xui32> {
  %0 = mlax.reduce_min %x, axes = [1] : tensor<2x3xui32> -> tensor<2xui32>
  return %0 : tensor<2xui32>
}

// CHECK-LABEL: func.func @reduce_min_bool(
// CHECK: %[[INIT:.*]] = "stablehlo.constant"() {value = dense<true> : tensor<i1>} : () -> tensor<i1>
// CHECK: "stablehlo.reduce"(%{{.*}}, %[[INIT]]) ({
// CHECK: "stablehlo.minimum"(%{{.*}}, %{{.*}}) : (tensor<i1>, tensor<i1>) -> tensor<i1>
// CHECK: {dimensions = array<i64: 1>} : (tensor<2x3xi1>, tensor<i1>) -> tensor<2xi1>
func.func @reduce_min_bool(%x: tensor<2x3xi1>) -> tensor<2xi1> {
  %0 = mlax.reduce_min %x, axes = [1] : tensor<2x3xi1> -> tensor<2xi1>
  return %0 : tensor<2xi1>
}

// CHECK-LABEL: func.func @reduce_and(
// CHECK: %[[INIT:.*]] = "stablehlo.constant"() {value = dense<true> : tensor<i1>} : () -> tensor<i1>
// CHECK: "stablehlo.reduce"(%{{.*}}, %[[INIT]]) ({
// CHECK: "stablehlo.and"(%{{.*}}, %{{.*}}) : (tensor<i1>, tensor<i1>) -> tensor<i1>
// CHECK: {dimensions = array<i64: 1>} : (tensor<2x3xi1>, tensor<i1>) -> tensor<2xi1>
func.func @reduce_and(%x: tensor<2x3xi1>) -> tensor<2xi1> {
  %0 = mlax.reduce_and %x, axes = [1] : tensor<2x3xi1> -> tensor<2xi1>
  return %0 : tensor<2xi1>
}

// CHECK-LABEL: func.func @reduce_or(
// CHECK: %[[INIT:.*]] = "stablehlo.constant"() {value = dense<false> : tensor<i1>} : () -> tensor<i1>
// CHECK: "stablehlo.reduce"(%{{.*}}, %[[INIT]]) ({
// CHECK: "stablehlo.or"(%{{.*}}, %{{.*}}) : (tensor<i1>, tensor<i1>) -> tensor<i1>
// CHECK: {dimensions = array<i64: 1>} : (tensor<2x3xi1>, tensor<i1>) -> tensor<2xi1>
func.func @reduce_or(%x: tensor<2x3xi1>) -> tensor<2xi1> {
  %0 = mlax.reduce_or %x, axes = [1] : tensor<2x3xi1> -> tensor<2xi1>
  return %0 : tensor<2xi1>
}

// CHECK-LABEL: func.func @reduce_sum_all_axes(
// CHECK: "stablehlo.reduce"(%{{.*}}, %{{.*}}) ({
// CHECK: {dimensions = array<i64: 0, 2>} : (tensor<2x3x4xf32>, tensor<f32>) -> tensor<3xf32>
func.func @reduce_sum_all_axes(%x: tensor<2x3x4xf32>) -> tensor<3xf32> {
  %0 = mlax.reduce_sum %x, axes = [0, 2] : tensor<2x3x4xf32> -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

//===----------------------------------------------------------------------===//
// dot_general: #stablehlo.dot without its empty fields
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @dot_general_matmul(
// CHECK-SAME: %[[A:.*]]: tensor<2x3xf32>, %[[B:.*]]: tensor<3x4xf32>)
// CHECK: %[[R:.*]] = "stablehlo.dot_general"(%[[A]], %[[B]]) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>} : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
// CHECK: return %[[R]]
func.func @dot_general_matmul(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) -> tensor<2x4xf32> {
  %0 = mlax.dot_general %a, %b, batch = [] x [], contract = [1] x [0] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// CHECK-LABEL: func.func @dot_general_batched(
// CHECK: "stablehlo.dot_general"(%{{.*}}, %{{.*}}) {dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>} : (tensor<5x2x3xf32>, tensor<5x3x4xf32>) -> tensor<5x2x4xf32>
func.func @dot_general_batched(%a: tensor<5x2x3xf32>, %b: tensor<5x3x4xf32>) -> tensor<5x2x4xf32> {
  %0 = mlax.dot_general %a, %b, batch = [0] x [0], contract = [2] x [1] : (tensor<5x2x3xf32>, tensor<5x3x4xf32>) -> tensor<5x2x4xf32>
  return %0 : tensor<5x2x4xf32>
}

// CHECK-LABEL: func.func @dot_general_vector_dot(
// CHECK: "stablehlo.dot_general"(%{{.*}}, %{{.*}}) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0]>} : (tensor<3xf32>, tensor<3xf32>) -> tensor<f32>
func.func @dot_general_vector_dot(%a: tensor<3xf32>, %b: tensor<3xf32>) -> tensor<f32> {
  %0 = mlax.dot_general %a, %b, batch = [] x [], contract = [0] x [0] : (tensor<3xf32>, tensor<3xf32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// CHECK-LABEL: func.func @dot_general_outer(
// CHECK: "stablehlo.dot_general"(%{{.*}}, %{{.*}}) {dot_dimension_numbers = #stablehlo.dot<>} : (tensor<3xf32>, tensor<4xf32>) -> tensor<3x4xf32>
func.func @dot_general_outer(%a: tensor<3xf32>, %b: tensor<4xf32>) -> tensor<3x4xf32> {
  %0 = mlax.dot_general %a, %b, batch = [] x [], contract = [] x [] : (tensor<3xf32>, tensor<4xf32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// CHECK-LABEL: func.func @dot_general_batch_only(
// CHECK: "stablehlo.dot_general"(%{{.*}}, %{{.*}}) {dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0]>} : (tensor<5x3xf32>, tensor<5x4xf32>) -> tensor<5x3x4xf32>
func.func @dot_general_batch_only(%a: tensor<5x3xf32>, %b: tensor<5x4xf32>) -> tensor<5x3x4xf32> {
  %0 = mlax.dot_general %a, %b, batch = [0] x [0], contract = [] x [] : (tensor<5x3xf32>, tensor<5x4xf32>) -> tensor<5x3x4xf32>
  return %0 : tensor<5x3x4xf32>
}

// CHECK-LABEL: func.func @dot_general_preferred_type(
// CHECK: "stablehlo.dot_general"(%{{.*}}, %{{.*}}) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>} : (tensor<2x3xi8>, tensor<3x4xi8>) -> tensor<2x4xi32>
func.func @dot_general_preferred_type(%a: tensor<2x3xi8>, %b: tensor<3x4xi8>) -> tensor<2x4xi32> {
  %0 = mlax.dot_general %a, %b, batch = [] x [], contract = [1] x [0] : (tensor<2x3xi8>, tensor<3x4xi8>) -> tensor<2x4xi32>
  return %0 : tensor<2x4xi32>
}

//===----------------------------------------------------------------------===//
// call
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func private @callee(tensor<4xf32>, tensor<i32>) -> tensor<4xf32>
func.func private @callee(%x: tensor<4xf32>, %y: tensor<i32>) -> tensor<4xf32>

// CHECK-LABEL: func.func @call(
// CHECK-SAME: %[[X:.*]]: tensor<4xf32>, %[[Y:.*]]: tensor<i32>)
// CHECK: %[[R:.*]] = call @callee(%[[X]], %[[Y]]) : (tensor<4xf32>, tensor<i32>) -> tensor<4xf32>
// CHECK: return %[[R]] : tensor<4xf32>
func.func @call(%x: tensor<4xf32>, %y: tensor<i32>) -> tensor<4xf32> {
  %0 = mlax.call @callee(%x, %y) : (tensor<4xf32>, tensor<i32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// The callee's body is lowered too.
// CHECK-LABEL: func.func private @square(
// CHECK: "stablehlo.multiply"
func.func private @square(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mlax.mul %x, %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @call_defined(
// CHECK: call @square(%{{.*}}) : (tensor<4xf32>) -> tensor<4xf32>
func.func @call_defined(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mlax.call @square(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

//===----------------------------------------------------------------------===//
// Chains of ops lower together, with the values wired through
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @chain(
// CHECK-SAME: %[[X:.*]]: tensor<4xf32>)
// CHECK: %[[E:.*]] = "stablehlo.exponential"(%[[X]])
// CHECK: %[[B:.*]] = "stablehlo.broadcast_in_dim"(%[[E]]) {broadcast_dimensions = array<i64: 1>} : (tensor<4xf32>) -> tensor<2x4xf32>
// CHECK: %[[S:.*]] = "stablehlo.reduce"(%[[B]], %{{.*}})
// CHECK: return %[[S]] : tensor<4xf32>
func.func @chain(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mlax.exp %x : tensor<4xf32>
  %1 = mlax.broadcast_in_dim %0, dims = [1] : tensor<4xf32> -> tensor<2x4xf32>
  %2 = mlax.reduce_sum %1, axes = [0] : tensor<2x4xf32> -> tensor<4xf32>
  return %2 : tensor<4xf32>
}
