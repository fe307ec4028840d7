"""Recovery probes: metrics on hand-worked strings, the held-out rule, resumption after a real kill, the conditioning module."""
import math
import os
import subprocess
import sys
import textwrap
from dataclasses import replace

import pytest
import torch

from vlconcepts.caption_data import CC3M_TRAIN_FILE
from vlconcepts.compprompts import compprompts
from vlconcepts.core import InputValidationError, VLConceptsError
from vlconcepts.probes import (SMOKE_PROBE_CONFIG, PooledT5Autoencoder, ProbeConfig, VectorConditionedT5, _checkpoints,
                               bleu4, check_held_out, exact_match, fit, is_word_order_error, normalize_caption,
                               probe_predictions, probe_t5, probe_training_captions, same_words, shuffled_percent,
                               train_probe_tokenizer)

TINY = ProbeConfig(d_model=32, d_ff=64, n_layers=1, n_heads=2)


def test_exact_match_normalisation_on_hand_worked_strings():
    assert normalize_caption("  Two  CATS to the left of four dogs .") == "two cats to the left of four dogs"
    assert exact_match("An orange cat on the left!", "an orange cat on the left")
    assert not exact_match("An orange cat on the left!", "an orange cat on the left", normalize=False)
    assert not exact_match("two physician on the right", "two physicians on the right")   # the paper's footnote 4
    assert not exact_match("a cat that is not yawning", "a cat that is yawning")


def test_word_order_errors_and_shuffled_percent():
    assert is_word_order_error("a dog chasing a cat", "a cat chasing a dog")
    assert is_word_order_error("a brown cat and an orange dog", "an orange cat and a brown dog")
    assert not is_word_order_error("a cat chasing a dog", "A cat chasing a dog.")      # right order
    assert not is_word_order_error("a dog chasing a cat", "a cat chasing two dogs")   # other words
    assert same_words("a dog chasing a cat", "a cat chasing a dog")
    predictions = ["a dog chasing a cat", "a cat chasing a dog", "a cat chasing a dog", "a rat"]
    assert shuffled_percent(predictions, ["a cat chasing a dog"] * 4) == pytest.approx(100 / 3)
    assert math.isnan(shuffled_percent(["a rat"], ["a cat"]))


def test_bleu4_hand_worked():
    # unigrams 5/5, bigrams 3/4, trigrams 0/3 -> 100/6, 4-grams 0/2 -> 100/8 (exp smoothing); BP = 1
    assert bleu4(["a dog chasing a cat"], ["a cat chasing a dog"]) == pytest.approx(math.sqrt(1250))
    assert bleu4(["A cat chasing a dog."], ["a cat chasing a dog"]) == pytest.approx(100.0)
    with pytest.raises(InputValidationError): bleu4(["a"], [])


def test_no_evaluation_prompt_or_counterpart_reaches_training(tmp_path):
    evaluation = compprompts(seed=0)
    leaked = [evaluation.prompt[5], evaluation.counterpart.dropna().iloc[7]]   # a prompt and a counterpart in the corpus
    (tmp_path / "cc3m").mkdir()
    lines = [f"{caption}\thttp://x/{i}.jpg" for i, caption in enumerate(leaked + ["a photo of a red bus", "a cute dog"])]
    (tmp_path / "cc3m" / CC3M_TRAIN_FILE).write_text("\n".join(lines) + "\n")
    config = replace(SMOKE_PROBE_CONFIG, captions=str(tmp_path / "cc3m"), n_captions=0, n_grammar_captions=2000)
    training = probe_training_captions(config)
    held = list(evaluation.prompt) + list(evaluation.counterpart.dropna())
    check_held_out(training, held)                                     # raises if any got through
    assert "a photo of a red bus" in training and len(training) > 2000 - 10
    assert not {normalize_caption(c) for c in leaked} & {normalize_caption(c) for c in training}
    with pytest.raises(VLConceptsError, match="1 evaluation prompt"): check_held_out(training + [leaked[0].upper()], held)


