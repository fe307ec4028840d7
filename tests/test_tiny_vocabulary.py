"""The tiny models know every word of every tiny world (issue 18, item 1).

For `toyclip:default` and `toyitm:default`: no two concept prompts of one tiny world get the same features
(cosine ≥ 0.99), and every word of those prompts is a token the model trained on. The prompts are the lenses'
own: CompMap's MIT-States and CUB prompts, MAC's attribute/object prompts, the binding labels in the
binding lens's prompt, and ControlledImCaps captions.

ToyCLIP's features are its text embeddings; its trained tokens are the BPE rows its release keeps (the token
ids seen in training). ToyITM is a fusion model with no text embedding: a prompt's features are its match
logits over a fixed set of renders of every world (two prompts the model cannot tell apart score every image
alike), and its trained tokens are the whole words its tokenizer adds, which are the words of the training
grammars."""
import numpy as np
import pytest
import torch

from vlconcepts.attribute_object_data import MIT_ATTRIBUTES, WORLD_OBJECTS
from vlconcepts.binding import prompt_texts
from vlconcepts.binding_data import object_labels, relational_labels
from vlconcepts.caption_data import IMCAPS_TYPES, make_imcaps_pair
from vlconcepts.compmap import MIT_STATES_TEMPLATE, cub_attribute_prompt, cub_class_prompt
from vlconcepts.compprompts import world_compprompts
from vlconcepts.cub_data import cub_attribute_names, cub_class_name, cub_classes
from vlconcepts.models import load_model
from vlconcepts.toyclip import untrained_words
from vlconcepts.world_mixture import WORLDS, render_mixture_pool

TIE = 0.99


def world_prompts() -> dict[str, list[str]]:
    "The concept prompts of every tiny world, as the lenses write them."
    classes = cub_classes(20, np.random.default_rng(0))
    rng, imcaps = np.random.default_rng(0), []
    for kind in IMCAPS_TYPES:
        for _ in range(10): imcaps += make_imcaps_pair(rng, kind, check_visibility=False).captions
    prompts = {
        "mit-states primitives": [MIT_STATES_TEMPLATE.format(c) for c in (*MIT_ATTRIBUTES, *WORLD_OBJECTS)],
        "mit-states pairs": [MIT_STATES_TEMPLATE.format(f"{a} {o}") for a in MIT_ATTRIBUTES for o in WORLD_OBJECTS],
        "cub attributes": [cub_attribute_prompt(n) for n in cub_attribute_names()],
        "cub classes": [cub_class_prompt(cub_class_name(k + 1, c)) for k, c in enumerate(classes)],
        "mac": [f"a photo of {a} object" for a in MIT_ATTRIBUTES] + [f"a photo of {o}" for o in WORLD_OBJECTS],
        "binding": prompt_texts(object_labels()) + prompt_texts(relational_labels()),
        "controlled imcaps": imcaps}
    return {world: list(dict.fromkeys(p)) for world, p in prompts.items()}


def ties(features: torch.Tensor, prompts: list[str]) -> list[tuple[str, str, float]]:
    "Pairs of different prompts whose feature vectors have cosine ≥ TIE."
    f = torch.nn.functional.normalize(features.float(), dim=-1)
    cos = f @ f.T
    i, j = torch.triu_indices(len(prompts), len(prompts), offset=1)
    tied = cos[i, j] >= TIE
    return [(prompts[a], prompts[b], round(float(cos[a, b]), 4)) for a, b in zip(i[tied].tolist(), j[tied].tolist())]


def test_the_tie_check_finds_a_tie():
    features = torch.tensor([[1.0, 0.0], [1.0, 0.001], [0.0, 1.0]])
    assert ties(features, ["a", "b", "c"]) == [("a", "b", 1.0)]


@pytest.fixture(scope="module")
def toyclip():
    return load_model("toyclip:default", device="cpu")


@pytest.fixture(scope="module")
def toyitm():
    return load_model("toyitm:default", device="cpu")


