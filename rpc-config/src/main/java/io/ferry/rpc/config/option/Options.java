package io.ferry.rpc.config.option;

import io.ferry.rpc.option.Scope;
import io.ferry.rpc.option.Option;
import io.ferry.rpc.option.RegistryOptionKeys;
import io.ferry.rpc.remoting.ClientAuth;
import io.ferry.rpc.remoting.Dispatcher;
import io.ferry.rpc.remoting.SslProvider;
import io.ferry.rpc.remoting.Serialization;
import io.ferry.rpc.remoting.ThreadPoolKind;
import io.ferry.rpc.remoting.TransportOptions;

import java.time.Duration;
import java.util.List;

import static io.ferry.rpc.option.Scope.APPLICATION;
import static io.ferry.rpc.option.Scope.CONSUMER;
import static io.ferry.rpc.option.Scope.METHOD;
import static io.ferry.rpc.option.Scope.PROTOCOL;
import static io.ferry.rpc.option.Scope.PROVIDER;
import static io.ferry.rpc.option.Scope.REFERENCE;
import static io.ferry.rpc.option.Scope.SERVICE;

/**
 * Every option of Ferry, once. The transport's are declared in {@code TransportOptions} and the registry's in
 * {@link RegistryOptionKeys} (rpc-api, since rpc-registry is optional), beside what uses them; this table lists them
 * with the rest. The README's option reference is generated from {@link #all()}. Scopes list where
 * an option may be set. The provider scope holds defaults of files ({@code <provider>}, {@code ferry.provider.*}):
 * an option the protocol takes goes to the protocol, any other to every service, unless they set it themselves.
 */
public final class Options {
    private Options() {
    }

