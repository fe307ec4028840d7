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



def _bad_backend():
    from vlconcepts.models import DualEncoderModel, register_backend

    class BadDual(DualEncoderModel):
        def __init__(self, mode, device="cpu"):
            super().__init__(torch.nn.Identity(), f"bad:{mode}", device)
            self.mode, self.embed_dim = mode, None if mode == "unsized-width" else 16

        def _image_features(self, pixels):
            out = torch.ones(len(pixels), 16)
            if self.mode == "nan": out[pixels.flatten(1).amax(1) == 0, 3] = float("nan")   # a black image gives NaN
            return {"short": out[1:], "3d": out[:, None], "numpy": out.numpy(), "width": out[:, :8],
                    "unsized-width": out[:, :8]}.get(self.mode, out)

        def _text_features(self, texts): return torch.ones(len(texts), 16)

    register_backend("bad")(lambda rest, device: BadDual(rest, device))


@pytest.fixture
def bad_backend():
    _bad_backend()
    yield
    _BACKENDS.pop("bad", None)


@pytest.mark.parametrize("mode, message", [
    ("short", "bad:short: BadDual._image_features returned a torch.Tensor of shape (4, 16), dtype torch.float32 for a batch of 5 "
              "images; expected a torch.Tensor [5, 16]: one row of features per image (embed_dim = 16). It has 4 rows for 5 images: "
              "return exactly one row per input, in the order given."),
    ("3d", "bad:3d: BadDual._image_features returned a torch.Tensor of shape (5, 1, 16), dtype torch.float32 for a batch of 5 images; "
           "expected a torch.Tensor [5, 16]: one row of features per image (embed_dim = 16). It has 3 dimensions, not 2: drop the "
           "size-1 axis (.squeeze(1))."),
    ("nan", None),                                             # below: the images decide which rows
    ("numpy", "bad:numpy: BadDual._image_features returned a numpy.ndarray of shape (5, 16), dtype float32 for a batch of 5 images; "
              "expected a torch.Tensor [5, 16]: one row of features per image (embed_dim = 16). It is not a torch.Tensor: return "
              "torch.from_numpy(array) (on the model's device)."),
    ("width", "Its rows are 8 wide, but the model states embed_dim = 16: return embed_dim-wide features (the joint projection), "
              "or set embed_dim to the width the hook returns."),
])
def test_broken_hook_output_is_refused_where_it_happens(bad_backend, mode, message, tmp_path):
    "A new user's trial: a plugin's broken features passed (or failed deep in torch or at a later sweep); now the batch is refused."
    from vlconcepts.cache import FeatureCache, cached_image_features
    model, images = load_model(f"bad:{mode}", device="cpu"), torch.rand(5, 3, 4, 4)
    if mode == "nan":
        images[3:] = 0                         # images 3 and 4 are black: NaN rows
        message = ("bad:nan: BadDual._image_features returned a torch.Tensor of shape (5, 16), dtype torch.float32 for a batch of 5 "
                   "images; expected a torch.Tensor [5, 16]: one row of features per image (embed_dim = 16). 2 of its 5 rows hold NaN "
                   "or infinite values (first: images[3]): check the weights (a training run that diverged) and float16/bfloat16 "
                   "overflow under mixed precision on CUDA, or drop those inputs; such rows cannot be normalised, cached or ranked.")
        with pytest.raises(InputValidationError, match=r"for a batch of 2 images.*2 of its 2 rows hold NaN or infinite values "
                                                       r"\(first: images\[3\]\)"):
            model.encode_images(images, batch_size=3)              # the second batch, images 3 and 4, is refused: numbered in the call
    for call in (lambda: model.encode_images(images), lambda: model.similarity(images, ["a cube", "a cone"]),
                 lambda: model.match_scores(images, ["a cube"]), lambda: cached_image_features(model, images, cache=FeatureCache(tmp_path))):
        with pytest.raises(InputValidationError) as error: call()
        assert message in str(error.value), str(error.value)
    assert not list(tmp_path.rglob("*.pt")), "nothing broken is cached"


def test_image_and_text_widths_must_agree(bad_backend):
    model = load_model("bad:unsized-width", device="cpu")                 # states no embed_dim: each hook alone looks fine
    assert model.encode_images(torch.rand(5, 3, 4, 4)).shape == (5, 8)
    with pytest.raises(InputValidationError) as error:
        model.similarity(torch.rand(5, 3, 4, 4), ["a cube", "a cone"])
    assert str(error.value) == (
        "bad:unsized-width: its image features are 8 wide (BadDual._image_features) but its text features are 16 wide "
        "(_text_features), so no image-text similarity can be taken. Make both hooks project into one joint space of the same "
        "width, and state that width as embed_dim (each hook's output is then checked against it).")
    fine = load_model("bad:fine", device="cpu")
    assert torch.equal(fine.similarity(torch.rand(2, 3, 4, 4), ["a"]), torch.ones(2, 1))


