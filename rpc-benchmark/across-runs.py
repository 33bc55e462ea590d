#!/usr/bin/env python3
"""One system's ops/s over another's, across several published runs of the suite.

    python3 rpc-benchmark/across-runs.py SYSTEM OTHER REPORT [REPORT ...]
    python3 rpc-benchmark/across-runs.py ferry-tls-openssl dubbo-tls suite-tls-inbox suite-tls-inbox-2 suite-tls-3

Each REPORT is a name under rpc-benchmark/results/ (or a path to its .csv). For every benchmark both systems ran,
it prints each run's ratio as the report computes it (the median of SYSTEM's rounds over the median of OTHER's),
then the ratio of each round (the two systems ran in the same round, minutes apart, so the machine's drift between
rounds cancels), and over all runs: the lowest run, the median of the runs, and the median and lowest of every
round. A run's ratio is what a target is judged on; the rounds show how far one measurement strays.
"""
import csv
import os
import statistics
import sys

RESULTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'results')


def read(report):
    """(system, benchmark) -> {round: ops/s}."""
    path = report if report.endswith('.csv') else os.path.join(RESULTS, report + '.csv')
    rows = {}
    with open(path, newline='') as f:
        for row in csv.DictReader(f):
            rows.setdefault((row['system'], row['benchmark']), {})[int(row['round'])] = float(row['ops_per_s'])
    return rows


def main(args):
    if len(args) < 3:
        sys.exit(__doc__)
    system, other, reports = args[0], args[1], args[2:]
    runs = [(report, read(report)) for report in reports]
    benchmarks = []
    for _, rows in runs:
        for (s, b) in rows:
            if s == system and (other, b) in rows and b not in benchmarks:
                benchmarks.append(b)
    if not benchmarks:
        sys.exit(f'no benchmark has both {system} and {other} in {", ".join(reports)}')
    print(f'{system} / {other}, ops/s\n')
    print('| benchmark | ' + ' | '.join(r for r, _ in runs)
          + ' | lowest run | median of runs | median of rounds | lowest round |')
    print('|---|' + '---:|' * (len(runs) + 4))
    for b in benchmarks:
        per_run, per_round, cells = [], [], []
        for _, rows in runs:
            mine, theirs = rows.get((system, b)), rows.get((other, b))
            if not mine or not theirs:
                cells.append('–')
                continue
            ratio = statistics.median(mine.values()) / statistics.median(theirs.values())
            rounds = [mine[r] / theirs[r] for r in sorted(mine) if r in theirs]
            per_run.append(ratio)
            per_round.extend(rounds)
            cells.append(f'{ratio:.2f} ({", ".join(f"{x:.2f}" for x in rounds)})')
        print(f'| {b} | ' + ' | '.join(cells) + f' | {min(per_run):.2f} | {statistics.median(per_run):.2f} | '
              f'{statistics.median(per_round):.2f} | {min(per_round):.2f} |')
    print('\nEach run: its ratio of medians, then (its rounds).')


if __name__ == '__main__':
    main(sys.argv[1:])
