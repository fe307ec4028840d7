"""Helpers every benchmark script shares: the machine's load and this process's peak memory.

Imported by the scripts beside it (`from _common import load, peak_rss_gb`); running it prints the current load."""
import os
import resource


def load() -> str:
    "The 1/5/15-minute load averages and the core count."
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} / {five:.2f} / {fifteen:.2f} on {os.cpu_count()} cores"


def peak_rss_gb() -> float:
    "This process's peak resident memory so far, GB (Linux reports ru_maxrss in KiB)."
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20


if __name__ == "__main__":
    print(load())
