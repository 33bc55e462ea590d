package io.ferry.rpc.remoting;

import io.ferry.rpc.option.Option;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Set;

import static io.ferry.rpc.option.Scope.CONSUMER;
import static io.ferry.rpc.option.Scope.PROTOCOL;
import static io.ferry.rpc.option.Scope.PROVIDER;
import static io.ferry.rpc.option.Scope.REFERENCE;
import static io.ferry.rpc.option.Scope.SERVICE;
import static io.ferry.rpc.option.Scope.SSL;

/**
 * The transport's options, declared once: name, type, default, range, scopes, Dubbo name and documentation. The
 * remoting builders take them ({@code ClientOptions.builder().option(TransportOptions.CONNECTIONS, 2)}) and check
 * values through them; the configuration's option table ({@code Options}) lists them beside the call options, so
 * builders, annotations and files read them alike. A default of null is computed where it is used (cores, the
 * direct-memory limit).
 */
public final class TransportOptions {
    private TransportOptions() {
    }

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
    public static final Option<Boolean> WAIT_FOR_READY = Option.of("waitForReady", Boolean.class)
            .defaultText("false").scopes(REFERENCE, CONSUMER)
            .doc("a call to a provider known to be down waits for a connection instead of failing at once").build();
    public static final Option<Duration> CONNECT_TIMEOUT = Option.of("connectTimeout", Duration.class)
            .defaultText("3000").atLeast(1).scopes(CONSUMER).dubbo("connect.timeout")
            .doc("TCP connect, then the readiness ping's round trip").build();
    public static final Option<Duration> RECONNECT_BACKOFF_MIN = Option.of("reconnectBackoffMin", Duration.class)
            .defaultText("100").atLeast(1).scopes(CONSUMER)
            .doc("first reconnect delay; doubles, with full jitter").build();
    // 5 s: a provider back from a restart had all 10,000 connections again 6 s later in the C10K run (30 s: 11 s);
    // at the cap the mean delay is 2.5 s, so 10,000 consumers of a dead provider try ~4,000 connects/s
    public static final Option<Duration> RECONNECT_BACKOFF_MAX = Option.of("reconnectBackoffMax", Duration.class)
            .defaultText("5000").atLeast(1).scopes(CONSUMER).doc("longest reconnect delay").build();
    public static final Option<Integer> IO_THREADS = Option.of("ioThreads", Integer.class)
            .defaultText("min(cores + 1, 32)").range(1, 1024).scopes(PROTOCOL, PROVIDER, CONSUMER).dubbo("iothreads")
            .doc("event loop threads (the consumer's are shared by all references of a bootstrap)").build();
    public static final Option<Integer> PAYLOAD = Option.of("payloadBytes", Integer.class).defaultText("8388608")
            .unit("bytes").atLeast(1024).scopes(PROTOCOL, PROVIDER, CONSUMER).dubbo("payload")
            .doc("the largest request or answer body, checked on both sides").build();
    public static final Option<Duration> HEARTBEAT = Option.of("heartbeat", Duration.class).defaultText("60000")
            .atLeast(1).scopes(PROTOCOL, CONSUMER).dubbo("heartbeat")
            .doc("consumers ping after this long without reads (jittered ±50 %); 3 × this without reads closes; a "
                    + "call timed out with nothing read since it was sent pings at once, and no read within "
                    + "connectTimeout then closes")
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

