// What mlax-vectorize refuses, with a diagnostic.
//
// RUN: mlax-opt %s --split-input-file --mlax-vectorize --verify-diagnostics

// expected-error @+1 {{'func.func' op mlax-vectorize: result #0 depends on the batch but its out_axes is none}}
func.func private @f(%x: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.sin %x : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @mapped_output_with_none(%xs: tensor<4x3xf32>) -> tensor<3xf32> {
  %r = mlax.vmap @f(%xs) in_axes = [0] out_axes = [-1] size = 4 : (tensor<4x3xf32>) -> tensor<3xf32>
  return %r : tensor<3xf32>
}

// -----

func.func private @opaque(%x: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'test.opaque' op has no batching rule (BatchableOpInterface); mlax-vectorize cannot batch it}}
  %0 = "test.opaque"(%x) : (tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @no_rule(%xs: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %r = mlax.vmap @opaque(%xs) in_axes = [0] out_axes = [0] size = 4 : (tensor<4x3xf32>) -> tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}

// -----

// Unbatched ops are copied unchanged, even ones without a rule.
func.func private @g(%x: tensor<3xf32>, %w: tensor<3xf32>) -> tensor<3xf32> {
  %0 = "test.opaque"(%w) : (tensor<3xf32>) -> tensor<3xf32>
  %1 = mlax.add %x, %0 : tensor<3xf32>
  return %1 : tensor<3xf32>
}
func.func @unbatched_copied(%xs: tensor<4x3xf32>, %w: tensor<3xf32>) -> tensor<4x3xf32> {
  %r = mlax.vmap @g(%xs, %w) in_axes = [0, -1] out_axes = [0] size = 4 : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}
