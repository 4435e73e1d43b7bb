// RUN: rlx-opt %s --rlx-cpu-approximate-math | FileCheck %s

// f32 exp: x clamped below at -87.8 by a compare-select that keeps NaN (no
// upper clamp: n's is enough), n rounded by adding 1.5 * 2^23 + 127
// (0x4B40007F) and clamped to at most 127 (0x4B4000FE), 2^n from the sum's
// low bits by one shift, r = x - n ln 2 in two parts, e^r = 1 + r q(r) in
// Horner form (six FMAs, the last adding 1), times 2^n.
// CHECK-LABEL: func.func @exp_f32(
// CHECK-SAME:      %[[X:.*]]: f32)
// CHECK-DAG:     %[[LO:.*]] = arith.constant -8.780000e+01 : f32
// CHECK-DAG:     %[[SHIFTER:.*]] = arith.constant 0x4B40007F : f32
// CHECK-DAG:     %[[NMAX:.*]] = arith.constant 0x4B4000FE : f32
// CHECK-DAG:     %[[LOG2E:.*]] = arith.constant 1.44269502 : f32
// CHECK-DAG:     %[[C23:.*]] = arith.constant 23 : i32
// CHECK-DAG:     %[[LN2HI:.*]] = arith.constant -0.693359375 : f32
// CHECK-DAG:     %[[LN2LO:.*]] = arith.constant 2.12194442E-4 : f32
// CHECK-DAG:     %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK:         %[[GE:.*]] = arith.cmpf uge, %[[X]], %[[LO]]
// CHECK:         %[[X1:.*]] = arith.select %[[GE]], %[[X]], %[[LO]]
// CHECK-NOT:     arith.cmpf ule, %[[X1]]
// CHECK:         %[[T:.*]] = math.fma %[[X1]], %[[LOG2E]], %[[SHIFTER]]
// CHECK:         %[[TLE:.*]] = arith.cmpf ule, %[[T]], %[[NMAX]]
// CHECK:         %[[T1:.*]] = arith.select %[[TLE]], %[[T]], %[[NMAX]]
// CHECK:         %[[N:.*]] = arith.subf %[[T1]], %[[SHIFTER]]
// CHECK:         %[[BITS:.*]] = arith.bitcast %[[T1]] : f32 to i32
// CHECK:         %[[SHIFTED:.*]] = arith.shli %[[BITS]], %[[C23]]
// CHECK:         %[[SCALE:.*]] = arith.bitcast %[[SHIFTED]] : i32 to f32
// CHECK:         %[[R0:.*]] = math.fma %[[N]], %[[LN2HI]], %[[X1]]
// CHECK:         %[[R:.*]] = math.fma %[[N]], %[[LN2LO]], %[[R0]]
// CHECK-COUNT-5: math.fma {{.*}}, %[[R]],
// CHECK:         %[[P:.*]] = math.fma {{.*}}, %[[R]], %[[ONE]]
// CHECK-NOT:     math.fma
// CHECK:         %[[Y:.*]] = arith.mulf %[[P]], %[[SCALE]] : f32
// CHECK:         return %[[Y]]
// CHECK-NOT:     math.exp
func.func @exp_f32(%x: f32) -> f32 {
  %y = math.exp %x : f32
  return %y : f32
}

// The same on vectors, with splat constants.
// CHECK-LABEL: func.func @exp_vector(
// CHECK:         arith.constant dense<0x4B40007F> : vector<16xf32>
// CHECK:         math.fma {{.*}} : vector<16xf32>
// CHECK:         arith.shli {{.*}} : vector<16xi32>
// CHECK:         arith.mulf {{.*}} : vector<16xf32>
// CHECK-NOT:     math.exp
func.func @exp_vector(%x: vector<16xf32>) -> vector<16xf32> {
  %y = math.exp %x : vector<16xf32>
  return %y : vector<16xf32>
}

// f32 erf: x clamped to [-4, 4] by compare-selects that keep NaN, t = x^2,
// P(t) and Q(t) of degree 5 in Horner form (five FMAs each, Q's last
// coefficient 1), x P / Q.
// CHECK-LABEL: func.func @erf_f32(
// CHECK-SAME:      %[[X:.*]]: f32)
// CHECK-DAG:     %[[LO:.*]] = arith.constant -4.000000e+00 : f32
// CHECK-DAG:     %[[HI:.*]] = arith.constant 4.000000e+00 : f32
// CHECK-DAG:     %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK:         %[[GE:.*]] = arith.cmpf uge, %[[X]], %[[LO]]
// CHECK:         %[[X1:.*]] = arith.select %[[GE]], %[[X]], %[[LO]]
// CHECK:         %[[LE:.*]] = arith.cmpf ule, %[[X1]], %[[HI]]
// CHECK:         %[[X2:.*]] = arith.select %[[LE]], %[[X1]], %[[HI]]
// CHECK:         %[[T:.*]] = arith.mulf %[[X2]], %[[X2]]
// CHECK-COUNT-5: math.fma {{.*}}, %[[T]],
// CHECK-COUNT-4: math.fma {{.*}}, %[[T]],
// CHECK:         %[[Q:.*]] = math.fma {{.*}}, %[[T]], %[[ONE]]
// CHECK-NOT:     math.fma
// CHECK:         %[[N:.*]] = arith.mulf %[[X2]], %{{.*}}
// CHECK:         %[[Y:.*]] = arith.divf %[[N]], %[[Q]] : f32
// CHECK:         return %[[Y]]
// CHECK-NOT:     math.erf
func.func @erf_f32(%x: f32) -> f32 {
  %y = math.erf %x : f32
  return %y : f32
}

// f64 keeps libm's exp and erf; log and tanh take upstream's expansions.
// CHECK-LABEL: func.func @others(
// CHECK:         math.exp %{{.*}} : f64
// CHECK-NOT:     math.log
// CHECK-NOT:     math.tanh
// CHECK:         math.erf %{{.*}} : f64
// CHECK:         return
func.func @others(%d: f64, %x: f32) -> (f64, f32, f32, f64) {
  %e = math.exp %d : f64
  %l = math.log %x : f32
  %t = math.tanh %x : f32
  %r = math.erf %d : f64
  return %e, %l, %t, %r : f64, f32, f32, f64
}
