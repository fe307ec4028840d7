"""Image-encoding throughput of `openclip:ViT-B-32` (random init; the weights do not change the speed).

Prints images/s on the CPU (torch's default thread count) and, when available, on CUDA, at
batch 32, encoding [32, 3, 224, 224] raw-pixel tensors through `VLModel.encode_images`
(preprocessing, forward pass, normalisation and the copy back to the CPU included).
The load average is printed too: the CPU may be shared.

    .venv/bin/python benchmarks/encode_throughput.py [--batches 5] [--batch-size 32] [--spec openclip:ViT-B-32]
"""
import argparse
import os
import time

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("VLCONCEPTS_PROGRESS", "0")

import torch

from vlconcepts.models import load_model


def images_per_second(spec: str, device: str, batch_size: int, batches: int) -> float:
    "Images/s of `model.encode_images`: one warm-up batch, then the mean over `batches` timed batches."
    model = load_model(spec, device=device)
    pixels = torch.rand(batch_size, 3, 224, 224, generator=torch.Generator().manual_seed(0))
    model.encode_images(pixels, batch_size=batch_size)  # warm-up (allocations, cuDNN/oneDNN kernel choice)
    if device.startswith("cuda"): torch.cuda.synchronize()
    start = time.perf_counter()
    for _ in range(batches): model.encode_images(pixels, batch_size=batch_size)
    if device.startswith("cuda"): torch.cuda.synchronize()
    return batches * batch_size / (time.perf_counter() - start)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spec", default="openclip:ViT-B-32@random")
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--batches", type=int, default=5, help="timed batches per device")
    args = parser.parse_args()
    print(f"torch {torch.__version__}, {torch.get_num_threads()} CPU threads (torch default), "
          f"os.cpu_count()={os.cpu_count()}, load average before: {os.getloadavg()}")
    devices = ["cpu"] + (["cuda"] if torch.cuda.is_available() else [])
    for device in devices:
        rate = images_per_second(args.spec, device, args.batch_size, args.batches)
        name = torch.cuda.get_device_name(0) if device == "cuda" else "CPU"
        print(f"{args.spec} encode_images on {device} ({name}), batch {args.batch_size}: {rate:.1f} images/s")
    if not torch.cuda.is_available(): print("CUDA not available: no GPU figure.")
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
