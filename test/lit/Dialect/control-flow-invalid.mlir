// Verifier errors of mlax.cond, mlax.while, mlax.scan and mlax.yield: every
// region's block arguments and yielded values are checked against the op.
//
// RUN: mlax-opt %s --split-input-file --verify-diagnostics

func.func @cond_no_branches(%i: tensor<i32>, %x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'mlax.cond' op needs at least one branch}}
  %r = mlax.cond %i (%x) : (tensor<i32>, tensor<f32>) -> tensor<f32>
  return %r : tensor<f32>
}

// -----

func.func @cond_arg_count(%i: tensor<i32>, %x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'mlax.cond' op branch 1 takes 2 arguments but the op passes it 1}}
  %r = mlax.cond %i (%x) : (tensor<i32>, tensor<f32>) -> tensor<f32> {
  ^bb0(%a: tensor<f32>):
    mlax.yield %a : tensor<f32>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    mlax.yield %a : tensor<f32>
  }
  return %r : tensor<f32>
}

// -----

func.func @cond_arg_type(%i: tensor<i32>, %x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'mlax.cond' op branch 0 argument #0 has type 'tensor<f64>' but the op passes 'tensor<f32>'}}
  %r = mlax.cond %i (%x) : (tensor<i32>, tensor<f32>) -> tensor<f32> {
  ^bb0(%a: tensor<f64>):
    %c = mlax.convert %a : tensor<f64> -> tensor<f32>
    mlax.yield %c : tensor<f32>
  }
  return %r : tensor<f32>
}

// -----

func.func @cond_yield_count(%i: tensor<i32>, %x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'mlax.cond' op branch 1 yields 2 values but the op's results are 1}}
  %r = mlax.cond %i (%x) : (tensor<i32>, tensor<f32>) -> tensor<f32> {
  ^bb0(%a: tensor<f32>):
    mlax.yield %a : tensor<f32>
  }, {
  ^bb0(%a: tensor<f32>):
    mlax.yield %a, %a : tensor<f32>, tensor<f32>
  }
  return %r : tensor<f32>
}

// -----

func.func @cond_yield_type(%i: tensor<i32>, %x: tensor<f32>) -> tensor<f64> {
  // expected-error @+1 {{'mlax.cond' op branch 0 yields 'tensor<f32>' as value #0 but the op's results are 'tensor<f64>'}}
  %r = mlax.cond %i (%x) : (tensor<i32>, tensor<f32>) -> tensor<f64> {
  ^bb0(%a: tensor<f32>):
    mlax.yield %a : tensor<f32>
  }
  return %r : tensor<f64>
}

// -----

func.func @cond_index_type(%i: tensor<i64>, %x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'mlax.cond' op operand #0 must be 0D tensor of 32-bit signless integer values, but got 'tensor<i64>'}}
  %r = mlax.cond %i (%x) : (tensor<i64>, tensor<f32>) -> tensor<f32> {
  ^bb0(%a: tensor<f32>):
    mlax.yield %a : tensor<f32>
  }
  return %r : tensor<f32>
}

// -----

func.func @cond_not_yield(%i: tensor<i32>, %x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'mlax.cond' op branch 0 must end with mlax.yield}}
  %r = mlax.cond %i (%x) : (tensor<i32>, tensor<f32>) -> tensor<f32> {
  ^bb0(%a: tensor<f32>):
    "test.terminator"(%a) : (tensor<f32>) -> ()
  }
  return %r : tensor<f32>
}

// -----

func.func @while_results(%x: tensor<f32>) -> tensor<f64> {
  // expected-error @+1 {{'mlax.while' op results must have the types of the operands (the loop state)}}
  %r = mlax.while (%x) : (tensor<f32>) -> tensor<f64> cond {
  ^bb0(%a: tensor<f32>):
    %p = mlax.compare LT, %a, %a : tensor<f32>
    mlax.yield %p : tensor<i1>
  } body {
  ^bb0(%a: tensor<f32>):
    mlax.yield %a : tensor<f32>
  }
  return %r : tensor<f64>
}

