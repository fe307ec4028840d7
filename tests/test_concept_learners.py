"""vlconcepts.concept_learners: datasets read from exported files, bad inputs, and device handling."""
import numpy as np
import pytest
import torch

from vlconcepts.concept_learners import intervene, train_concept_learner
from vlconcepts.concept_data import (DSPRITES_SPEC, concept_image_dataset, dsprites_concepts, factor_grid_union, tabular_toy)
from vlconcepts.core import DatasetFormatError, InputValidationError, ModelSpecError, VLConceptsError


@pytest.fixture(scope="module")
def dsprites_file(tmp_path_factory):
    from vlconcepts.factor_data import export_dsprites
    grid = factor_grid_union(DSPRITES_SPEC, 0)
    return export_dsprites(tmp_path_factory.mktemp("dsprites"), n=300, seed=0, size=16, factor_grid=grid)


def test_dsprites_from_an_exported_file(dsprites_file):
    data = dsprites_concepts(dsprites_file, 0, seed=1)
    assert data.input_shape == (1, 16, 16) and len(data.x_train) + len(data.x_test) == 300
    assert set(np.unique(data.x_train.numpy())) <= {0.0, 1.0}
    assert data.c_train.shape[1] == 5 and int(data.y_train.max()) < 8
    again = dsprites_concepts(dsprites_file, 0, seed=1)
    assert torch.equal(data.x_test, again.x_test)              # the split is seeded


def test_concept_image_dataset_exports_once_and_reuses(tmp_path):
    first = concept_image_dataset("dsprites", 2, n_max=60, image_size=16, export_dir=tmp_path)
    files = sorted(tmp_path.rglob("*.npz"))
    second = concept_image_dataset("dsprites", 2, n_max=60, image_size=16, export_dir=tmp_path)
    assert len(files) == 1 and sorted(tmp_path.rglob("*.npz")) == files
    assert torch.equal(first.x_train, second.x_train) and len(first.x_train) + len(first.x_test) == 60


def test_missing_file_names_the_dataset(tmp_path):
    with pytest.raises(FileNotFoundError, match="dSprites"):
        dsprites_concepts(tmp_path / "nothing-here", 0)


def test_bad_inputs_are_clear_errors():
    data = tabular_toy(0.0, n_train=40, n_test=20)
    with pytest.raises(InputValidationError, match="delta"): tabular_toy(-0.2)
    with pytest.raises(ModelSpecError, match="unknown concept learner"): train_concept_learner("cbn", data)
    bad = dsprites_concepts({"imgs": np.zeros((40, 20, 20), np.uint8), "latents_classes": np.zeros((40, 6), np.int64)}, 0)
    with pytest.raises(InputValidationError, match="multiple of 16"):
        train_concept_learner("cbm", bad, epochs=1, show_progress=False)
    with pytest.raises(DatasetFormatError, match="latents_classes"):
        dsprites_concepts({"imgs": np.zeros((4, 16, 16), np.uint8), "latents_classes": np.zeros((4, 5), np.int64)}, 0)
    learner = train_concept_learner("cbm", data, size=0.25, epochs=1, device="cpu", show_progress=False)
    with pytest.raises(InputValidationError, match="expects inputs"): learner.predict_task(torch.zeros(3, 5))
    with pytest.raises(InputValidationError, match="empty"): learner.predict_task(torch.zeros(0, 7))
    with pytest.raises(InputValidationError, match=r"\(k,\) or \(n, k\)"):
        intervene(learner, data.x_test, data.c_test, torch.zeros(2, 2, dtype=torch.bool))


def test_cuda_request_without_cuda_is_an_error():
    if torch.cuda.is_available(): pytest.skip("CUDA is available here")
    with pytest.raises(VLConceptsError, match="CUDA is not available"):
        train_concept_learner("cbm", tabular_toy(0.0, n_train=20, n_test=10), device="cuda", epochs=1)


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")
@pytest.mark.parametrize("name", ["cbm", "ada_gvae"])
def test_trains_and_infers_on_cuda(name):
    from vlconcepts.purity import oracle_impurity_score
    data = tabular_toy(0.0, n_train=64, n_test=32)
    learner = train_concept_learner(name, data, size=0.25, epochs=1, device="cuda", show_progress=False)
    assert learner.device.type == "cuda"
    rep = learner.concept_representation(data.x_test)
    assert rep.device.type == "cpu" and rep.shape == (32, 3)
    assert np.isfinite(oracle_impurity_score(rep.numpy(), data.c_test.numpy(), seed=0))
