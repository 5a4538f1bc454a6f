// Round trip of the control-flow ops: mlax.cond (1 and 3 branches, no
// operands), mlax.while (several state values), mlax.scan (init, xs, consts,
// reverse, unroll, zero length, no xs, no carry).
//
// RUN: mlax-opt %s | mlax-opt | FileCheck %s
// RUN: mlax-opt %s --mlir-print-op-generic | mlax-opt | FileCheck %s

// CHECK-LABEL: func.func @cond_one_branch(
// CHECK-SAME: %[[I:[^ ,:)]*]]: tensor<i32>, %[[X:[^ ,:)]*]]: tensor<f32>)
// CHECK-NEXT: %[[R:.*]] = mlax.cond %[[I]](%[[X]]) : (tensor<i32>, tensor<f32>) -> tensor<f32> {
// CHECK-NEXT: ^bb0(%[[A:[^ ,:)]*]]: tensor<f32>):
// CHECK-NEXT: mlax.yield %[[A]] : tensor<f32>
// CHECK-NEXT: }
// CHECK-NEXT: return %[[R]] : tensor<f32>
func.func @cond_one_branch(%i: tensor<i32>, %x: tensor<f32>) -> tensor<f32> {
  %r = mlax.cond %i (%x) : (tensor<i32>, tensor<f32>) -> tensor<f32> {
  ^bb0(%a: tensor<f32>):
    mlax.yield %a : tensor<f32>
  }
  return %r : tensor<f32>
}

// CHECK-LABEL: func.func @cond_three_branches(
// CHECK-SAME: %[[I:[^ ,:)]*]]: tensor<i32>, %[[X:[^ ,:)]*]]: tensor<f32>, %[[Y:[^ ,:)]*]]: tensor<3xf32>)
// CHECK-NEXT: %[[R:.*]]:2 = mlax.cond %[[I]](%[[X]], %[[Y]]) : (tensor<i32>, tensor<f32>, tensor<3xf32>) -> (tensor<f32>, tensor<3xf32>) {
// CHECK-NEXT: ^bb0(%[[A:[^ ,:)]*]]: tensor<f32>, %[[B:[^ ,:)]*]]: tensor<3xf32>):
// CHECK-NEXT: mlax.yield %[[A]], %[[B]] : tensor<f32>, tensor<3xf32>
// CHECK-NEXT: }, {
// CHECK-NEXT: ^bb0(%[[A:[^ ,:)]*]]: tensor<f32>, %[[B:[^ ,:)]*]]: tensor<3xf32>):
// CHECK-NEXT: %[[N:.*]] = mlax.neg %[[A]] : tensor<f32>
// CHECK-NEXT: mlax.yield %[[N]], %[[B]] : tensor<f32>, tensor<3xf32>
// CHECK-NEXT: }, {
// CHECK-NEXT: ^bb0(%[[A:[^ ,:)]*]]: tensor<f32>, %[[B:[^ ,:)]*]]: tensor<3xf32>):
// CHECK-NEXT: %[[E:.*]] = mlax.exp %[[B]] : tensor<3xf32>
// CHECK-NEXT: mlax.yield %[[A]], %[[E]] : tensor<f32>, tensor<3xf32>
// CHECK-NEXT: }
// CHECK-NEXT: return %[[R]]#0, %[[R]]#1 : tensor<f32>, tensor<3xf32>
func.func @cond_three_branches(%i: tensor<i32>, %x: tensor<f32>, %y: tensor<3xf32>) -> (tensor<f32>, tensor<3xf32>) {
  %r:2 = mlax.cond %i (%x, %y) : (tensor<i32>, tensor<f32>, tensor<3xf32>) -> (tensor<f32>, tensor<3xf32>) {
  ^bb0(%a: tensor<f32>, %b: tensor<3xf32>):
    mlax.yield %a, %b : tensor<f32>, tensor<3xf32>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<3xf32>):
    %n = mlax.neg %a : tensor<f32>
    mlax.yield %n, %b : tensor<f32>, tensor<3xf32>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<3xf32>):
    %e = mlax.exp %b : tensor<3xf32>
    mlax.yield %a, %e : tensor<f32>, tensor<3xf32>
  }
  return %r#0, %r#1 : tensor<f32>, tensor<3xf32>
}

