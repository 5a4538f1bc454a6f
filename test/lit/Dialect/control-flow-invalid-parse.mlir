// Malformed mlax.cond / mlax.while / mlax.scan text is a parse error, never
// a crash. MLIR's parser can resolve a name used in one region to a value a
// later sibling region (or an op outside) defines; when the parse then
// failed, destroying the regions aborted mlax-opt ("operation destroyed but
// still has uses"). Inputs reduced from tools/fuzz-mlax-opt.py crashes.
//
// RUN: mlax-opt %s --split-input-file --verify-diagnostics

func.func @cond_use_of_a_later_branch_then_parse_error(%x: tensor<f32>) -> tensor<f32> {
  %i = mlax.constant dense<1> : tensor<i32>
  %r = mlax.cond %i (%x) : (tensor<i32>, tensor<f32>) -> tensor<f32> {
  ^bb0(%a: tensor<f32>):
    mlax.yield %n : tensor<f32>
  }, {
  ^bb0(%a: tensor<f32>):
    %n = mlax.neg %a : tensor<f32>
  // expected-error @+1 {{redefinition of block '^bb0'}}
  ^bb0(%a: tensor<f32>):
    mlax.yield %n : tensor<f32>
  }
  return %r : tensor<f32>
}

// -----

func.func @while_cond_uses_the_body_then_parse_error(%x: tensor<f32>) -> tensor<f32> {
  %r = mlax.while (%x) : (tensor<f32>) -> tensor<f32> cond {
  ^bb0(%a: tensor<f32>):
    mlax.yield %p : tensor<i1>
  } body {
  ^bb0(%a: tensor<f32>):
    %p = mlax.compare LT, %a, %a : tensor<f32>
  // expected-error @+1 {{redefinition of block '^bb0'}}
  ^bb0(%a: tensor<f32>):
    mlax.yield %a : tensor<f32>
  }
  return %r : tensor<f32>
}

// -----

func.func @cond_use_of_a_later_branch(%x: tensor<f32>) -> tensor<f32> {
  %i = mlax.constant dense<1> : tensor<i32>
  // expected-error @+1 {{a value defined in a region of the op is used outside that region}}
  %r = mlax.cond %i (%x) : (tensor<i32>, tensor<f32>) -> tensor<f32> {
  ^bb0(%a: tensor<f32>):
    mlax.yield %n : tensor<f32>
  }, {
  ^bb0(%a: tensor<f32>):
    %n = mlax.neg %a : tensor<f32>
    mlax.yield %n : tensor<f32>
  }
  return %r : tensor<f32>
}

// -----

func.func @while_cond_uses_the_body(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{a value defined in a region of the op is used outside that region}}
  %r = mlax.while (%x) : (tensor<f32>) -> tensor<f32> cond {
  ^bb0(%a: tensor<f32>):
    mlax.yield %p : tensor<i1>
  } body {
  ^bb0(%a: tensor<f32>):
    %p = mlax.compare LT, %a, %a : tensor<f32>
    mlax.yield %a : tensor<f32>
  }
  return %r : tensor<f32>
}

// -----

// A forward reference at module level resolved to a branch's block argument.
// expected-note @+1 {{previously defined here}}
%m = mlax.mul %a, %a : tensor<f32>

func.func @cond_then_redefinition(%i: tensor<i32>, %x: tensor<f32>) -> tensor<f32> {
  %r = mlax.cond %i (%x) : (tensor<i32>, tensor<f32>) -> tensor<f32> {
  ^bb0(%a: tensor<f32>):
    %n = mlax.neg %a : tensor<f32>
    mlax.yield %n : tensor<f32>
  }, {
  ^bb0(%a: tensor<f32>):
    // expected-error @+1 {{redefinition of SSA value '%m'}}
    %m = mlax.mul %a, %a : tensor<f32>
    mlax.yield %m : tensor<f32>
  }
  return %r : tensor<f32>
}

// -----

// The same into a scan body, which then parses.
%m = mlax.mul %c, %c : tensor<f32>

func.func @scan_body_value_used_outside(%c0: tensor<f32>, %xs: tensor<3xf32>) -> tensor<f32> {
  // expected-error @+1 {{a value defined in a region of the op is used outside that region}}
  %r = mlax.scan init(%c0) xs(%xs) consts() length = 3 : (tensor<f32>, tensor<3xf32>) -> tensor<f32> {
  ^bb0(%c: tensor<f32>, %x: tensor<f32>):
    %s = mlax.add %c, %x : tensor<f32>
    mlax.yield %s : tensor<f32>
  }
  return %r : tensor<f32>
}

// -----

func.func @scan_negative_unroll(%c: tensor<f32>) -> tensor<f32> {
  // The attribute is read signed: -5 is not a huge unroll.
  // expected-error @+1 {{'mlax.scan' op unroll must be at least 1, got -5}}
  %r = mlax.scan init(%c) xs() consts() length = 3 {unroll = -5 : i64} : (tensor<f32>) -> tensor<f32> {
  ^bb0(%a: tensor<f32>):
    mlax.yield %a : tensor<f32>
  }
  return %r : tensor<f32>
}
