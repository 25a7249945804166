// Runs the playground's SMO (_static/playground/smo.js) on one problem for
// tests/test_playground_solver.py.
//
//   node tests/playground_harness.js problem.json
//
// problem.json: {"points": [[x1, x2], ...], "y": [...], "C": c,
//   "kernel": "linear" | "rbf", "sigma": s, "tol": t,
//   "gram": [[...], ...] (optional: solve on this Gram matrix instead of the
//   one smo.js computes from the points)}
// Prints {"alpha", "b", "nIter", "converged", "dualObjective",
// "kktViolation", "gram"} as JSON (numbers round-trip exactly).
"use strict";
const fs = require("fs");
const path = require("path");
const SvmSmo = require(
  path.join(__dirname, "..", "_static", "playground", "smo.js")
);

const problem = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const n = problem.y.length;
let K;
if (problem.gram) {
  K = new Float64Array(n * n);
  problem.gram.forEach((row, i) => row.forEach((v, j) => (K[i * n + j] = v)));
} else {
  K = SvmSmo.gramMatrix(problem.points, problem.kernel, problem.sigma);
}
const result = SvmSmo.smo(K, n, problem.y, problem.C, { tol: problem.tol });
const gram = [];
for (let i = 0; i < n; i++) gram.push(Array.from(K.subarray(i * n, (i + 1) * n)));
result.gram = gram;
process.stdout.write(JSON.stringify(result));
