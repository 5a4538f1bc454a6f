// Verifier and shape-rule errors of the reductions. Every message names
// the op it is about.
//
// RUN: mlax-opt %s --split-input-file --verify-diagnostics

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//


func.func @reduce_axis_out_of_range(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{'mlax.reduce_sum' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.reduce_sum' op axis 2 is out of range for rank 2}}
  %0 = mlax.reduce_sum %x, axes = [2] : tensor<2x3xf32> -> tensor<2xf32>
  return
}

// -----

func.func @reduce_axis_negative(%x: tensor<2x3xi1>) {
  // expected-error @+2 {{'mlax.reduce_or' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.reduce_or' op axis -1 is out of range for rank 2}}
  %0 = mlax.reduce_or %x, axes = [-1] : tensor<2x3xi1> -> tensor<2xi1>
  return
}

// -----

func.func @reduce_axis_repeated(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{'mlax.reduce_max' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.reduce_max' op axis 1 appears twice}}
  %0 = mlax.reduce_max %x, axes = [1, 1] : tensor<2x3xf32> -> tensor<2xf32>
  return
}

// -----

func.func @reduce_axes_unsorted(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{'mlax.reduce_min' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.reduce_min' op axes must be sorted, got [1, 0]}}
  %0 = mlax.reduce_min %x, axes = [1, 0] : tensor<2x3xf32> -> tensor<f32>
  return
}

// -----

func.func @reduce_result_shape(%x: tensor<2x3xi32>) {
  // expected-error @+2 {{'mlax.reduce_prod' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.reduce_prod' op inferred type(s) 'tensor<2xi32>' are incompatible with return type(s) of operation 'tensor<3xi32>'}}
  %0 = mlax.reduce_prod %x, axes = [1] : tensor<2x3xi32> -> tensor<3xi32>
  return
}

// -----

func.func @reduce_and_on_float(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'mlax.reduce_and' op operand #0 must be statically shaped tensor of 1-bit signless integer values, but got 'tensor<2x3xf32>'}}
  %0 = mlax.reduce_and %x, axes = [1] : tensor<2x3xf32> -> tensor<2xf32>
  return
}

// -----

func.func @reduce_sum_on_bool(%x: tensor<2x3xi1>) {
  // expected-error @+1 {{'mlax.reduce_sum' op operand #0 must be statically shaped tensor of floating-point or complex-type or 2-bit signless integer or 4-bit signless integer or 8-bit signless integer or 16-bit signless integer or 32-bit signless integer or 64-bit signless integer or unsigned integer values, but got 'tensor<2x3xi1>'}}
  %0 = mlax.reduce_sum %x, axes = [1] : tensor<2x3xi1> -> tensor<2xi1>
  return
}

//===----------------------------------------------------------------------===//
// reduce (general, with a body)
//===----------------------------------------------------------------------===//

// -----

func.func @reduce_general_dim_out_of_range(%x: tensor<2x3xf32>, %a: tensor<f32>) {
  // expected-error @+2 {{'mlax.reduce' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.reduce' op dimension 2 is out of bounds for operands of rank 2}}
  %r = mlax.reduce(%x) init(%a) dimensions = [2] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32> {
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    mlax.yield %p : tensor<f32>
  }
  return
}

// -----

func.func @reduce_general_dim_twice(%x: tensor<2x3xf32>, %a: tensor<f32>) {
  // expected-error @+2 {{'mlax.reduce' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.reduce' op dimension 1 appears twice}}
  %r = mlax.reduce(%x) init(%a) dimensions = [1, 1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32> {
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    mlax.yield %p : tensor<f32>
  }
  return
}

// -----

func.func @reduce_general_shapes_differ(%x: tensor<2x3xf32>, %y: tensor<3x2xf32>, %a: tensor<f32>) {
  // expected-error @+2 {{'mlax.reduce' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.reduce' op operands must have one shape, got [2, 3] (operand 0) and [3, 2] (operand 1)}}
  %r:2 = mlax.reduce(%x, %y) init(%a, %a) dimensions = [1] : (tensor<2x3xf32>, tensor<3x2xf32>, tensor<f32>, tensor<f32>) -> (tensor<2xf32>, tensor<3xf32>) {
  ^bb0(%p: tensor<f32>, %p2: tensor<f32>, %q: tensor<f32>, %q2: tensor<f32>):
    mlax.yield %p, %p2 : tensor<f32>, tensor<f32>
  }
  return
}

// -----

func.func @reduce_general_init_not_scalar(%x: tensor<2x3xf32>, %a: tensor<1xf32>) {
  // expected-error @+2 {{'mlax.reduce' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.reduce' op found non-scalar initial value: init value 0 has shape [1]}}
  %r = mlax.reduce(%x) init(%a) dimensions = [1] : (tensor<2x3xf32>, tensor<1xf32>) -> tensor<2xf32> {
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    mlax.yield %p : tensor<f32>
  }
  return
}

// -----

func.func @reduce_general_init_type(%x: tensor<2x3xf32>, %a: tensor<i32>) {
  // expected-error @+2 {{'mlax.reduce' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.reduce' op operand dtypes should match corresponding initial value dtypes: init value 0 has element type 'i32' but operand 0 has 'f32'}}
  %r = mlax.reduce(%x) init(%a) dimensions = [1] : (tensor<2x3xf32>, tensor<i32>) -> tensor<2xf32> {
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    mlax.yield %p : tensor<f32>
  }
  return
}

// -----

func.func @reduce_general_result_type(%x: tensor<2x3xf32>, %a: tensor<f32>) {
  // expected-error @+2 {{'mlax.reduce' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.reduce' op inferred type(s) 'tensor<2xf32>' are incompatible with return type(s) of operation 'tensor<3xf32>'}}
  %r = mlax.reduce(%x) init(%a) dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<3xf32> {
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    mlax.yield %p : tensor<f32>
  }
  return
}

// -----

func.func @reduce_general_body_arity(%x: tensor<2x3xf32>, %a: tensor<f32>) {
  // expected-error @+1 {{'mlax.reduce' op body takes 1 arguments but the op passes it 2 (two scalars per operand)}}
  %r = mlax.reduce(%x) init(%a) dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32> {
  ^bb0(%p: tensor<f32>):
    mlax.yield %p : tensor<f32>
  }
  return
}

// -----

func.func @reduce_general_body_arg_type(%x: tensor<2x3xf32>, %a: tensor<f32>) {
  // expected-error @+1 {{'mlax.reduce' op body argument #1 has type 'tensor<2xf32>' but the op passes 'tensor<f32>'}}
  %r = mlax.reduce(%x) init(%a) dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32> {
  ^bb0(%p: tensor<f32>, %q: tensor<2xf32>):
    mlax.yield %p : tensor<f32>
  }
  return
}

// -----

func.func @reduce_general_yield_count(%x: tensor<2x3xf32>, %a: tensor<f32>) {
  // expected-error @+1 {{'mlax.reduce' op body yields 2 values but the op reduces 1 operands}}
  %r = mlax.reduce(%x) init(%a) dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32> {
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    mlax.yield %p, %q : tensor<f32>, tensor<f32>
  }
  return
}

// -----

func.func @reduce_general_yield_type(%x: tensor<2x3xf32>, %a: tensor<f32>) {
  // expected-error @+1 {{'mlax.reduce' op body yields 'tensor<i32>' as value #0 but operand 0 needs 'tensor<f32>'}}
  %r = mlax.reduce(%x) init(%a) dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32> {
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %i = mlax.convert %p : tensor<f32> -> tensor<i32>
    mlax.yield %i : tensor<i32>
  }
  return
}

// -----

func.func @reduce_general_no_operands() {
  // expected-error @+2 {{'mlax.reduce' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.reduce' op needs at least one operand}}
  mlax.reduce() init() dimensions = [] : () -> () {
  ^bb0:
    mlax.yield
  }
  return
}

// -----

func.func @reduce_general_loop_in_body(%x: tensor<2x3xf32>, %a: tensor<f32>) {
  // expected-error @+1 {{'mlax.reduce' op body must not contain a loop (mlax.while, mlax.scan): XLA cannot compile one inside a reduction}}
  %r = mlax.reduce(%x) init(%a) dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32> {
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %w = mlax.while (%p) : (tensor<f32>) -> tensor<f32> cond {
    ^bb0(%c: tensor<f32>):
      %lt = mlax.compare LT, %c, %c : tensor<f32>
      mlax.yield %lt : tensor<i1>
    } body {
    ^bb0(%c: tensor<f32>):
      mlax.yield %c : tensor<f32>
    }
    mlax.yield %w : tensor<f32>
  }
  return
}
