package io.ferry.rpc.config.option;

import io.ferry.rpc.remoting.Dispatcher;
import io.ferry.rpc.remoting.ThreadPoolKind;

import java.time.Duration;
import java.util.List;

import static io.ferry.rpc.config.option.Scope.APPLICATION;
import static io.ferry.rpc.config.option.Scope.CONSUMER;
import static io.ferry.rpc.config.option.Scope.METHOD;
import static io.ferry.rpc.config.option.Scope.PROTOCOL;
import static io.ferry.rpc.config.option.Scope.PROVIDER;
import static io.ferry.rpc.config.option.Scope.REFERENCE;
import static io.ferry.rpc.config.option.Scope.REGISTRY;
import static io.ferry.rpc.config.option.Scope.SERVICE;

/**
 * Every option of Ferry, once. The README's option reference is generated from {@link #all()}. Scopes list where
 * an option may be set. The provider scope holds defaults of files ({@code <provider>}, {@code ferry.provider.*}):
 * an option the protocol takes goes to the protocol, any other to every service, unless they set it themselves.
 */
public final class Options {
    private Options() {
    }

    // ---- calls: method, reference or service, consumer or provider defaults
    public static final Option<Duration> TIMEOUT = Option.of("timeout", Duration.class).defaultText("1000")
            .atLeast(1).scopes(METHOD, REFERENCE, SERVICE, PROVIDER, CONSUMER).dubbo("timeout")
            .doc("the deadline of the whole call, retries included; on a service, the provider's slow-call budget")
            .build();
    public static final Option<Integer> RETRIES = Option.of("retries", Integer.class).defaultText("2")
            .range(0, 100).scopes(METHOD, REFERENCE, CONSUMER).dubbo("retries")
            .doc("other providers a call that provably did not run may move to").build();
    public static final Option<String> LOAD_BALANCE = Option.of("loadBalance", String.class)
            .defaultValue("adaptive").lowerCase().scopes(REFERENCE, CONSUMER).dubbo("loadbalance")
            .doc("a load balancer by name: adaptive (P2C over peak-EWMA latency), random, roundrobin, leastactive, "
                    + "consistenthash, shortestresponse, or one a jar registers (a LoadBalancerProvider)").build();
    public static final Option<String> CLUSTER = Option.of("cluster", String.class).defaultValue("failover")
            .lowerCase().scopes(REFERENCE, CONSUMER).dubbo("cluster")
            .doc("a fault-tolerance strategy by name: failover, failfast, failsafe, failback, forking, broadcast, "
                    + "or one a jar registers (a ClusterProvider)").build();
    public static final Option<String> FILTER = Option.of("filter", String.class).defaultText("default").lowerCase()
            .scopes(REFERENCE, CONSUMER, SERVICE, PROVIDER).dubbo("filter")
            .doc("filters by name, in order (a FilterProvider each), after those active by default: "
                    + "audit,-default drops the defaults, -name one of them; a reference's follow its consumer's, "
                    + "a service's its provider's").build();
    public static final Option<Integer> FORKS = Option.of("forks", Integer.class).defaultText("2").range(1, 100)
            .scopes(REFERENCE, CONSUMER).dubbo("forks").doc("providers a forking call goes to at once").build();
    public static final Option<Integer> ACTIVES = Option.of("actives", Integer.class).defaultText("0 (no limit)")
            .range(0, 1_000_000).scopes(METHOD, REFERENCE, CONSUMER).dubbo("actives")
            .doc("calls in flight per method of a reference; over it, LIMIT_EXCEEDED, not sent").build();
    public static final Option<Integer> EXECUTES = Option.of("executes", Integer.class)
            .defaultText("0 (no limit)").range(0, 1_000_000).scopes(METHOD, SERVICE, PROVIDER).dubbo("executes")
            .doc("calls running at once per method of a service; over it, LIMIT_EXCEEDED, not run").build();
    public static final Option<Boolean> IDEMPOTENT = Option.of("idempotent", Boolean.class).defaultText("false")
            .scopes(METHOD).doc("failover may repeat a call of it after a lost connection").build();
    public static final Option<Boolean> ONEWAY = Option.of("oneway", Boolean.class).defaultText("false")
            .scopes(METHOD).dubbo("return=false").doc("send and do not wait for an answer (void methods)").build();
    public static final Option<String> VERSION = Option.of("version", String.class).defaultText("none")
            .scopes(REFERENCE, SERVICE, PROVIDER).dubbo("version").doc("the service version (sent as 0.0.0 when none)")
            .build();
    public static final Option<String> GROUP = Option.of("group", String.class).defaultText("none")
            .scopes(REFERENCE, SERVICE, PROVIDER).dubbo("group").doc("the service group").build();

