# Assignment 1, two honest mistakes: hinge_objective sums the hinge
# losses instead of averaging them, and lambda_sweep reports the margin
# width as 1 / ||w|| (half of it). Questions 1 and 4 score zero; the
# subgradient and SGD (graded with reference versions of the objective and
# the subgradient) score 10 / 16.
# cell: hinge_objective
def hinge_objective(w, b, X, y, lam):
    """J(w, b) = lam/2 ||w||^2 + mean_i max(0, 1 - y_i (w . x_i + b))."""
    margins = y * (X @ w + b)
    return 0.5 * lam * float(w @ w) + float(
        np.sum(np.maximum(0.0, 1.0 - margins))
    )
# cell: hinge_subgradient
def hinge_subgradient(w, b, X, y, lam):
    """A subgradient (g_w, g_b) of J at (w, b) on the batch X, y."""
    active = y * (X @ w + b) < 1.0  # the points with a positive hinge loss
    g_w = lam * w - (y[active] @ X[active]) / len(y)
    g_b = -float(np.sum(y[active])) / len(y)
    return g_w, g_b
# cell: sgd
def sgd(
    X,
    y,
    lam,
    *,
    n_epochs=50,
    batch_size=20,
    learning_rate=0.5,
    random_state=RANDOM_STATE,
):
    """Mini-batch subgradient descent on J; returns (w, b, history)."""
    rng = np.random.default_rng(random_state)
    n_points, n_features = X.shape
    w, b, t = np.zeros(n_features), 0.0, 0
    history = [hinge_objective(w, b, X, y, lam)]
    for _ in range(n_epochs):
        order = rng.permutation(n_points)
        for start in range(0, n_points, batch_size):
            batch = order[start : start + batch_size]
            t += 1
            eta = learning_rate / (1.0 + learning_rate * lam * t)
            g_w, g_b = hinge_subgradient(w, b, X[batch], y[batch], lam)
            w, b = w - eta * g_w, b - eta * g_b
        history.append(hinge_objective(w, b, X, y, lam))
    return w, b, np.array(history)
# cell: lambda_sweep
def lambda_sweep(X, y, lams):
    """Margin width, training accuracy and number of points inside the
    margin of sgd's solution, for every lambda in lams."""
    sweep = {}
    for lam in lams:
        w_lam, b_lam, _ = sgd(X, y, lam)
        margins = y * (X @ w_lam + b_lam)
        sweep[lam] = {
            "width": 1.0 / np.linalg.norm(w_lam),
            "accuracy": float(np.mean(margins > 0)),
            "inside": int(np.sum(margins < 1)),
        }
    return sweep
