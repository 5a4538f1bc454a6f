// Errors of #mlax.sharding, of mlax.sharding_constraint and of `mlax.sharding`
// on function arguments and results: each names the axis or dimension at
// fault.
//
// RUN: mlax-opt %s --split-input-file --verify-diagnostics

func.func @unknown_axis(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-error @+1 {{sharding spec names mesh axis "x", which is not in the mesh ["data"=4, "model"=2]}}
  %0 = mlax.sharding_constraint %x {sharding = #mlax.sharding<["data"=4, "model"=2], [{"x"}]>} : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

func.func @axis_used_twice(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-error @+1 {{sharding spec uses mesh axis "data" twice}}
  %0 = mlax.sharding_constraint %x {sharding = #mlax.sharding<["data"=4, "model"=2], [{"data"}, {"model", "data"}]>} : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

func.func @axis_twice_in_one_entry(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-error @+1 {{sharding spec uses mesh axis "model" twice}}
  %0 = mlax.sharding_constraint %x {sharding = #mlax.sharding<["data"=4, "model"=2], [{"model", "model"}]>} : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

func.func @not_divisible(%x: tensor<6x8xf32>) -> tensor<6x8xf32> {
  // expected-error @+1 {{'mlax.sharding_constraint' op dimension 0 of size 6 is not divisible by 4, the size of mesh axes {"data"}}}
  %0 = mlax.sharding_constraint %x {sharding = #mlax.sharding<["data"=4, "model"=2], [{"data"}, {}]>} : tensor<6x8xf32>
  return %0 : tensor<6x8xf32>
}

// -----

func.func @not_divisible_by_two_axes(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  // expected-error @+1 {{'mlax.sharding_constraint' op dimension 1 of size 4 is not divisible by 8, the size of mesh axes {"model", "data"}}}
  %0 = mlax.sharding_constraint %x {sharding = #mlax.sharding<["data"=4, "model"=2], [{}, {"model", "data"}]>} : tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

func.func @spec_longer_than_rank(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'mlax.sharding_constraint' op sharding spec has 2 entries, more than the rank 1 of 'tensor<8xf32>'}}
  %0 = mlax.sharding_constraint %x {sharding = #mlax.sharding<["data"=4, "model"=2], [{"data"}, {}]>} : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @scalar_split(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'mlax.sharding_constraint' op sharding spec has 1 entries, more than the rank 0 of 'tensor<f32>'}}
  %0 = mlax.sharding_constraint %x {sharding = #mlax.sharding<["data"=4], [{}]>} : tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @missing_sharding(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'mlax.sharding_constraint' op requires attribute 'sharding'}}
  %0 = mlax.sharding_constraint %x : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @not_a_sharding(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'mlax.sharding_constraint' op attribute 'sharding' failed to satisfy constraint}}
  %0 = mlax.sharding_constraint %x {sharding = "data"} : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

//===--- the mesh ---------------------------------------------------------===//

// expected-error @+1 {{a sharding's mesh needs at least one axis}}
func.func @empty_mesh(%x: tensor<8xf32> {mlax.sharding = #mlax.sharding<[], []>}) {
  return
}

// -----

// expected-error @+1 {{mesh axis "data" appears twice in the mesh}}
func.func @duplicate_mesh_axis(%x: tensor<8xf32> {mlax.sharding = #mlax.sharding<["data"=2, "data"=2], []>}) {
  return
}

// -----

// expected-error @+1 {{mesh axis "data" has size 0; sizes must be at least 1}}
func.func @zero_size(%x: tensor<8xf32> {mlax.sharding = #mlax.sharding<["data"=0], []>}) {
  return
}

// -----

//===--- function arguments and results ----------------------------------===//

// expected-error @+1 {{'func.func' op argument #1: dimension 0 of size 6 is not divisible by 4, the size of mesh axes {"data"}}}
func.func @arg_not_divisible(%x: tensor<8xf32>, %y: tensor<6xf32> {mlax.sharding = #mlax.sharding<["data"=4], [{"data"}]>}) {
  return
}

// -----

// expected-error @+1 {{'func.func' op result #0: sharding spec has 2 entries, more than the rank 1 of 'tensor<8xf32>'}}
func.func @result_longer_than_rank(%x: tensor<8xf32>) -> (tensor<8xf32> {mlax.sharding = #mlax.sharding<["data"=4], [{"data"}, {}]>}) {
  return %x : tensor<8xf32>
}

// -----

// expected-error @+1 {{'func.func' op argument #0: 'mlax.sharding' must be a #mlax.sharding attribute, got "data"}}
func.func @arg_not_a_sharding(%x: tensor<8xf32> {mlax.sharding = "data"}) {
  return
}

// -----

// expected-error @+1 {{'func.func' op argument #0: a sharding applies to statically shaped tensors, not 'i32'}}
func.func private @arg_not_a_tensor(i32 {mlax.sharding = #mlax.sharding<["data"=4], []>})

// -----

//===--- malformed text ---------------------------------------------------===//

// expected-error @+1 {{expected '=' and the size of mesh axis "data"}}
func.func @no_size(%x: tensor<8xf32> {mlax.sharding = #mlax.sharding<["data"], []>}) {
  return
}

// -----

// expected-error @+1 {{expected a mesh axis name (a string) in the mesh list}}
func.func @unquoted_mesh_axis(%x: tensor<8xf32> {mlax.sharding = #mlax.sharding<[data=4], []>}) {
  return
}

// -----

// expected-error @+1 {{expected a mesh axis name (a string) in a spec entry}}
func.func @unquoted_spec_axis(%x: tensor<8xf32> {mlax.sharding = #mlax.sharding<["data"=4], [{data}]>}) {
  return
}

// -----

// expected-error @+1 {{expected '{' in a spec entry}}
func.func @list_spec_entry(%x: tensor<8xf32> {mlax.sharding = #mlax.sharding<["data"=4], [["data"]]>}) {
  return
}

// -----

// expected-error @+1 {{expected ','}}
func.func @no_spec(%x: tensor<8xf32> {mlax.sharding = #mlax.sharding<["data"=4]>}) {
  return
}

// -----

// expected-error @+1 {{expected integer value}}
func.func @size_not_an_integer(%x: tensor<8xf32> {mlax.sharding = #mlax.sharding<["data"=x], []>}) {
  return
}
