#!/usr/bin/env bash
# Ferry across a network: consumers, providers and ZooKeeper in network namespaces of their own, each joined to the
# others by a link of its own that adds delay, jitter, loss or a blackhole (packets dropped, not refused).
#   bash rpc-benchmark/netem.sh [all|rtt|balance|loss|partition]... [--smoke]   the experiments (all: every one)
#   bash rpc-benchmark/netem.sh clean                                        removes what a killed run left
# Results go to rpc-benchmark/results/netem-<experiment>.{md,csv,png}, each with its command on top; --smoke runs each
# for a few seconds only, into target/netem-smoke/, to try the harness. The whole set takes about 23 minutes.
#
# The network: nodes zk 10.77.0.10, c1 10.77.0.11, p1 10.77.0.12, p2 10.77.0.13, each in namespace ferrynet-<node>.
# A link's settings apply to every packet that crosses it, in both directions (a packet from c1 to p1 crosses c1's
# link and p1's), so a delay D on p1's link adds 2·D to the round trip between p1 and anyone. Two ways to build it:
#   netem  each node's veth pair joins a bridge in namespace ferrynet-br; tc netem on both ends of the pair (delay,
#          jitter, loss; "loss 100%" for a blackhole), and a partition of two nodes sends their packets through an
#          htb class whose netem drops everything (u32 filters on the peer's address). Used wherever the kernel has
#          sch_netem.
#   user   for kernels built without sch_netem (tc: "Specified qdisc kind is unknown"): each node gets a TUN device,
#          and fxlink (rpc-benchmark/src/main/c/fxlink.c, compiled here with gcc) forwards packets between them
#          with the same delay, jitter, loss and drops. It costs CPU per packet that the kernel's netem does not.
# FERRYNET_BACKEND=netem|user picks one; by default netem if the kernel has it, else user.
# Needs root, ip and tc (and for the user backend gcc and /dev/net/tun); without them it says so and exits 0.
# Everything it makes (namespaces, links, qdiscs, its processes) goes when it exits, is interrupted or is killed by
# a signal it can catch; after a SIGKILL, "netem.sh clean" (or the next run, which starts with it) removes the rest.
# Subcommands used by the experiments while they run (NetLoad's --at), on the network that is up:
#   netem.sh link NODE DELAY_US [JITTER_US [LOSS_PPM]] | down NODE | up NODE | cut NODE NODE | heal NODE NODE
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
STATE=/run/ferrynet
NODES=(zk c1 p1 p2)
NS=ferrynet-
CP_FILE=$ROOT/rpc-benchmark/target/netem-classpath.txt

say() { printf '[netem %s] %s\n' "$(date +%T)" "$*"; }

node_index() {
  local i
  for i in "${!NODES[@]}"; do [ "${NODES[$i]}" = "$1" ] && { echo "$i"; return; }; done
  echo "netem.sh: node $1 (expected: one of ${NODES[*]})" >&2
  return 1
}
node_ip() { echo "10.77.0.$((10 + $(node_index "$1")))"; }

# ---- the state of the links: one line per node, "DELAY_US JITTER_US LOSS_PPM DOWN CUT_MASK" (fxlink reads it)

read_links() { mapfile -t LINKS < "$STATE/links"; }
write_links() { printf '%s\n' "${LINKS[@]}" > "$STATE/links.new" && mv "$STATE/links.new" "$STATE/links"; }
set_field() { # node field value
  local i f
  i=$(node_index "$1")
  read -r -a f <<< "${LINKS[$i]}"
  f[$2]=$3
  LINKS[$i]="${f[*]}"
}
get_field() { local f; read -r -a f <<< "${LINKS[$(node_index "$1")]}"; echo "${f[$2]}"; }

apply_links() {
  write_links
  if [ "$(cat "$STATE/backend")" = user ]; then
    kill -HUP "$(cat "$STATE/fxlink.pid")"
    sleep 0.05 # fxlink reads the file between two packets
  else
    local node
    for node in "$@"; do apply_netem "$node"; done
  fi
}

