"""dSprites and 3dshapes: official-format exports through the CLI's exporter table, loaders, missing and malformed files."""
import numpy as np
import pytest

from vlconcepts.cli import export_world
from vlconcepts.core import DatasetFormatError, DatasetNotFound, InputValidationError
from vlconcepts.factor_data import (DSPRITES_FILENAME, DSPRITES_LATENT_SIZES, SHAPES3D_FACTOR_NAMES, SHAPES3D_FACTOR_SIZES,
                                    classes_of_indices, draw_dsprites, dsprites_values_of_classes, export_3dshapes,
                                    export_dsprites, grid_indices, load_3dshapes, load_dsprites, shapes3d_values_of_classes)


def test_dsprites_export_has_release_keys_and_round_trips(tmp_path):
    path = export_world("dsprites", tmp_path, n=40, seed=3)
    assert path.name == DSPRITES_FILENAME
    with np.load(path, allow_pickle=True) as raw:
        assert raw["imgs"].dtype == np.uint8 and raw["imgs"].shape == (40, 64, 64)
        assert raw["latents_values"].dtype == np.float64 and raw["latents_values"].shape == (40, 6)
        assert raw["latents_classes"].dtype == np.int64 and raw["latents_classes"].shape == (40, 6)
        metadata = raw["metadata"][()]
        assert list(metadata["latents_sizes"]) == [1, 3, 6, 40, 32, 32]
        assert tuple(metadata["latents_names"]) == ("color", "shape", "scale", "orientation", "posX", "posY")
        np.testing.assert_allclose(metadata["latents_possible_values"]["scale"], np.linspace(0.5, 1, 6))
    data = load_dsprites(tmp_path)
    assert len(data) == 40 and data.factor_sizes == DSPRITES_LATENT_SIZES
    np.testing.assert_array_equal(data.images, draw_dsprites(data.factor_values))
    np.testing.assert_allclose(data.factor_values, dsprites_values_of_classes(data.factor_classes))
    assert set(np.unique(data.images)) <= {0, 1}


def test_dsprites_sprite_follows_its_latents():
    classes = np.zeros((32, 6), dtype=np.int64)
    classes[:, 1], classes[:, 2], classes[:, 4], classes[:, 5] = 2, 5, np.arange(32), 16   # a heart moving right
    images = draw_dsprites(dsprites_values_of_classes(classes))
    columns = [np.nonzero(image)[1].mean() for image in images]
    assert np.all(np.diff(columns) > 0)
    rotated = dsprites_values_of_classes([[0, 1, 4, 0, 9, 9], [0, 1, 4, 39, 9, 9]])
    first, last = draw_dsprites(rotated)
    np.testing.assert_array_equal(first, last)


def test_3dshapes_labels_are_the_requested_grid(tmp_path):
    grid = {"floor_hue": [0, 9], "wall_hue": [3], "object_hue": [5], "scale": [0, 7], "shape": [1, 2], "orientation": [7]}
    export_3dshapes(tmp_path, factor_grid=grid, size=24)
    data = load_3dshapes(tmp_path / "3dshapes.h5")
    expected = classes_of_indices(grid_indices(SHAPES3D_FACTOR_NAMES, SHAPES3D_FACTOR_SIZES, grid), SHAPES3D_FACTOR_SIZES)
    np.testing.assert_array_equal(data.factor_classes, expected)
    np.testing.assert_array_equal(data.factor_values, shapes3d_values_of_classes(expected))
    assert data.images.shape == (8, 24, 24, 3) and data.images.dtype == np.uint8


def test_3dshapes_cli_sample_is_seeded(tmp_path):
    a = load_3dshapes(export_world("3dshapes", tmp_path / "a", n=3, seed=7, size=16))
    b = load_3dshapes(export_world("3dshapes", tmp_path / "b", n=3, seed=7, size=16))
    assert a.fingerprint == b.fingerprint and len(a) == 3


def test_missing_datasets_say_where_to_get_them(tmp_path, monkeypatch):
    monkeypatch.setenv("VLCONCEPTS_DATA", str(tmp_path))
    with pytest.raises(DatasetNotFound, match="deepmind/dsprites-dataset") as error:
        load_dsprites()
    assert DSPRITES_FILENAME in str(error.value)
    with pytest.raises(DatasetNotFound, match="3d-shapes"):
        load_3dshapes()


def test_malformed_files_name_file_and_key(tmp_path):
    path = export_dsprites(tmp_path, n=4)
    with np.load(path, allow_pickle=True) as raw: parts = {k: raw[k] for k in raw.files}
    np.savez(tmp_path / "noimgs.npz", **{k: v for k, v in parts.items() if k != "imgs"})
    with pytest.raises(DatasetFormatError, match=r"noimgs\.npz: key 'imgs' is missing"):
        load_dsprites(tmp_path / "noimgs.npz")
    np.savez(tmp_path / "short.npz", **{**parts, "latents_classes": parts["latents_classes"][:3]})
    with pytest.raises(DatasetFormatError, match="must match"):
        load_dsprites(tmp_path / "short.npz")
    import h5py
    with h5py.File(tmp_path / "five.h5", "w") as f:
        f["images"] = np.zeros((2, 8, 8, 3), np.uint8); f["labels"] = np.zeros((2, 5))
    with pytest.raises(DatasetFormatError, match="'labels' should be a 2-D array with 6 columns"):
        load_3dshapes(tmp_path / "five.h5")


def test_bad_requests_are_refused(tmp_path):
    with pytest.raises(InputValidationError, match="n must be an integer"):
        export_dsprites(tmp_path, n=10, factor_grid={"shape": [0], "scale": [0], "orientation": [0], "posX": [0], "posY": [0]})
    with pytest.raises(InputValidationError, match="unknown factor"):
        export_3dshapes(tmp_path, factor_grid={"colour": [0]})
