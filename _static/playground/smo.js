/*
 * smo.js: the book's SMO solver, in JavaScript, for the SVM playground.
 *
 * This is the page's widget, not a second library. It mirrors, function by
 * function and where it can line by line, svmlib/solvers/sequential_minimal.py with
 * selection="wss2" and shrinking=False (a few hundred points need no
 * shrinking), and svmlib/duality.py for the stopping test, b and the dual
 * objective:
 *
 *   smo, solveWss2           <- smo(), _solve_wss2()   (without shrinking)
 *   selectWss2               <- _select_wss2()
 *   SMOState.step            <- _SMOState.step()
 *   SMOState.result          <- _SMOState.result()
 *   twoVariableStep          <- two_variable_step()
 *   stepBounds               <- step_bounds()
 *   betterEnd                <- _better_end()
 *   pairOnSegment, landOnEnd,
 *   ontoBox                  <- pair_on_segment(), land_on_end(), onto_box()
 *   indexSets, maxViolation,
 *   interceptFromErrors,
 *   dualObjectiveFromErrors  <- svmlib.duality, the functions of those names
 *
 * Left out: smo.py's stall detection and the rounding floor of its
 * stopping test (with the playground's kernel values, at most about 10^2,
 * the floor is below 10^-11, far under tol).
 *
 * One solver, two formulations. The solver works on LIBSVM's general dual
 * (Chang and Lin 2011, section 2 and 4.1):
 *
 *   min_a  1/2 a^T Q a + p^T a   subject to  y^T a = 0,  0 <= a_k <= C_k,
 *
 * with Q_kl = y_k y_l K_kl and labels y_k in {-1, +1}. It keeps Platt's
 * error cache E_k = y_k G_k, where G = Q a + p is LIBSVM's gradient:
 *
 *   E_k = sum_l a_l y_l K_lk + y_k p_k.
 *
 * Selection (WSS 2), the two-variable step, the index sets I_up / I_low,
 * the stopping test and b (= -rho) read only E, y, C and K, so they are
 * the same for every p. The classifier (C-SVC) is the case p = -1 (the
 * default): E_k = f(x_k) - b - y_k, as the book writes it. Epsilon-SVR
 * (section 2.3, LIBSVM's solve_epsilon_svr) is the case of 2n variables
 * a = [alpha; alpha*], y = [+1 (n times); -1 (n times)],
 * p = [epsilon - z; epsilon + z] and K_kl = K(x_{k mod n}, x_{l mod n}):
 * svrProblem, svrGram and svr build it; the regression function is
 * f(x) = sum_i (alpha_i - alpha*_i) K(x_i, x) + b.
 *
 * Same names as the book: alpha, E, eta, L, H, b; the same TAU, the same
 * default tol (1e-3) and max_iter (max(10^7, 100 n)), the same stopping
 * rule (the maximal KKT violation m(alpha) - M(alpha) <= tol) and the same
 * b (LIBSVM's calculate_rho). All arithmetic is in float64 (JavaScript
 * numbers and Float64Array), in the order of the Python expressions, and
 * ties are broken as numpy's argmin / argmax do (the first index), so that
 * on the same Gram matrix both take the same pairs.
 *
 * tests/test_playground_solver.py runs this file under node on fixed data
 * sets and compares alpha, b and the dual objective with
 * svmlib.solvers.smo (the classifier) and with scikit-learn's SVR, which
 * is LIBSVM (the regression).
 *
 * Kernels (svmlib.kernels): linear, K(x, z) = x . z, and the Gaussian in the
 * book's parametrization, K(x, z) = exp(-||x - z||^2 / (2 sigma^2)); here
 * ||x - z||^2 is summed from the differences (svmlib expands it as
 * ||x||^2 + ||z||^2 - 2 x . z), which agrees to rounding. Points may have
 * any number of coordinates (2 for the classifier, 1 for the regression).
 *
 * Usable from node (module.exports) and from a page (the global SvmSmo).
 * No dependencies, no build step.
 */