# netem backend: the node's two ends, each with root htb: class 1:1 (everything) -> netem with the link's delay,
# jitter and loss (loss 100% when down); class 1:2 -> netem loss 100%, for the packets of a cut peer (u32 filters).
apply_netem() {
  local node=$1 f delay jitter loss down mask j peer end ns dev dir netem
  read -r -a f <<< "${LINKS[$(node_index "$node")]}"
  delay=${f[0]} jitter=${f[1]} loss=${f[2]} down=${f[3]} mask=${f[4]}
  netem="delay ${delay}us"
  [ "$jitter" -gt 0 ] && netem="delay ${delay}us ${jitter}us"
  if [ "$down" = 1 ]; then netem="$netem loss 100%"
  elif [ "$loss" -gt 0 ]; then netem="$netem loss $(awk "BEGIN{printf \"%.4f\", $loss/10000}")%"; fi
  for end in inside bridge; do
    if [ $end = inside ]; then ns=$NS$node dev=eth0 dir=dst; else ns=${NS}br dev=fxb-$node dir=src; fi
    ip netns exec "$ns" tc qdisc del dev "$dev" root 2>/dev/null || true
    ip netns exec "$ns" tc qdisc add dev "$dev" root handle 1: htb default 1 r2q 1000
    ip netns exec "$ns" tc class add dev "$dev" parent 1: classid 1:1 htb rate 10gbit quantum 60000
    ip netns exec "$ns" tc class add dev "$dev" parent 1: classid 1:2 htb rate 10gbit quantum 60000
    # shellcheck disable=SC2086
    ip netns exec "$ns" tc qdisc add dev "$dev" parent 1:1 handle 10: netem $netem limit 100000
    ip netns exec "$ns" tc qdisc add dev "$dev" parent 1:2 handle 20: netem loss 100%
    for j in "${!NODES[@]}"; do
      if (( (mask >> j) & 1 )); then
        peer=10.77.0.$((10 + j))
        ip netns exec "$ns" tc filter add dev "$dev" parent 1: protocol ip prio 1 u32 match ip $dir "$peer/32" \
          flowid 1:2
      fi
    done
  done
}

cmd_link() { read_links; set_field "$1" 0 "$2"; set_field "$1" 1 "${3:-0}"; set_field "$1" 2 "${4:-0}"; apply_links "$1"; }
cmd_down() { read_links; set_field "$1" 3 1; apply_links "$1"; }
cmd_up() { read_links; set_field "$1" 3 0; apply_links "$1"; }
cmd_cut() {
  read_links
  local a b
  a=$(node_index "$1") b=$(node_index "$2")
  set_field "$1" 4 $(( $(get_field "$1" 4) | (1 << b) ))
  set_field "$2" 4 $(( $(get_field "$2" 4) | (1 << a) ))
  apply_links "$1" "$2"
}
cmd_heal() {
  read_links
  local a b
  a=$(node_index "$1") b=$(node_index "$2")
  set_field "$1" 4 $(( $(get_field "$1" 4) & ~(1 << b) ))
  set_field "$2" 4 $(( $(get_field "$2" 4) & ~(1 << a) ))
  apply_links "$1" "$2"
}
reset_links() {
  LINKS=()
  local n
  for n in "${NODES[@]}"; do LINKS+=("0 0 0 0 0"); done
  apply_links "${NODES[@]}"
}

# ---- setting up and tearing down

clean() {
  if [ -f "$STATE/pids" ]; then
    local pid
    while read -r pid; do kill "$pid" 2>/dev/null || true; done < "$STATE/pids"
    sleep 1
    while read -r pid; do kill -9 "$pid" 2>/dev/null || true; done < "$STATE/pids"
  fi
  if [ -f "$STATE/fxlink.pid" ]; then kill "$(cat "$STATE/fxlink.pid")" 2>/dev/null || true; fi
  local ns
  for ns in $(ip netns list 2>/dev/null | awk '{print $1}' | grep "^$NS" || true); do
    ip netns pids "$ns" 2>/dev/null | xargs -r kill -9 2>/dev/null || true # ours: started in our namespaces
    ip netns del "$ns" || true
  done
  rm -rf "$STATE" "${ZK_DATA:-/nonexistent-ferrynet}"
}

