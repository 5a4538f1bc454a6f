// #mlax.sharding and mlax.sharding_constraint parse, verify and print back,
// on ops and on function arguments and results (`mlax.sharding`).
//
// RUN: mlax-opt %s | mlax-opt | FileCheck %s
// RUN: mlax-opt %s --mlir-print-op-generic | mlax-opt | FileCheck %s

// CHECK-LABEL: func.func @constraints(
// CHECK-SAME: %[[X:[^:]*]]: tensor<8x8xf32>
// CHECK-NEXT: %[[A:.*]] = mlax.sharding_constraint %[[X]] {sharding = #mlax.sharding<["data"=4, "model"=2], [{"data"}, {}]>} : tensor<8x8xf32>
// CHECK-NEXT: %[[B:.*]] = mlax.sharding_constraint %[[A]] {sharding = #mlax.sharding<["data"=4, "model"=2], [{}, {"model"}]>} : tensor<8x8xf32>
// CHECK-NEXT: %[[C:.*]] = mlax.sharding_constraint %[[B]] {sharding = #mlax.sharding<["data"=4, "model"=2], [{"data", "model"}]>} : tensor<8x8xf32>
// CHECK-NEXT: %[[D:.*]] = mlax.sharding_constraint %[[C]] {sharding = #mlax.sharding<["data"=4, "model"=2], []>} : tensor<8x8xf32>
// CHECK-NEXT: %[[E:.*]] = mlax.sharding_constraint %[[D]] {sharding = #mlax.sharding<["x"=1], [{"x"}, {}]>} : tensor<8x8xf32>
// CHECK-NEXT: return %[[E]]
func.func @constraints(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %a = mlax.sharding_constraint %x {sharding = #mlax.sharding<["data"=4, "model"=2], [{"data"}, {}]>} : tensor<8x8xf32>
  %b = mlax.sharding_constraint %a {sharding = #mlax.sharding<["data" = 4, "model" = 2], [{}, {"model"}]>} : tensor<8x8xf32>
  %c = mlax.sharding_constraint %b {sharding = #mlax.sharding<["data"=4, "model"=2], [{"data", "model"}]>} : tensor<8x8xf32>
  %d = mlax.sharding_constraint %c {sharding = #mlax.sharding<["data"=4, "model"=2], []>} : tensor<8x8xf32>
  %e = mlax.sharding_constraint %d {sharding = #mlax.sharding<["x"=1], [{"x"}, {}]>} : tensor<8x8xf32>
  return %e : tensor<8x8xf32>
}

// Scalars, integers and booleans take shardings too (with an empty spec).
// CHECK-LABEL: func.func @other_types(
// CHECK: mlax.sharding_constraint %{{.*}} {sharding = #mlax.sharding<["x"=8], []>} : tensor<f32>
// CHECK: mlax.sharding_constraint %{{.*}} {sharding = #mlax.sharding<["x"=8], [{"x"}]>} : tensor<16xi32>
// CHECK: mlax.sharding_constraint %{{.*}} {sharding = #mlax.sharding<["x"=8], [{}, {"x"}]>} : tensor<3x8xi1>
func.func @other_types(%s: tensor<f32>, %i: tensor<16xi32>, %p: tensor<3x8xi1>)
    -> (tensor<f32>, tensor<16xi32>, tensor<3x8xi1>) {
  %0 = mlax.sharding_constraint %s {sharding = #mlax.sharding<["x"=8], []>} : tensor<f32>
  %1 = mlax.sharding_constraint %i {sharding = #mlax.sharding<["x"=8], [{"x"}]>} : tensor<16xi32>
  %2 = mlax.sharding_constraint %p {sharding = #mlax.sharding<["x"=8], [{}, {"x"}]>} : tensor<3x8xi1>
  return %0, %1, %2 : tensor<f32>, tensor<16xi32>, tensor<3x8xi1>
}

// Function arguments and results; other attributes beside them stay.
// CHECK-LABEL: func.func @args(
// CHECK-SAME: %{{[^:]*}}: tensor<8x6xf32> {mlax.sharding = #mlax.sharding<["data"=4, "model"=2], [{"data"}]>},
// CHECK-SAME: %{{[^:]*}}: tensor<6xf32> {mlax.other = 1 : i64, mlax.sharding = #mlax.sharding<["data"=4, "model"=2], [{"model"}]>},
// CHECK-SAME: %{{[^:]*}}: tensor<f32>)
// CHECK-SAME: -> (tensor<8x6xf32> {mlax.sharding = #mlax.sharding<["data"=4, "model"=2], [{"data", "model"}, {}]>}, tensor<f32>)
func.func @args(%x: tensor<8x6xf32> {mlax.sharding = #mlax.sharding<["data"=4, "model"=2], [{"data"}]>},
                %y: tensor<6xf32> {mlax.sharding = #mlax.sharding<["data"=4, "model"=2], [{"model"}]>, mlax.other = 1},
                %z: tensor<f32>)
    -> (tensor<8x6xf32> {mlax.sharding = #mlax.sharding<["data"=4, "model"=2], [{"data", "model"}, {}]>}, tensor<f32>) {
  return %x, %z : tensor<8x6xf32>, tensor<f32>
}

// A declaration's arguments and results are checked and printed alike.
// CHECK-LABEL: func.func private @declared(
// CHECK-SAME: tensor<4xf32> {mlax.sharding = #mlax.sharding<["a"=2, "b"=2], [{"b", "a"}]>})
func.func private @declared(tensor<4xf32> {mlax.sharding = #mlax.sharding<["a"=2, "b"=2], [{"b", "a"}]>})

// Axis names are strings: any characters, escaped when printed.
// CHECK-LABEL: func.func @names(
// CHECK: #mlax.sharding<["a b"=2, "q\22x"=2], [{"q\22x"}, {"a b"}]>
func.func @names(%x: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %0 = mlax.sharding_constraint %x {sharding = #mlax.sharding<["a b"=2, "q\"x"=2], [{"q\"x"}, {"a b"}]>} : tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}
