// Lowering of the elementwise ops to (generic-form, unregistered) StableHLO.
//
// RUN: mlax-opt %s --convert-mlax-to-stablehlo | FileCheck %s
// RUN: mlax-opt %s --convert-mlax-to-stablehlo | FileCheck %s --check-prefix=NOMLAX
// RUN: mlax-opt %s --convert-mlax-to-stablehlo | %PYTHON -m mlax.tools.compile_stablehlo --verify-only -
//
// NOMLAX-NOT: mlax.

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

// CHECK-LABEL: func.func @reduce_precision(
// CHECK-SAME: %[[X:.*]]: tensor<4xf32>)
// CHECK: %[[R:.*]] = "stablehlo.reduce_precision"(%[[X]]) {exponent_bits = 5 : i32, mantissa_bits = 10 : i32} : (tensor<4xf32>) -> tensor<4xf32>
// CHECK: return %[[R]] : tensor<4xf32>
func.func @reduce_precision(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mlax.reduce_precision %x {exponent_bits = 5 : i32, mantissa_bits = 10 : i32} : tensor<4xf32>
  return %0 : tensor<4xf32>
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
// A NaN splat operand of + - * / lowers to the NaN the result is (XLA's CPU
// code for exp of a value LLVM proves NaN gives garbage)
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @mul_nan(
// The first constant is the operand's own lowering, left dead.
// CHECK-NOT: stablehlo.multiply
// CHECK: "stablehlo.constant"() {value = dense<0x7FC00000> : tensor<4xf32>}
// CHECK-NEXT: %[[N:.*]] = "stablehlo.constant"() {value = dense<0x7FC00000> : tensor<4xf32>}
// CHECK-NEXT: %[[E:.*]] = "stablehlo.exponential"(%[[N]])
// CHECK-NEXT: return %[[E]]
func.func @mul_nan(%x: tensor<4xf32>) -> tensor<4xf32> {
  %nan = mlax.constant dense<0x7FC00000> : tensor<4xf32>
  %0 = mlax.mul %x, %nan : tensor<4xf32>
  %1 = mlax.exp %0 : tensor<4xf32>
  return %1 : tensor<4xf32>
}

// NaN on the left, a signalling NaN, bfloat16: a quiet NaN of the type.
// CHECK-LABEL: func.func @sub_nan_left(
// CHECK-NOT: stablehlo.subtract
// CHECK: "stablehlo.constant"() {value = dense<0x7FC0> : tensor<3xbf16>}
// CHECK-NOT: stablehlo.subtract
// CHECK: return
func.func @sub_nan_left(%x: tensor<3xbf16>) -> tensor<3xbf16> {
  %nan = mlax.constant dense<0x7F81> : tensor<3xbf16>
  %0 = mlax.sub %nan, %x : tensor<3xbf16>
  return %0 : tensor<3xbf16>
}

// Other constants, and integers, keep the op.
// CHECK-LABEL: func.func @div_inf(
// CHECK: "stablehlo.divide"
func.func @div_inf(%x: tensor<2xf32>) -> tensor<2xf32> {
  %inf = mlax.constant dense<0x7F800000> : tensor<2xf32>
  %0 = mlax.div %x, %inf : tensor<2xf32>
  return %0 : tensor<2xf32>
}