TOYCLIP_TIES = {  # measured on the committed toyclip:default (the world mixture, render version 3, 2,000 steps): cosine ≥ 0.99 here
    "mit-states pairs": "'this is dotted pillar' ~ 'this is shiny pillar' 0.993, 'this is dotted slab' ~ 'this is shiny slab' 0.992",
    "cub attributes": "17 pairs, e.g. '…whose primary color is green' ~ '…whose head color is green' 0.998: the part words barely move "
                      "the embedding (a text-side binding failure; tables/toyclip_part_binding.md shows the image side). A 5,000-step "
                      "text phase with the birds at half the scenes (TrainingConfig.text_steps, off in the release: past the "
                      "training budget) leaves 1, 0 and 1 of the 17 (seeds 0-2; docs/tiny_models.md)",
    "binding": "21 pairs, e.g. 'a photo of cube left sphere' ~ 'a photo of sphere left cube' 0.999: word order (the binding paper's "
               "relational finding)",
    "controlled imcaps": "13 pairs, e.g. '… to the left of …' ~ '… to the right of …' 0.995, 'carrying' ~ 'riding' 0.994"}


TOYCLIP_TIE_COUNTS = {"mit-states pairs": 2, "cub attributes": 17, "binding": 21, "controlled imcaps": 13}   # the counts above


def _toyclip_world(world):
    reason = TOYCLIP_TIES.get(world)
    return pytest.param(world, marks=pytest.mark.xfail(reason=f"measured ties: {reason}", strict=True)) if reason else world


@pytest.mark.parametrize("world", [_toyclip_world(w) for w in world_prompts()])
def test_toyclip_gives_every_concept_prompt_its_own_embedding(toyclip, world):
    prompts = world_prompts()[world]
    assert not ties(toyclip.encode_texts(prompts), prompts)[:10]


def test_toyclip_ties_no_more_prompts_than_measured(toyclip):
    "The expected failures above fail for the measured ties only: a world ties no more pairs than recorded, the others none."
    counts = {world: len(ties(toyclip.encode_texts(prompts), prompts)) for world, prompts in world_prompts().items()}
    assert set(TOYCLIP_TIE_COUNTS) == set(TOYCLIP_TIES)
    assert all(counts[world] <= TOYCLIP_TIE_COUNTS.get(world, 0) for world in counts), counts


def test_toyclip_trained_every_token_of_every_prompt(toyclip):
    from vlconcepts.toyclip import default_checkpoint, read_verified_checkpoint
    path, sha = default_checkpoint()
    assert set(read_verified_checkpoint(path, sha)["token_ids"].tolist()) == set(toyclip.trained_token_ids)   # the release's
    untrained = {world: words for world, prompts in world_prompts().items() if (words := untrained_words(toyclip, prompts))}
    assert not untrained, untrained



UNTRAINED_COMPPROMPTS_WORDS = {"two", "three", "cubes", "spheres", "cylinders", "that", "not"}


@pytest.mark.xfail(strict=True, reason="measured 2026-11-29: ToyCLIP's captions hold no negation and no count, so the words of the probes' "
                   f"negation and multiples cells are untrained ({sorted(UNTRAINED_COMPPROMPTS_WORDS)}; tables/probes_prompt_words): "
                   "issue 18 item 3 asks the world draw to probe words ToyCLIP knows. A candidate trained with counts and negations at "
                   "the probe corpus's shares trains every one, but was not adopted: it adds two near-ties (docs/tiny_models.md)")
def test_toyclip_trained_every_word_of_the_world_compprompts(toyclip):
    prompts = list(dict.fromkeys(world_compprompts(seed=0).prompt))
    assert not untrained_words(toyclip, prompts)


def test_toyclip_untrained_compprompts_words_are_the_measured_ones(toyclip):
    "The expected failure above fails for the measured reason only: no other word of the world draw is untrained."
    found = {word for words in untrained_words(toyclip, list(dict.fromkeys(world_compprompts(seed=0).prompt))).values() for word in words}
    assert found == UNTRAINED_COMPPROMPTS_WORDS, found

