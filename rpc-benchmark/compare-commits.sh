#!/usr/bin/env bash
# Measures Ferry at two commits in one session, alternating their rounds, so that what a change costs is read as a
# ratio taken on the same machine at the same time (each commit's own suite, its own JVMs; Dubbo is not run).
#   bash rpc-benchmark/compare-commits.sh BASE [OTHER] [--rounds N] [suite flags...]
#   bash rpc-benchmark/compare-commits.sh 76841fb HEAD --rounds 3 --profile quick --methods getUser,listUser
# OTHER defaults to HEAD. Each round runs `Bench suite --systems ferry --rounds 1` at each commit, the order
# swapped every round. Prints, per benchmark, each commit's median calls/s, CPU µs per call and p99 over the
# rounds, and OTHER / BASE. Reports and the summary go to rpc-benchmark/results/compare-<base>-<other>/.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
BASE=${1:?usage: compare-commits.sh BASE [OTHER] [--rounds N] [suite flags...]}
shift
OTHER=HEAD
if [ $# -gt 0 ] && [[ $1 != --* ]]; then
  OTHER=$1
  shift
fi
ROUNDS=3
ARGS=()
while [ $# -gt 0 ]; do
  case $1 in
    --rounds) ROUNDS=$2; shift 2 ;;
    --rounds=*) ROUNDS=${1#--rounds=}; shift ;;
    *) ARGS+=("$1"); shift ;;
  esac
done
BASE_SHA=$(git rev-parse --short "$BASE")
OTHER_SHA=$(git rev-parse --short "$OTHER")
OUT="$ROOT/rpc-benchmark/results/compare-$BASE_SHA-$OTHER_SHA"
TREES=$(mktemp -d)
cleanup() {
  for sha in "$BASE_SHA" "$OTHER_SHA"; do
    git -C "$ROOT" worktree remove --force "$TREES/$sha" 2>/dev/null || true
  done
  rm -rf "$TREES"
}
trap cleanup EXIT
mkdir -p "$OUT"

# each commit built in a work tree of its own: its jars, not the local repository's snapshot, are on its class path
for sha in "$BASE_SHA" "$OTHER_SHA"; do
  git -C "$ROOT" worktree add --detach "$TREES/$sha" "$sha" >/dev/null
  (cd "$TREES/$sha" && mvn -B -q -DskipTests package dependency:build-classpath \
      -Dmdep.outputFile=target/classpath.txt -pl rpc-benchmark -am)
done

run() { # sha round
  local tree="$TREES/$1"
  (cd "$tree" && java -Xmx1g -cp "rpc-benchmark/target/classes:$(cat rpc-benchmark/target/classpath.txt)" \
      io.ferry.rpc.benchmark.suite.Bench suite --systems ferry --rounds 1 --out "$OUT/$1-round$2" "${ARGS[@]}")
}
for round in $(seq 1 "$ROUNDS"); do
  if [ $((round % 2)) = 1 ]; then order=("$BASE_SHA" "$OTHER_SHA"); else order=("$OTHER_SHA" "$BASE_SHA"); fi
  for sha in "${order[@]}"; do
    echo "== round $round of $ROUNDS: $sha"
    run "$sha" "$round"
  done
done

# medians over the rounds, per commit and benchmark, from each round's CSV
python3 - "$OUT" "$BASE_SHA" "$OTHER_SHA" <<'EOF' | tee "$OUT/summary.md"
import csv, glob, os, statistics, sys
out, base, other = sys.argv[1:]
rows = {}
for path in glob.glob(os.path.join(out, '*-round*', '*.csv')):
    sha = os.path.basename(os.path.dirname(path)).split('-round')[0]
    for r in csv.DictReader(open(path)):
        rows.setdefault((r['benchmark'], sha), []).append(r)
def median(benchmark, sha, column):
    values = [float(r[column]) for r in rows.get((benchmark, sha), []) if r.get(column)]
    return statistics.median(values) if values else float('nan')
print(f"| benchmark | {base} calls/s | {other} calls/s | {other} / {base} | CPU µs/call {base} → {other} "
      f"| p99 µs {base} → {other} |")
print("|---|---:|---:|---:|---|---|")
for benchmark in sorted({b for b, _ in rows}):
    a, b = median(benchmark, base, 'ops_per_s'), median(benchmark, other, 'ops_per_s')
    print(f"| {benchmark} | {a:,.0f} | {b:,.0f} | {b / a:.2f} | {median(benchmark, base, 'cpu_us_per_op'):.1f} → "
          f"{median(benchmark, other, 'cpu_us_per_op'):.1f} | {median(benchmark, base, 'p99_us'):,.0f} → "
          f"{median(benchmark, other, 'p99_us'):,.0f} |")
EOF
