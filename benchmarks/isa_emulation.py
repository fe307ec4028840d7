"""Is an AVX2 host slower at ToyCLIP and ToyITM training because of its instruction set? Both sides on one host, in one run.

    python benchmarks/isa_emulation.py [--steps 20] [--repeats 3]
    python benchmarks/isa_emulation.py --smoke      (two steps on the first two sides: wiring, not a measurement)

On 2026-11-27 a cold `make figures` took 95.4 min on a 2-core AMD EPYC host with AVX2 only, against 32-33 min on the
AVX-512 host; ToyCLIP's training took 1,519 CPU seconds there against about 500 here (docs/reproducibility.md). Which
part of that is the instruction set? torch picks its vectorised kernels by `ATEN_CPU_CAPABILITY`, oneDNN (the
convolutions) by `ONEDNN_MAX_CPU_ISA` and MKL by `MKL_ENABLE_INSTRUCTIONS`; capping all three at AVX2 on an AVX-512 host
runs the AVX2 host's kernels on this host's cores and memory. Each side runs in a fresh subprocess (the variables are
read at import), on one torch thread as the tiny profile does, and times the release models' training step: ToyCLIP
(batch 128, 64 px, forward, backward and AdamW) and ToyITM (32 scenes, a true and a false caption each). If the capped
side is about as fast, the other host's slowness lies in its cores, memory or load, not in the kernels it can run.

Measured 2026-11-28 on the AVX-512 host, quiet, 20 steps x best of 3 (record:
benchmarks/measured/2026-11-28_isa_emulation.txt; oneDNN's verbose log confirms the cap: "isa:Intel AVX2"): ToyCLIP
0.234 s per step native, 0.264 s capped (1.13x); ToyITM 0.056 s and 0.058 s (1.02x). The instruction set explains a
small part of the AVX2 host's threefold training time; the rest is that host.

Each side also prints a digest of both models' weights after its steps (inputs seeded, the same steps on every side and
host for the same --steps and --repeats). Trained tiny numbers move between the AVX2 and the AVX-512 host
(docs/reproducibility.md): is the instruction set the whole cause? If the capped sides' digests on an AVX-512 host equal
the digests an AVX2 host prints (records in benchmarks/measured/, same arguments), capping a tiny kernel's kernels at
AVX2 would make its trained tables the same bit for bit on both kinds of host, at the capped side's cost in time. The
third side adds MKL's conditional numerical reproducibility (`MKL_CBWR=AVX2`: MKL's own promise of the same results on
any CPU with AVX2). If the digests differ, the cause lies elsewhere too (a kernel's blocking by cache size, say).
The fourth side asks what the strongest cross-host promise would cost: torch's scalar kernels
(`ATEN_CPU_CAPABILITY=default`), oneDNN at SSE4.1 and `MKL_CBWR=COMPATIBLE` (MKL's code path meant to give the same
results on every x86 CPU). Measured 2026-12-01 on the AVX2 host (record
benchmarks/measured/2026-12-01_isa_emulation_portable_avx2_host.txt): ToyCLIP's step 2.13x and ToyITM's 2.04x the native
one, more than the 15-min training budget leaves on any host measured, so the tiny profile does not use it. Whether it
would give the same weights on an AVX-512 host (portable digests a3b376140ee75afd / dab69d476e106bf3 here) is not yet measured.
"""
import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import load  # noqa: E402

CAPPED = {"ATEN_CPU_CAPABILITY": "avx2", "ONEDNN_MAX_CPU_ISA": "AVX2", "MKL_ENABLE_INSTRUCTIONS": "AVX2"}
PORTABLE = {"ATEN_CPU_CAPABILITY": "default", "ONEDNN_MAX_CPU_ISA": "SSE41", "MKL_CBWR": "COMPATIBLE"}
SIDES = {"native": {}, "capped at AVX2": CAPPED, "capped at AVX2, MKL CBWR": {**CAPPED, "MKL_CBWR": "AVX2"},
         "portable (no vector ISA, MKL CBWR COMPATIBLE)": PORTABLE}


