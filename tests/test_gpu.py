"""CUDA paths against their CPU results: the purity probes, the ray caster, model encoding with autocast, ToyCLIP
training with mixed precision, a concept learner and the feature cache.

Every test here needs a CUDA device and is skipped without one (CI has none); run them on a GPU machine with
`pytest tests/test_gpu.py`. Tolerances are those of float32 (the renderer, the probes) or of the autocast dtype
(model features), so a wrong device, a wrong dtype or a CPU tensor left in a CUDA computation fails them."""
import numpy as np
import pytest
import torch

pytestmark = pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")


def test_purity_matrix_on_cuda_matches_cpu():
    "Scalar-kernel and dense probes give the same purity matrix on CUDA as on the CPU (same init, same batch order)."
    from vlconcepts import purity
    c_true, c_soft = purity.table1_representations(800, 3, "impure", seed=3)
    for kernel, soft in (("scalar", c_soft), ("dense", np.stack([c_soft, c_soft ** 2], 1))):
        on_cpu = purity.purity_matrix(soft, c_true, seed=0, kernel=kernel, device="cpu")
        on_gpu = purity.purity_matrix(soft, c_true, seed=0, kernel=kernel, device="cuda")
        assert np.abs(on_cpu - on_gpu).max() < 0.01, (kernel, on_cpu, on_gpu)


def test_scalar_probe_kernel_keeps_its_buffers_on_the_input_device():
    from vlconcepts import purity
    generator = torch.Generator().manual_seed(0)
    sorted_x = torch.sort(torch.randn(4, 64, generator=generator, dtype=torch.float64), dim=1).values.cuda()
    targets = torch.randint(0, 2, (4, 64), generator=generator).double().cuda()
    w1, b1 = torch.randn(4, 8, dtype=torch.float64).cuda(), torch.randn(4, 8, dtype=torch.float64).cuda()
    w2, b2 = torch.randn(4, 8, 1, dtype=torch.float64).cuda(), torch.randn(4, 1, dtype=torch.float64).cuda()
    grads = purity.scalar_probe_gradients(sorted_x, targets, w1, b1, w2, b2)
    expected = purity.scalar_probe_gradients(sorted_x.cpu(), targets.cpu(), w1.cpu(), b1.cpu(), w2.cpu(), b2.cpu())
    for g, e in zip(grads, expected):
        assert g.device.type == "cuda"
        torch.testing.assert_close(g.cpu(), e)


def test_render_scenes_on_cuda_matches_cpu():
    from vlconcepts.worlds import render_scenes, sample_scenes
    scenes = sample_scenes(11, 16, n_objects=3)
    on_cpu, on_gpu = render_scenes(scenes, 64, device="cpu"), render_scenes(scenes, 64, device="cuda")
    assert on_gpu.device.type == "cpu" and on_gpu.shape == on_cpu.shape
    differs = (on_cpu - on_gpu).abs() > 1e-3
    assert differs.float().mean() < 1e-3, f"{differs.float().mean():.2e} of the pixels differ"  # only silhouette edges may flip
    kept = render_scenes(scenes[:2], 32, device="cuda", keep_on_device=True)
    assert kept.device.type == "cuda"


def test_toyclip_features_on_cuda_match_cpu():
    "Autocast on CUDA changes the features only by the autocast dtype's rounding."
    from vlconcepts.models import load_model
    from vlconcepts.worlds import render_scenes, sample_scenes
    images = render_scenes(sample_scenes(5, 8, n_objects=1), 64)
    texts = ["a red cube", "a large blue metal sphere", "a cylinder behind a cube"]
    on_cpu, on_gpu = load_model("toyclip:default", device="cpu"), load_model("toyclip:default", device="cuda")
    assert on_cpu.fingerprint == on_gpu.fingerprint
    for cpu_features, gpu_features in ((on_cpu.encode_images(images), on_gpu.encode_images(images)),
                                       (on_cpu.encode_texts(texts), on_gpu.encode_texts(texts))):
        assert gpu_features.device.type == "cpu" and gpu_features.dtype == torch.float32
        cosine = torch.nn.functional.cosine_similarity(cpu_features, gpu_features, dim=1)
        assert cosine.min() > 0.995, cosine
    assert (on_cpu.similarity(images, texts).argmax(1) == on_gpu.similarity(images, texts).argmax(1)).float().mean() >= 0.75


def test_toyclip_trains_with_mixed_precision_on_cuda_and_resumes(tmp_path):
    from test_toyclip import SMOKE
    from vlconcepts.toyclip import autocast_dtype, read_checkpoint, train_toyclip
    assert autocast_dtype(torch.device("cuda")) is not None
    whole = train_toyclip(SMOKE, tmp_path / "whole", device="cuda")
    losses = [h["loss"] for h in whole.history]
    assert np.isfinite(losses).all() and np.mean(losses[-2:]) < np.mean(losses[:2]), losses
    train_toyclip(SMOKE, tmp_path / "resumed", device="cuda", stop_at_step=4)
    assert read_checkpoint(tmp_path / "resumed" / "last.pt")["step"] == 4
    resumed = train_toyclip(SMOKE, tmp_path / "resumed", device="cuda")
    np.testing.assert_allclose([h["loss"] for h in resumed.history], losses, rtol=1e-2)


def test_concept_learner_trains_on_cuda():
    from vlconcepts.concept_learners import tabular_toy, train_concept_learner
    from vlconcepts.purity import oracle_impurity_score
    dataset = tabular_toy(0.0, n_train=600, n_test=300, seed=0)
    learner = train_concept_learner("cbm", dataset, epochs=5, device="cuda", show_progress=False)
    assert next(learner.parameters()).device.type == "cuda"
    concepts = learner.concept_representation(dataset.x_test)
    assert concepts.device.type == "cpu" and concepts.shape == dataset.c_test.shape
    assert np.isfinite(oracle_impurity_score(concepts.numpy().reshape(len(concepts), -1), dataset.c_test.numpy(), seed=0))


def test_feature_cache_on_cuda_is_a_hit_the_second_time(tmp_path):
    from vlconcepts.cache import FeatureCache, cached_image_features
    from vlconcepts.models import load_model, save_tiny_model
    model = load_model(save_tiny_model("openclip", tmp_path / "tiny"), device="cuda")
    images = torch.rand(10, 3, 32, 32, generator=torch.Generator().manual_seed(0))
    cache = FeatureCache(tmp_path / "cache")
    first = cached_image_features(model, images, cache=cache, chunk_size=4)
    model.encode_images = None                      # a cache hit must not call the encoder
    second = cached_image_features(model, images, cache=cache, chunk_size=4)
    assert torch.equal(first, second) and first.device.type == "cpu"
