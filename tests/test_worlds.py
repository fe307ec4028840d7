"""Bad-input and fault cases of the worlds (`vlconcepts.scenes`, `render`, `captions`; the happy paths are tested inline in nbs/03a-03c)."""
import json

import numpy as np
import pytest
import torch

from vlconcepts.core import InputValidationError, VLConceptsError
from vlconcepts.scenes import (CLEVR_VOCAB, EXTENDED_VOCAB, Scene, SceneObject, Vocabulary, relation_holds, resting_object)
from vlconcepts.render import render_object_ids, render_scenes, sample_scene, sample_scenes, scene_to_clevr
from vlconcepts.captions import caption_holds, caption_object, caption_scene, false_caption, scene_graph


@pytest.fixture(scope="module")
def scene():
    return sample_scene(0, 3, min_visible_pixels=0)


@pytest.mark.parametrize("kwargs, message", [
    ({"shapes": ("teapot",)}, "no geometry"),
    ({"patterns": ("plaid",)}, "Unknown patterns"),
    ({"colors": {"neon": (300, 0, 0)}}, "triple in 0..255"),
    ({"materials": ("glass",)}, "has no shading"),
    ({"shapes": ()}, "is empty"),
])
def test_vocabulary_rejects_values_it_cannot_render(kwargs, message):
    with pytest.raises(InputValidationError, match=message):
        Vocabulary(**{**{"shapes": ("cube",)}, **kwargs})


def test_extend_with_unknown_state_name_says_to_pass_a_definition():
    with pytest.raises(InputValidationError, match="pass a dict"):
        CLEVR_VOCAB.extend(states=("melted",))


@pytest.mark.parametrize("kwargs, message", [
    ({"object_specs": [{"colour": "red"}]}, "unknown keys"),
    ({"object_specs": [{"shape": "cone"}]}, "not in the vocabulary"),
    ({"object_specs": ["red cube"]}, "must be a dict"),
    ({"n_objects": (3, 1)}, "1 <= low <= high"),
    ({"n_objects": 1, "object_specs": [{}, {}]}, "object_specs were given"),
    ({"distinct": ("rotation",)}, "can be distinct"),
])
def test_sample_scene_bad_arguments(kwargs, message):
    with pytest.raises(InputValidationError, match=message):
        sample_scene(0, **{"n_objects": 2, **kwargs})


def test_impossible_placement_fails_loudly():
    crowded = [{"position": (0.0, 0.0)}, {"position": (0.1, 0.1)}]      # two objects on the same spot
    with pytest.raises(VLConceptsError, match="Could not place"):
        sample_scene(0, 2, object_specs=crowded, max_scene_retries=3, min_visible_pixels=0)
    with pytest.raises(VLConceptsError, match="Could not place"):
        sample_scenes(0, 2, 2, object_specs=crowded, max_scene_retries=3, min_visible_pixels=0)


def test_sample_scenes_per_scene_specs_must_match_count():
    with pytest.raises(InputValidationError, match="per-scene lists"):
        sample_scenes(0, 3, 2, object_specs=[[{"color": "red"}], [{"color": "blue"}]])


@pytest.mark.parametrize("call, message", [
    (lambda s: render_scenes([]), "No scenes"),
    (lambda s: render_scenes(s), "not a single Scene"),
    (lambda s: render_scenes([s], size=0), "positive whole number of pixels"),
    (lambda s: render_scenes([s], batch_size=0), "batch_size must be positive"),
    (lambda s: render_object_ids([]), "No scenes"),
    (lambda s: render_scenes([s], supersample=0), "supersample must be a positive"),
])
def test_render_bad_arguments(scene, call, message):
    with pytest.raises(InputValidationError, match=message):
        call(scene)


def test_render_object_outside_vocabulary(scene):
    bad = Scene([SceneObject("cone", "red", "rubber", "large", (0.0, 0.0, 0.7))])     # CLEVR_VOCAB has no cone
    with pytest.raises(InputValidationError, match="shape 'cone'"):
        render_scenes([bad], 16)