def test_pair_scores_are_checked_and_may_be_minus_inf():
    from vlconcepts.models import VLModel

    class Scores(VLModel):
        kind = "fusion"
        def __init__(self, scores): super().__init__(torch.nn.Identity(), "bad:itm"); self.scores = scores
        def _pair_scores(self, pixels, texts, batch_size): return self.scores(pixels, len(texts))

    images = torch.rand(3, 3, 4, 4)
    never = Scores(lambda pixels, m: torch.full((len(pixels), m), -float("inf")))           # "never a match" is a score (czsl allows -inf)
    assert torch.isneginf(never.match_scores(images, ["a", "b"])).all()
    with pytest.raises(InputValidationError, match=r"for 3 images × 2 texts; expected a torch.Tensor \[3, 2\]: one score per "
                                                   r"\(image, text\) pair, a row per image. It has 3 columns for 2 texts"):
        Scores(lambda pixels, m: torch.zeros(len(pixels), m + 1)).match_scores(images, ["a", "b"])
    images[2] = 0
    black_is_nan = Scores(lambda pixels, m: torch.zeros(len(pixels), m).masked_fill(pixels.flatten(1).amax(1)[:, None] == 0, float("nan")))
    with pytest.raises(InputValidationError, match=r"for 1 image × 2 texts.*1 of its 1 rows holds NaN or \+inf values \(first: images\[2\]\)"):
        black_is_nan.match_scores(images, ["a", "b"], batch_size=2)        # one image a pass: the third pass


def test_plugin_config_and_nameless_config_messages():
    with pytest.raises(ModelSpecError) as error:
        load_model("openclip:myclip-tiny@x.pt", device="cpu")
    assert ("open_clip has no architecture 'myclip-tiny'." in str(error.value) and "in Python, import it before load_model; on the "
            "command line, pass `--plugin your_module.py` (or name it in $VLCONCEPTS_PLUGINS)." in str(error.value))
    with pytest.raises(ModelSpecError, match=r'needs an architecture name, got None: e\.g\. register_openclip_config\(cfg, "my-arch"\)'):
        register_openclip_config(tiny_test_config("openclip"))


def test_a_backends_own_error_names_the_spec_and_the_backend(tmp_path):
    from vlconcepts.models import register_backend

    @register_backend("bag")
    def load_bag(rest, device): return torch.load(rest)
    try:
        with pytest.raises(ModelSpecError) as error:
            load_model(f"bag:{tmp_path}/nope.pt", device="cpu")
        assert str(error.value).startswith(f"The 'bag' backend ({__name__}.test_a_backends_own_error_names_the_spec_and_the_backend."
                                           f"<locals>.load_bag) could not load 'bag:{tmp_path}/nope.pt': FileNotFoundError: ")
        assert isinstance(error.value.__cause__, FileNotFoundError)
    finally:
        _BACKENDS.pop("bag", None)


def test_quick_gelu_tag_in_a_folder_named_like_it_keeps_the_callers_rng(tmp_path, monkeypatch):
    "A tag trained with QuickGELU (as OpenAI's are) builds QuickGELU, stays a tag beside a folder of its name, and draws no caller RNG."
    import warnings
    from open_clip import pretrained
    from vlconcepts.models import absolute_spec, create_openclip
    torch.save(create_openclip(TINY_OPENCLIP_ARCH, seed=3).state_dict(), tmp_path / "weights.pt")
    monkeypatch.setitem(pretrained._PRETRAINED, TINY_OPENCLIP_ARCH,
                        {"fake_openai": pretrained._pcfg(file=str(tmp_path / "weights.pt"), quick_gelu=True)})
    (tmp_path / "fake_openai").mkdir(); (tmp_path / "random").mkdir()
    monkeypatch.chdir(tmp_path)
    for spec in (f"openclip:{TINY_OPENCLIP_ARCH}@fake_openai", f"openclip:{TINY_OPENCLIP_ARCH}@random"):
        assert absolute_spec(spec) == spec
    state = torch.get_rng_state()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        model = load_model(f"openclip:{TINY_OPENCLIP_ARCH}@fake_openai", device="cpu")
    assert torch.equal(torch.get_rng_state(), state)
    assert not [w for w in caught if "QuickGELU" in str(w.message)]
    assert {type(m).__name__ for m in model.module.modules() if "GELU" in type(m).__name__} == {"QuickGELU"}
    assert model.model_config["force_quick_gelu"] is True


def test_fingerprint_notices_new_data_under_the_same_parameter(tiny_spec):
    model = load_model(tiny_spec, device="cpu")
    before, proj = model.fingerprint, model.module.visual.proj
    kept = proj.data
    proj.data = kept * 2                                   # same Parameter object, same version counter
    assert model.fingerprint != before
    proj.data = kept
    assert model.fingerprint == before


def test_saved_hf_folder_at_random_by_absolute_or_relative_path(tmp_path, monkeypatch):
    from vlconcepts.models import absolute_spec
    save_tiny_model("hf-vilt", tmp_path / "vilt")
    monkeypatch.chdir(tmp_path)
    assert absolute_spec("hf-vilt:./vilt@random") == f"hf-vilt:{(tmp_path / 'vilt').resolve()}@random"
    pixels = torch.rand(1, 3, 32, 32, generator=torch.Generator().manual_seed(0))
    scores = [load_model(f"hf-vilt:{rest}@random", device="cpu").match_scores(pixels, ["a red cube"])
              for rest in (tmp_path / "vilt", "./vilt", "vilt")]
    assert torch.equal(scores[0], scores[1]) and torch.equal(scores[0], scores[2])


@pytest.mark.parametrize("prefix", ["my model", "my\tmodel", " pad", "a:b"])
def test_backend_prefixes_with_spaces_or_colons_are_refused(prefix):
    from vlconcepts.models import register_backend
    with pytest.raises(ModelSpecError, match="without ':' or spaces"):
        register_backend(prefix)
