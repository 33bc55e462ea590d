#!/usr/bin/env bash
# Runs the C10K experiment: bash rpc-benchmark/c10k.sh scenario=stall [provider=dubbo] [connections=10000 ...]
# Two processes on 127.0.0.1: this driver and the provider it starts. Results go to rpc-benchmark/results/.
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -B -q -DskipTests install
mvn -B -q -pl rpc-benchmark dependency:build-classpath -Dmdep.outputFile=target/classpath.txt
ulimit -n 20000 || true
JAVA=(java -Xmx2g -cp "rpc-benchmark/target/classes:$(cat rpc-benchmark/target/classpath.txt)"
      io.ferry.rpc.benchmark.c10k.C10kExperiment "$@")
# provider=dubbo: Dubbo binds every address, so with root the run gets a network namespace with loopback only
if [[ " $* " == *" provider=dubbo "* ]] && [ "$(id -u)" = 0 ] && command -v unshare >/dev/null; then
  exec unshare -n bash -c 'ip link set lo up && exec "$@"' bash "${JAVA[@]}"
fi
exec "${JAVA[@]}"