has_netem() { # a scratch namespace, so that nothing of this check outlives it
  unshare -n bash -c 'ip link add fxq0 type veth peer name fxq1 && tc qdisc add dev fxq0 root netem delay 1ms' \
    >/dev/null 2>&1
}

network_up() {
  mkdir -p "$STATE"
  echo "$BACKEND" > "$STATE/backend"
  : > "$STATE/pids"
  local n i ip
  for n in "${NODES[@]}"; do ip netns add "$NS$n"; ip -n "$NS$n" link set lo up; done
  if [ "$BACKEND" = user ]; then
    LINKS=()
    for n in "${NODES[@]}"; do LINKS+=("0 0 0 0 0"); done
    write_links
    local tuns=()
    for n in "${NODES[@]}"; do tuns+=("fxt-$n"); done
    "$FXLINK" "$STATE/links" "${tuns[@]}" > "$STATE/fxlink.out" 2>&1 &
    echo $! > "$STATE/fxlink.pid"
    for _ in $(seq 50); do grep -q READY "$STATE/fxlink.out" && break; sleep 0.1; done
    grep -q READY "$STATE/fxlink.out" || { cat "$STATE/fxlink.out"; return 1; }
    for n in "${NODES[@]}"; do
      ip link set "fxt-$n" netns "$NS$n"
      ip -n "$NS$n" addr add "$(node_ip "$n")/24" dev "fxt-$n"
      ip -n "$NS$n" link set "fxt-$n" mtu 1500 up
    done
  else
    ip netns add "${NS}br"
    ip -n "${NS}br" link add br0 type bridge
    ip -n "${NS}br" link set br0 up
    for n in "${NODES[@]}"; do
      ip -n "${NS}br" link add "fxb-$n" type veth peer name eth0 netns "$NS$n"
      ip -n "${NS}br" link set "fxb-$n" master br0 up
      ip -n "$NS$n" addr add "$(node_ip "$n")/24" dev eth0
      ip -n "$NS$n" link set eth0 up
    done
    reset_links
  fi
  say "network up ($BACKEND): ${NODES[*]} at 10.77.0.10-$((9 + ${#NODES[@]}))"
}

# ---- the processes

JAVA_OPTS=(-Xmx512m -XX:+UseParallelGC)

start_in() { # node name command... : in the node's namespace, output to $RUN/name.log
  local node=$1 name=$2
  shift 2
  ip netns exec "$NS$node" "$@" > "$RUN/$name.log" 2>&1 &
  echo $! >> "$STATE/pids"
  echo $!
}

waited() { # command...: runs it in the background and waits, so that a signal's trap runs at once, not after it
  "$@" &
  local pid=$!
  echo "$pid" >> "$STATE/pids"
  wait "$pid"
}

wait_for() { # file pattern seconds
  local i
  for i in $(seq $(( $3 * 10 ))); do grep -q "$2" "$1" 2>/dev/null && return 0; sleep 0.1; done
  say "no '$2' in $1 after $3 s:"; tail -20 "$1"; return 1
}

stop() { # pids...
  local pid
  for pid in "$@"; do kill "$pid" 2>/dev/null || true; done
  for pid in "$@"; do
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
  done
}

zk_start() {
  ZK_DATA=$(mktemp -d /tmp/ferrynet-zk.XXXXXX)
  ZK_PID=$(start_in zk zk java "${JAVA_OPTS[@]}" -Dzookeeper.admin.enableServer=false -cp "$CP" \
    org.apache.zookeeper.server.ZooKeeperServerMain 2181 "$ZK_DATA")
  for _ in $(seq 100); do
    ip netns exec "${NS}c1" bash -c 'exec 3<>/dev/tcp/10.77.0.10/2181' 2>/dev/null && return 0
    sleep 0.1
  done
  say "ZooKeeper did not start"; tail -20 "$RUN/zk.log"; return 1
}