    // ---- consumer connections
    public static final Option<String> URL = Option.of("url", String.class).defaultText("none: the registry")
            .scopes(REFERENCE).dubbo("url").doc("dubbo://host:port: call that provider directly").build();
    public static final Option<Integer> CONNECTIONS = Option.of("connections", Integer.class).defaultText("0")
            .range(0, 1024).scopes(REFERENCE, CONSUMER).dubbo("connections")
            .doc("0: the shared elastic pool to each provider; N: N connections of the reference's own").build();
    public static final Option<Integer> MAX_CONNECTIONS = Option.of("maxConnections", Integer.class)
            .defaultText("cores").range(1, 1024).scopes(CONSUMER)
            .doc("the most connections the shared pool opens to one provider while every one stays congested")
            .build();
    public static final Option<Duration> POOL_IDLE_TIMEOUT = Option.of("poolIdleTimeout", Duration.class)
            .defaultText("30000").atLeast(1).scopes(CONSUMER)
            .doc("an extra connection of the shared pool that carried no call this long drains and closes").build();
    public static final Option<Duration> CONGESTION_WAIT = Option.of("congestionWait", Duration.class)
            .defaultText("100").atLeast(1).scopes(CONSUMER)
            .doc("how long a call waits for a writable connection, within its deadline, before CONGESTED").build();
    public static final Option<Boolean> LAZY = Option.of("lazy", Boolean.class).defaultText("false")
            .scopes(REFERENCE, CONSUMER).dubbo("lazy").doc("connect on the first call").build();
    public static final Option<Boolean> CHECK = Option.of("check", Boolean.class).defaultText("true")
            .scopes(REFERENCE, CONSUMER).dubbo("check")
            .doc("reference() returns once a provider is ready, or fails after connectTimeout naming why").build();
    public static final Option<Boolean> WAIT_FOR_READY = Option.of("waitForReady", Boolean.class)
            .defaultText("false").scopes(REFERENCE, CONSUMER)
            .doc("a call to a provider known to be down waits for a connection instead of failing at once").build();
    public static final Option<Duration> CONNECT_TIMEOUT = Option.of("connectTimeout", Duration.class)
            .defaultText("3000").atLeast(1).scopes(CONSUMER).dubbo("connect.timeout")
            .doc("TCP connect, then the readiness ping's round trip").build();
    public static final Option<Duration> RECONNECT_BACKOFF_MIN = Option.of("reconnectBackoffMin", Duration.class)
            .defaultText("100").atLeast(1).scopes(CONSUMER)
            .doc("first reconnect delay; doubles, with full jitter").build();
    public static final Option<Duration> RECONNECT_BACKOFF_MAX = Option.of("reconnectBackoffMax", Duration.class)
            .defaultText("5000").atLeast(1).scopes(CONSUMER).doc("longest reconnect delay").build();
    public static final Option<Duration> CONNECT_SPREAD = Option.of("connectSpread", Duration.class)
            .defaultText("1000").atLeast(0).scopes(CONSUMER)
            .doc("first connects to providers the registry announces start at a random moment within this").build();

    // ---- both sides' transport
    public static final Option<Integer> IO_THREADS = Option.of("ioThreads", Integer.class)
            .defaultText("min(cores + 1, 32)").range(1, 1024).scopes(PROTOCOL, PROVIDER, CONSUMER).dubbo("iothreads")
            .doc("event loop threads (the consumer's are shared by all references of a bootstrap)").build();
    public static final Option<Integer> PAYLOAD = Option.of("payloadBytes", Integer.class).defaultText("8388608")
            .unit("bytes").atLeast(1024).scopes(PROTOCOL, PROVIDER, CONSUMER).dubbo("payload")
            .doc("the largest request or answer body, checked on both sides").build();
    public static final Option<Duration> HEARTBEAT = Option.of("heartbeat", Duration.class).defaultText("60000")
            .atLeast(1).scopes(PROTOCOL, CONSUMER).dubbo("heartbeat")
            .doc("consumers ping after this long without reads (jittered ±50 %); 3 × this without reads closes")
            .build();
    public static final Option<Boolean> TCP_NO_DELAY = Option.of("tcpNoDelay", Boolean.class).defaultText("true")
            .scopes(PROTOCOL, CONSUMER).doc("Nagle off, against 40 ms delayed-ACK stalls").build();
    public static final Option<Boolean> KEEP_ALIVE = Option.of("keepAlive", Boolean.class).defaultText("true")
            .scopes(PROTOCOL, CONSUMER).doc("TCP keep-alive").build();
    public static final Option<Integer> SEND_BUFFER = Option.of("sendBufferBytes", Integer.class)
            .defaultText("0 (OS default)").unit("bytes").atLeast(0).scopes(PROTOCOL, CONSUMER)
            .doc("SO_SNDBUF").build();
    public static final Option<Integer> RECEIVE_BUFFER = Option.of("receiveBufferBytes", Integer.class)
            .defaultText("0 (OS default)").unit("bytes").atLeast(0).scopes(PROTOCOL, CONSUMER)
            .doc("SO_RCVBUF").build();
    public static final Option<Integer> WRITE_BUFFER_LOW = Option.of("writeBufferLowWaterMark", Integer.class)
            .defaultText("32768").unit("bytes").atLeast(1).scopes(PROTOCOL, CONSUMER)
            .doc("a connection is writable (read, by a provider) again below this").build();
    public static final Option<Integer> WRITE_BUFFER_HIGH = Option.of("writeBufferHighWaterMark", Integer.class)
            .defaultText("65536").unit("bytes").atLeast(1).scopes(PROTOCOL, CONSUMER)
            .doc("above this a consumer stops writing to a connection and a provider stops reading it").build();