    // ---- calls: method, reference or service, consumer or provider defaults
    public static final Option<Duration> TIMEOUT = Option.of("timeout", Duration.class).defaultText("1000")
            .atLeast(1).scopes(METHOD, REFERENCE, SERVICE, PROVIDER, CONSUMER).dubbo("timeout")
            .doc("the deadline of the whole call, retries included; on a service, the provider's slow-call budget "
                    + "and its consumers' default (through the registry URL)")
            .build();
    public static final Option<Integer> RETRIES = Option.of("retries", Integer.class).defaultText("2")
            .range(0, 100).scopes(METHOD, REFERENCE, CONSUMER, SERVICE, PROVIDER).dubbo("retries")
            .doc("other providers a call that provably did not run may move to; on a service, its consumers' "
                    + "default (through the registry URL)").build();
    public static final Option<String> LOAD_BALANCE = Option.of("loadBalance", String.class)
            .defaultValue("adaptive").lowerCase().scopes(METHOD, REFERENCE, CONSUMER, SERVICE, PROVIDER)
            .dubbo("loadbalance")
            .doc("a load balancer by name: adaptive (P2C over peak-EWMA latency), random, roundrobin, leastactive, "
                    + "consistenthash, shortestresponse, or one a jar registers (a LoadBalancerProvider); a method's "
                    + "for its calls; on a service or its method, its consumers' default (through the registry URL)")
            .build();
    public static final Option<String> CLUSTER = Option.of("cluster", String.class).defaultValue("failover")
            .lowerCase().scopes(REFERENCE, CONSUMER, SERVICE, PROVIDER).dubbo("cluster")
            .doc("a fault-tolerance strategy by name: failover, failfast, failsafe, failback, forking, broadcast, "
                    + "or one a jar registers (a ClusterProvider); on a service, written into the registry URL "
                    + "as Dubbo writes it (consumers, Dubbo's too, keep their own)").build();
    public static final Option<String> FILTER = Option.of("filter", String.class).defaultText("default").lowerCase()
            .scopes(REFERENCE, CONSUMER, SERVICE, PROVIDER).dubbo("filter")
            .doc("filters by name, in order (a FilterProvider each), after those active by default: "
                    + "audit,-default drops the defaults, -name one of them; a reference's follow its consumer's, "
                    + "a service's its provider's").build();
    public static final Option<Integer> FORKS = Option.of("forks", Integer.class).defaultText("2").range(1, 100)
            .scopes(REFERENCE, CONSUMER).dubbo("forks").doc("providers a forking call goes to at once").build();
    public static final Option<Integer> ACTIVES = Option.of("actives", Integer.class).defaultText("0 (no limit)")
            .range(0, 1_000_000).scopes(METHOD, REFERENCE, CONSUMER, SERVICE, PROVIDER).dubbo("actives")
            .doc("calls in flight per method of a reference; over it, LIMIT_EXCEEDED, not sent; on a service, its "
                    + "consumers' default (through the registry URL)").build();
    public static final Option<Integer> EXECUTES = Option.of("executes", Integer.class)
            .defaultText("0 (no limit)").range(0, 1_000_000).scopes(METHOD, SERVICE, PROVIDER).dubbo("executes")
            .doc("calls running at once per method of a service; over it, LIMIT_EXCEEDED, not run").build();
    public static final Option<Boolean> IDEMPOTENT = Option.of("idempotent", Boolean.class).defaultText("false")
            .scopes(METHOD).doc("failover may repeat a call of it after a lost connection").build();
    public static final Option<Boolean> ONEWAY = Option.of("oneway", Boolean.class).defaultText("false")
            .scopes(METHOD).dubbo("return=false").doc("send and do not wait for an answer (void methods)").build();
    public static final Option<Boolean> ASYNC = Option.of("async", Boolean.class).defaultText("false")
            .scopes(METHOD, REFERENCE, CONSUMER).dubbo("async")
            .doc("the call returns at once (null, 0 or false) and RpcContext.current().future() is its outcome, as "
                    + "Dubbo's RpcContext.getFuture(); for methods that do not return CompletableFuture (those always "
                    + "return their future)").build();
    public static final Option<String> VERSION = Option.of("version", String.class).defaultText("none")
            .scopes(REFERENCE, SERVICE, PROVIDER).dubbo("version").doc("the service version (sent as 0.0.0 when none)")
            .build();
    public static final Option<String> GROUP = Option.of("group", String.class).defaultText("none")
            .scopes(REFERENCE, SERVICE, PROVIDER).dubbo("group").doc("the service group").build();
    public static final Option<String> CALLERS = Option.of("callers", String.class).defaultText("anyone")
            .scopes(METHOD, SERVICE, PROVIDER)
            .doc("who may call, by the identity a client certificate proved (mutual TLS only): cn:NAME, dns:NAME "
                    + "(dns:*.example.com), uri:URI (uri:spiffe://example.org/*), ip:ADDRESS, or * for any "
                    + "certificate; comma-separated; a method's replaces its service's. Others: FORBIDDEN, not run")
            .build();
    public static final Option<String> TOKEN = Option.of("token", String.class).defaultText("none")
            .scopes(SERVICE, PROVIDER).dubbo("token")
            .doc("true: a random token per export; any other value but false: that token. Written into the "
                    + "provider's registry URL; consumers send it back with every call (a direct url may carry it: "
                    + "?token=...), and a call without it is refused, not run. A credential: printed masked")
            .build();

    // ---- consumer fallbacks, as Dubbo's (checked, with the interface, when the reference is created)
    public static final Option<String> MOCK = Option.of("mock", String.class).defaultText("none")
            .scopes(METHOD, REFERENCE, CONSUMER).dubbo("mock")
            .doc("what answers a call that failed with an RpcException (never a business exception): "
                    + "return null|empty|true|false|a number|\"text\"|JSON, throw, throw com.acme.SomeException, "
                    + "true or default (the interface's XxxMock class), or a class implementing the interface; "
                    + "force: in front answers every call without calling a provider, fail: is the same as none; "
                    + "false: no mock").build();
    public static final Option<String> STUB = Option.of("stub", String.class).defaultText("none")
            .scopes(REFERENCE, CONSUMER).dubbo("stub")
            .doc("a class wrapping the reference, made with a public constructor taking the reference's proxy: "
                    + "true or default (the interface's XxxStub class) or a class name; false: none").build();
    public static final Option<Integer> WEIGHT = Option.of("weight", Integer.class).defaultValue(100)
            .range(0, 1_000_000).scopes(SERVICE, PROVIDER).dubbo("weight")
            .doc("this provider's share of its consumers' calls against other providers' weights (random, "
                    + "roundrobin, adaptive as a multiplier); 0: none while another has weight. Written into the "
                    + "registry URL").build();
    public static final Option<Duration> WARMUP = Option.of("warmup", Duration.class).defaultText("600000")
            .atLeast(0).scopes(SERVICE, PROVIDER).dubbo("warmup")
            .doc("how long after it registers a provider's weight ramps up, from 1 to its weight (weight × uptime "
                    + "/ warmup); 0: no ramp. Written into the registry URL").build();