// -----

func.func @while_cond_arg_count(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'mlax.while' op cond takes 0 arguments but the op passes it 1}}
  %r = mlax.while (%x) : (tensor<f32>) -> tensor<f32> cond {
    %p = mlax.constant dense<true> : tensor<i1>
    mlax.yield %p : tensor<i1>
  } body {
  ^bb0(%a: tensor<f32>):
    mlax.yield %a : tensor<f32>
  }
  return %r : tensor<f32>
}

// -----

func.func @while_body_arg_type(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'mlax.while' op body argument #0 has type 'tensor<2xf32>' but the op passes 'tensor<f32>'}}
  %r = mlax.while (%x) : (tensor<f32>) -> tensor<f32> cond {
  ^bb0(%a: tensor<f32>):
    %p = mlax.compare LT, %a, %a : tensor<f32>
    mlax.yield %p : tensor<i1>
  } body {
  ^bb0(%a: tensor<2xf32>):
    %c = mlax.constant dense<0.0> : tensor<f32>
    mlax.yield %c : tensor<f32>
  }
  return %r : tensor<f32>
}

// -----

func.func @while_cond_not_i1(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'mlax.while' op cond yields 'tensor<f32>' as value #0 but a loop condition is 'tensor<i1>'}}
  %r = mlax.while (%x) : (tensor<f32>) -> tensor<f32> cond {
  ^bb0(%a: tensor<f32>):
    mlax.yield %a : tensor<f32>
  } body {
  ^bb0(%a: tensor<f32>):
    mlax.yield %a : tensor<f32>
  }
  return %r : tensor<f32>
}

// -----

func.func @while_cond_yields_two(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'mlax.while' op cond yields 2 values but a loop condition is 1}}
  %r = mlax.while (%x) : (tensor<f32>) -> tensor<f32> cond {
  ^bb0(%a: tensor<f32>):
    %p = mlax.compare LT, %a, %a : tensor<f32>
    mlax.yield %p, %p : tensor<i1>, tensor<i1>
  } body {
  ^bb0(%a: tensor<f32>):
    mlax.yield %a : tensor<f32>
  }
  return %r : tensor<f32>
}

// -----

func.func @while_cond_vector_pred(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'mlax.while' op cond yields 'tensor<2xi1>' as value #0 but a loop condition is 'tensor<i1>'}}
  %r = mlax.while (%x) : (tensor<2xf32>) -> tensor<2xf32> cond {
  ^bb0(%a: tensor<2xf32>):
    %p = mlax.compare LT, %a, %a : tensor<2xf32>
    mlax.yield %p : tensor<2xi1>
  } body {
  ^bb0(%a: tensor<2xf32>):
    mlax.yield %a : tensor<2xf32>
  }
  return %r : tensor<2xf32>
}

// -----

func.func @while_body_yield_count(%x: tensor<f32>, %n: tensor<i32>) -> (tensor<f32>, tensor<i32>) {
  // expected-error @+1 {{'mlax.while' op body yields 1 values but the loop state is 2}}
  %r:2 = mlax.while (%x, %n) : (tensor<f32>, tensor<i32>) -> (tensor<f32>, tensor<i32>) cond {
  ^bb0(%a: tensor<f32>, %b: tensor<i32>):
    %p = mlax.compare LT, %a, %a : tensor<f32>
    mlax.yield %p : tensor<i1>
  } body {
  ^bb0(%a: tensor<f32>, %b: tensor<i32>):
    mlax.yield %a : tensor<f32>
  }
  return %r#0, %r#1 : tensor<f32>, tensor<i32>
}

// -----

