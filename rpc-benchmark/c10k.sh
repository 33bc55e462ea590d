#!/usr/bin/env bash
# Runs the C10K experiment: bash rpc-benchmark/c10k.sh scenario=stall [connections=10000 rate=1000 ...]
# Two processes on 127.0.0.1: this driver and the provider it starts. Results go to rpc-benchmark/results/.
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -B -q -DskipTests install
mvn -B -q -pl rpc-benchmark dependency:build-classpath -Dmdep.outputFile=target/classpath.txt
ulimit -n 20000 || true
exec java -Xmx2g -cp "rpc-benchmark/target/classes:$(cat rpc-benchmark/target/classpath.txt)" \
  io.ferry.rpc.benchmark.c10k.C10kExperiment "$@"