provider() { # node system [extra JVM options...]: a Bench server in the node's namespace, counting its calls
  local node=$1 system=$2
  shift 2
  local pid
  pid=$(start_in "$node" "provider-$node" java "${JAVA_OPTS[@]}" "$@" -cp "$CP" io.ferry.rpc.benchmark.suite.Bench \
    server --system "$system" --host "$(node_ip "$node")" --port 20880 --countEvery 1000)
  wait_for "$RUN/provider-$node.log" READY 60
  echo "$pid"
}

load() { # name NetLoad options...: the consumer, in c1, bounded
  local name=$1
  shift
  say "load $name: $*"
  waited ip netns exec "${NS}c1" timeout 300 java "${JAVA_OPTS[@]}" -cp "$CP" io.ferry.rpc.benchmark.net.NetLoad \
    --out "$RUN/$name.csv" "$@" > "$RUN/$name.log" 2>&1 || { tail -30 "$RUN/$name.log"; return 1; }
  grep SUMMARY "$RUN/$name.log"
}

ME="bash rpc-benchmark/netem.sh"
NETEM="bash $ROOT/rpc-benchmark/netem.sh"
ZK=zookeeper://10.77.0.10:2181

# ---- the experiments

exp_rtt() {
  local rtts=(100 1000 5000) profile=(--profile quick --warmups 2 --warmupSeconds 3 --measurements 2
    --measureSeconds 3 --providerWarmup 10)
  [ "$SMOKE" = 1 ] && rtts=(1000) profile=(--profile smoke)
  local rtt system order round=0
  for rtt in "${rtts[@]}"; do
    reset_links
    cmd_link p1 $((rtt / 2))
    order=(ferry dubbo)
    (( round++ % 2 )) && order=(dubbo ferry)
    for system in "${order[@]}"; do
      local pid
      pid=$(provider p1 "$system")
      say "rtt $rtt us: $system"
      # jmh.ignoreLock: another JMH run on this machine (a build's SuiteSmokeTest) must not fail this one
      waited ip netns exec "${NS}c1" timeout 600 java "${JAVA_OPTS[@]}" -Djmh.ignoreLock=true -cp "$CP" \
        io.ferry.rpc.benchmark.suite.Bench \
        client --system "$system" --host 10.77.0.12 --port 20880 "${profile[@]}" --methods getUser,listUser \
        --windows 32 --rounds 1 --csv "$RUN/rtt-$rtt-$system.csv" > "$RUN/rtt-$rtt-$system.log" 2>&1 \
        || { tail -30 "$RUN/rtt-$rtt-$system.log"; return 1; }
      stop "$pid"
    done
  done
  report rtt
}

# Ferry finds p1 and p2 in ZooKeeper; Dubbo is given both as a url list (one reference, its cluster balancing
# between them as between registered providers).
two_providers() { # system [extra provider JVM options]: starts p1 and p2, sets P1 P2
  local system=$1
  shift
  if [ "$system" = ferry ]; then
    # warmup 0: the providers count as long up, as Dubbo's (listed by url, without a start time) do; else the one
    # started first would weigh more for its first 10 minutes
    P1=$(provider p1 ferry -Dbench.registry=$ZK -Dferry.provider.warmup=0 "$@")
    P2=$(provider p2 ferry -Dbench.registry=$ZK -Dferry.provider.warmup=0 "$@")
  else
    P1=$(provider p1 dubbo "$@")
    P2=$(provider p2 dubbo "$@")
  fi
}
consumer_of() { # system: NetLoad's options to reach p1 and p2
  if [ "$1" = ferry ]; then echo "--system ferry --registry $ZK"; else echo "--system dubbo --urls 10.77.0.12:20880,10.77.0.13:20880"; fi
}

