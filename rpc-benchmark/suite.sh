#!/usr/bin/env bash
# Runs the JMH suite: Ferry beside Apache Dubbo 3.3.6 (hessian2, and fastjson2), gRPC-java (protobuf) and the raw
# Netty echo ceiling.
#   bash rpc-benchmark/suite.sh [smoke|quick|full] [--systems ferry,dubbo,dubbo-fastjson2,grpc,echo] [--methods ...]
#       [--report NAME] [--out DIR | --publish] [--jvm-arg -Djmh.ignoreLock=true]...
#   bash rpc-benchmark/suite.sh full --systems ferry,ferry-tls-jdk,ferry-tls-openssl,dubbo-tls \
#       --methods getUser,listUser --report suite-tls          (the TLS rows: see results/README.md)
#   bash rpc-benchmark/suite.sh full --systems ferry,ferry-metrics,ferry-tracing --methods getUser,listUser \
#       --report suite-observability                           (what observing every call costs)
#   bash rpc-benchmark/suite.sh experiment connections|nagle [--profile quick|full] [--publish]
# A run writes rpc-benchmark/target/reports/suite-<profile>.{md,csv,png} (NAME.{md,csv,png} with --report NAME), or
# into DIR with --out DIR; only --publish writes the committed rpc-benchmark/results/. --jvm-arg (repeatable) goes to
# every provider JVM and JMH fork, and a -D one to the suite's own JVM too (-Djmh.ignoreLock=true is read there).
# Progress lines show the time since the start and the time left.
# How long, with the five default systems, on the project's 2-core machine: smoke 1 min 17 s (measured, the build
# up to date, other benchmarks sharing the machine); quick about 12 min and full about 2.5 h (computed from the planned
# iterations and the JVM starts measured in smoke: `Bench suite --help` lists each profile's plan). Fewer systems or
# methods take proportionally less.
# It builds what the suite needs (compile only; nothing is installed into ~/.m2). Dubbo's provider cannot bind
# loopback only, so with root the suite runs in a network namespace of its own (loopback only); without root it runs
# as it is.
set -euo pipefail
cd "$(dirname "$0")/.."
# Micrometer only for the observability rows: Dubbo 3.3.6 collects metrics of its own whenever it finds Micrometer
EXCLUDE=()
case " $* " in
  *ferry-metrics*|*ferry-tracing*) EXCLUDE=(-Dbench.classpath.exclude=none) ;;
esac
# the reactor puts Ferry's modules on the class path as their target/classes: no install needed
mvn -B -q -pl rpc-benchmark -am -DskipTests compile dependency:build-classpath \
  -Dmdep.outputFile=target/classpath.txt "${EXCLUDE[@]}"
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
