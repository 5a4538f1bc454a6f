// Round trip of the reductions' custom assembly format:
// parse, print, parse the printed form again, print again.
//
// RUN: mlax-opt %s | mlax-opt | FileCheck %s
//
// The generic form must parse back into the same ops:
// RUN: mlax-opt %s --mlir-print-op-generic | mlax-opt | FileCheck %s
// RUN: mlax-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @reduce_sum(
// CHECK-SAME: %[[X:.*]]: tensor<2x3x4xf32>)
// CHECK: %[[R:.*]] = mlax.reduce_sum %[[X]], axes = [0, 2] : tensor<2x3x4xf32> -> tensor<3xf32>
// CHECK: return %[[R]] : tensor<3xf32>
func.func @reduce_sum(%x: tensor<2x3x4xf32>) -> tensor<3xf32> {
  %0 = mlax.reduce_sum %x, axes = [0, 2] : tensor<2x3x4xf32> -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// CHECK-LABEL: func.func @reduce_prod(
// CHECK-SAME: %[[X:.*]]: tensor<2x3x4xi32>)
// CHECK: %[[R:.*]] = mlax.reduce_prod %[[X]], axes = [0, 2] : tensor<2x3x4xi32> -> tensor<3xi32>
// CHECK: return %[[R]] : tensor<3xi32>
func.func @reduce_prod(%x: tensor<2x3x4xi32>) -> tensor<3xi32> {
  %0 = mlax.reduce_prod %x, axes = [0, 2] : tensor<2x3x4xi32> -> tensor<3xi32>
  return %0 : tensor<3xi32>
}

// CHECK-LABEL: func.func @reduce_max(
// CHECK-SAME: %[[X:.*]]: tensor<2x3x4xf32>)
// CHECK: %[[R:.*]] = mlax.reduce_max %[[X]], axes = [0, 2] : tensor<2x3x4xf32> -> tensor<3xf32>
// CHECK: return %[[R]] : tensor<3xf32>
func.func @reduce_max(%x: tensor<2x3x4xf32>) -> tensor<3xf32> {
  %0 = mlax.reduce_max %x, axes = [0, 2] : tensor<2x3x4xf32> -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// CHECK-LABEL: func.func @reduce_min(
// CHECK-SAME: %[[X:.*]]: tensor<2x3x4xui8>)
// CHECK: %[[R:.*]] = mlax.reduce_min %[[X]], axes = [0, 2] : tensor<2x3x4xui8> -> tensor<3xui8>
// CHECK: return %[[R]] : tensor<3xui8>
func.func @reduce_min(%x: tensor<2x3x4xui8>) -> tensor<3xui8> {
  %0 = mlax.reduce_min %x, axes = [0, 2] : tensor<2x3x4xui8> -> tensor<3xui8>
  return %0 : tensor<3xui8>
}

// CHECK-LABEL: func.func @reduce_and(
// CHECK-SAME: %[[X:.*]]: tensor<2x3x4xi1>)
// CHECK: %[[R:.*]] = mlax.reduce_and %[[X]], axes = [0, 2] : tensor<2x3x4xi1> -> tensor<3xi1>
// CHECK: return %[[R]] : tensor<3xi1>
func.func @reduce_and(%x: tensor<2x3x4xi1>) -> tensor<3xi1> {
  %0 = mlax.reduce_and %x, axes = [0, 2] : tensor<2x3x4xi1> -> tensor<3xi1>
  return %0 : tensor<3xi1>
}

// CHECK-LABEL: func.func @reduce_or(
// CHECK-SAME: %[[X:.*]]: tensor<2x3x4xi1>)
// CHECK: %[[R:.*]] = mlax.reduce_or %[[X]], axes = [0, 2] : tensor<2x3x4xi1> -> tensor<3xi1>
// CHECK: return %[[R]] : tensor<3xi1>
func.func @reduce_or(%x: tensor<2x3x4xi1>) -> tensor<3xi1> {
  %0 = mlax.reduce_or %x, axes = [0, 2] : tensor<2x3x4xi1> -> tensor<3xi1>
  return %0 : tensor<3xi1>
}

// GENERIC-LABEL: sym_name = "reduce_sum"
// GENERIC: "mlax.reduce_sum"(%{{.*}}) <{axes = array<i64: 0, 2>}> : (tensor<2x3x4xf32>) -> tensor<3xf32>

// CHECK-LABEL: func.func @reduce_sum_all(
// CHECK: mlax.reduce_sum %{{.*}}, axes = [0, 1] : tensor<2x3xf32> -> tensor<f32>
func.func @reduce_sum_all(%x: tensor<2x3xf32>) -> tensor<f32> {
  %0 = mlax.reduce_sum %x, axes = [0, 1] : tensor<2x3xf32> -> tensor<f32>
  return %0 : tensor<f32>
}

// CHECK-LABEL: func.func @reduce_max_no_axes(
// CHECK: mlax.reduce_max %{{.*}}, axes = [] : tensor<2x3xi32> -> tensor<2x3xi32>
func.func @reduce_max_no_axes(%x: tensor<2x3xi32>) -> tensor<2x3xi32> {
  %0 = mlax.reduce_max %x, axes = [] : tensor<2x3xi32> -> tensor<2x3xi32>
  return %0 : tensor<2x3xi32>
}

//===----------------------------------------------------------------------===//
// reduce (general, with a body)
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @reduce_general(
// CHECK-SAME: %[[X:.*]]: tensor<2x3xf32>, %[[I:.*]]: tensor<2x3xi32>, %[[A:.*]]: tensor<f32>, %[[B:.*]]: tensor<i32>)
// CHECK: %[[R:.*]]:2 = mlax.reduce(%[[X]], %[[I]]) init(%[[A]], %[[B]]) dimensions = [1] : (tensor<2x3xf32>, tensor<2x3xi32>, tensor<f32>, tensor<i32>) -> (tensor<2xf32>, tensor<2xi32>) {
// CHECK-NEXT: ^bb0(%[[P:.*]]: tensor<f32>, %[[PI:.*]]: tensor<i32>, %[[Q:.*]]: tensor<f32>, %[[QI:.*]]: tensor<i32>):
// CHECK-NEXT: %[[LT:.*]] = mlax.compare LT, %[[P]], %[[Q]] : tensor<f32>
// CHECK-NEXT: %[[M:.*]] = mlax.select_n %[[LT]], %[[P]], %[[Q]] : tensor<i1>, tensor<f32>, tensor<f32>
// CHECK-NEXT: %[[J:.*]] = mlax.select_n %[[LT]], %[[PI]], %[[QI]] : tensor<i1>, tensor<i32>, tensor<i32>
// CHECK-NEXT: mlax.yield %[[M]], %[[J]] : tensor<f32>, tensor<i32>
// CHECK-NEXT: }
// CHECK: return %[[R]]#0, %[[R]]#1 : tensor<2xf32>, tensor<2xi32>
// GENERIC-LABEL: sym_name = "reduce_general"
// GENERIC: "mlax.reduce"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{dimensions = array<i64: 1>}> ({
func.func @reduce_general(%x: tensor<2x3xf32>, %i: tensor<2x3xi32>, %a: tensor<f32>, %b: tensor<i32>)
    -> (tensor<2xf32>, tensor<2xi32>) {
  %r:2 = mlax.reduce(%x, %i) init(%a, %b) dimensions = [1]
      : (tensor<2x3xf32>, tensor<2x3xi32>, tensor<f32>, tensor<i32>) -> (tensor<2xf32>, tensor<2xi32>) {
  ^bb0(%p: tensor<f32>, %pi: tensor<i32>, %q: tensor<f32>, %qi: tensor<i32>):
    %lt = mlax.compare LT, %p, %q : tensor<f32>
    %m = mlax.select_n %lt, %p, %q : tensor<i1>, tensor<f32>, tensor<f32>
    %j = mlax.select_n %lt, %pi, %qi : tensor<i1>, tensor<i32>, tensor<i32>
    mlax.yield %m, %j : tensor<f32>, tensor<i32>
  }
  return %r#0, %r#1 : tensor<2xf32>, tensor<2xi32>
}

// CHECK-LABEL: func.func @reduce_general_all_dims(
// CHECK: mlax.reduce(%{{.*}}) init(%{{.*}}) dimensions = [0, 1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<f32> {
func.func @reduce_general_all_dims(%x: tensor<2x3xf32>, %a: tensor<f32>) -> tensor<f32> {
  %r = mlax.reduce(%x) init(%a) dimensions = [0, 1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<f32> {
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = mlax.mul %p, %q : tensor<f32>
    %t = mlax.add %s, %p : tensor<f32>
    mlax.yield %t : tensor<f32>
  }
  return %r : tensor<f32>
}