def side_seconds(env: dict, steps: int, repeats: int) -> dict:
    "Seconds per training step of each model in a fresh interpreter with `env` added (the best of `repeats` timings)."
    code = f"import sys; sys.argv = ['x', '{steps}', '{repeats}']\n" + WORKER
    out = subprocess.run([sys.executable, "-c", code], env={**os.environ, **env, "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"},
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


WORKER = r'''
import hashlib, json, sys, time, torch
torch.set_num_threads(1)
torch.manual_seed(0)
steps, repeats = int(sys.argv[1]), int(sys.argv[2])
from vlconcepts.toyclip import TrainingConfig, contrastive_step, normalize_images, parameter_groups, training_parts
from vlconcepts.toyitm import ToyITMConfig, create_toyitm, itm_step
parts = training_parts(TrainingConfig(), torch.device("cpu"))
images = torch.rand(128, 3, 64, 64)
tokens = parts.tokenizer(["a photo of bird whose wing color is blue"] * 64 + ["a small red rubber cube"] * 64)
itm_config = ToyITMConfig()
itm = create_toyitm(itm_config.model, seed=0, device="cpu")
itm_optimizer = torch.optim.AdamW(parameter_groups(itm.module, itm_config.weight_decay), lr=itm_config.lr, betas=(0.9, 0.98), eps=1e-6)
pairs = itm_config.batch_size
size = itm_config.model["vilt"]["image_size"]
itm_images = torch.rand(2 * pairs, 3, size, size)
itm_texts = ["a small red rubber cube", "a photo of bird whose wing color is blue"] * pairs
itm_labels = torch.tensor([1.0, 0.0] * pairs)
def clip_step():
    contrastive_step(parts.model, parts.loss_fn, parts.optimizer,
                     normalize_images(images, parts.model).contiguous(memory_format=torch.channels_last), tokens)
def timed(step):
    step()
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(steps): step()
        best = min(best, (time.perf_counter() - start) / steps)
    return best
def weights(module):
    digest = hashlib.blake2b(digest_size=8)
    for name, tensor in module.state_dict().items(): digest.update(name.encode()); digest.update(tensor.detach().cpu().contiguous().numpy().tobytes())
    return digest.hexdigest()
clip_s = timed(clip_step)
itm_s = timed(lambda: itm_step(itm, itm_optimizer, itm_images, itm_texts, itm_labels))
print(json.dumps({"capability": torch.backends.cpu.get_cpu_capability(), "toyclip_step_s": clip_s, "toyitm_step_s": itm_s,
                  "toyclip_weights": weights(parts.model), "toyitm_weights": weights(itm.module)}))
'''


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=20, help="training steps per timing")
    parser.add_argument("--repeats", type=int, default=3, help="timings per side (the best is kept)")
    parser.add_argument("--smoke", action="store_true", help="two steps, one timing, on the first two sides (wiring only)")
    args = parser.parse_args(argv)
    steps, repeats = (2, 1) if args.smoke else (args.steps, args.repeats)
    print(f"# isa_emulation: {load()}; {steps} steps x best of {repeats}, one thread", flush=True)
    rows = {}
    sides = dict(list(SIDES.items())[:2]) if args.smoke else SIDES   # the other sides differ from the second by variables only
    for name, env in sides.items():
        t0 = time.perf_counter()
        rows[name] = {**side_seconds(env, steps, repeats), "wall_s": time.perf_counter() - t0}
        print(json.dumps({"side": name, **{k: round(v, 4) if isinstance(v, float) else v for k, v in rows[name].items()}}), flush=True)
    for model in ("toyclip", "toyitm"):
        for side in list(sides)[1:]:
            ratio = rows[side][f"{model}_step_s"] / rows["native"][f"{model}_step_s"]
            same = rows[side][f"{model}_weights"] == rows["native"][f"{model}_weights"]
            print(f"{model} training step, {side} / native: {ratio:.2f}x; weights after {1 + steps * repeats} steps "
                  f"{'the same as' if same else 'differ from'} native's")
    return rows


if __name__ == "__main__":
    main()