@pytest.fixture(scope="module")
def itm_images():
    "Fresh renders of every world: the images a prompt's match logits are measured on."
    images, _ = render_mixture_pool(np.random.default_rng([7, 77]), 96, 64, {w: 1 for w in WORLDS})
    return images.float() / 255


TOYITM_TIES = {  # measured on the committed toyitm:default (2026-11-27, trial 3: the world mixture plus plain CLEVR close-ups at half of
    # the scenes, 8,000 steps) over fresh renders of every world: match-logit profiles with cosine ≥ 0.99. It matches colour and material
    # on close-ups now (tables/toyitm_accuracy.md), so prompts that differ in those words part; what still ties is the patterns and
    # states on some objects, and the part word of a bird prompt. On these renders the release of trial 2 (plain close-ups at 0.15)
    # tied none, 185, none, 19, none, 7 and 6 pairs (MIT-States primitives, MIT-States pairs, CUB attributes, CUB classes, MAC,
    # binding, ControlledImCaps); this one none, 5, 14, 2, none, 1 and 1 (docs/tiny_models.md). The CUB attribute ties are new: the part words
    # barely move its match, as they barely move ToyCLIP's text embedding.
    "mit-states pairs": "5 pairs, e.g. 'this is dotted pillar' ~ 'this is checkered pillar' 0.995",
    "cub attributes": "14 pairs, e.g. '…whose primary color is red' ~ '…whose wing color is red' 0.9986",
    "cub classes": "2 pairs, e.g. '…small striped red sphere purple headed green winged' ~ '…small dotted green sphere purple headed "
                   "red winged' 0.996",
    "binding": "1 pair: 'a photo of cube front cylinder' ~ 'a photo of cube right cylinder' 0.994",
    "controlled imcaps": "1 pair: 'a blue cube resting' ~ 'a blue cube' 0.990"}


TOYITM_TIE_COUNTS = {"mit-states pairs": 5, "cub attributes": 14, "cub classes": 2, "binding": 1, "controlled imcaps": 1}


def _toyitm_world(world):
    reason = TOYITM_TIES.get(world)
    return pytest.param(world, marks=pytest.mark.xfail(reason=f"measured ties: {reason}", strict=True)) if reason else world


@pytest.fixture(scope="module")
def toyitm_ties(toyitm, itm_images):
    "Each world's tied prompt pairs under toyitm:default, from its match-logit profiles (centred per prompt) on `itm_images`."
    found = {}
    for world, prompts in world_prompts().items():
        scores = toyitm.match_scores(itm_images, prompts).T          # [prompts, images]
        found[world] = ties(scores - scores.mean(1, keepdim=True), prompts)
    return found


@pytest.mark.parametrize("world", [_toyitm_world(w) for w in world_prompts()])
def test_toyitm_tells_every_concept_prompt_apart(toyitm_ties, world):
    assert not toyitm_ties[world][:10]


def test_toyitm_ties_no_more_prompts_than_measured(toyitm_ties):
    "The expected failures above fail for the measured ties only: a world ties no more pairs than recorded, the others none."
    counts = {world: len(tied) for world, tied in toyitm_ties.items()}
    assert set(TOYITM_TIE_COUNTS) == set(TOYITM_TIES)
    assert all(counts[world] <= TOYITM_TIE_COUNTS.get(world, 0) for world in counts), counts


def test_toyitm_has_a_trained_whole_word_token_for_every_word(toyitm):
    from vlconcepts.toyitm import world_words
    from vlconcepts.world_mixture import mixture_words
    trained = set(world_words()) | mixture_words()                    # the words the training grammars write
    tokenizer = toyitm.processor.tokenizer
    unknown = {w for prompts in world_prompts().values() for p in prompts for w in p.split()
               if w not in trained or tokenizer.tokenize(w) != [w]}
    assert not unknown, sorted(unknown)
