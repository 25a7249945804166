"""The MNIST loader on tiny IDX files written here, and on the real files."""

import gzip
import hashlib
import os
from pathlib import Path

import numpy as np
import pytest

from svmlib.datasets import mnist as datasets


def write_idx(path, array):
    """Write a uint8 array as a gzip-compressed IDX file."""
    header = bytes([0, 0, 0x08, array.ndim]) + b"".join(
        int(d).to_bytes(4, "big") for d in array.shape
    )
    with gzip.open(path, "wb") as f:
        f.write(header + array.astype(np.uint8).tobytes())
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


@pytest.fixture
def tiny_mnist(tmp_path, monkeypatch):
    """A data folder with 6 training and 4 test images.

    The published checksums are patched to match these files.
    """
    rng = np.random.default_rng(0)
    folder = tmp_path / "mnist"
    folder.mkdir()
    content = {
        "train-images-idx3-ubyte.gz": rng.integers(0, 256, size=(6, 28, 28)),
        "train-labels-idx1-ubyte.gz": np.array([5, 0, 4, 1, 9, 3]),
        "t10k-images-idx3-ubyte.gz": rng.integers(0, 256, size=(4, 28, 28)),
        "t10k-labels-idx1-ubyte.gz": np.array([7, 2, 1, 3]),
    }
    sums = {
        name: write_idx(folder / name, array)
        for name, array in content.items()
    }
    monkeypatch.setattr(datasets, "MNIST_FILES", sums)
    return tmp_path, content


def test_reads_tiny_files(tiny_mnist):
    home, content = tiny_mnist
    X, y = datasets.load_mnist(subset="train", data_home=home, download=False)
    assert X.shape == (6, 784) and X.dtype == np.float32
    np.testing.assert_array_equal(y, [5, 0, 4, 1, 9, 3])
    np.testing.assert_allclose(
        X[2], content["train-images-idx3-ubyte.gz"][2].ravel() / 255, rtol=1e-6
    )
    X, y = datasets.load_mnist(
        digits=(3,), subset="all", data_home=home, download=False
    )
    assert X.shape == (2, 784) and list(y) == [3, 3]


def test_environment_variable_selects_folder(tiny_mnist, monkeypatch):
    home, _ = tiny_mnist
    monkeypatch.setenv("SVMLIB_DATA_DIR", str(home))
    _, y = datasets.load_mnist(subset="test", download=False)
    np.testing.assert_array_equal(y, [7, 2, 1, 3])


def test_checksum_mismatch_is_reported(tiny_mnist, monkeypatch):
    home, _ = tiny_mnist
    sums = dict(
        datasets.MNIST_FILES, **{"t10k-labels-idx1-ubyte.gz": "0" * 64}
    )
    monkeypatch.setattr(datasets, "MNIST_FILES", sums)
    with pytest.raises(OSError, match="corrupt.*SHA-256"):
        datasets.load_mnist(subset="test", data_home=home, download=False)


def test_missing_file_offline_says_what_to_do(tmp_path):
    with pytest.raises(OSError, match="SVMLIB_DATA_DIR"):
        datasets.load_mnist(data_home=tmp_path, download=False)


def test_failed_download_leaves_no_file(tmp_path, monkeypatch):
    monkeypatch.setattr(
        datasets, "MNIST_URLS", ("http://127.0.0.1:9/",)
    )  # nothing listens on port 9
    with pytest.raises(OSError, match="could not be downloaded"):
        datasets.load_mnist(subset="test", data_home=tmp_path)
    assert not any(p.is_file() for p in tmp_path.rglob("*"))


def test_truncated_file_is_reported(tmp_path, monkeypatch):
    path = tmp_path / "bad.gz"
    with gzip.open(path, "wb") as f:
        f.write(bytes([0, 0, 8, 1]) + (10).to_bytes(4, "big") + bytes(5))
    with pytest.raises(OSError, match="does not match the file size"):
        datasets.read_idx(path)
    with gzip.open(path, "wb") as f:
        f.write(b"\x12\x34\x56\x78")
    with pytest.raises(OSError, match="magic number"):
        datasets.read_idx(path)


@pytest.mark.parametrize(
    "kwargs, message",
    [(dict(subset="val"), "subset"), (dict(digits=(3, 12)), "0 to 9")],
)
def test_bad_arguments(kwargs, message, tmp_path):
    with pytest.raises(ValueError, match=message):
        datasets.load_mnist(data_home=tmp_path, download=False, **kwargs)


@pytest.mark.skipif(
    not os.environ.get("SVMLIB_DATA_DIR"), reason="SVMLIB_DATA_DIR is not set"
)
def test_real_mnist_counts():
    X, y = datasets.load_mnist(download=False)
    assert X.shape == (70000, 784) and 0.0 <= X.min() and X.max() == 1.0
    train_counts = [5923, 6742, 5958, 6131, 5842, 5421, 5918, 6265, 5851, 5949]
    np.testing.assert_array_equal(np.bincount(y[:60000]), train_counts)
    np.testing.assert_array_equal(y[:10], [5, 0, 4, 1, 9, 2, 1, 3, 1, 4])


def test_default_folder_is_the_checkout_data_folder(monkeypatch):
    monkeypatch.delenv("SVMLIB_DATA_DIR", raising=False)
    repository = Path(__file__).resolve().parents[1]
    assert datasets.get_data_home() == repository / "data"


# ---------------------------------------------------------------------------
# deskew (LeCun et al. 1998)
# ---------------------------------------------------------------------------


def _moments(images, shape=(28, 28)):
    """Centres of mass and slants s_rc / s_rr of flat images."""
    rows, cols = np.indices(shape)
    out = []
    for image in images.reshape(-1, *shape).astype(np.float64):
        total = image.sum()
        r0, c0 = (image * rows).sum() / total, (image * cols).sum() / total
        s_rr = (image * (rows - r0) ** 2).sum() / total
        s_rc = (image * (rows - r0) * (cols - c0)).sum() / total
        out.append((r0, c0, s_rc / s_rr))
    return np.array(out)


def test_deskew_zeroes_the_slant_and_centres():
    rng = np.random.default_rng(0)
    images = np.zeros((20, 28, 28))
    for k, slant in enumerate(rng.uniform(-0.6, 0.6, 20)):
        for r in range(6, 22):  # a thick stroke leaning by `slant`
            c = int(round(12 + slant * (r - 14))) + rng.integers(-1, 2)
            images[k, r, c : c + 3] = 1.0
    before = _moments(images.reshape(20, -1))
    after = _moments(datasets.deskew(images.reshape(20, -1)))
    assert np.abs(before[:, 2]).mean() > 0.2
    np.testing.assert_allclose(after[:, 2], 0.0, atol=0.05)
    np.testing.assert_allclose(after[:, :2], 13.5, atol=0.3)


def test_deskew_leaves_an_upright_centred_image_and_a_blank_one():
    image = np.zeros((2, 28, 28), dtype=np.float32)
    image[0, 8:20, 12:16] = 1.0  # upright, centre of mass at (13.5, 13.5)
    out = datasets.deskew(image.reshape(2, -1))
    assert out.dtype == np.float32
    np.testing.assert_allclose(out, image.reshape(2, -1), atol=1e-6)


@pytest.mark.parametrize(
    "X, message",
    [
        (np.zeros((3, 780)), "shape"),
        (np.zeros(784), "shape"),
        (-np.ones((1, 784)), ">= 0"),
        (np.full((1, 784), np.nan), "finite"),
    ],
)
def test_deskew_bad_input(X, message):
    with pytest.raises(ValueError, match=message):
        datasets.deskew(X)
