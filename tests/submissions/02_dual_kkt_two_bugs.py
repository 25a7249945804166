# Assignment 2, two honest mistakes: primal_from_dual averages
# y_i - w . x_i over every support vector (those at the bound C too), and
# primal_objective averages the hinge losses instead of summing them.
# Questions 4 and 6 score zero, the others full marks (13 / 19).
# cell: closest_point_on_circle
def closest_point_on_circle(p):
    """Minimiser x of ||x - p||^2 on the unit circle, and its Lagrange
    multiplier."""
    # grad_x L = 2 (x - p) + 2 lam x = 0 gives x = p / (1 + lam);
    # ||x|| = 1 gives 1 + lam = ||p|| (the positive root is the minimum).
    p = np.asarray(p, dtype=float)
    norm = np.linalg.norm(p)
    return p / norm, float(norm - 1.0)
# cell: dual_objective
def dual_objective(alpha, K, y):
    """W(alpha) = sum(alpha) - 1/2 sum_ij alpha_i alpha_j y_i y_j K_ij."""
    v = alpha * y
    return float(np.sum(alpha) - 0.5 * v @ K @ v)
# cell: solve_dual
def solve_dual(K, y, C):
    """The maximiser alpha of W on the feasible set, by SLSQP."""
    Q = (y[:, None] * y[None, :]) * K
    result = minimize(
        lambda a: 0.5 * a @ Q @ a - a.sum(),
        np.zeros(len(y)),
        jac=lambda a: Q @ a - 1.0,
        bounds=[(0.0, C)] * len(y),
        constraints=[
            {"type": "eq", "fun": lambda a: a @ y, "jac": lambda a: y}
        ],
        method="SLSQP",
        options={"ftol": 1e-12, "maxiter": 1000},
    )
    alpha = result.x.copy()
    alpha[alpha < 1e-8] = 0.0
    alpha[alpha > C - 1e-8] = C
    return alpha
# cell: primal_from_dual
def primal_from_dual(alpha, X, y, C):
    """(w, b) of a linear SVM from its dual solution alpha."""
    w = (alpha * y) @ X
    support = alpha > 0
    b = float(np.mean(y[support] - X[support] @ w))
    return w, b
# cell: kkt_residuals
def kkt_residuals(alpha, margins, C, tol=1e-8):
    """Per-point violation of the KKT conditions, given the margins
    m_i = y_i f(x_i)."""
    at_zero = alpha <= tol
    at_C = alpha >= C - tol
    return np.where(
        at_zero,
        np.maximum(0.0, 1.0 - margins),
        np.where(at_C, np.maximum(0.0, margins - 1.0), np.abs(1.0 - margins)),
    )
# cell: primal_objective
def primal_objective(w, b, X, y, C):
    """1/2 ||w||^2 + C sum_i max(0, 1 - y_i (w . x_i + b))."""
    return float(
        0.5 * w @ w + C * np.mean(np.maximum(0.0, 1.0 - y * (X @ w + b)))
    )
