#!/usr/bin/env python3
"""CPU per thread of every java process on this machine, from /proc, while a benchmark runs beside it.

    python3 rpc-benchmark/thread-cpu.py [INTERVAL_SECONDS] [COUNT]      (default 5 s, 120 samples)

Every INTERVAL it prints the cores all java processes used, then the busiest thread groups (threads whose names
differ only in digits summed, e.g. every ferry-client-io-N), each with the process it belongs to (its main class
or JMH's ForkedMain). It shows whether one thread saturates (an IO thread at 1.00 core) or the machine idles
between pipeline stages (the total well below the cores with no thread saturated).
"""
import os
import sys
import time

INTERVAL = float(sys.argv[1]) if len(sys.argv) > 1 else 5
COUNT = int(sys.argv[2]) if len(sys.argv) > 2 else 120
HZ = os.sysconf('SC_CLK_TCK')


def process_tag(pid):
    args = open(f'/proc/{pid}/cmdline').read().split('\0')
    main = next((a for a in args if 'ForkedMain' in a or 'Bench' in a or 'Provider' in a), args[-2] if len(args) > 1 else '?')
    return main.split('.')[-1][:28]


def snapshot():
    """(pid, tid) -> (process tag, thread name, CPU ticks)."""
    threads = {}
    for pid in filter(str.isdigit, os.listdir('/proc')):
        try:
            if open(f'/proc/{pid}/comm').read().strip() != 'java':
                continue
            tag = process_tag(pid)
            for tid in os.listdir(f'/proc/{pid}/task'):
                stat = open(f'/proc/{pid}/task/{tid}/stat').read()
                name = stat[stat.index('(') + 1:stat.rindex(')')]
                fields = stat[stat.rindex(')') + 2:].split()
                threads[(pid, tid)] = (tag, name, int(fields[11]) + int(fields[12]))  # utime + stime
        except (FileNotFoundError, ProcessLookupError, ValueError):
            pass  # a process or thread that ended between the listing and the read
    return threads


previous = snapshot()
for _ in range(COUNT):
    time.sleep(INTERVAL)
    current = snapshot()
    groups = {}
    for key, (tag, name, ticks) in current.items():
        if key in previous:
            group = (tag, ''.join('#' if c.isdigit() else c for c in name))
            groups[group] = groups.get(group, 0) + (ticks - previous[key][2]) / HZ / INTERVAL
    print(time.strftime('%H:%M:%S'), f'total {sum(groups.values()):.2f} cores', flush=True)
    for (tag, name), cores in sorted(groups.items(), key=lambda kv: -kv[1])[:10]:
        if cores > 0.02:
            print(f'   {cores:5.2f} {tag:28} {name}', flush=True)
    previous = current