(function (root, factory) {
  "use strict";
  var api = factory();
  if (typeof module === "object" && module.exports) {
    module.exports = api;
  } else {
    root.SvmSmo = api;
  }
})(typeof self !== "undefined" ? self : this, function () {
  "use strict";

  /** Curvatures eta at or below this are treated as zero (smo.py: TAU). */
  var TAU = 1e-12;

  // -------------------------------------------------------------------------
  // Kernels (svmlib.kernels: linear_kernel, rbf_kernel with sigma)
  // -------------------------------------------------------------------------

  /** gamma = 1 / (2 sigma^2) (svmlib.kernels.rbf_gamma). */
  function rbfGamma(sigma) {
    return 1.0 / (2.0 * sigma * sigma);
  }

  /** K(a, b) for two points [x1, ..., xd] of the same length. */
  function kernelValue(kernel, gamma, a, b) {
    var s = 0.0;
    var k;
    if (kernel === "linear") {
      for (k = 0; k < a.length; k++) s += a[k] * b[k];
      return s;
    }
    for (k = 0; k < a.length; k++) {
      var d = a[k] - b[k];
      s += d * d;
    }
    return Math.exp(-gamma * s);
  }

  /**
   * The Gram matrix of n points, row-major in a Float64Array of n * n.
   * kernel: "linear" or "rbf" (then sigma, the book's width, is needed).
   */
  function gramMatrix(points, kernel, sigma) {
    var n = points.length;
    var gamma = kernel === "rbf" ? rbfGamma(sigma) : 0.0;
    var K = new Float64Array(n * n);
    for (var i = 0; i < n; i++) {
      K[i * n + i] = kernelValue(kernel, gamma, points[i], points[i]);
      for (var j = 0; j < i; j++) {
        var v = kernelValue(kernel, gamma, points[i], points[j]);
        K[i * n + j] = v;
        K[j * n + i] = v;
      }
    }
    return K;
  }

  // -------------------------------------------------------------------------
  // svmlib.duality
  // -------------------------------------------------------------------------

  /** I_up and I_low of Keerthi et al. (duality.index_sets), one point. */
  function inUp(alpha_k, y_k, C_k) {
    return y_k > 0 ? alpha_k < C_k : alpha_k > 0;
  }

  function inLow(alpha_k, y_k, C_k) {
    return y_k > 0 ? alpha_k > 0 : alpha_k < C_k;
  }

  /** max(E_t, t in I_low) - min(E_t, t in I_up), 0 if a set is empty. */
  function maxViolation(alpha, y, C, E) {
    var lowMax = -Infinity;
    var upMin = Infinity;
    var anyUp = false;
    var anyLow = false;
    for (var t = 0; t < alpha.length; t++) {
      if (inUp(alpha[t], y[t], C[t])) {
        anyUp = true;
        if (E[t] < upMin) upMin = E[t];
      }
      if (inLow(alpha[t], y[t], C[t])) {
        anyLow = true;
        if (E[t] > lowMax) lowMax = E[t];
      }
    }
    if (!anyUp || !anyLow) return 0.0;
    return lowMax - upMin;
  }

  /**
   * W(alpha) = -(1/2 a^T Q a + p^T a) = 1/2 sum_i alpha_i (-p_i - y_i E_i)
   * (dual_objective_from_errors), the dual as a maximum. p: a number or
   * an array; -1 (the classifier) when left out, then the terms are
   * alpha_i (1 - y_i E_i), as in svmlib.
   */
  function dualObjectiveFromErrors(alpha, y, E, p) {
    if (p === undefined) p = -1.0;
    var s = 0.0;
    for (var i = 0; i < alpha.length; i++) {
      var p_i = typeof p === "number" ? p : p[i];
      s += alpha[i] * (-p_i - y[i] * E[i]);
    }
    return 0.5 * s;
  }

  /** b as LIBSVM's calculate_rho (duality.intercept_from_errors). */
  function interceptFromErrors(alpha, y, C, E) {
    var sum = 0.0;
    var nFree = 0;
    for (var i = 0; i < alpha.length; i++) {
      if (alpha[i] > 0 && alpha[i] < C[i]) {
        sum += -E[i];
        nFree += 1;
      }
    }
    if (nFree > 0) return sum / nFree;
    // every point at a bound: I_up gives b >= -E_t, I_low gives b <= -E_t
    var lower = null;
    var upper = null;
    for (var t = 0; t < alpha.length; t++) {
      if (inUp(alpha[t], y[t], C[t])) {
        lower = lower === null ? -E[t] : Math.max(lower, -E[t]);
      }
      if (inLow(alpha[t], y[t], C[t])) {
        upper = upper === null ? -E[t] : Math.min(upper, -E[t]);
      }
    }
    if (lower === null && upper === null) return 0.0;
    if (lower === null || upper === null) {
      return lower === null ? upper : lower;
    }
    return 0.5 * (lower + upper);
  }

  // -------------------------------------------------------------------------
  // The two-variable step (smo.py: two_variable_step, step_bounds, ...)
  // -------------------------------------------------------------------------

  /** step_bounds: L <= alpha_j_new <= H, returned as [L, H]. */
  function stepBounds(alpha_i, alpha_j, y_i, y_j, C_i, C_j) {
    if (y_i !== y_j) {
      return [
        Math.max(0.0, alpha_j - alpha_i),
        Math.min(C_j, C_i + alpha_j - alpha_i),
      ];
    }
    return [
      Math.max(0.0, alpha_i + alpha_j - C_i),
      Math.min(C_j, alpha_i + alpha_j),
    ];
  }

  /**
   * _better_end: the move to the end of [L, H] with the larger dual, for
   * eta <= 0: -Infinity for L, Infinity for H, 0 when neither gains.
   */
  function betterEnd(alpha_j, L, H, slope, eta) {
    if (H === Infinity) {
      if (slope > 0 || eta < 0) {
        throw new Error(
          "The hard-margin dual is unbounded: the training data are not " +
            "separable in the kernel's feature space. Use a finite C."
        );
      }
      return -Infinity;
    }
    function gain(t) {
      return slope * t - 0.5 * eta * t * t;
    }
    var gain_L = gain(L - alpha_j);
    var gain_H = gain(H - alpha_j);
    if (Math.max(gain_L, gain_H) <= 0.0) return 0.0;
    return gain_L > gain_H ? -Infinity : Infinity;
  }

  /** ROUNDING: values within this many units of rounding of a bound. */
  var ROUNDING = 4 * Number.EPSILON;

  /** onto_box: clip to [0, C]; within rounding error of a bound, onto it. */
  function ontoBox(alpha, C, scale) {
    var tolerance = ROUNDING * scale;
    if (alpha <= tolerance) return 0.0;
    if (alpha >= C - tolerance) return C;
    return alpha;
  }

  /** land_on_end: the pair at an end of the segment, one on its bound. */
  function landOnEnd(end, alpha_i, alpha_j, y_i, y_j, C_i, C_j) {
    var scale = alpha_i + alpha_j;
    if (y_i !== y_j) {
      var difference = alpha_i - alpha_j;
      if (end === "L") {
        if (difference < 0) return [0.0, ontoBox(-difference, C_j, scale)];
        return [ontoBox(difference, C_i, scale), 0.0];
      }
      if (C_j <= C_i - difference) {
        return [ontoBox(C_j + difference, C_i, scale + C_j), C_j];
      }
      return [C_i, ontoBox(C_i - difference, C_j, scale + C_i)];
    }
    var total = alpha_i + alpha_j;
    if (end === "L") {
      if (total > C_i) return [C_i, ontoBox(total - C_i, C_j, scale + C_i)];
      return [ontoBox(total, C_i, scale), 0.0];
    }
    if (C_j <= total) return [ontoBox(total - C_j, C_i, scale + C_j), C_j];
    return [0.0, ontoBox(total, C_j, scale)];
  }

  /** pair_on_segment: move alpha_j by move and alpha_i with it, clipped. */
  function pairOnSegment(alpha_i, alpha_j, y_i, y_j, move, C_i, C_j) {
    var lowest, highest;
    if (y_i !== y_j) {
      lowest = Math.max(-alpha_i, -alpha_j);
      highest = Math.min(C_i - alpha_i, C_j - alpha_j);
    } else {
      lowest = Math.max(-alpha_j, alpha_i - C_i);
      highest = Math.min(C_j - alpha_j, alpha_i);
    }
    if (move <= lowest) {
      return landOnEnd("L", alpha_i, alpha_j, y_i, y_j, C_i, C_j);
    }
    if (move >= highest) {
      return landOnEnd("H", alpha_i, alpha_j, y_i, y_j, C_i, C_j);
    }
    var alpha_i_new = alpha_i - y_i * y_j * move;
    var alpha_j_new = alpha_j + move;
    return [
      ontoBox(alpha_i_new, C_i, alpha_i + Math.abs(move)),
      ontoBox(alpha_j_new, C_j, alpha_j + Math.abs(move)),
    ];
  }

  /**
   * two_variable_step: maximise the dual over (alpha_i, alpha_j).
   * Returns [alpha_i_new, alpha_j_new].
   */
  function twoVariableStep(
    alpha_i, alpha_j, y_i, y_j, E_i, E_j, K_ii, K_jj, K_ij, C_i, C_j
  ) {
    var bounds = stepBounds(alpha_i, alpha_j, y_i, y_j, C_i, C_j);
    var L = bounds[0];
    var H = bounds[1];
    if (L >= H) return [alpha_i, alpha_j];
    var slope = y_j * (E_i - E_j);
    var eta = K_ii + K_jj - 2.0 * K_ij;
    var move;
    if (eta > TAU) {
      move = slope / eta;
    } else {
      move = betterEnd(alpha_j, L, H, slope, eta);
      if (move === 0.0) return [alpha_i, alpha_j];
    }
    return pairOnSegment(alpha_i, alpha_j, y_i, y_j, move, C_i, C_j);
  }

  // -------------------------------------------------------------------------
  // The state (smo.py: _SMOState, without shrinking: every point active)
  // -------------------------------------------------------------------------

  /**
   * alpha, the error cache E and the index sets, updated pair by pair.
   * K: Float64Array of n * n (row-major, symmetric); y: labels -1 / +1;
   * C: a number or an array of n per-point bounds; p: the linear term, a
   * number or an array of n (default -1, the classifier).
   */
  function SMOState(K, n, y, C, p) {
    this.K = K;
    this.n = n;
    this.y = Float64Array.from(y);
    this.C = new Float64Array(n);
    for (var k = 0; k < n; k++) {
      this.C[k] = typeof C === "number" ? C : C[k];
    }
    this.diagonal = new Float64Array(n);
    for (var d = 0; d < n; d++) this.diagonal[d] = K[d * n + d];
    this.p = new Float64Array(n);
    for (var q = 0; q < n; q++) {
      this.p[q] = p === undefined ? -1.0 : typeof p === "number" ? p : p[q];
    }
    this.alpha = new Float64Array(n);
    // alpha = 0, so G = p and E = y p (the classifier: E = -y)
    this.E = new Float64Array(n);
    for (var e = 0; e < n; e++) this.E[e] = this.y[e] * this.p[e];
    this.up = new Uint8Array(n);
    this.low = new Uint8Array(n);
    for (var t = 0; t < n; t++) {
      this.up[t] = inUp(0.0, this.y[t], this.C[t]) ? 1 : 0;
      this.low[t] = inLow(0.0, this.y[t], this.C[t]) ? 1 : 0;
    }
    this.nIter = 0;
  }

  /** Row i of K (= column i, K is symmetric), a view without copying. */
  SMOState.prototype.column = function (i) {
    return this.K.subarray(i * this.n, (i + 1) * this.n);
  };

  /** The maximal KKT violation m(alpha) - M(alpha) now. */
  SMOState.prototype.violation = function () {
    return maxViolation(this.alpha, this.y, this.C, this.E);
  };

  /** W(alpha) now, from the error cache. */
  SMOState.prototype.dualObjective = function () {
    return dualObjectiveFromErrors(this.alpha, this.y, this.E, this.p);
  };

  /** b as the result would give it now. */
  SMOState.prototype.intercept = function () {
    return interceptFromErrors(this.alpha, this.y, this.C, this.E);
  };

  /** _SMOState.step: the analytic step on (i, j); whether alpha changed. */
  SMOState.prototype.step = function (i, j, K_i) {
    if (i === j) return false;
    if (K_i === undefined) K_i = this.column(i);
    var alpha = this.alpha;
    var y = this.y;
    var C = this.C;
    var pair = twoVariableStep(
      alpha[i], alpha[j], y[i], y[j], this.E[i], this.E[j],
      this.diagonal[i], this.diagonal[j], K_i[j], C[i], C[j]
    );
    var alpha_i_new = pair[0];
    var alpha_j_new = pair[1];
    if (alpha_i_new === alpha[i] && alpha_j_new === alpha[j]) return false;
    var K_j = this.column(j);
    // E_k = sum_l alpha_l y_l K_lk + y_k p_k changes through alpha_i and
    // alpha_j only (two passes, as the two numpy updates).
    var E = this.E;
    var n = this.n;
    var di = (alpha_i_new - alpha[i]) * y[i];
    var dj = (alpha_j_new - alpha[j]) * y[j];
    var k;
    for (k = 0; k < n; k++) E[k] += di * K_i[k];
    for (k = 0; k < n; k++) E[k] += dj * K_j[k];
    alpha[i] = alpha_i_new;
    alpha[j] = alpha_j_new;
    var both = [i, j];
    for (var m = 0; m < 2; m++) {
      k = both[m];
      var positive = y[k] > 0;
      this.up[k] = (positive ? alpha[k] < C[k] : alpha[k] > 0) ? 1 : 0;
      this.low[k] = (positive ? alpha[k] > 0 : alpha[k] < C[k]) ? 1 : 0;
    }
    this.nIter += 1;
    return true;
  };

  /** _SMOState.result: alpha, b, n_iter, converged, W, the violation. */
  SMOState.prototype.result = function (tol) {
    var violation = this.violation();
    return {
      alpha: Array.from(this.alpha),
      b: this.intercept(),
      nIter: this.nIter,
      converged: violation <= tol,
      dualObjective: this.dualObjective(),
      kktViolation: violation,
    };
  };

  // -------------------------------------------------------------------------
  // Working-set selection and the loop (smo.py: _select_wss2, _solve_wss2)
  // -------------------------------------------------------------------------

  /**
   * _select_wss2: LIBSVM's second-order working-set selection.
   * Returns {i, j, K_i, violation, gain}; i is null when the maximal
   * violation is at most tol. gain is the second-order (unclipped) gain
   * (E_j - E_i)^2 / eta_ij of the chosen pair; the dual objective would
   * rise by half of it if the step were not clipped.
   */
  function selectWss2(state, tol) {
    var E = state.E;
    var up = state.up;
    var low = state.low;
    var n = state.n;
    var t;
    // i: the point of I_up with the smallest error (the maximal violator);
    // numpy's argmin of where(up, E, inf): the first smallest, else 0
    var p = 0;
    var smallest = Infinity;
    for (t = 0; t < n; t++) {
      if (up[t] && E[t] < smallest) {
        smallest = E[t];
        p = t;
      }
    }
    var largest = -Infinity;
    for (t = 0; t < n; t++) {
      if (low[t] && E[t] > largest) largest = E[t];
    }
    var violation = largest - E[p];
    if (!up[p] || violation <= tol) {
      return { i: null, j: null, K_i: null, violation: violation, gain: 0 };
    }
    // j: over t in I_low with E_t > E_i, maximise the second-order gain
    // (E_t - E_i)^2 / eta_it of the step on (i, t).
    var i = p;
    var K_i = state.column(i);
    var diagonal = state.diagonal;
    var j = 0;
    var best = -Infinity;
    for (t = 0; t < n; t++) {
      var gap = E[t] - E[p];
      var eta = diagonal[t] + diagonal[i] - 2.0 * K_i[t];
      eta = Math.max(eta, TAU);
      var gain = low[t] && gap > 0 ? (gap * gap) / eta : -Infinity;
      if (gain > best) {
        best = gain;
        j = t;
      }
    }
    return { i: i, j: j, K_i: K_i, violation: violation, gain: best };
  }

  /** _step_maximal_pair: when WSS 2's pair cannot move, i with argmax E. */
  function stepMaximalPair(state, i, K_i) {
    var j = 0;
    var largest = -Infinity;
    for (var t = 0; t < state.n; t++) {
      if (state.low[t] && state.E[t] > largest) {
        largest = state.E[t];
        j = t;
      }
    }
    return state.step(i, j, K_i);
  }

  /**
   * _solve_wss2 (shrinking=False): steps on the pairs that selectWss2
   * picks, until the violation is at most tol, no step moves, or maxIter.
   */
  function solveWss2(state, tol, maxIter) {
    while (state.nIter < maxIter) {
      var s = selectWss2(state, tol);
      if (s.i === null) return;
      if (!state.step(s.i, s.j, s.K_i) && !stepMaximalPair(state, s.i, s.K_i)) {
        return;
      }
    }
  }

  /**
   * smo(K, y, C, tol=1e-3, max_iter=None, selection="wss2",
   * shrinking=False). K: Float64Array of n * n; y: labels -1 / +1;
   * C: a number or n numbers. options: {tol, maxIter, p} (p, the linear
   * term: a number or n numbers, default -1, the classifier).
   */
  function smo(K, n, y, C, options) {
    options = options || {};
    var tol = options.tol === undefined ? 1e-3 : options.tol;
    var maxIter =
      options.maxIter === undefined
        ? Math.max(10000000, 100 * n)
        : options.maxIter;
    var state = new SMOState(K, n, y, C, options.p);
    solveWss2(state, tol, maxIter);
    return state.result(tol);
  }

  // -------------------------------------------------------------------------
  // Epsilon-SVR as the general problem (LIBSVM: solve_epsilon_svr, SVR_Q)
  // -------------------------------------------------------------------------

  /**
   * The labels and linear term of epsilon-SVR's dual for targets z:
   * y = [+1 (n times); -1 (n times)], p = [epsilon - z; epsilon + z].
   */
  function svrProblem(z, epsilon) {
    var n = z.length;
    var y = new Float64Array(2 * n);
    var p = new Float64Array(2 * n);
    for (var i = 0; i < n; i++) {
      y[i] = 1.0;
      p[i] = epsilon - z[i];
      y[i + n] = -1.0;
      p[i + n] = epsilon + z[i];
    }
    return { y: y, p: p };
  }

  /**
   * The 2n x 2n kernel matrix of the 2n variables from the n x n Gram
   * matrix K: entry (k, l) is K(x_{k mod n}, x_{l mod n}). With the labels
   * of svrProblem, Q_kl = y_k y_l K_kl is LIBSVM's SVR_Q.
   */
  function svrGram(K, n) {
    var m = 2 * n;
    var big = new Float64Array(m * m);
    for (var i = 0; i < n; i++) {
      var row = K.subarray(i * n, (i + 1) * n);
      big.set(row, i * m);
      big.set(row, i * m + n);
      big.set(row, (i + n) * m);
      big.set(row, (i + n) * m + n);
    }
    return big;
  }

  /**
   * Epsilon-SVR by the same solver: K, the n x n Gram matrix; z, the n
   * targets; C > 0; epsilon >= 0; options: {tol, maxIter}. Returns smo's
   * result for the 2n variables (alpha = [alpha; alpha*], b = -rho,
   * dualObjective = W, the dual as a maximum) with beta, the n
   * coefficients alpha_i - alpha*_i of f(x) = sum_i beta_i K(x_i, x) + b.
   */
  function svr(K, n, z, C, epsilon, options) {
    options = options || {};
    var problem = svrProblem(z, epsilon);
    var result = smo(svrGram(K, n), 2 * n, problem.y, C, {
      tol: options.tol,
      maxIter: options.maxIter,
      p: problem.p,
    });
    result.beta = svrCoefficients(result.alpha, n);
    return result;
  }

  /** beta_i = alpha_i - alpha*_i from the 2n multipliers. */
  function svrCoefficients(alpha, n) {
    var beta = [];
    for (var i = 0; i < n; i++) beta.push(alpha[i] - alpha[i + n]);
    return beta;
  }

  /**
   * f(x) = sum_i beta_i K(x_i, x) + b as a function of a number x, for
   * 1-D inputs xs (numbers).
   */
  function regressionFunction(xs, beta, b, kernel, sigma) {
    var gamma = kernel === "rbf" ? rbfGamma(sigma) : 0.0;
    var sx = [];
    var coef = [];
    for (var s = 0; s < xs.length; s++) {
      if (beta[s] !== 0) {
        sx.push(xs[s]);
        coef.push(beta[s]);
      }
    }
    var m = coef.length;
    if (kernel === "linear") {
      var w = 0.0;
      for (var k = 0; k < m; k++) w += coef[k] * sx[k];
      return function (x) {
        return w * x + b;
      };
    }
    return function (x) {
      var f = b;
      for (var q = 0; q < m; q++) {
        var d = x - sx[q];
        f += coef[q] * Math.exp(-gamma * (d * d));
      }
      return f;
    };
  }

  // -------------------------------------------------------------------------
  // The decision function, for drawing
  // -------------------------------------------------------------------------

  /**
   * f(x) = sum_s alpha_s y_s K(x_s, x) + b over the support vectors, as a
   * function of a 2-D point.
   */
  function decisionFunction(points, y, alpha, b, kernel, sigma) {
    var gamma = kernel === "rbf" ? rbfGamma(sigma) : 0.0;
    var sx = [];
    var sy = [];
    var coef = [];
    for (var s = 0; s < points.length; s++) {
      if (alpha[s] > 0) {
        sx.push(points[s][0]);
        sy.push(points[s][1]);
        coef.push(alpha[s] * y[s]);
      }
    }
    var m = coef.length;
    if (kernel === "linear") {
      var w0 = 0.0;
      var w1 = 0.0;
      for (var k = 0; k < m; k++) {
        w0 += coef[k] * sx[k];
        w1 += coef[k] * sy[k];
      }
      return function (x0, x1) {
        return w0 * x0 + w1 * x1 + b;
      };
    }
    return function (x0, x1) {
      var f = b;
      for (var q = 0; q < m; q++) {
        var d0 = x0 - sx[q];
        var d1 = x1 - sy[q];
        f += coef[q] * Math.exp(-gamma * (d0 * d0 + d1 * d1));
      }
      return f;
    };
  }

  return {
    TAU: TAU,
    rbfGamma: rbfGamma,
    kernelValue: kernelValue,
    gramMatrix: gramMatrix,
    maxViolation: maxViolation,
    dualObjectiveFromErrors: dualObjectiveFromErrors,
    interceptFromErrors: interceptFromErrors,
    stepBounds: stepBounds,
    twoVariableStep: twoVariableStep,
    SMOState: SMOState,
    selectWss2: selectWss2,
    solveWss2: solveWss2,
    smo: smo,
    decisionFunction: decisionFunction,
    svrProblem: svrProblem,
    svrGram: svrGram,
    svr: svr,
    svrCoefficients: svrCoefficients,
    regressionFunction: regressionFunction,
  };
});