@pytest.mark.skipif(torch.cuda.is_available(), reason="CUDA is available here")
def test_render_on_missing_cuda_names_the_problem(scene):
    with pytest.raises(VLConceptsError, match="CUDA is not available"):
        render_scenes([scene], 16, device="cuda")


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs CUDA")
def test_cuda_matches_cpu():
    scenes = sample_scenes(0, 8, (1, 4), EXTENDED_VOCAB)
    cpu, gpu = render_scenes(scenes, 48, device="cpu"), render_scenes(scenes, 48, device="cuda")
    assert gpu.device.type == "cpu" and (cpu - gpu).abs().gt(0.05).float().mean() < 0.002
    differs = (cpu - gpu).abs() > 1e-3
    assert differs.float().mean() < 1e-3, f"{differs.float().mean():.2e} of the pixels differ"  # only silhouette edges may flip
    assert render_scenes(scenes[:2], 32, device="cuda", keep_on_device=True).device.type == "cuda"


def test_relation_and_caption_bad_arguments(scene):
    with pytest.raises(InputValidationError, match="out of range"):
        relation_holds(scene, 0, "left", 7)
    with pytest.raises(InputValidationError, match="Unknown caption kind"):
        false_caption(scene, "story")
    with pytest.raises(InputValidationError, match="must include 'shape'"):
        caption_scene(scene, "single", fields=("color",))
    with pytest.raises(InputValidationError, match="Unknown caption fields"):
        caption_object(scene.objects[0], fields=("colour", "shape"))
    with pytest.raises(InputValidationError, match="expected 'a'/'an'"):
        caption_holds(scene, "red cube")
    with pytest.raises(InputValidationError, match="shape noun must come last"):
        caption_holds(scene, "a cube red")
    with pytest.raises(InputValidationError, match="number and noun disagree"):
        caption_holds(scene, "two cube")


def test_negated_caption_impossible_when_everything_is_present():
    world = Vocabulary(shapes=("cube",), colors={"red": (173, 35, 35)}, materials=("rubber",), sizes={"large": 0.7})
    scene = Scene([resting_object(world, shape="cube", color="red", material="rubber", size="large")], vocab=world)
    with pytest.raises(InputValidationError, match="no negated caption is true"):
        caption_scene(scene, "negated")


def test_clevr_entry_and_scene_graph_are_json(scene):
    entry = scene_to_clevr(scene, 0, "CLEVR_new_000000.png", "new", 320)
    again = json.loads(json.dumps(entry))
    assert again["objects"][0]["shape"] == scene.objects[0].shape
    assert all(isinstance(v, int) for o in again["objects"] for v in o["pixel_coords"][:2])
    graph = json.loads(json.dumps(scene_graph(scene)))
    assert [o["shape"] for o in graph["objects"]] == [o.shape for o in scene.objects]
    for i, relation, j in graph["relations"]:                    # every relation triple is true of the scene
        assert relation_holds(scene, i, relation, j)
    assert graph["relationships"] == scene_to_clevr(scene, 0, "x.png", "new", 64)["relationships"]


def test_same_seed_same_scene_and_image_across_generators():
    a = sample_scenes(np.random.default_rng(11), 4, (1, 3))
    b = sample_scenes(np.random.default_rng(11), 4, (1, 3))
    assert a == b
    assert torch.equal(render_scenes(a, 24), render_scenes(b, 24))


def _object_pixel_statistics(image: torch.Tensor, mask: torch.Tensor) -> np.ndarray:
    "Luminance and saturation quantiles, relative luminance spread and mean colour of one object's pixels."
    pixels = image[:, mask]
    luminance, saturation = pixels.mean(0), pixels.max(0).values - pixels.min(0).values
    quantiles = torch.tensor([0.1, 0.5, 0.9])
    return torch.cat([torch.quantile(luminance, quantiles), torch.quantile(saturation, quantiles),
                      (luminance.std() / luminance.mean()).view(1), pixels.mean(1)]).numpy()


def test_material_is_visible_at_64_pixels():
    "Metal must look like metal where ToyCLIP looks: a linear read-out of object-pixel statistics separates it from rubber."
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    scenes = [sample_scene(np.random.default_rng([7, k]), 1, visibility_size=64) for k in range(400)]
    images, ids = render_scenes(scenes, 64), render_object_ids(scenes, 64)
    features = np.stack([_object_pixel_statistics(images[k], ids[k] == 0) for k in range(len(scenes))])
    is_metal = np.array([s.objects[0].material == "metal" for s in scenes])
    assert 0.3 < is_metal.mean() < 0.7
    read_out = make_pipeline(StandardScaler(), LogisticRegression(max_iter=2000)).fit(features[:300], is_metal[:300])
    assert read_out.score(features[300:], is_metal[300:]) >= 0.9