// CHECK-LABEL: func.func @cond_no_operands(
// CHECK-SAME: %[[I:[^ ,:)]*]]: tensor<i32>)
// CHECK-NEXT: %[[R:.*]] = mlax.cond %[[I]]() : (tensor<i32>) -> tensor<f32> {
// CHECK-NEXT: %[[C:.*]] = mlax.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT: mlax.yield %[[C]] : tensor<f32>
// CHECK-NEXT: }, {
// CHECK-NEXT: %[[C:.*]] = mlax.constant dense<2.000000e+00> : tensor<f32>
// CHECK-NEXT: mlax.yield %[[C]] : tensor<f32>
// CHECK-NEXT: }
// CHECK-NEXT: return %[[R]] : tensor<f32>
func.func @cond_no_operands(%i: tensor<i32>) -> tensor<f32> {
  %r = mlax.cond %i () : (tensor<i32>) -> tensor<f32> {
    %c = mlax.constant dense<1.0> : tensor<f32>
    mlax.yield %c : tensor<f32>
  }, {
    %c = mlax.constant dense<2.0> : tensor<f32>
    mlax.yield %c : tensor<f32>
  }
  return %r : tensor<f32>
}

// CHECK-LABEL: func.func @while_three_state_values(
// CHECK-SAME: %[[N:[^ ,:)]*]]: tensor<i32>, %[[X:[^ ,:)]*]]: tensor<f32>, %[[L:[^ ,:)]*]]: tensor<i32>)
// CHECK-NEXT: %[[R:.*]]:3 = mlax.while(%[[N]], %[[X]], %[[L]]) : (tensor<i32>, tensor<f32>, tensor<i32>) -> (tensor<i32>, tensor<f32>, tensor<i32>) cond {
// CHECK-NEXT: ^bb0(%[[A:[^ ,:)]*]]: tensor<i32>, %[[B:[^ ,:)]*]]: tensor<f32>, %[[LL:[^ ,:)]*]]: tensor<i32>):
// CHECK-NEXT: %[[P:.*]] = mlax.compare LT, %[[A]], %[[LL]] : tensor<i32>
// CHECK-NEXT: mlax.yield %[[P]] : tensor<i1>
// CHECK-NEXT: } body {
// CHECK-NEXT: ^bb0(%[[A:[^ ,:)]*]]: tensor<i32>, %[[B:[^ ,:)]*]]: tensor<f32>, %[[LL:[^ ,:)]*]]: tensor<i32>):
// CHECK-NEXT: %[[ONE:.*]] = mlax.constant dense<1> : tensor<i32>
// CHECK-NEXT: %[[A1:.*]] = mlax.add %[[A]], %[[ONE]] : tensor<i32>
// CHECK-NEXT: %[[B1:.*]] = mlax.mul %[[B]], %[[B]] : tensor<f32>
// CHECK-NEXT: mlax.yield %[[A1]], %[[B1]], %[[LL]] : tensor<i32>, tensor<f32>, tensor<i32>
// CHECK-NEXT: }
// CHECK-NEXT: return %[[R]]#0, %[[R]]#1, %[[R]]#2 : tensor<i32>, tensor<f32>, tensor<i32>
func.func @while_three_state_values(%n: tensor<i32>, %x: tensor<f32>, %lim: tensor<i32>) -> (tensor<i32>, tensor<f32>, tensor<i32>) {
  %r:3 = mlax.while (%n, %x, %lim) : (tensor<i32>, tensor<f32>, tensor<i32>) -> (tensor<i32>, tensor<f32>, tensor<i32>) cond {
  ^bb0(%a: tensor<i32>, %b: tensor<f32>, %l: tensor<i32>):
    %p = mlax.compare LT, %a, %l : tensor<i32>
    mlax.yield %p : tensor<i1>
  } body {
  ^bb0(%a: tensor<i32>, %b: tensor<f32>, %l: tensor<i32>):
    %one = mlax.constant dense<1> : tensor<i32>
    %a1 = mlax.add %a, %one : tensor<i32>
    %b1 = mlax.mul %b, %b : tensor<f32>
    mlax.yield %a1, %b1, %l : tensor<i32>, tensor<f32>, tensor<i32>
  }
  return %r#0, %r#1, %r#2 : tensor<i32>, tensor<f32>, tensor<i32>
}

