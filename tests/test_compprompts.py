"""CompPrompts: every Table 2/3 cell with its counts, counterparts that swap the two nouns, no synonyms, held-out
evaluation prompts never in the training captions, bad requests."""
import pandas as pd
import pytest

from vlconcepts.compprompts import (CELLS, SPATIAL, are_synonyms, compprompts, compprompts_training_captions,
                                    excluded_prompts, plural)
from vlconcepts.core import InputValidationError


@pytest.fixture(scope="module")
def corpus():
    return compprompts()


def test_every_cell_with_its_counts(corpus):
    assert len(corpus) == 18_100 and corpus.prompt.is_unique
    counts = corpus.groupby("cell", sort=False).size()
    assert counts.to_dict() == {cell.name: cell.size for cell in CELLS}
    assert len(counts) == 36 and counts.between(300, 750).all()
    assert corpus.groupby("table").cell.nunique().to_dict() == {2: 24, 3: 12}
    assert set(corpus.columns) >= {"prompt", "n_objects", "attributes", "cell", "multiples", "negation",
                                   "word_order_matters", "counterpart"}
    assert corpus[corpus.multiples].prompt.str.match(r"^(two|three|four|five) ").all()
    assert corpus[corpus.negation].prompt.str.contains(" that is not ").all()


def test_paper_examples_are_the_templates(corpus):
    first = corpus.groupby("cell", sort=False).template.first()
    assert first["1 unique object: 1 temp. + 1 1-obj verb"] == "{np1} {time} {verb1}"       # "a cat before yawning"
    assert first["2 unique objects + multiples: 1 2-obj verb"] == "{np1} {tverb} {np2}"    # "two cats chasing four dogs"
    assert first["2 unique objects: 1 adj + 1 spatial"] == "{np1+adj} {rel} {np2}"          # "an orange cat to the left of a dog"
    directions = {d for s in corpus.spatial for d in s.split("|") if d}
    assert directions == set(SPATIAL)
    assert set(corpus.temporal) == {"", "before", "after"}


def test_counterparts_swap_the_two_nouns(corpus):
    two = corpus[corpus.n_objects == 2]
    assert two.counterpart.notna().all() and corpus[corpus.n_objects == 1].counterpart.isna().all()
    assert (two.counterpart != two.prompt).all()
    for row in two.itertuples():
        a, b = row.nouns.split("|")
        if row.multiples: a, b = plural(a), plural(b)
        words = [w for w in row.prompt.split() if w not in ("a", "an")]
        assert [w for w in row.counterpart.split() if w not in ("a", "an")] == [{a: b, b: a}.get(w, w) for w in words]
        assert not are_synonyms(*row.nouns.split("|"))


def test_deterministic_and_prefix_of_the_full_corpus(corpus):
    small = compprompts(per_cell=7)
    pd.testing.assert_frame_equal(small, compprompts(per_cell=7))
    assert small.prompt.tolist() == corpus.groupby("cell", sort=False).head(7).prompt.tolist()


def test_held_out_prompts_never_reach_training(corpus):
    evaluation = compprompts(per_cell=50, seed=3)
    training = compprompts_training_captions(5_000, seed=0, exclude=evaluation)
    held_out = set(evaluation.prompt) | set(evaluation.counterpart.dropna())
    assert len(training) == 5_000 and training.prompt.is_unique
    assert not set(training.prompt) & held_out
    assert not set(training.counterpart.dropna()) & set(evaluation.prompt)
    default = compprompts_training_captions(2_000)                                  # default: hold out the full corpus
    assert not set(default.prompt) & excluded_prompts(corpus)


def test_bad_requests_are_clear_errors():
    with pytest.raises(InputValidationError, match="per_cell must be"): compprompts(per_cell=0)
    with pytest.raises(InputValidationError, match="unknown CompPrompts cell"): compprompts(cells=["1 unique object: 3 adj."])
    with pytest.raises(InputValidationError, match="per_cell <= 300"):
        compprompts(per_cell=400, cells=["1 unique object: 0 attributes"])
    with pytest.raises(InputValidationError, match="only"):
        compprompts_training_captions(10, exclude=compprompts(cells=["1 unique object: 0 attributes"]),
                                      cells=["1 unique object: 0 attributes"])


def test_world_vocabulary_variant_uses_only_world_words_and_keeps_half_trainable():
    from vlconcepts.caption_data import caption_corpus
    from vlconcepts.compprompts import WORLD_CELLS, WORLD_MISSING_CELLS, world_compprompts
    world = world_compprompts(seed=0, per_cell=40)
    assert set(world.cell) == {c.name for c in WORLD_CELLS} and not set(world.cell) & set(WORLD_MISSING_CELLS)
    corpus_words = set(" ".join(c for c, _ in caption_corpus(3000, seed=0)).split())
    assert set(" ".join(world.prompt).split()) <= corpus_words                 # every word is one the world corpus uses
    sizes = world.groupby("cell").size()
    assert sizes["1 unique object: 0 attributes"] == 1 and sizes["1 unique object: 1 spatial"] == 3   # half of 3 and of 6
    assert sizes.max() == 40 and world.prompt.is_unique
    assert world_compprompts(seed=0, per_cell=10).prompt.tolist() == world.groupby("cell", sort=False).head(10).prompt.tolist()
