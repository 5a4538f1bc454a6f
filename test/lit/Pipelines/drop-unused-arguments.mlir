// mlax-drop-unused-arguments erases the arguments @main does not use and
// records the kept ones on @main; it is the last pass of the default
// pipeline, so what that pipeline prints is what XLA compiles.
//
// RUN: mlax-opt %s --split-input-file --mlax-drop-unused-arguments | FileCheck %s
// RUN: mlax-opt %s --split-input-file --mlax-default-pipeline | FileCheck %s --check-prefix=PIPE

// CHECK-LABEL: func.func @main(
// CHECK-SAME: %[[B:[^:]*]]: tensor<2xf32>) -> tensor<2xf32> attributes {mlax.kept_arguments = array<i64: 1>} {
// CHECK-NEXT: return %[[B]] : tensor<2xf32>
// PIPE-LABEL: func.func @main(
// PIPE-SAME: %[[B:[^:]*]]: tensor<2xf32>) -> tensor<2xf32> attributes {mlax.kept_arguments = array<i64: 1>} {
// PIPE-NEXT: return %[[B]] : tensor<2xf32>
func.func @main(%a: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<2xf32> {
  return %b : tensor<2xf32>
}

// -----

// Several unused, in any position; the order of the kept ones is kept.
// CHECK-LABEL: func.func @main(
// CHECK-SAME: %[[B:[^:]*]]: tensor<i32>, %[[D:[^:]*]]: tensor<f32>) -> (tensor<f32>, tensor<i32>) attributes {mlax.kept_arguments = array<i64: 1, 3>} {
// CHECK-NEXT: return %[[D]], %[[B]] : tensor<f32>, tensor<i32>
func.func @main(%a: tensor<f32>, %b: tensor<i32>, %c: tensor<3xf32>, %d: tensor<f32>, %e: tensor<f32>) -> (tensor<f32>, tensor<i32>) {
  return %d, %b : tensor<f32>, tensor<i32>
}

// -----

// Every argument used: nothing changes and nothing is recorded.
// CHECK-LABEL: func.func @main(
// CHECK-SAME: %{{[^:]*}}: tensor<f32>, %{{[^:]*}}: tensor<f32>) -> tensor<f32> {
// CHECK-NOT: mlax.kept_arguments
func.func @main(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = mlax.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}

// -----

// An argument used only by an op the pipeline folds away is unused after it.
// PIPE-LABEL: func.func @main(%{{[^:]*}}: tensor<f32>) -> tensor<f32> attributes {mlax.kept_arguments = array<i64: 1>} {
// PIPE-NEXT: return %arg0 : tensor<f32>
func.func @main(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = mlax.mul %a, %b : tensor<f32>
  return %b : tensor<f32>
}

// -----

// All unused: @main takes nothing (an empty list of kept arguments).
// CHECK-LABEL: func.func @main() -> tensor<f32> attributes {mlax.kept_arguments = array<i64>} {
func.func @main(%a: tensor<f32>) -> tensor<f32> {
  %0 = mlax.constant dense<1.0> : tensor<f32>
  return %0 : tensor<f32>
}

// -----

// Argument attributes are positional: such a signature is left alone.
// CHECK-LABEL: func.func @main(
// CHECK-SAME: %{{[^:]*}}: tensor<f32> {mlax.donated}, %{{[^:]*}}: tensor<f32>) -> tensor<f32> {
// CHECK-NOT: mlax.kept_arguments
func.func @main(%a: tensor<f32> {mlax.donated}, %b: tensor<f32>) -> tensor<f32> {
  return %b : tensor<f32>
}

// -----

// Shardings too: the default pipeline lowers them to mhlo.sharding and keeps
// every argument, so each attribute stays with its argument.
// CHECK-LABEL: func.func @main(
// CHECK-SAME: %{{[^:]*}}: tensor<8xf32> {mlax.sharding = #mlax.sharding<["x"=2], [{"x"}]>}, %{{[^:]*}}: tensor<8xf32> {mlax.sharding = #mlax.sharding<["x"=2], []>}) -> tensor<8xf32> {
// CHECK-NOT: mlax.kept_arguments
// PIPE-LABEL: module attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 1 : i32}
// PIPE-NEXT: func.func @main(%{{[^:]*}}: tensor<8xf32> {mhlo.sharding = "{devices=[2]<=[2]}"}, %{{[^:]*}}: tensor<8xf32> {mhlo.sharding = "{replicated}"}) -> tensor<8xf32> {
// PIPE-NOT: mlax.kept_arguments
func.func @main(%a: tensor<8xf32> {mlax.sharding = #mlax.sharding<["x"=2], [{"x"}]>},
                %b: tensor<8xf32> {mlax.sharding = #mlax.sharding<["x"=2], []>}) -> tensor<8xf32> {
  return %b : tensor<8xf32>
}

// -----

// Only @main: other functions keep their signatures.
// CHECK-LABEL: func.func @other(
// CHECK-SAME: %{{[^:]*}}: tensor<f32>, %{{[^:]*}}: tensor<f32>) -> tensor<f32> {
// CHECK-NOT: mlax.kept_arguments
func.func @other(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  return %b : tensor<f32>
}