    // ---- provider observability: the protocol's for every service, a service's own over it
    public static final Option<String> ACCESS_LOG = Option.of("accessLog", String.class).defaultValue("false")
            .scopes(SERVICE, PROVIDER, PROTOCOL).dubbo("accesslog")
            .doc("one line per call (time, caller, service, method, status, duration): true writes them to the "
                    + "slf4j logger ferry.accesslog at INFO, any other value but false appends them to that file "
                    + "(created with its parent directories); written by a thread of its own, dropped and counted "
                    + "rather than waited for when it falls behind")
            .build();
    public static final Option<Boolean> ACCESS_LOG_ARGUMENTS = Option.of("accessLogArguments", Boolean.class)
            .defaultText("false").scopes(SERVICE, PROVIDER, PROTOCOL)
            .doc("the access log's lines also show the calls' argument values, escaped and cut to 256 characters "
                    + "each (1024 in all); off, a line never holds one")
            .build();

    // ---- consumer connections
    public static final Option<String> URL = Option.of("url", String.class).defaultText("none: the registry")
            .scopes(REFERENCE).dubbo("url")
            .doc("dubbo://host:port: call that provider directly; ?token=... sends it the token it asks for").build();
    public static final Option<Boolean> GENERIC = Option.of("generic", Boolean.class).defaultText("false")
            .scopes(REFERENCE).dubbo("generic")
            .doc("true: a GenericService for the interface named, which need not be on the class path: "
                    + "$invoke(method, parameterTypes, args) with POJOs as maps, Dubbo's generic=\"true\" on the wire")
            .build();
    public static final Option<Integer> CONNECTIONS = TransportOptions.CONNECTIONS;
    public static final Option<Integer> MAX_CONNECTIONS = TransportOptions.MAX_CONNECTIONS;
    public static final Option<Duration> POOL_IDLE_TIMEOUT = TransportOptions.POOL_IDLE_TIMEOUT;
    public static final Option<Duration> CONGESTION_WAIT = TransportOptions.CONGESTION_WAIT;
    public static final Option<Boolean> LAZY = TransportOptions.LAZY;
    public static final Option<Boolean> CHECK = Option.of("check", Boolean.class).defaultText("true")
            .scopes(REFERENCE, CONSUMER).dubbo("check")
            .doc("reference() returns once a provider is ready, or fails after connectTimeout naming why").build();
    public static final Option<Boolean> WAIT_FOR_READY = TransportOptions.WAIT_FOR_READY;
    public static final Option<Duration> CONNECT_TIMEOUT = TransportOptions.CONNECT_TIMEOUT;
    public static final Option<Duration> RECONNECT_BACKOFF_MIN = TransportOptions.RECONNECT_BACKOFF_MIN;
    public static final Option<Duration> RECONNECT_BACKOFF_MAX = TransportOptions.RECONNECT_BACKOFF_MAX;
    public static final Option<Duration> CONNECT_SPREAD = Option.of("connectSpread", Duration.class)
            .defaultText("1000").atLeast(0).scopes(CONSUMER)
            .doc("first connects to providers the registry announces start at a random moment within this").build();
    public static final Option<Boolean> EMPTY_PROTECTION = Option.of("emptyProtection", Boolean.class)
            .defaultValue(true).scopes(REFERENCE, CONSUMER)
            .doc("when the registry suddenly lists no provider, calls keep going to the providers whose connections "
                    + "are live (a WARN names the service and how many), each until its connection fails or it says "
                    + "readonly, or until the registry lists a provider again; providers already shutting down go "
                    + "at once, so a graceful scale-down to zero still empties the list; false: an empty list is "
                    + "taken as it is. Dubbo's enable-empty-protection is a registry's, off by default, and keeps "
                    + "every provider whatever its connection").build();
    public static final Option<Duration> UNLISTED_GRACE = Option.of("unlistedGrace", Duration.class)
            .defaultText("60000").atLeast(0).scopes(REFERENCE, CONSUMER)
            .doc("a provider that the registry stops listing while others stay listed, but whose connection is "
                    + "live (its ZooKeeper session expired: a partition between it and ZooKeeper, a long pause), "
                    + "keeps its calls for up to this long (a WARN names it), until it is listed again, says readonly "
                    + "(a graceful shutdown, an /offline) or its connection fails; 0: such a list is taken as it is, "
                    + "as Dubbo takes it (a Dubbo provider taken offline through its QoS port, which sends no "
                    + "readonly, keeps Ferry's calls this long)").build();