exp_balance() {
  local seconds=10
  [ "$SMOKE" = 1 ] && seconds=3
  reset_links
  cmd_link p1 2500 # 5 ms added to p1's round trip
  cmd_link p2 50   # 0.1 ms to p2's
  local run system lb name extra
  for run in ferry:adaptive ferry:random ferry:leastactive dubbo:random dubbo:leastactive dubbo:leastactive:actives; do
    IFS=: read -r system lb extra <<< "$run"
    name=$system-$lb${extra:+-$extra}
    two_providers "$system"
    local opts=(--loadbalance "$lb" --warmup "$WARMUP" --seconds "$seconds")
    # Dubbo counts calls in flight for leastactive only where actives is set (its ActiveLimitFilter); 1,000 never
    # limits 32 callers
    [ "$extra" = actives ] && opts+=(--actives 1000)
    # shellcheck disable=SC2046
    load "balance-$name" $(consumer_of "$system") "${opts[@]}"
    stop "$P1" "$P2"
    cp "$RUN/provider-p1.log" "$RUN/balance-$name.p1.log"
    cp "$RUN/provider-p2.log" "$RUN/balance-$name.p2.log"
  done
  report balance
}

exp_loss() {
  local seconds=15
  [ "$SMOKE" = 1 ] && seconds=3
  local run system lb ejection callers
  # 32 callers keep the lossy connection busy, so that TCP repairs most losses by fast retransmit; 2 callers leave
  # it idle between calls, so that a lost packet waits for a timer (tail loss probe, or the retransmission timeout)
  for run in ferry:adaptive:true:32 ferry:adaptive:false:32 ferry:random:true:32 ferry:random:false:32 \
      dubbo:random:na:32 ferry:adaptive:true:2 ferry:random:false:2 dubbo:random:na:2; do
    IFS=: read -r system lb ejection callers <<< "$run"
    reset_links
    cmd_link p1 50 0 10000 # 1 % of the packets lost each way on p1's link
    cmd_link p2 50
    two_providers "$system"
    local opts=(--loadbalance "$lb" --warmup "$WARMUP" --seconds "$seconds" --callers "$callers")
    [ "$system" = ferry ] && opts+=(--ejection "$ejection")
    # shellcheck disable=SC2046
    load "loss-$system-$lb-$ejection-$callers" $(consumer_of "$system") "${opts[@]}"
    stop "$P1" "$P2"
  done
  report loss
}

exp_partition() {
  local seconds=25 cut=5 healed=20 session=4000
  [ "$SMOKE" = 1 ] && seconds=8 cut=2 healed=6
  local run system lb ejection
  # a provider blackholed: p1 drops every packet from second 5 to 20
  for run in ferry:adaptive:true ferry:random:true ferry:random:false dubbo:random:na; do
    IFS=: read -r system lb ejection <<< "$run"
    reset_links
    cmd_link p1 50
    cmd_link p2 50
    two_providers "$system"
    local opts=(--loadbalance "$lb" --warmup "$WARMUP" --seconds "$seconds" --at "$cut=$NETEM down p1"
      --at "$healed=$NETEM up p1")
    [ "$system" = ferry ] && opts+=(--ejection "$ejection")
    # shellcheck disable=SC2046
    load "partition-$system-$lb-$ejection" $(consumer_of "$system") "${opts[@]}"
    stop "$P1" "$P2"
    cp "$RUN/provider-p1.log" "$RUN/partition-$system-$lb-$ejection.p1.log"
    cp "$RUN/provider-p2.log" "$RUN/partition-$system-$lb-$ejection.p2.log"
  done
  # asymmetric: p1 cut off from ZooKeeper (its session expires: 4 s here), not from the consumer
  reset_links
  cmd_link p1 50
  cmd_link p2 50
  two_providers ferry "-Dbench.registrySessionMs=$session"
  load partition-asymmetric $(consumer_of ferry) --warmup "$WARMUP" --seconds "$seconds" --at "$cut=$NETEM cut p1 zk" \
    --at "$healed=$NETEM heal p1 zk"
  stop "$P1" "$P2"
  cp "$RUN/provider-p1.log" "$RUN/partition-asymmetric.p1.log"
  cp "$RUN/provider-p2.log" "$RUN/partition-asymmetric.p2.log"
  report partition
}

report() {
  java -cp "$CP" io.ferry.rpc.benchmark.net.NetReport "$1" --runs "$RUN" --out "$OUT" --command "$COMMAND" \
    --backend "$BACKEND" --note "$NOTE"
}