    // ---- provider
    public static final Option<String> HOST = Option.of("host", String.class).defaultText("all local addresses")
            .scopes(PROTOCOL).dubbo("host").doc("the address to listen on").build();
    public static final Option<Integer> PORT = Option.of("port", Integer.class).defaultText("20880")
            .range(0, 65535).scopes(PROTOCOL).dubbo("port").doc("0 picks a free port").build();
    public static final Option<Integer> THREADS = Option.of("threads", Integer.class).defaultText("200")
            .range(1, 10_000).scopes(PROTOCOL, PROVIDER, SERVICE).dubbo("threads").doc("the business pool").build();
    public static final Option<Integer> QUEUES = Option.of("queues", Integer.class).defaultText("0").atLeast(0)
            .scopes(PROTOCOL, PROVIDER, SERVICE).dubbo("queues")
            .doc("requests that may wait for a business thread; 0: refused at once when every thread is busy")
            .build();
    public static final Option<ThreadPoolKind> THREAD_POOL = Option.of("threadPool", ThreadPoolKind.class)
            .defaultText("fixed").scopes(PROTOCOL, PROVIDER, SERVICE).dubbo("threadpool")
            .doc("fixed, cached, limited, eager").build();
    public static final Option<Integer> CORE_THREADS = Option.of("coreThreads", Integer.class).defaultText("0")
            .atLeast(0).scopes(PROTOCOL, PROVIDER, SERVICE).dubbo("corethreads")
            .doc("threads a growing pool keeps when idle").build();
    public static final Option<Duration> ALIVE = Option.of("alive", Duration.class).defaultText("60000")
            .atLeast(1).scopes(PROTOCOL, PROVIDER, SERVICE).dubbo("alive").doc("how long an idle extra thread lives")
            .build();
    public static final Option<Dispatcher> DISPATCHER = Option.of("dispatcher", Dispatcher.class)
            .defaultText("all").scopes(PROTOCOL, PROVIDER).dubbo("dispatcher")
            .doc("all: requests on the business pool; direct: on the IO thread").build();
    public static final Option<Integer> BACKLOG = Option.of("backlog", Integer.class).defaultText("1024")
            .atLeast(1).scopes(PROTOCOL).dubbo("backlog").doc("the accept queue").build();
    public static final Option<Integer> ACCEPTS = Option.of("accepts", Integer.class).defaultText("0 (no limit)")
            .atLeast(0).scopes(PROTOCOL, PROVIDER).dubbo("accepts").doc("connections over it are closed at once")
            .build();
    public static final Option<Duration> SHUTDOWN_GRACE = Option.of("shutdownGrace", Duration.class)
            .defaultText("500").atLeast(0).scopes(PROTOCOL)
            .doc("requests still served after the readonly event").build();
    public static final Option<Duration> SHUTDOWN_TIMEOUT = Option.of("shutdownTimeout", Duration.class)
            .defaultText("10000").atLeast(1).scopes(PROTOCOL).dubbo("shutdown.timeout")
            .doc("the longest a graceful shutdown waits for requests in flight").build();
    public static final Option<Duration> FRAME_TIMEOUT = Option.of("frameTimeout", Duration.class)
            .defaultText("10000").atLeast(1).scopes(PROTOCOL)
            .doc("a frame still incomplete this long after its first byte: BAD_REQUEST, connection closed").build();
    public static final Option<Long> PARTIAL_FRAME_BUDGET = Option.of("partialFrameBudgetBytes", Long.class)
            .defaultText("¼ of the direct-memory limit").unit("bytes").atLeast(1024).scopes(PROTOCOL)
            .doc("what frames arriving in pieces may hold, over all connections").build();