func.func @while_body_yield_type(%x: tensor<f32>, %n: tensor<i32>) -> (tensor<f32>, tensor<i32>) {
  // expected-error @+1 {{'mlax.while' op body yields 'tensor<f32>' as value #1 but the loop state is 'tensor<i32>'}}
  %r:2 = mlax.while (%x, %n) : (tensor<f32>, tensor<i32>) -> (tensor<f32>, tensor<i32>) cond {
  ^bb0(%a: tensor<f32>, %b: tensor<i32>):
    %p = mlax.compare LT, %a, %a : tensor<f32>
    mlax.yield %p : tensor<i1>
  } body {
  ^bb0(%a: tensor<f32>, %b: tensor<i32>):
    mlax.yield %a, %a : tensor<f32>, tensor<f32>
  }
  return %r#0, %r#1 : tensor<f32>, tensor<i32>
}

// -----

func.func @scan_negative_length(%c: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'mlax.scan' op length must be non-negative, got -1}}
  %r = mlax.scan init(%c) xs() consts() length = -1 : (tensor<f32>) -> tensor<f32> {
  ^bb0(%a: tensor<f32>):
    mlax.yield %a : tensor<f32>
  }
  return %r : tensor<f32>
}

// -----

func.func @scan_unroll_zero(%c: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'mlax.scan' op unroll must be at least 1, got 0}}
  %r = mlax.scan init(%c) xs() consts() length = 3 {unroll = 0 : i64} : (tensor<f32>) -> tensor<f32> {
  ^bb0(%a: tensor<f32>):
    mlax.yield %a : tensor<f32>
  }
  return %r : tensor<f32>
}

// -----

func.func @scan_xs_wrong_length(%c: tensor<f32>, %xs: tensor<4xf32>) -> tensor<f32> {
  // expected-error @+1 {{'mlax.scan' op xs #0 has type 'tensor<4xf32>'; scanned values need a leading axis of the length, 3}}
  %r = mlax.scan init(%c) xs(%xs) consts() length = 3 : (tensor<f32>, tensor<4xf32>) -> tensor<f32> {
  ^bb0(%a: tensor<f32>, %x: tensor<f32>):
    mlax.yield %a : tensor<f32>
  }
  return %r : tensor<f32>
}

// -----

func.func @scan_xs_scalar(%c: tensor<f32>, %xs: tensor<3xf32>, %s: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'mlax.scan' op xs #1 has type 'tensor<f32>'; scanned values need a leading axis of the length, 3}}
  %r = mlax.scan init(%c) xs(%xs, %s) consts() length = 3 : (tensor<f32>, tensor<3xf32>, tensor<f32>) -> tensor<f32> {
  ^bb0(%a: tensor<f32>, %x: tensor<f32>, %y: tensor<f32>):
    mlax.yield %a : tensor<f32>
  }
  return %r : tensor<f32>
}

// -----

func.func @scan_arg_count(%c: tensor<f32>, %xs: tensor<3xf32>) -> tensor<f32> {
  // expected-error @+1 {{'mlax.scan' op body takes 1 arguments but the op passes it 2}}
  %r = mlax.scan init(%c) xs(%xs) consts() length = 3 : (tensor<f32>, tensor<3xf32>) -> tensor<f32> {
  ^bb0(%a: tensor<f32>):
    mlax.yield %a : tensor<f32>
  }
  return %r : tensor<f32>
}

// -----

// The body takes one slice of xs, not the whole of it.
func.func @scan_arg_type(%c: tensor<f32>, %xs: tensor<3x2xf32>) -> tensor<f32> {
  // expected-error @+1 {{'mlax.scan' op body argument #1 has type 'tensor<3x2xf32>' but the op passes 'tensor<2xf32>'}}
  %r = mlax.scan init(%c) xs(%xs) consts() length = 3 : (tensor<f32>, tensor<3x2xf32>) -> tensor<f32> {
  ^bb0(%a: tensor<f32>, %x: tensor<3x2xf32>):
    mlax.yield %a : tensor<f32>
  }
  return %r : tensor<f32>
}

// -----