// CHECK-LABEL: func.func @scan_init_xs_consts(
// CHECK-SAME: %[[C:[^ ,:)]*]]: tensor<f32>, %[[XS:[^ ,:)]*]]: tensor<4x2xf32>, %[[K:[^ ,:)]*]]: tensor<2xf32>)
// CHECK-NEXT: %[[R:.*]]:2 = mlax.scan init(%[[C]]) xs(%[[XS]]) consts(%[[K]]) length = 4 : (tensor<f32>, tensor<4x2xf32>, tensor<2xf32>) -> (tensor<f32>, tensor<4x2xf32>) {
// CHECK-NEXT: ^bb0(%[[A:[^ ,:)]*]]: tensor<f32>, %[[X:[^ ,:)]*]]: tensor<2xf32>, %[[KK:[^ ,:)]*]]: tensor<2xf32>):
// CHECK-NEXT: %[[M:.*]] = mlax.mul %[[X]], %[[KK]] : tensor<2xf32>
// CHECK-NEXT: mlax.yield %[[A]], %[[M]] : tensor<f32>, tensor<2xf32>
// CHECK-NEXT: }
// CHECK-NEXT: return %[[R]]#0, %[[R]]#1 : tensor<f32>, tensor<4x2xf32>
func.func @scan_init_xs_consts(%c: tensor<f32>, %xs: tensor<4x2xf32>, %k: tensor<2xf32>) -> (tensor<f32>, tensor<4x2xf32>) {
  %r:2 = mlax.scan init(%c) xs(%xs) consts(%k) length = 4
      : (tensor<f32>, tensor<4x2xf32>, tensor<2xf32>) -> (tensor<f32>, tensor<4x2xf32>) {
  ^bb0(%a: tensor<f32>, %x: tensor<2xf32>, %kk: tensor<2xf32>):
    %m = mlax.mul %x, %kk : tensor<2xf32>
    mlax.yield %a, %m : tensor<f32>, tensor<2xf32>
  }
  return %r#0, %r#1 : tensor<f32>, tensor<4x2xf32>
}

// The default unroll (1) is not printed.
// CHECK-LABEL: func.func @scan_default_unroll(
// CHECK: mlax.scan init(%{{.*}}) xs(%{{.*}}) consts() length = 2 : (tensor<f32>, tensor<2xf32>) -> (tensor<f32>, tensor<2xf32>) {
func.func @scan_default_unroll(%c: tensor<f32>, %xs: tensor<2xf32>) -> (tensor<f32>, tensor<2xf32>) {
  %r:2 = mlax.scan init(%c) xs(%xs) consts() length = 2 {unroll = 1 : i64}
      : (tensor<f32>, tensor<2xf32>) -> (tensor<f32>, tensor<2xf32>) {
  ^bb0(%a: tensor<f32>, %x: tensor<f32>):
    mlax.yield %a, %x : tensor<f32>, tensor<f32>
  }
  return %r#0, %r#1 : tensor<f32>, tensor<2xf32>
}

