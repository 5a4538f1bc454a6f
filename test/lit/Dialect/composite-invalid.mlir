// Verifier errors of mlax.composite: StableHLO's rule for the name, and the
// decomposition's signature.
//
// RUN: mlax-opt %s --split-input-file --verify-diagnostics

func.func private @f(%x: tensor<f32>) -> tensor<f32> {
  return %x : tensor<f32>
}
func.func @name_without_namespace(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'mlax.composite' op name must be a valid namespaced op name, i.e. it must match the regular expression ^[a-zA-Z][a-zA-Z0-9_]*([.][a-zA-Z0-9_$]+)+$ (e.g. "my_namespace.my_op"), got "tangent"}}
  %r = mlax.composite "tangent" @f(%x) : (tensor<f32>) -> tensor<f32>
  return %r : tensor<f32>
}

// -----

func.func private @f(%x: tensor<f32>) -> tensor<f32> {
  return %x : tensor<f32>
}
func.func @name_leading_digit(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'mlax.composite' op name must be a valid namespaced op name}}
  %r = mlax.composite "1my.op" @f(%x) : (tensor<f32>) -> tensor<f32>
  return %r : tensor<f32>
}

// -----

func.func private @f(%x: tensor<f32>) -> tensor<f32> {
  return %x : tensor<f32>
}
func.func @name_empty_part(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'mlax.composite' op name must be a valid namespaced op name}}
  %r = mlax.composite "my." @f(%x) : (tensor<f32>) -> tensor<f32>
  return %r : tensor<f32>
}

// -----

func.func @no_decomposition(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'mlax.composite' op 'missing' does not name a func.func}}
  %r = mlax.composite "my.op" @missing(%x) : (tensor<f32>) -> tensor<f32>
  return %r : tensor<f32>
}

// -----

func.func private @f(%x: tensor<f32>) -> tensor<f32> {
  return %x : tensor<f32>
}
func.func @operand_types(%x: tensor<2xf32>) -> tensor<f32> {
  // expected-error @+1 {{'mlax.composite' op operand types do not match the decomposition's inputs '(tensor<f32>) -> tensor<f32>'}}
  %r = mlax.composite "my.op" @f(%x) : (tensor<2xf32>) -> tensor<f32>
  return %r : tensor<f32>
}

// -----

func.func private @f(%x: tensor<f32>) -> tensor<f32> {
  return %x : tensor<f32>
}
func.func @result_types(%x: tensor<f32>) -> tensor<i32> {
  // expected-error @+1 {{'mlax.composite' op result types do not match the decomposition's results '(tensor<f32>) -> tensor<f32>'}}
  %r = mlax.composite "my.op" @f(%x) : (tensor<f32>) -> tensor<i32>
  return %r : tensor<i32>
}

// -----

func.func private @f(%x: tensor<f32>) -> tensor<f32> {
  return %x : tensor<f32>
}
func.func @attributes_not_a_dictionary(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'mlax.composite' op attribute 'composite_attributes' failed to satisfy constraint: dictionary of named attribute values}}
  %r = mlax.composite "my.op" @f(%x) {composite_attributes = [1]} : (tensor<f32>) -> tensor<f32>
  return %r : tensor<f32>
}

// -----

func.func private @f(%x: tensor<f32>) -> tensor<f32> {
  return %x : tensor<f32>
}
func.func @version_not_i32(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'mlax.composite' op attribute 'version' failed to satisfy constraint: 32-bit signless integer attribute}}
  %r = mlax.composite "my.op" @f(%x) {version = 1 : i64} : (tensor<f32>) -> tensor<f32>
  return %r : tensor<f32>
}
