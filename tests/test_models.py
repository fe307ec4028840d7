"""vlconcepts.models: the full-size random-init ViT-B-32, bad specs, bad files and bad inputs."""
import sys

import pytest
import torch

from vlconcepts.core import InputValidationError, ModelSpecError, VLConceptsError
from vlconcepts.models import (TINY_OPENCLIP_ARCH, _BACKENDS, known_prefixes, load_model,
                               register_openclip_config, save_tiny_model, tiny_test_config)


@pytest.fixture(scope="module")
def tiny_spec(tmp_path_factory):
    return save_tiny_model("openclip", tmp_path_factory.mktemp("tiny-openclip"), seed=0)


def test_vit_b_32_random_init_encodes_images_and_texts():
    torch.set_num_threads(1)
    model = load_model("openclip:ViT-B-32@random", device="cpu")
    assert (model.kind, model.embed_dim) == ("dual", 512) and model.preprocess_cfg["size"] in (224, (224, 224))
    images = torch.rand(2, 3, 64, 80, generator=torch.Generator().manual_seed(0))  # resized/cropped to 224 by the model
    image_features = model.encode_images(images, batch_size=2)
    text_features = model.encode_texts(["a photo of a red cube", "a blue sphere"])
    assert image_features.shape == (2, 512) and text_features.shape == (2, 512)
    assert torch.allclose(image_features.norm(dim=-1), torch.ones(2), atol=1e-5)
    assert model.tokenize(["a cube"]).shape == (1, 77)
    assert len(model.fingerprint) == 40


@pytest.mark.parametrize("spec, fragment", [
    ("", "Malformed"),
    ("openclip", "Malformed"),
    ("clip:ViT-B-32", "Known prefixes"),
    ("openclip:Not-An-Arch", "Not-An-Arch"),
    ("openclip:ViT-B-32@no-such-tag", "known tags"),
    ("hf-vilt:/no/such/vilt-dir", "/no/such/vilt-dir"),
    ("hf-blip-itm:./no-such-blip", "no-such-blip"),
    ("sbert:/no/such/sbert", "/no/such/sbert"),
    ("hf-clip:openai/clip-vit-base-patch32", "HF_HUB_OFFLINE"),  # a hub id: tests are offline
])
def test_bad_specs_raise_model_spec_error(spec, fragment):
    with pytest.raises(ModelSpecError, match=fragment.replace(".", r"\.")):
        load_model(spec, device="cpu")


def test_unknown_prefix_lists_known_prefixes_and_an_example():
    with pytest.raises(ModelSpecError) as error:
        load_model("nope:x")
    for prefix in known_prefixes(): assert prefix in str(error.value)
    assert "openclip:ViT-B-32" in str(error.value)


def test_missing_checkpoint_names_the_path(tmp_path):
    missing = tmp_path / "negclip.pt"
    with pytest.raises(ModelSpecError, match="not found") as error:
        load_model(f"openclip:{TINY_OPENCLIP_ARCH}@{missing}")
    assert str(missing) in str(error.value)


@pytest.mark.parametrize("name, content", [
    ("garbage.safetensors", b"not a safetensors file"),
    ("garbage.pt", b"\x80\x04not a pickle"),
    ("empty.bin", b""),
])
def test_unreadable_checkpoint_names_the_file(tmp_path, name, content):
    path = tmp_path / name
    path.write_bytes(content)
    with pytest.raises(ModelSpecError, match=name):
        load_model(f"openclip:{TINY_OPENCLIP_ARCH}@{path}")


def test_checkpoint_of_another_architecture_or_type(tmp_path):
    torch.save([1, 2, 3], tmp_path / "a-list.pt")
    with pytest.raises(ModelSpecError, match="a-list.pt"):
        load_model(f"openclip:{TINY_OPENCLIP_ARCH}@{tmp_path / 'a-list.pt'}")
    torch.save({"visual.proj": torch.zeros(3, 3)}, tmp_path / "partial.pt")
    with pytest.raises(ModelSpecError, match="partial.pt"):
        load_model(f"openclip:{TINY_OPENCLIP_ARCH}@{tmp_path / 'partial.pt'}")


def test_wrong_hf_model_type_points_to_the_right_prefix(tmp_path):
    spec = save_tiny_model("hf-clip", tmp_path / "clip")
    with pytest.raises(ModelSpecError, match="hf-clip:"):
        load_model(spec.replace("hf-clip:", "hf-blip-itm:"), device="cpu")


def test_bad_openclip_configs(tmp_path):
    with pytest.raises(ModelSpecError, match="text_cfg"):
        register_openclip_config({"embed_dim": 8, "vision_cfg": {}}, "broken")
    (tmp_path / "bad.json").write_text("{not json")
    with pytest.raises(ModelSpecError, match="bad.json"):
        register_openclip_config(tmp_path / "bad.json")
    with pytest.raises(ModelSpecError, match="No tiny config for backend 'hf-nothing'"):
        tiny_test_config("hf-nothing")


def test_config_file_registration_by_stem(tmp_path):
    import json
    path = tmp_path / "my-tiny-clip.json"
    path.write_text(json.dumps(dict(tiny_test_config("openclip"), embed_dim=24)))
    assert register_openclip_config(path) == "my-tiny-clip"
    assert load_model("openclip:my-tiny-clip@random", device="cpu").embed_dim == 24