// CHECK-LABEL: func.func @scan_reverse_unroll(
// CHECK: mlax.scan init(%{{.*}}) xs(%{{.*}}) consts() length = 5 reverse {unroll = 2 : i64} : (tensor<f32>, tensor<5xf32>) -> (tensor<f32>, tensor<5xf32>) {
// CHECK-NEXT: ^bb0(%[[A:[^ ,:)]*]]: tensor<f32>, %[[X:[^ ,:)]*]]: tensor<f32>):
// CHECK-NEXT: %[[S:.*]] = mlax.add %[[A]], %[[X]] : tensor<f32>
// CHECK-NEXT: mlax.yield %[[S]], %[[S]] : tensor<f32>, tensor<f32>
func.func @scan_reverse_unroll(%c: tensor<f32>, %xs: tensor<5xf32>) -> (tensor<f32>, tensor<5xf32>) {
  %r:2 = mlax.scan init(%c) xs(%xs) consts() length = 5 reverse {unroll = 2 : i64}
      : (tensor<f32>, tensor<5xf32>) -> (tensor<f32>, tensor<5xf32>) {
  ^bb0(%a: tensor<f32>, %x: tensor<f32>):
    %s = mlax.add %a, %x : tensor<f32>
    mlax.yield %s, %s : tensor<f32>, tensor<f32>
  }
  return %r#0, %r#1 : tensor<f32>, tensor<5xf32>
}

// CHECK-LABEL: func.func @scan_zero_length(
// CHECK: mlax.scan init(%{{.*}}) xs(%{{.*}}) consts() length = 0 : (tensor<f32>, tensor<0x3xf32>) -> (tensor<f32>, tensor<0xf32>) {
// CHECK-NEXT: ^bb0(%[[A:[^ ,:)]*]]: tensor<f32>, %{{.*}}: tensor<3xf32>):
// CHECK-NEXT: mlax.yield %[[A]], %[[A]] : tensor<f32>, tensor<f32>
func.func @scan_zero_length(%c: tensor<f32>, %xs: tensor<0x3xf32>) -> (tensor<f32>, tensor<0xf32>) {
  %r:2 = mlax.scan init(%c) xs(%xs) consts() length = 0
      : (tensor<f32>, tensor<0x3xf32>) -> (tensor<f32>, tensor<0xf32>) {
  ^bb0(%a: tensor<f32>, %x: tensor<3xf32>):
    mlax.yield %a, %a : tensor<f32>, tensor<f32>
  }
  return %r#0, %r#1 : tensor<f32>, tensor<0xf32>
}

// CHECK-LABEL: func.func @scan_no_xs(
// CHECK: mlax.scan init(%{{.*}}) xs() consts() length = 3 : (tensor<i32>) -> (tensor<i32>, tensor<3xi32>) {
// CHECK-NEXT: ^bb0(%[[A:[^ ,:)]*]]: tensor<i32>):
// CHECK-NEXT: %[[S:.*]] = mlax.add %[[A]], %[[A]] : tensor<i32>
// CHECK-NEXT: mlax.yield %[[S]], %[[A]] : tensor<i32>, tensor<i32>
func.func @scan_no_xs(%c: tensor<i32>) -> (tensor<i32>, tensor<3xi32>) {
  %r:2 = mlax.scan init(%c) xs() consts() length = 3
      : (tensor<i32>) -> (tensor<i32>, tensor<3xi32>) {
  ^bb0(%a: tensor<i32>):
    %s = mlax.add %a, %a : tensor<i32>
    mlax.yield %s, %a : tensor<i32>, tensor<i32>
  }
  return %r#0, %r#1 : tensor<i32>, tensor<3xi32>
}

// CHECK-LABEL: func.func @scan_no_carry(
// CHECK: mlax.scan init() xs(%{{.*}}) consts() length = 3 : (tensor<3xf32>) -> tensor<3xf32> {
// CHECK-NEXT: ^bb0(%[[X:[^ ,:)]*]]: tensor<f32>):
// CHECK-NEXT: %[[E:.*]] = mlax.exp %[[X]] : tensor<f32>
// CHECK-NEXT: mlax.yield %[[E]] : tensor<f32>
func.func @scan_no_carry(%xs: tensor<3xf32>) -> tensor<3xf32> {
  %r = mlax.scan init() xs(%xs) consts() length = 3
      : (tensor<3xf32>) -> tensor<3xf32> {
  ^bb0(%x: tensor<f32>):
    %e = mlax.exp %x : tensor<f32>
    mlax.yield %e : tensor<f32>
  }
  return %r : tensor<3xf32>
}
