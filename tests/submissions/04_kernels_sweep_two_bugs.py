# Assignment 4, two honest mistakes: gaussian_gram divides the squared
# distance by 2 sigma instead of 2 sigma^2, and sigma_heuristic averages
# the whole distance matrix (the zeros of its diagonal and every pair
# twice). Questions 1 and 4 score zero; the others (the validation grid
# graded with reference kernels) score 11 / 16.
# cell: gaussian_gram
def gaussian_gram(X, Z, sigma):
    """Gaussian (RBF) kernel matrix between the rows of X and the rows of Z."""
    squared = (
        np.sum(X**2, axis=1)[:, None]
        + np.sum(Z**2, axis=1)[None, :]
        - 2.0 * X @ Z.T
    )
    return np.exp(-np.maximum(squared, 0.0) / (2.0 * sigma))
# cell: polynomial_gram
def polynomial_gram(X, Z, degree, coef0=1.0):
    """Polynomial kernel matrix (x . z + coef0) ** degree."""
    return (X @ Z.T + coef0) ** degree
# cell: is_kernel_matrix
def is_kernel_matrix(K, tol=1e-8):
    """Whether K is symmetric positive semi-definite (up to rounding)."""
    K = np.asarray(K, dtype=float)
    if (
        K.ndim != 2
        or K.shape[0] != K.shape[1]
        or not np.allclose(K, K.T, atol=tol)
    ):
        return False
    eigenvalues = np.linalg.eigvalsh(K)
    return bool(
        eigenvalues.min() >= -tol * max(1.0, np.abs(eigenvalues).max())
    )
# cell: sigma_heuristic
def sigma_heuristic(X):
    """Half the mean pairwise Euclidean distance between the rows of X."""
    distances = np.sqrt(((X[:, None, :] - X[None, :, :]) ** 2).sum(-1))
    return 0.5 * float(np.mean(distances))
# cell: validation_grid
def validation_grid(X_train, y_train, X_val, y_val, Cs, sigmas):
    """Validation accuracy for every (sigma, C) of the grid.

    Returns an array of shape (len(sigmas), len(Cs)).
    """
    accuracy = np.zeros((len(sigmas), len(Cs)))
    for a, sigma in enumerate(sigmas):
        K = gaussian_gram(X_train, X_train, sigma)
        K_val = gaussian_gram(X_val, X_train, sigma)
        for c, C in enumerate(Cs):
            result = smo(K, y_train, C)
            f = K_val @ (result.alpha * y_train) + result.b
            accuracy[a, c] = np.mean(np.where(f >= 0, 1.0, -1.0) == y_val)
    return accuracy