    // ---- registry and application
    public static final Option<String> REGISTRY_ADDRESS = Option.of("address", String.class).defaultText("none")
            .scopes(REGISTRY).dubbo("address")
            .doc("zookeeper://host:port?backup=host:port; zookeeper://127.0.0.1:2181?embedded=true (any loopback "
                    + "host and port) hosts an in-process ZooKeeper there when none listens, for development")
            .build();
    public static final Option<Duration> SESSION_TIMEOUT = Option.of("sessionTimeout", Duration.class)
            .defaultText("60000").atLeast(1).scopes(REGISTRY).dubbo("session")
            .doc("the ZooKeeper session (the server caps it)").build();
    public static final Option<Duration> REGISTRY_CONNECTION_TIMEOUT = Option.of("connectionTimeout",
            Duration.class).defaultText("5000").atLeast(1).scopes(REGISTRY).dubbo("timeout")
            .doc("connecting to ZooKeeper").build();
    public static final Option<String> REGISTRY_FILE = Option.of("file", String.class)
            .defaultText("~/.ferry/registry-{application}-{host}-{port}.cache").scopes(REGISTRY).dubbo("file")
            .doc("where the last provider lists are kept, for starts while ZooKeeper is down; none: nowhere")
            .build();
    public static final Option<String> APPLICATION_NAME = Option.of("name", String.class)
            .defaultText("ferry-application")
            .scopes(APPLICATION).dubbo("name").doc("this process's application, as registered").build();

    private static final List<Option<?>> ALL = List.of(TIMEOUT, RETRIES, LOAD_BALANCE, CLUSTER, FILTER, FORKS, ACTIVES,
            EXECUTES, IDEMPOTENT, ONEWAY, VERSION, GROUP, URL, CONNECTIONS, MAX_CONNECTIONS, POOL_IDLE_TIMEOUT,
            CONGESTION_WAIT, LAZY, CHECK, WAIT_FOR_READY, CONNECT_TIMEOUT, RECONNECT_BACKOFF_MIN,
            RECONNECT_BACKOFF_MAX, CONNECT_SPREAD, IO_THREADS, PAYLOAD, HEARTBEAT, TCP_NO_DELAY, KEEP_ALIVE,
            SEND_BUFFER, RECEIVE_BUFFER, WRITE_BUFFER_LOW, WRITE_BUFFER_HIGH, HOST, PORT, THREADS, QUEUES,
            THREAD_POOL, CORE_THREADS, ALIVE, DISPATCHER, BACKLOG, ACCEPTS, SHUTDOWN_GRACE, SHUTDOWN_TIMEOUT,
            FRAME_TIMEOUT, PARTIAL_FRAME_BUDGET, REGISTRY_ADDRESS, SESSION_TIMEOUT, REGISTRY_CONNECTION_TIMEOUT,
            REGISTRY_FILE, APPLICATION_NAME);

    /** Every option, in the order of the README's reference. */
    public static List<Option<?>> all() {
        return ALL;
    }

    /** The README's option reference: one row per option, by its name in files, with the builders' if other. */
    public static String markdownTable() {
        StringBuilder md = new StringBuilder();
        md.append("| option | builder | type | default | unit | range | scopes | Dubbo | what it does |\n");
        md.append("|---|---|---|---|---|---|---|---|---|\n");
        for (Option<?> o : ALL) {
            md.append("| `").append(o.fileName()).append("` | ").append(o.name().equals(o.fileName()) ? ""
                    : "`" + o.name() + "`").append(" | ").append(typeName(o.type())).append(" | ")
                    .append(o.defaultText()).append(" | ").append(o.unit()).append(" | ").append(o.range())
                    .append(" | ").append(scopes(o)).append(" | ")
                    .append(o.dubboName().isEmpty() ? "" : "`" + o.dubboName() + "`").append(" | ").append(o.doc())
                    .append(" |\n");
        }
        return md.toString();
    }

    private static String typeName(Class<?> type) {
        if (type == Duration.class) {
            return "duration";
        }
        if (type.isEnum()) {
            return "enum";
        }
        return type.getSimpleName().toLowerCase(java.util.Locale.ROOT).replace("integer", "int");
    }

    private static String scopes(Option<?> option) {
        StringBuilder s = new StringBuilder();
        for (Scope scope : option.scopes()) {
            s.append(s.length() == 0 ? "" : ", ").append(scope.key());
        }
        return s.toString();
    }
}
