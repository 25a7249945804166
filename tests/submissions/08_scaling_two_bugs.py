# Assignment 8, two honest mistakes: the curvature of the coordinate step
# taken as ||x_i||^2, without the bias feature's 1 (Question 3), and the
# projected gradient not projected at alpha_i = C (Question 5). Their
# visible tests pass; the hidden checks find both: 8 / 15.
# cell: with_bias
def with_bias(X):
    return np.hstack([np.asarray(X, dtype=np.float64), np.ones((len(X), 1))])


# cell: coordinate_step
def coordinate_step(alpha_i, G, Q_ii, U):
    return min(max(alpha_i - G / Q_ii, 0.0), U)


# cell: coordinate_descent
def coordinate_descent(X, y, C, n_epochs, random_state):
    Xb = with_bias(X)
    generator = np.random.default_rng(random_state)
    alpha = np.zeros(len(y))
    w_tilde = np.zeros(Xb.shape[1])
    Q_diag = np.einsum("ij,ij->i", X, X)  # the bias's 1 left out
    for _ in range(n_epochs):
        for i in generator.permutation(len(y)):
            G = y[i] * (w_tilde @ Xb[i]) - 1.0
            new = coordinate_step(alpha[i], G, Q_diag[i], C)
            if new != alpha[i]:
                w_tilde += (new - alpha[i]) * y[i] * Xb[i]
                alpha[i] = new
    return w_tilde, alpha


# cell: primal_objective
def primal_objective(w_tilde, X, y, C):
    margins = y * (with_bias(X) @ w_tilde)
    return 0.5 * w_tilde @ w_tilde + C * np.maximum(0.0, 1.0 - margins).sum()


# cell: pg_gap
def pg_gap(w_tilde, alpha, X, y, C):
    G = y * (with_bias(X) @ w_tilde) - 1.0
    # projected at alpha_i = 0 only
    PG = np.where(alpha <= 0, np.minimum(G, 0.0), G)
    return float(PG.max() - PG.min())
