// The custom form of mlax.select_n infers its result type from the cases'
// types while parsing, before the type constraints are checked. Cases that
// are not ranked tensors must get the same diagnostic as in the generic form
// (the type constraint), not a crash or a message built from a bogus shape.
//
// RUN: mlax-opt %s --split-input-file --verify-diagnostics

func.func @select_n_scalar_case(%p: tensor<4xi1>, %a: i32) {
  // expected-error @+1 {{'mlax.select_n' op operand #1 must be variadic of statically shaped tensor of floating-point or signless integer or unsigned integer or complex-type values, but got 'i32'}}
  %0 = mlax.select_n %p, %a : tensor<4xi1>, i32
  return
}

// -----

func.func @select_n_float_cases(%p: tensor<i1>, %a: f32, %b: f32) {
  // expected-error @+1 {{'mlax.select_n' op operand #1 must be variadic of statically shaped tensor of floating-point or signless integer or unsigned integer or complex-type values, but got 'f32'}}
  %0 = mlax.select_n %p, %a, %b : tensor<i1>, f32, f32
  return
}

// -----

func.func @select_n_unranked_cases(%p: tensor<4xi1>, %a: tensor<*xf32>) {
  // expected-error @+1 {{'mlax.select_n' op operand #1 must be variadic of statically shaped tensor of floating-point or signless integer or unsigned integer or complex-type values, but got 'tensor<*xf32>'}}
  %0 = mlax.select_n %p, %a, %a : tensor<4xi1>, tensor<*xf32>, tensor<*xf32>
  return
}

// -----

func.func @select_n_memref_cases(%p: tensor<4xi1>, %a: memref<4xf32>) {
  // expected-error @+1 {{'mlax.select_n' op operand #1 must be variadic of statically shaped tensor of floating-point or signless integer or unsigned integer or complex-type values, but got 'memref<4xf32>'}}
  %0 = mlax.select_n %p, %a, %a : tensor<4xi1>, memref<4xf32>, memref<4xf32>
  return
}

// -----

// The same inputs in the generic form, for comparison.
func.func @select_n_scalar_case_generic(%p: tensor<4xi1>, %a: i32) {
  // expected-error @+1 {{'mlax.select_n' op operand #1 must be variadic of statically shaped tensor of floating-point or signless integer or unsigned integer or complex-type values, but got 'i32'}}
  %0 = "mlax.select_n"(%p, %a) : (tensor<4xi1>, i32) -> i32
  return
}

// -----

func.func @select_n_unranked_cases_generic(%p: tensor<4xi1>, %a: tensor<*xf32>) {
  // expected-error @+1 {{'mlax.select_n' op operand #1 must be variadic of statically shaped tensor of floating-point or signless integer or unsigned integer or complex-type values, but got 'tensor<*xf32>'}}
  %0 = "mlax.select_n"(%p, %a, %a) : (tensor<4xi1>, tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
  return
}

// -----

// The other ops whose custom form infers the result type check the operand
// type's kind while parsing.
func.func @compare_vector(%x: vector<4xf32>) {
  // expected-error @+1 {{custom op 'mlax.compare' invalid kind of type specified: expected builtin.tensor, but found 'vector<4xf32>'}}
  %0 = mlax.compare EQ, %x, %x : vector<4xf32>
  return
}

// -----

func.func @is_finite_unranked(%x: tensor<*xf32>) {
  // expected-error @+1 {{custom op 'mlax.is_finite' invalid kind of type specified: expected builtin.tensor, but found 'tensor<*xf32>'}}
  %0 = mlax.is_finite %x : tensor<*xf32>
  return
}

// -----

func.func @select_n_which_memref(%p: memref<4xi1>, %a: tensor<4xf32>) {
  // expected-error @+1 {{custom op 'mlax.select_n' invalid kind of type specified: expected builtin.tensor, but found 'memref<4xi1>'}}
  %0 = mlax.select_n %p, %a, %a : memref<4xi1>, tensor<4xf32>, tensor<4xf32>
  return
}