    // ---- TLS: Dubbo's SslConfig names where Dubbo has them (the <ssl> element), ssl-enabled on the protocol
    public static final Option<Boolean> SSL_ENABLED = Option.of("sslEnabled", Boolean.class).defaultText("false")
            .scopes(PROTOCOL, CONSUMER, REFERENCE).dubbo("ssl-enabled")
            .doc("provider: the port speaks TLS only (registered as ssl-enabled=true); consumer: TLS to every "
                    + "provider (one registered with ssl-enabled=true is reached with TLS in any case)").build();
    public static final Option<String> SERVER_KEY_CERT_CHAIN_PATH = Option.of("serverKeyCertChainPath",
            String.class).defaultText("none").scopes(SSL).dubbo("server-key-cert-chain-path")
            .doc("the provider's certificate chain, PEM; reloaded when the file changes").build();
    public static final Option<String> SERVER_PRIVATE_KEY_PATH = Option.of("serverPrivateKeyPath", String.class)
            .defaultText("none").scopes(SSL).dubbo("server-private-key-path")
            .doc("the provider's private key, PKCS#8 PEM; reloaded when the file changes").build();
    public static final Option<String> SERVER_KEY_PASSWORD = Option.of("serverKeyPassword", String.class)
            .defaultText("none").scopes(SSL).dubbo("server-key-password").secret()
            .doc("the password of an encrypted server private key (never logged)").build();
    public static final Option<String> SERVER_TRUST_CERT_COLLECTION_PATH = Option.of(
            "serverTrustCertCollectionPath", String.class).defaultText("none").scopes(SSL)
            .dubbo("server-trust-cert-collection-path")
            .doc("CAs a consumer's certificate must chain to; set, consumers must present one (mutual TLS)").build();
    public static final Option<ClientAuth> CLIENT_AUTH = Option.of("clientAuth", ClientAuth.class)
            .defaultText("by trust: require with a server trust collection, else none").scopes(SSL)
            .doc("none, optional or require: whether a provider asks consumers for a certificate").build();
    public static final Option<String> CLIENT_KEY_CERT_CHAIN_PATH = Option.of("clientKeyCertChainPath",
            String.class).defaultText("none").scopes(SSL).dubbo("client-key-cert-chain-path")
            .doc("the consumer's certificate chain, PEM, for providers that require one").build();
    public static final Option<String> CLIENT_PRIVATE_KEY_PATH = Option.of("clientPrivateKeyPath", String.class)
            .defaultText("none").scopes(SSL).dubbo("client-private-key-path")
            .doc("the consumer's private key, PKCS#8 PEM").build();
    public static final Option<String> CLIENT_KEY_PASSWORD = Option.of("clientKeyPassword", String.class)
            .defaultText("none").scopes(SSL).dubbo("client-key-password").secret()
            .doc("the password of an encrypted client private key (never logged)").build();
    public static final Option<String> CLIENT_TRUST_CERT_COLLECTION_PATH = Option.of(
            "clientTrustCertCollectionPath", String.class).defaultText("the JVM's trusted CAs").scopes(SSL)
            .dubbo("client-trust-cert-collection-path")
            .doc("CAs a provider's certificate must chain to").build();
    public static final Option<Boolean> INSECURE_SKIP_HOST_VERIFICATION = Option.of("insecureSkipHostVerification",
            Boolean.class).defaultText("false").scopes(SSL)
            .doc("INSECURE: accept a provider certificate that does not name the address connected to (it must "
                    + "still chain to a trusted CA); warned about at start").build();
    public static final Option<SslProvider> SSL_PROVIDER = Option.of("sslProvider", SslProvider.class)
            .defaultText("jdk").scopes(SSL)
            .doc("jdk, or openssl (needs netty-tcnative-boringssl-static on the class path)").build();
    public static final Option<Duration> SSL_HANDSHAKE_TIMEOUT = Option.of("sslHandshakeTimeout", Duration.class)
            .defaultText("10000").atLeast(1).scopes(SSL)
            .doc("a TLS handshake not done in this long closes its connection; a consumer's also counts against "
                    + "its connectTimeout").build();
    public static final Option<Integer> SSL_MAX_HANDSHAKES = Option.of("sslMaxHandshakes", Integer.class)
            .defaultText("256").range(1, 1_000_000).scopes(SSL)
            .doc("TLS handshakes a provider runs at once; a connection over it is closed at once (its consumer "
                    + "retries after its back-off), so a reconnect storm or a flood of hellos queues no crypto")
            .build();
    public static final Option<Duration> SSL_RELOAD_INTERVAL = Option.of("sslReloadInterval", Duration.class)
            .defaultText("2000").atLeast(100).scopes(SSL)
            .doc("how often the certificate, key and trust files are checked for a change").build();

    /** The options a {@link TlsOptions} carries. */
    public static final Set<Option<?>> TLS = Set.of(SERVER_KEY_CERT_CHAIN_PATH, SERVER_PRIVATE_KEY_PATH,
            SERVER_KEY_PASSWORD, SERVER_TRUST_CERT_COLLECTION_PATH, CLIENT_AUTH, CLIENT_KEY_CERT_CHAIN_PATH,
            CLIENT_PRIVATE_KEY_PATH, CLIENT_KEY_PASSWORD, CLIENT_TRUST_CERT_COLLECTION_PATH,
            INSECURE_SKIP_HOST_VERIFICATION, SSL_PROVIDER, SSL_HANDSHAKE_TIMEOUT, SSL_MAX_HANDSHAKES,
            SSL_RELOAD_INTERVAL);

    /** The options a {@link SocketOptions} carries. */
    public static final Set<Option<?>> SOCKET = Set.of(TCP_NO_DELAY, KEEP_ALIVE, SEND_BUFFER, RECEIVE_BUFFER,
            WRITE_BUFFER_LOW, WRITE_BUFFER_HIGH);
    /** The options a {@link PoolOptions} carries. */
    public static final Set<Option<?>> POOL = Set.of(THREAD_POOL, THREADS, QUEUES, CORE_THREADS, ALIVE);
    /** The options a {@link ClientOptions} carries, its socket's included. */
    public static final Set<Option<?>> CLIENT = union(SOCKET, Set.of(CONNECTIONS, MAX_CONNECTIONS, POOL_IDLE_TIMEOUT,
            CONGESTION_WAIT, LAZY, WAIT_FOR_READY, CONNECT_TIMEOUT, RECONNECT_BACKOFF_MIN, RECONNECT_BACKOFF_MAX,
            PAYLOAD, HEARTBEAT));
    /** The options a {@link ServerOptions} carries, its socket's and its shared pool's included. */
    public static final Set<Option<?>> SERVER = union(union(SOCKET, POOL), Set.of(HOST, PORT, IO_THREADS,
            DISPATCHER, BACKLOG, ACCEPTS, PAYLOAD, HEARTBEAT, SHUTDOWN_GRACE, SHUTDOWN_TIMEOUT, FRAME_TIMEOUT,
            PARTIAL_FRAME_BUDGET));

    private static Set<Option<?>> union(Set<Option<?>> a, Set<Option<?>> b) {
        Set<Option<?>> all = new LinkedHashSet<>(a);
        all.addAll(b);
        return Collections.unmodifiableSet(all);
    }

    /** {@code option} if {@code carried} holds it; else an error naming it and what {@code carrier} takes. */
    static <T> Option<T> accepted(Option<T> option, Set<Option<?>> carried, String carrier) {
        if (!carried.contains(option)) {
            throw new IllegalArgumentException("option: " + option + " (expected: " + carrier + " option, one of "
                    + carried.stream().map(Option::name).sorted().toList() + ")");
        }
        return option;
    }
}