# ---- main

case "${1:-all}" in
  link) shift; cmd_link "$@"; exit 0 ;;
  down|up) c=$1; shift; "cmd_$c" "$@"; exit 0 ;;
  cut|heal) c=$1; shift; "cmd_$c" "$@"; exit 0 ;;
  clean) clean; say "cleaned"; exit 0 ;;
esac

SMOKE=0
WARMUP=10 # seconds of calls before the measured ones: Dubbo's consumer needs about 10 s to reach its pace
EXPERIMENTS=()
for a in "$@"; do
  case $a in
    --smoke) SMOKE=1 ;;
    all) EXPERIMENTS+=(rtt balance loss partition) ;;
    rtt|balance|loss|partition) EXPERIMENTS+=("$a") ;;
    *) echo "netem.sh: $a (expected: all, rtt, balance, loss, partition, --smoke, clean)" >&2; exit 2 ;;
  esac
done
[ ${#EXPERIMENTS[@]} = 0 ] && EXPERIMENTS=(rtt balance loss partition)

if [ "$(id -u)" != 0 ]; then say "skipped: needs root for network namespaces (run it as root, as CI does)"; exit 0; fi
for tool in ip tc unshare; do
  command -v $tool >/dev/null || { say "skipped: no $tool on this machine"; exit 0; }
done
BACKEND=${FERRYNET_BACKEND:-}
if [ -z "$BACKEND" ]; then
  if has_netem; then BACKEND=netem; else BACKEND=user; fi
fi
if [ "$BACKEND" = user ]; then
  if ! command -v gcc >/dev/null || [ ! -c /dev/net/tun ]; then
    say "skipped: this kernel has no sch_netem, and the user-space links need gcc and /dev/net/tun"; exit 0
  fi
  FXLINK=$ROOT/rpc-benchmark/target/fxlink
  mkdir -p "$ROOT/rpc-benchmark/target"
  gcc -O2 -Wall -o "$FXLINK" "$ROOT/rpc-benchmark/src/main/c/fxlink.c"
  NOTE="This kernel has no sch_netem, so the links are fxlink's (user space, TUN devices), not tc netem's."
else
  NOTE="Links: veth pairs through a bridge, tc netem on both ends."
fi

clean # what a killed run may have left
exec 3>&1 4>&2 # the trap's own output: a signal may arrive while a command's output goes to a run's log
trap 'clean >&3 2>&4; say "cleaned up" >&3' EXIT
trap 'exit 130' INT TERM HUP

say "building (compile only; nothing installed)"
mvn -B -q ${MVN_FLAGS:-} -pl rpc-benchmark -am compile dependency:build-classpath -DskipTests \
  -Dmdep.outputFile="$CP_FILE" >/dev/null
CP="$ROOT/rpc-benchmark/target/classes:$(cat "$CP_FILE")"
for m in rpc-api rpc-remoting rpc-registry rpc-config rpc-testkit; do CP="$ROOT/$m/target/classes:$CP"; done

COMMAND="$ME $*"
OUT=$ROOT/rpc-benchmark/results
[ "$SMOKE" = 1 ] && OUT=$ROOT/rpc-benchmark/target/netem-smoke WARMUP=3
RUN=$(mktemp -d /tmp/ferrynet-run.XXXXXX)
mkdir -p "$OUT"
say "backend $BACKEND; runs in $RUN; results to $OUT"
network_up
zk_start
for e in "${EXPERIMENTS[@]}"; do
  say "== $e"
  timeout_at=$(( $(date +%s) + 900 ))
  started=$(date +%s)
  "exp_$e"
  [ "$(date +%s)" -le $timeout_at ] || say "$e took longer than 15 minutes"
  if [ "$BACKEND" = user ]; then # what forwarding the packets cost, in CPU seconds
    say "$e took $(( $(date +%s) - started )) s; fxlink's CPU so far: $(ps -o times= -p "$(cat "$STATE/fxlink.pid")") s"
  fi
done
say "done: $OUT/netem-*.md"
