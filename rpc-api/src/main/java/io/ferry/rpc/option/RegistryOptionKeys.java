package io.ferry.rpc.option;

import java.time.Duration;
import java.util.Set;

import static io.ferry.rpc.option.Scope.REGISTRY;

/**
 * The registry's options, declared once: name, type, default, range, Dubbo name and documentation. rpc-registry's
 * {@code RegistryOptions} builder takes them ({@code option(RegistryOptionKeys.SESSION_TIMEOUT, d)}) and checks
 * values through them; the configuration's option table lists them, so builders and files read them alike; a
 * registry a jar registers by its address's scheme reads the values set from them too.
 *
 * <p>They are declared here, in rpc-api, rather than beside the ZooKeeper registry in rpc-registry (as the
 * transport's are beside the transport): rpc-registry is an optional dependency, and the option table, which
 * every Ferry loads, cannot refer to a class that may be absent.
 */
public final class RegistryOptionKeys {
    private RegistryOptionKeys() {
    }

    /** The {@link #FILE} value that keeps no cache file. */
    public static final String NO_FILE = "none";

    public static final Option<String> ADDRESS = Option.of("address", String.class).defaultText("none")
            .scopes(REGISTRY).dubbo("address")
            .doc("zookeeper://host:port?backup=host:port; zookeeper://127.0.0.1:2181?embedded=true (any loopback "
                    + "host and port) hosts an in-process ZooKeeper there when none listens, for development; "
                    + "another scheme names a registry a jar registers (a RegistryProvider)")
            .build();
    public static final Option<Duration> SESSION_TIMEOUT = Option.of("sessionTimeout", Duration.class)
            .defaultText("60000").atLeast(1).scopes(REGISTRY).dubbo("session")
            .doc("the ZooKeeper session (the server caps it)").build();
    public static final Option<Duration> CONNECTION_TIMEOUT = Option.of("connectionTimeout", Duration.class)
            .defaultText("5000").atLeast(1).scopes(REGISTRY).dubbo("timeout")
            .doc("connecting to ZooKeeper").build();
    public static final Option<String> FILE = Option.of("file", String.class)
            .defaultText("~/.ferry/registry-{application}-{host}-{port}.cache").scopes(REGISTRY).dubbo("file")
            .doc("where the last provider lists are kept, for starts while ZooKeeper is down; none: nowhere")
            .build();

    public static final Option<Boolean> CHECK = Option.of("check", Boolean.class).defaultValue(false)
            .scopes(REGISTRY).dubbo("check")
            .doc("false: when the registry does not answer within connectionTimeout, the first export or reference "
                    + "goes on (references from the cache file) and the registry is retried until it answers; true "
                    + "(Dubbo's default): it fails the start instead").build();

    // ---- security: Dubbo's attribute names for the credentials; Dubbo has no TLS options for ZooKeeper
    public static final Option<String> USERNAME = Option.of("username", String.class).defaultText("none")
            .scopes(REGISTRY).dubbo("username")
            .doc("ZooKeeper digest authentication, with password: nodes Ferry creates can then be read and written "
                    + "with these credentials only, as Dubbo's (CREATOR_ALL)").build();
    public static final Option<String> PASSWORD = Option.of("password", String.class).defaultText("none").secret()
            .scopes(REGISTRY).dubbo("password").doc("the password of username (never logged or shown)").build();
    public static final Option<Boolean> ZOOKEEPER_TLS = Option.of("zookeeperTls", Boolean.class)
            .defaultText("false").scopes(REGISTRY)
            .doc("TLS to ZooKeeper's secure client port; set per client, never through system properties").build();
    public static final Option<String> ZOOKEEPER_TRUST_CERT_COLLECTION_PATH = Option.of(
            "zookeeperTrustCertCollectionPath", String.class).defaultText("the JVM's trusted CAs").scopes(REGISTRY)
            .doc("CAs ZooKeeper's certificate must chain to, PEM; the certificate must name the host connected to")
            .build();
    public static final Option<String> ZOOKEEPER_KEY_CERT_CHAIN_PATH = Option.of("zookeeperKeyCertChainPath",
            String.class).defaultText("none").scopes(REGISTRY)
            .doc("this client's private key (PKCS#8) and certificate chain in one PEM file, for a secure port that "
                    + "requires client certificates (ZooKeeper's default)").build();

    /** The options a registry's settings carry besides its address. */
    public static final Set<Option<?>> SETTINGS = Set.of(SESSION_TIMEOUT, CONNECTION_TIMEOUT, FILE, CHECK, USERNAME,
            PASSWORD, ZOOKEEPER_TLS, ZOOKEEPER_TRUST_CERT_COLLECTION_PATH, ZOOKEEPER_KEY_CERT_CHAIN_PATH);
}