    // ---- both sides' transport
    public static final Option<Integer> IO_THREADS = TransportOptions.IO_THREADS;
    public static final Option<Integer> PAYLOAD = TransportOptions.PAYLOAD;
    public static final Option<Duration> HEARTBEAT = TransportOptions.HEARTBEAT;
    public static final Option<Boolean> TCP_NO_DELAY = TransportOptions.TCP_NO_DELAY;
    public static final Option<Boolean> KEEP_ALIVE = TransportOptions.KEEP_ALIVE;
    public static final Option<Integer> SEND_BUFFER = TransportOptions.SEND_BUFFER;
    public static final Option<Integer> RECEIVE_BUFFER = TransportOptions.RECEIVE_BUFFER;
    public static final Option<Integer> WRITE_BUFFER_LOW = TransportOptions.WRITE_BUFFER_LOW;
    public static final Option<Integer> WRITE_BUFFER_HIGH = TransportOptions.WRITE_BUFFER_HIGH;

    // ---- provider
    public static final Option<String> HOST = TransportOptions.HOST;
    public static final Option<Integer> PORT = TransportOptions.PORT;
    public static final Option<Integer> THREADS = TransportOptions.THREADS;
    public static final Option<Integer> QUEUES = TransportOptions.QUEUES;
    public static final Option<ThreadPoolKind> THREAD_POOL = TransportOptions.THREAD_POOL;
    public static final Option<Integer> CORE_THREADS = TransportOptions.CORE_THREADS;
    public static final Option<Duration> ALIVE = TransportOptions.ALIVE;
    public static final Option<Dispatcher> DISPATCHER = TransportOptions.DISPATCHER;
    public static final Option<Integer> BACKLOG = TransportOptions.BACKLOG;
    public static final Option<Integer> ACCEPTS = TransportOptions.ACCEPTS;
    public static final Option<Duration> SHUTDOWN_GRACE = TransportOptions.SHUTDOWN_GRACE;
    public static final Option<Duration> SHUTDOWN_TIMEOUT = TransportOptions.SHUTDOWN_TIMEOUT;
    public static final Option<Duration> FRAME_TIMEOUT = TransportOptions.FRAME_TIMEOUT;
    public static final Option<Long> PARTIAL_FRAME_BUDGET = TransportOptions.PARTIAL_FRAME_BUDGET;

    // ---- TLS: ssl-enabled on the protocol or a consumer/reference, the rest in <ssl> (Dubbo's SslConfig names)
    public static final Option<Boolean> SSL_ENABLED = TransportOptions.SSL_ENABLED;
    public static final Option<String> SERVER_KEY_CERT_CHAIN_PATH = TransportOptions.SERVER_KEY_CERT_CHAIN_PATH;
    public static final Option<String> SERVER_PRIVATE_KEY_PATH = TransportOptions.SERVER_PRIVATE_KEY_PATH;
    public static final Option<String> SERVER_KEY_PASSWORD = TransportOptions.SERVER_KEY_PASSWORD;
    public static final Option<String> SERVER_TRUST_CERT_COLLECTION_PATH =
            TransportOptions.SERVER_TRUST_CERT_COLLECTION_PATH;
    public static final Option<ClientAuth> CLIENT_AUTH = TransportOptions.CLIENT_AUTH;
    public static final Option<String> CLIENT_KEY_CERT_CHAIN_PATH = TransportOptions.CLIENT_KEY_CERT_CHAIN_PATH;
    public static final Option<String> CLIENT_PRIVATE_KEY_PATH = TransportOptions.CLIENT_PRIVATE_KEY_PATH;
    public static final Option<String> CLIENT_KEY_PASSWORD = TransportOptions.CLIENT_KEY_PASSWORD;
    public static final Option<String> CLIENT_TRUST_CERT_COLLECTION_PATH =
            TransportOptions.CLIENT_TRUST_CERT_COLLECTION_PATH;
    public static final Option<Boolean> INSECURE_SKIP_HOST_VERIFICATION =
            TransportOptions.INSECURE_SKIP_HOST_VERIFICATION;
    public static final Option<SslProvider> SSL_PROVIDER = TransportOptions.SSL_PROVIDER;
    public static final Option<Duration> SSL_HANDSHAKE_TIMEOUT = TransportOptions.SSL_HANDSHAKE_TIMEOUT;
    public static final Option<Integer> SSL_MAX_HANDSHAKES = TransportOptions.SSL_MAX_HANDSHAKES;
    public static final Option<Duration> SSL_RELOAD_INTERVAL = TransportOptions.SSL_RELOAD_INTERVAL;