def test_bad_image_and_text_inputs(tiny_spec):
    model = load_model(tiny_spec, device="cpu")
    with pytest.raises(InputValidationError, match=r"\[0, 1\]"):
        model.encode_images(torch.rand(2, 3, 32, 32) * 2 - 1)
    with pytest.raises(InputValidationError, match="float"):
        model.encode_images(torch.zeros(2, 3, 32, 32, dtype=torch.uint8))
    with pytest.raises(InputValidationError, match=r"\[n, 3, H, W\]"):
        model.encode_images(torch.rand(2, 1, 32, 32))
    with pytest.raises(InputValidationError, match="wrap it in a list"):
        model.encode_texts("a red cube")


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), -float("inf")])
def test_non_finite_pixels_are_rejected(tiny_spec, bad):
    "Issue 20 item 7: one NaN pixel used to give non-finite features without a word."
    model = load_model(tiny_spec, device="cpu")
    images = torch.rand(3, 3, 32, 32); images[1, 2, 5, 7] = bad
    with pytest.raises(InputValidationError, match=r"images: 1 pixel values are NaN or infinite \(first in image 1\)"):
        model.encode_images(images)
    with pytest.raises(InputValidationError, match=r"images\[1\]: 1 pixel values are NaN or infinite"):
        model.encode_images([images[0], images[1]])                  # a list of [3, H, W] tensors
    with pytest.raises(InputValidationError, match=r"texts\[1\]"):
        model.encode_texts(["a red cube", 3])


def test_fusion_and_text_models_refuse_what_they_cannot_do(tmp_path):
    vilt = load_model(save_tiny_model("hf-vilt", tmp_path / "vilt"), device="cpu")
    images = torch.rand(2, 3, 32, 32)
    for call in (lambda: vilt.encode_images(images), lambda: vilt.encode_texts(["a cube"]),
                 lambda: vilt.similarity(images, ["a cube"])):
        with pytest.raises(VLConceptsError, match="match_scores"): call()
    assert vilt.match_scores(images, ["a cube", "a sphere", "a cone"]).shape == (2, 3)
    sbert = load_model("sbert:packaged-minilm", device="cpu")
    for call, message in ((lambda: sbert.encode_images(images), "text-only"),
                          (lambda: sbert.match_scores(images, ["a cube"]), "no image-text matching head"),
                          (lambda: sbert.similarity(images, ["a cube"]), "no image-text similarity")):
        with pytest.raises(VLConceptsError, match=message): call()


def test_backend_module_registers_on_import(tmp_path, monkeypatch, tiny_spec):
    (tmp_path / "backend_for_tests.py").write_text(
        "from vlconcepts.models import register_backend, load_model\n"
        "@register_backend('module-test')\n"
        "def _load(rest, device):\n"
        f"    return load_model({tiny_spec!r}, device)\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        with pytest.raises(ModelSpecError, match="register_backend"):
            load_model("module-test:anything", device="cpu")  # not imported yet: unknown, and the error says how to fix it
        import backend_for_tests  # noqa: F401
        assert load_model("module-test:anything", device="cpu").spec == "module-test:anything"
    finally:
        _BACKENDS.pop("module-test", None)
        sys.modules.pop("backend_for_tests", None)


def test_backends_are_registered_lazily():
    "Issue 20 item 15: `import vlconcepts.core` imported toyclip and toyitm (layer 6) through the package __init__."
    import subprocess
    code = ("import sys, vlconcepts.core, vlconcepts.czsl; "
            "print(sorted(m for m in ('vlconcepts.toyclip', 'vlconcepts.toyitm') if m in sys.modules)); "
            "from vlconcepts.models import load_model, known_prefixes; "
            "print('toyitm' in known_prefixes(), 'vlconcepts.toyitm' in sys.modules); "
            "print(load_model('toyclip:default', device='cpu').spec, 'vlconcepts.toyclip' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.splitlines()
    assert out == ["[]", "True False", "toyclip:default True"], out


def test_broken_backend_module_is_a_model_spec_error(monkeypatch):
    from vlconcepts import models
    monkeypatch.setitem(models.BACKEND_MODULES, "broken-test", "vlconcepts_no_such_module_for_tests")
    with pytest.raises(ModelSpecError, match="vlconcepts_no_such_module_for_tests of 'broken-test:' specs failed to import"):
        load_model("broken-test:x", device="cpu")


def test_pretrained_tag_offline_names_the_setting_and_how_to_precache(tmp_path, monkeypatch):
    "Issue 20 item 12: offline without cached weights, open_clip's raw RuntimeError became a ModelSpecError that says what to do."
    import huggingface_hub.constants as hub
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setattr(hub, "HF_HUB_OFFLINE", True)
    monkeypatch.setattr(hub, "HF_HUB_CACHE", str(tmp_path / "hub"))                # an empty cache
    with pytest.raises(ModelSpecError, match=r"'openai' of open_clip ViT-B-32.*HF_HUB_OFFLINE=1 (and TRANSFORMERS_OFFLINE=1 are|is) set") as info:
        load_model("openclip:ViT-B-32@openai", device="cpu")
    message = str(info.value)
    for fragment in (str(tmp_path / "hub"), "hf download timm/vit_base_patch32_clip_224.openai",
                     "load_model('openclip:ViT-B-32@openai')", "openclip:ViT-B-32@/path/to/"):
        assert fragment in message, (fragment, message)


def test_one_public_autocast_choice():
    "Issue 20 item 17: the mixed-precision choice is public in vlconcepts.models (toyclip and binding had their own)."
    from contextlib import nullcontext
    from vlconcepts.models import autocast, autocast_dtype
    assert autocast_dtype("cpu") is None and isinstance(autocast("cpu"), nullcontext)
    if torch.cuda.is_available():
        dtype = torch.bfloat16 if torch.cuda.is_bf16_supported() else torch.float16
        assert autocast_dtype("cuda") == dtype
        with autocast("cuda"): assert (torch.ones(2, 2, device="cuda") @ torch.ones(2, 2, device="cuda")).dtype == dtype
