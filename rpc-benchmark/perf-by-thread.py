#!/usr/bin/env python3
"""Where a suite run's CPU went per call, by thread kind and by function, from a whole-machine `perf record`.

    perf record -a -g -F 299 -o perf.data -- bash rpc-benchmark/suite.sh quick --systems A,B --methods getUser \\
        --latency false --windows 32 --warmups 2 --warmupSeconds 5 --measurements 1 --measureSeconds 40 --rounds 1 \\
        --jvm-arg -XX:+UnlockDiagnosticVMOptions --jvm-arg -XX:+DumpPerfMapAtExit --jvm-arg -XX:+PreserveFramePointer
    perf script -i perf.data -G -F pid,tid,comm,time,ip,sym,dso > samples.txt
    python3 rpc-benchmark/perf-by-thread.py samples.txt OPS_A,OPS_B [MEASURED_SECONDS] [TOP]

OPS_A,OPS_B are the blocking benchmark's calls/s of each system, from the run's report, in the order the systems
ran. Each system's blocking run is found as the JMH fork with 32 caller threads; its last MEASURED_SECONDS (40)
are taken, and every sample of the machine in that window counts: the provider's, the fork's, the kernel's. Printed
per system: samples per 1000 calls by thread kind (at 299 Hz a sample is 3.34 ms of one core, so 1.0 per 1000
calls is 3.34 µs per call; perf's own cost inflates every row alike), how many threads of each kind ran, and the
TOP functions (10) of the provider's IO and business threads and of the consumer's IO thread. DumpPerfMapAtExit
names the JIT-compiled Java methods; PreserveFramePointer is only for `perf report -g`.
"""
import collections
import re
import sys

LINE = re.compile(r'^\s*(.+?)\s+(\d+)/(\d+)\s+([\d.]+):\s+[0-9a-f]+\s+(.*?)\s+\((.*)\)\s*$')
KINDS = [('ferry-server-io', 'provider IO'), ('ferry-server-bi', 'provider business'),
         ('ferry-client-io', 'consumer IO'), ('io.ferry.rpc.be', 'callers (JMH)'),
         ('ferry-callback', 'consumer callbacks'), ('C2 Compiler', 'JIT'), ('C1 Compiler', 'JIT'),
         ('G1 ', 'GC'), ('GC ', 'GC'), ('swapper', 'idle')]


def kind(comm):
    return next((name for prefix, name in KINDS if comm.startswith(prefix)), 'other')


def main():
    samples = []
    for line in open(sys.argv[1]):
        match = LINE.match(line)
        if match:
            comm, pid, tid, time, symbol, dso = match.groups()
            samples.append((comm, int(pid), int(tid), float(time), symbol))
    ops = [float(x) for x in sys.argv[2].split(',')]
    seconds = float(sys.argv[3]) if len(sys.argv) > 3 else 40
    top = int(sys.argv[4]) if len(sys.argv) > 4 else 10

    callers = collections.defaultdict(list)
    for comm, pid, tid, time, _ in samples:
        if comm.startswith('io.ferry.rpc.be'):
            callers[pid].append((tid, time))
    forks = sorted((max(t for _, t in rows), pid) for pid, rows in callers.items()
                   if len({tid for tid, _ in rows}) >= 30)
    if len(forks) != len(ops):
        sys.exit(f'{len(forks)} blocking forks found, {len(ops)} calls/s given')

    for (end, fork), calls_per_second in zip(forks, ops):
        window = [s for s in samples if end - seconds <= s[3] <= end]
        per_k = 1000.0 / (calls_per_second * seconds)
        print(f'== fork {fork}: {calls_per_second:,.0f} calls/s; samples per 1000 calls')
        by_kind = collections.Counter(kind(s[0]) for s in window)
        threads = collections.defaultdict(set)
        for s in window:
            threads[kind(s[0])].add(s[2])
        for name, count in by_kind.most_common():
            print(f'  {name:20s} {count * per_k:6.2f}   ({len(threads[name])} threads)')
        for name in ('provider IO', 'provider business', 'consumer IO'):
            functions = collections.Counter(s[4][:100] for s in window if kind(s[0]) == name)
            if functions:
                print(f'  -- {name}')
                for function, count in functions.most_common(top):
                    print(f'     {count * per_k:6.3f} {function}')


if __name__ == '__main__':
    main()