    // ---- registry and application
    public static final Option<String> REGISTRY_ADDRESS = RegistryOptionKeys.ADDRESS;
    public static final Option<Duration> SESSION_TIMEOUT = RegistryOptionKeys.SESSION_TIMEOUT;
    public static final Option<Duration> REGISTRY_CONNECTION_TIMEOUT = RegistryOptionKeys.CONNECTION_TIMEOUT;
    public static final Option<Boolean> REGISTRY_CHECK = RegistryOptionKeys.CHECK;
    public static final Option<String> REGISTRY_FILE = RegistryOptionKeys.FILE;
    public static final Option<String> REGISTRY_USERNAME = RegistryOptionKeys.USERNAME;
    public static final Option<String> REGISTRY_PASSWORD = RegistryOptionKeys.PASSWORD;
    public static final Option<Boolean> ZOOKEEPER_TLS = RegistryOptionKeys.ZOOKEEPER_TLS;
    public static final Option<String> ZOOKEEPER_TRUST_CERT_COLLECTION_PATH =
            RegistryOptionKeys.ZOOKEEPER_TRUST_CERT_COLLECTION_PATH;
    public static final Option<String> ZOOKEEPER_KEY_CERT_CHAIN_PATH = RegistryOptionKeys.ZOOKEEPER_KEY_CERT_CHAIN_PATH;
    public static final Option<String> APPLICATION_NAME = Option.of("name", String.class)
            .defaultValue("ferry-application")
            .scopes(APPLICATION).dubbo("name").doc("this process's application, as registered").build();
    // application metadata, as Dubbo's <application> carries it: written into the registry URLs, read by nothing
    public static final Option<String> APPLICATION_VERSION = Option.of("applicationVersion", String.class)
            .defaultText("none").scopes(APPLICATION).dubbo("version")
            .doc("this application's version, registered as application.version (Dubbo's key); not the services' "
                    + "version").build();
    public static final Option<String> OWNER = Option.of("owner", String.class).defaultText("none")
            .scopes(APPLICATION).dubbo("owner").doc("who is responsible for this application, registered as owner")
            .build();
    public static final Option<String> ORGANIZATION = Option.of("organization", String.class).defaultText("none")
            .scopes(APPLICATION).dubbo("organization")
            .doc("the organization (department, business unit) it belongs to, registered as organization").build();
    public static final Option<String> ARCHITECTURE = Option.of("architecture", String.class).defaultText("none")
            .scopes(APPLICATION).dubbo("architecture")
            .doc("the architecture layer it belongs to, registered as architecture").build();
    public static final Option<String> ENVIRONMENT = Option.of("environment", String.class).defaultText("none")
            .lowerCase().scopes(APPLICATION).dubbo("environment")
            .doc("develop, test or product (Dubbo's three), registered as environment").build();
    public static final Option<Boolean> QOS_ENABLE = Option.of("qosEnable", Boolean.class).defaultText("false")
            .scopes(APPLICATION).dubbo("qos-enable")
            .doc("the admin port: HTTP with JSON answers for probes and deploys (/health/live, /health/ready, "
                    + "/services, /connections, POST /offline and /online; see Operations); off unless true")
            .build();
    public static final Option<Integer> QOS_PORT = Option.of("qosPort", Integer.class).defaultText("22222")
            .range(0, 65535).scopes(APPLICATION).dubbo("qos-port").doc("the admin port's port; 0 picks a free one")
            .build();
    public static final Option<Boolean> QOS_ACCEPT_FOREIGN_IP = Option.of("qosAcceptForeignIp", Boolean.class)
            .defaultText("false").scopes(APPLICATION).dubbo("qos-accept-foreign-ip")
            .doc("false: the admin port listens on 127.0.0.1 and serves this machine only (others: 403); true: it "
                    + "listens on every address and serves anyone who reaches it (it can take this provider "
                    + "offline: firewall it)").build();
    public static final Option<MetricsExport> METRICS = Option.of("metrics", MetricsExport.class)
            .defaultText("none").scopes(APPLICATION)
            .doc("prometheus: a Prometheus registry of Ferry's own (micrometer-registry-prometheus on the class "
                    + "path) times calls and meters Ferry, the JVM and the process, served at the admin port's "
                    + "/metrics (qos-enable=true); for files without code: code gives Ferry its registry with "
                    + "Observability instead, and Spring Boot's starter gives it Boot's")
            .build();

