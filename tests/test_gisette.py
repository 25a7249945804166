"""The GISETTE loader on small files written here; the Gisette-style data."""

import hashlib
import os

import numpy as np
import pytest
from sklearn.metrics import roc_auc_score

from svmlib.datasets import gisette

needs_mnist = pytest.mark.skipif(
    not os.environ.get("SVMLIB_DATA_DIR"), reason="SVMLIB_DATA_DIR is not set"
)


@pytest.fixture
def tiny_gisette(tmp_path, monkeypatch):
    rng = np.random.default_rng(0)
    folder = tmp_path / "gisette"
    folder.mkdir()
    arrays = {
        "gisette_train.data": rng.integers(
            0, 1000, size=(6, gisette.N_FEATURES)
        ),
        "gisette_valid.data": rng.integers(
            0, 1000, size=(4, gisette.N_FEATURES)
        ),
        "gisette_train.labels": np.array([1, -1, 1, -1, 1, -1]),
        "gisette_valid.labels": np.array([-1, 1, 1, -1]),
    }
    sums = {}
    for name, array in arrays.items():
        text = (
            "\n".join(
                " ".join(str(v) for v in np.atleast_1d(row)) + " "
                for row in array
            )
            + "\n"
        )
        (folder / name).write_text(text)
        sums[name] = hashlib.sha256(text.encode()).hexdigest()
    monkeypatch.setattr(gisette, "GISETTE_FILES", sums)
    return tmp_path, arrays


def test_reads_the_four_files(tiny_gisette):
    home, arrays = tiny_gisette
    data = gisette.load_gisette(data_home=home, download=False)
    np.testing.assert_array_equal(data.X_train, arrays["gisette_train.data"])
    np.testing.assert_array_equal(data.y_valid, arrays["gisette_valid.labels"])
    assert data.X_valid.dtype == np.int16 and data.X_valid.shape == (
        4,
        gisette.N_FEATURES,
    )


def test_wrong_width_is_reported(tiny_gisette, monkeypatch):
    home, _ = tiny_gisette
    monkeypatch.setattr(gisette, "N_FEATURES", 4999)
    with pytest.raises(OSError, match="expected 4999 columns"):
        gisette.load_gisette(data_home=home, download=False)


def test_missing_files_offline(tmp_path):
    with pytest.raises(OSError, match="gisette_train.data is not in"):
        gisette.load_gisette(data_home=tmp_path, download=False)


@pytest.mark.parametrize(
    "kwargs", [dict(n_train=5), dict(n_valid=0), dict(n_pixels=1)]
)
def test_bad_sizes(kwargs):
    with pytest.raises(ValueError):
        gisette.make_gisette_like(**kwargs)


@needs_mnist
def test_gisette_like_follows_the_recipe():
    data = gisette.make_gisette_like(n_train=1000, n_valid=200, random_state=0)
    assert data.X_train.shape == (1000, 5000) and data.X_valid.shape == (
        200,
        5000,
    )
    assert (
        data.X_train.dtype == np.int16
        and data.X_train.min() >= 0
        and data.X_train.max() == 999
    )
    assert np.bincount(data.y_train + 1)[[0, 2]].tolist() == [500, 500]
    assert data.is_probe.sum() == 2500
    # probes carry no information about the label, real features do
    auc = np.array(
        [
            roc_auc_score(data.y_train, column) if column.std() > 0 else 0.5
            for column in data.X_train.T
        ]
    )
    separation = np.abs(auc - 0.5)
    # (with 1000 examples, chance alone gives |AUC - 0.5| up to about 0.06
    # over 2500 probes)
    assert separation[data.is_probe].max() < 0.08
    assert np.percentile(separation[~data.is_probe], 90) > 0.1
    assert separation[~data.is_probe].max() > 0.3
    again = gisette.make_gisette_like(
        n_train=1000, n_valid=200, random_state=0
    )
    np.testing.assert_array_equal(again.X_valid, data.X_valid)


def _fake_mnist(images, digits):
    def fake_load_mnist(digits=None, data_home=None, download=True):
        return images.copy(), digits_.copy()

    digits_ = digits
    return fake_load_mnist


@pytest.fixture
def fake_digits():
    """200 random 'images' of 4s and 9s, 100 of each."""
    rng = np.random.default_rng(1)
    images = rng.integers(0, 256, size=(200, 784)).astype(np.uint8)
    digits = np.repeat([4, 9], 100)
    return images, digits


def test_pixels_do_not_depend_on_images_or_labels(fake_digits, monkeypatch):
    # Label leakage check: the pixels are sampled from the seed alone. Make
    # the labels (and images) of the examples that end up in any part say
    # something else entirely: the pixels chosen must not move.
    images, digits = fake_digits
    monkeypatch.setattr(gisette, "load_mnist", _fake_mnist(images, digits))
    first = gisette.make_gisette_like(n_train=60, n_valid=40, random_state=3)
    # a pixel of the region that separates the classes perfectly, and the
    # labels shuffled: a class-separation ranking would pick other pixels
    region = gisette._region_pixels()
    informative = images.copy()
    informative[:, region[:20]] = np.where(digits == 9, 255, 0)[:, None]
    shuffled = np.random.default_rng(2).permutation(digits)
    for fake_images, fake_labels in (
        (informative, digits),
        (images, shuffled),
        (informative, shuffled),
    ):
        monkeypatch.setattr(
            gisette, "load_mnist", _fake_mnist(fake_images, fake_labels)
        )
        again = gisette.make_gisette_like(
            n_train=60, n_valid=40, random_state=3
        )
        np.testing.assert_array_equal(again.pixels, first.pixels)
    assert set(first.pixels) <= set(region)
    assert len(set(first.pixels)) == len(first.pixels) == 150
    other = gisette.make_gisette_like(n_train=60, n_valid=40, random_state=4)
    assert not np.array_equal(other.pixels, first.pixels)


def test_real_features_are_the_sampled_pixels(fake_digits, monkeypatch):
    # the first n_pixels real features are the sampled pixels, scaled to
    # 0-999: find each pixel's column among the features
    images, digits = fake_digits
    monkeypatch.setattr(gisette, "load_mnist", _fake_mnist(images, digits))
    data = gisette.make_gisette_like(
        n_train=100, n_valid=100, n_pixels=10, random_state=0
    )
    X = np.vstack([data.X_train, data.X_valid]).astype(np.float64)
    # all 200 fake images are used (100 of each class): every scaled pixel
    # column must appear among the 2500 real features, in some row order
    source = images.astype(np.float64)[:, data.pixels]
    scaled = np.rint(999 * source / source.max(axis=0)).astype(np.int64)
    real = X[:, ~data.is_probe].astype(np.int64)
    for column in scaled.T:
        assert any(
            np.array_equal(np.sort(column), np.sort(feature))
            for feature in real.T
        )


@pytest.mark.parametrize("n_pixels", [193, 2500])
def test_more_pixels_than_the_region_holds(n_pixels):
    with pytest.raises(ValueError, match="pixels of the region"):
        gisette.make_gisette_like(n_pixels=n_pixels)
