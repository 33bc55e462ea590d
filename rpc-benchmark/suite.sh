#!/usr/bin/env bash
# Runs the JMH suite: Ferry beside Apache Dubbo 3.3.6 (hessian2, and fastjson2) and the raw Netty echo ceiling.
#   bash rpc-benchmark/suite.sh [smoke|quick|full] [--systems ferry,dubbo,dubbo-fastjson2,echo]
#   bash rpc-benchmark/suite.sh full --systems ferry,ferry-tls-jdk,ferry-tls-openssl,dubbo-tls \
#       --methods getUser,listUser --report suite-tls          (the TLS rows: see results/README.md)
#   bash rpc-benchmark/suite.sh full --systems ferry,ferry-metrics,ferry-tracing --methods getUser,listUser \
#       --report suite-observability                           (what observing every call costs)
#   bash rpc-benchmark/suite.sh experiment connections|nagle [--profile quick|full]
# quick takes a few minutes, full (the published results) about two hours on 2 cores. Results go to
# rpc-benchmark/results/suite-<profile>.{md,csv,png}, or NAME.{md,csv,png} with --report NAME. Dubbo's provider
# cannot bind loopback only, so with root the suite runs in a network namespace of its own (loopback only); without
# root it runs as it is.
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -B -q -DskipTests install
# Micrometer only for the observability rows: Dubbo 3.3.6 collects metrics of its own whenever it finds Micrometer
EXCLUDE=()
case " $* " in
  *ferry-metrics*|*ferry-tracing*) EXCLUDE=(-Dbench.classpath.exclude=none) ;;
esac
mvn -B -q -pl rpc-benchmark dependency:build-classpath -Dmdep.outputFile=target/classpath.txt "${EXCLUDE[@]}"
CP="rpc-benchmark/target/classes:$(cat rpc-benchmark/target/classpath.txt)"
if [ "${1:-}" = experiment ]; then
  JAVA=(java -Xmx1g -cp "$CP" io.ferry.rpc.benchmark.suite.Bench "$@")
else
  PROFILE="${1:-quick}"
  shift || true
  JAVA=(java -Xmx1g -cp "$CP" io.ferry.rpc.benchmark.suite.Bench suite --profile "$PROFILE" "$@")
fi
if [ "$(id -u)" = 0 ] && command -v unshare >/dev/null; then
  exec unshare -n bash -c 'ip link set lo up && exec "$@"' bash "${JAVA[@]}"
fi
exec "${JAVA[@]}"