    public static final Option<Serialization> SERIALIZATION = Option.of("serialization", Serialization.class)
            .defaultText("hessian2").scopes(PROTOCOL, PROVIDER, CONSUMER).dubbo("serialization")
            .doc("the body encoding: hessian2, the only one Ferry speaks (answers use the request's)").build();

    private static final List<Option<?>> ALL = List.of(TIMEOUT, RETRIES, LOAD_BALANCE, CLUSTER, FILTER, FORKS, ACTIVES,
            EXECUTES, IDEMPOTENT, ONEWAY, ASYNC, VERSION, GROUP, CALLERS, TOKEN, MOCK, STUB, WEIGHT, WARMUP,
            ACCESS_LOG, ACCESS_LOG_ARGUMENTS, URL,
            GENERIC, CONNECTIONS, MAX_CONNECTIONS, POOL_IDLE_TIMEOUT, CONGESTION_WAIT, LAZY, CHECK, WAIT_FOR_READY,
            CONNECT_TIMEOUT, RECONNECT_BACKOFF_MIN, RECONNECT_BACKOFF_MAX, CONNECT_SPREAD, EMPTY_PROTECTION, UNLISTED_GRACE, IO_THREADS, PAYLOAD, SERIALIZATION, HEARTBEAT, TCP_NO_DELAY,
            KEEP_ALIVE, SEND_BUFFER, RECEIVE_BUFFER, WRITE_BUFFER_LOW, WRITE_BUFFER_HIGH, HOST, PORT, THREADS, QUEUES,
            THREAD_POOL, CORE_THREADS, ALIVE, DISPATCHER, BACKLOG, ACCEPTS, SHUTDOWN_GRACE, SHUTDOWN_TIMEOUT,
            FRAME_TIMEOUT, PARTIAL_FRAME_BUDGET, SSL_ENABLED, SERVER_KEY_CERT_CHAIN_PATH, SERVER_PRIVATE_KEY_PATH,
            SERVER_KEY_PASSWORD, SERVER_TRUST_CERT_COLLECTION_PATH, CLIENT_AUTH, CLIENT_KEY_CERT_CHAIN_PATH,
            CLIENT_PRIVATE_KEY_PATH, CLIENT_KEY_PASSWORD, CLIENT_TRUST_CERT_COLLECTION_PATH,
            INSECURE_SKIP_HOST_VERIFICATION, SSL_PROVIDER, SSL_HANDSHAKE_TIMEOUT, SSL_MAX_HANDSHAKES, SSL_RELOAD_INTERVAL,
            REGISTRY_ADDRESS, SESSION_TIMEOUT, REGISTRY_CONNECTION_TIMEOUT, REGISTRY_CHECK, REGISTRY_FILE,
            REGISTRY_USERNAME, REGISTRY_PASSWORD, ZOOKEEPER_TLS, ZOOKEEPER_TRUST_CERT_COLLECTION_PATH,
            ZOOKEEPER_KEY_CERT_CHAIN_PATH, APPLICATION_NAME, APPLICATION_VERSION, OWNER, ORGANIZATION, ARCHITECTURE,
            ENVIRONMENT, QOS_ENABLE, QOS_PORT, QOS_ACCEPT_FOREIGN_IP, METRICS);

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