func.func @scan_const_type(%c: tensor<f32>, %k: tensor<2xf32>) -> tensor<f32> {
  // expected-error @+1 {{'mlax.scan' op body argument #1 has type 'tensor<f32>' but the op passes 'tensor<2xf32>'}}
  %r = mlax.scan init(%c) xs() consts(%k) length = 3 : (tensor<f32>, tensor<2xf32>) -> tensor<f32> {
  ^bb0(%a: tensor<f32>, %kk: tensor<f32>):
    mlax.yield %a : tensor<f32>
  }
  return %r : tensor<f32>
}

// -----

func.func @scan_yields_too_few(%c: tensor<f32>, %n: tensor<i32>) -> (tensor<f32>, tensor<i32>) {
  // expected-error @+1 {{'mlax.scan' op body yields 1 values but the carry alone has 2}}
  %r:2 = mlax.scan init(%c, %n) xs() consts() length = 3 : (tensor<f32>, tensor<i32>) -> (tensor<f32>, tensor<i32>) {
  ^bb0(%a: tensor<f32>, %b: tensor<i32>):
    mlax.yield %a : tensor<f32>
  }
  return %r#0, %r#1 : tensor<f32>, tensor<i32>
}

// -----

func.func @scan_carry_type(%c: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'mlax.scan' op body yields 'tensor<f64>' for carry #0 but the carry is 'tensor<f32>'}}
  %r = mlax.scan init(%c) xs() consts() length = 3 : (tensor<f32>) -> tensor<f32> {
  ^bb0(%a: tensor<f32>):
    %b = mlax.convert %a : tensor<f32> -> tensor<f64>
    mlax.yield %b : tensor<f64>
  }
  return %r : tensor<f32>
}

// -----

func.func @scan_ys_not_stacked(%c: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
  // expected-error @+1 {{'mlax.scan' op results must be the carry then the stacked ys: ('tensor<f32>', 'tensor<3xf32>'), got ('tensor<f32>', 'tensor<f32>')}}
  %r:2 = mlax.scan init(%c) xs() consts() length = 3 : (tensor<f32>) -> (tensor<f32>, tensor<f32>) {
  ^bb0(%a: tensor<f32>):
    mlax.yield %a, %a : tensor<f32>, tensor<f32>
  }
  return %r#0, %r#1 : tensor<f32>, tensor<f32>
}

// -----

func.func @scan_missing_ys_result(%c: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'mlax.scan' op results must be the carry then the stacked ys: ('tensor<f32>', 'tensor<3xf32>'), got ('tensor<f32>')}}
  %r = mlax.scan init(%c) xs() consts() length = 3 : (tensor<f32>) -> tensor<f32> {
  ^bb0(%a: tensor<f32>):
    mlax.yield %a, %a : tensor<f32>, tensor<f32>
  }
  return %r : tensor<f32>
}

// -----

func.func @yield_outside(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'mlax.yield' op expects parent op to be one of 'mlax.cond, mlax.while, mlax.scan, mlax.reduce'}}
  mlax.yield %x : tensor<f32>
}

// -----

// A region whose block does not end in a terminator is reported, not a crash.
func.func @branch_without_terminator(%i: tensor<i32>, %x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'mlax.cond' op branch 0 must end with mlax.yield}}
  %r = mlax.cond %i (%x) : (tensor<i32>, tensor<f32>) -> tensor<f32> {
  ^bb0(%a: tensor<f32>):
    %n = mlax.neg %a : tensor<f32>
  }, {
  ^bb0(%a: tensor<f32>):
    mlax.yield %a : tensor<f32>
  }
  return %r : tensor<f32>
}

// -----

func.func @empty_while_cond(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'mlax.while' op cond must end with mlax.yield}}
  %r = mlax.while (%x) : (tensor<f32>) -> tensor<f32> cond {
  ^bb0(%a: tensor<f32>):
  } body {
  ^bb0(%a: tensor<f32>):
    mlax.yield %a : tensor<f32>
  }
  return %r : tensor<f32>
}
