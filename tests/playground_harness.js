// Runs the playground's SMO (_static/playground/smo.js) on one problem for
// tests/test_playground_solver.py.
//
//   node tests/playground_harness.js problem.json
//
// The classifier, problem.json: {"points": [[x1, x2], ...], "y": [...],
//   "C": c, "kernel": "linear" | "rbf", "sigma": s, "tol": t,
//   "gram": [[...], ...] (optional: solve on this Gram matrix instead of the
//   one smo.js computes from the points)}
// Prints {"alpha", "b", "nIter", "converged", "dualObjective",
// "kktViolation", "gram"} as JSON (numbers round-trip exactly).
//
// The regression (epsilon-SVR), problem.json: {"mode": "regression",
//   "points": [[x], ...], "z": [...], "C": c, "epsilon": e, "kernel",
//   "sigma", "tol", "gram" (optional), "repeat" (optional: solve this many
//   times and report the median time)}
// Prints the same fields (alpha: the 2n multipliers [alpha; alpha*]) and
// "beta" (alpha - alpha*), "ms" (the median time of Gram matrix and
// solve, in milliseconds).
"use strict";
const fs = require("fs");
const path = require("path");
const SvmSmo = require(
  path.join(__dirname, "..", "_static", "playground", "smo.js")
);

const problem = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const regression = problem.mode === "regression";
const n = regression ? problem.z.length : problem.y.length;

function gramOf() {
  if (problem.gram) {
    const K = new Float64Array(n * n);
    problem.gram.forEach((row, i) =>
      row.forEach((v, j) => (K[i * n + j] = v))
    );
    return K;
  }
  return SvmSmo.gramMatrix(problem.points, problem.kernel, problem.sigma);
}

function solve() {
  const K = gramOf();
  const options = { tol: problem.tol };
  const result = regression
    ? SvmSmo.svr(K, n, problem.z, problem.C, problem.epsilon, options)
    : SvmSmo.smo(K, n, problem.y, problem.C, options);
  return [K, result];
}

const times = [];
let K, result;
for (let r = 0; r < (problem.repeat || 1); r++) {
  const t0 = process.hrtime.bigint();
  [K, result] = solve();
  times.push(Number(process.hrtime.bigint() - t0) / 1e6);
}
times.sort((a, b) => a - b);
result.ms = times[Math.floor(times.length / 2)];
const gram = [];
for (let i = 0; i < n; i++) gram.push(Array.from(K.subarray(i * n, (i + 1) * n)));
result.gram = gram;
process.stdout.write(JSON.stringify(result));
