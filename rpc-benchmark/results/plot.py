"""Draws the C10K results: python3 rpc-benchmark/results/plot.py (needs matplotlib: pip install matplotlib)."""
import csv
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def load(name):
    with open(os.path.join(HERE, name + ".csv")) as f:
        return [{k: int(v) for k, v in row.items()} for row in csv.DictReader(f)]


def stall():
    fig, (hb, p99) = plt.subplots(2, 1, sharex=True, figsize=(9, 6))
    for name, label in (("c10k-stall-jitter-off", "fixed timers (jitter=0, as Dubbo)"),
                        ("c10k-stall-jitter-on", "Ferry (per-cycle jitter)")):
        rows = load(name)
        seconds = [r["second"] for r in rows]
        hb.plot(seconds, [r["heartbeats"] for r in rows], label=label)
        p99.plot(seconds, [r["p99_us"] / 1000 for r in rows], label=label)
    hb.set_ylabel("heartbeats answered / s")
    hb.set_title("10,000 connections, 1,000 calls/s, 5 s heartbeat: a 6 s provider stall at second 30")
    hb.legend()
    p99.set_ylabel("p99 (ms, log)")
    p99.set_yscale("log")
    p99.set_xlabel("second")
    fig.tight_layout()
    fig.savefig(os.path.join(HERE, "c10k-stall.png"), dpi=110)


def restart():
    rows = load("c10k-restart")
    seconds = [r["second"] for r in rows]
    fig, (calls, ready) = plt.subplots(2, 1, sharex=True, figsize=(9, 6))
    calls.plot(seconds, [r["calls_ok"] for r in rows], label="calls ok")
    calls.plot(seconds, [r["calls_failed"] for r in rows], label="calls failed")
    calls.set_title("10,000 connections: provider killed at second 30, started again at second 35")
    calls.set_ylabel("calls / s")
    calls.legend()
    ready.plot(seconds, [r["ready_connections"] for r in rows], color="green")
    ready.set_ylabel("ready connections")
    ready.set_xlabel("second")
    fig.tight_layout()
    fig.savefig(os.path.join(HERE, "c10k-restart.png"), dpi=110)


if __name__ == "__main__":
    stall()
    restart()
