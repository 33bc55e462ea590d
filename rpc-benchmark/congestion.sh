#!/usr/bin/env bash
# Runs the congestion experiment: [LINK=1gbit] bash rpc-benchmark/congestion.sh [consumers=4 rate=250 ...]
# The driver and one provider process at a time talk over loopback inside a network namespace of their own, whose
# loopback is shaped to LINK (a tc token bucket; default 1gbit, as the field report's network) so that big answers
# really compete for bandwidth; LINK=none leaves loopback unshaped. Needs root for the namespace (as CI has).
# Results go to rpc-benchmark/results/.
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -B -q -DskipTests install
mvn -B -q -pl rpc-benchmark dependency:build-classpath -Dmdep.outputFile=target/classpath.txt
JAVA=(java -Xmx2g -cp "rpc-benchmark/target/classes:$(cat rpc-benchmark/target/classpath.txt)"
      io.ferry.rpc.benchmark.congestion.CongestionExperiment "link=${LINK:-1gbit}" "$@")
if [ "${LINK:-1gbit}" = none ]; then
  exec "${JAVA[@]}"
fi
exec unshare -n bash -c 'ip link set lo up && tc qdisc add dev lo root tbf rate "$0" burst 256kb latency 50ms \
  && exec "$@"' "${LINK:-1gbit}" "${JAVA[@]}"