def test_conditioning_module_shapes():
    tokenizer = train_probe_tokenizer(["a cat chasing a dog", "two orange cats", "a dog"], 60)
    probe = VectorConditionedT5(probe_t5(TINY, len(tokenizer)), input_dim=7)
    vectors = torch.randn(4, 7)
    assert probe.memory(vectors).shape == (4, 1, 32)
    labels = tokenizer(["a cat", "a dog", "two cats", "a cat chasing a dog"], padding=True, return_tensors="pt")["input_ids"]
    loss = probe(vectors, labels.masked_fill(labels == 0, -100))
    loss.backward()
    assert loss.ndim == 0 and probe.project.weight.grad.shape == (32, 7)
    assert probe.generate(vectors, num_beams=5, max_new_tokens=5).shape[0] == 4
    with pytest.raises(InputValidationError, match=r"\[batch, 7\]"): probe.memory(torch.randn(4, 8))
    autoencoder = PooledT5Autoencoder(probe_t5(TINY, len(tokenizer)))
    assert autoencoder.vectors(labels).shape == (4, 32) and autoencoder.memory(labels).shape == (4, 1, 32)


KILLED_RUN = textwrap.dedent("""
    import os, signal, sys, torch
    from dataclasses import replace
    from vlconcepts.probes import ProbeConfig, VectorConditionedT5, fit, probe_t5
    config = replace(ProbeConfig(d_model=32, d_ff=64, n_layers=1, n_heads=2), batch_size=4, steps=8, checkpoint_every=2, warmup=2)
    inputs = torch.randn(12, 5, generator=torch.Generator().manual_seed(0))
    labels = torch.randint(3, 40, (12, 6), generator=torch.Generator().manual_seed(1))
    def kill(step, loss):
        if step == int(sys.argv[2]): os.kill(os.getpid(), signal.SIGKILL)
    model = fit(VectorConditionedT5(probe_t5(config, 40), 5), inputs, labels, config, sys.argv[1], device="cpu", on_step=kill)
    torch.save(model.state_dict(), os.path.join(sys.argv[1], "final.pt"))
""")


def test_a_killed_probe_run_resumes_to_the_same_weights(tmp_path):
    script = tmp_path / "run.py"
    script.write_text(KILLED_RUN)
    env = {**os.environ, "VLCONCEPTS_PROGRESS": "0"}
    run = lambda folder, kill_at: subprocess.run([sys.executable, str(script), str(folder), str(kill_at)], env=env,
                                                 capture_output=True, text=True, timeout=600)
    killed = run(tmp_path / "killed", 5)
    assert killed.returncode == -9, killed.stderr[-2000:]                 # SIGKILL after step 5, mid-interval
    assert [p.name for p in _checkpoints(tmp_path / "killed")] == ["step-0000004"]
    assert run(tmp_path / "killed", -1).returncode == 0                   # restarted: resumes from step 4
    assert run(tmp_path / "whole", -1).returncode == 0                    # never interrupted
    resumed = torch.load(tmp_path / "killed" / "final.pt")
    whole = torch.load(tmp_path / "whole" / "final.pt")
    assert resumed.keys() == whole.keys() and all(torch.equal(resumed[k], whole[k]) for k in whole)


def test_probe_predictions_rejects_bad_prompts():
    with pytest.raises(InputValidationError, match="prompt"): probe_predictions("toyclip:default", [], SMOKE_PROBE_CONFIG)


def test_paper_optimizer_adafactor_trains(tmp_path):
    config = replace(TINY, optimizer="adafactor", lr=1e-3, warmup=0, batch_size=4, steps=3, checkpoint_every=3)
    inputs, labels = torch.randn(8, 5), torch.randint(3, 30, (8, 6))
    model = VectorConditionedT5(probe_t5(config, 30), 5)
    before = model.project.weight.detach().clone()
    model = fit(model, inputs, labels, config, tmp_path / "run", device="cpu")
    assert not torch.equal(before, model.project.weight) and [p.name for p in _checkpoints(tmp_path / "run")] == ["step-0000003"]
    with pytest.raises(InputValidationError, match="adamw"): fit(model, inputs, labels, replace(config, optimizer="sgd"), tmp_path / "x", device="cpu")
