package io.ferry.rpc.benchmark.suite.systems;

import java.lang.reflect.InvocationTargetException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The systems the suite compares, by name. Each is loaded by name, so that a JVM only loads the classes of the
 * system it runs.
 */
public final class Systems {
    /**
     * Ferry; Dubbo 3.3.6 with hessian2 and with fastjson2 on both sides; gRPC-java with protobuf; the raw Netty echo
     * ceiling: comma-separated, as the command lines that take a list of systems default to.
     */
    public static final String ALL_NAMES = "ferry,dubbo,dubbo-fastjson2,grpc,echo";
    /** {@link #ALL_NAMES}, one by one. */
    public static final List<String> ALL = List.of(ALL_NAMES.split(","));
    /**
     * The TLS rows beside plain Ferry: Ferry with the JDK's engine and with OpenSSL's (BoringSSL), and Dubbo 3.3.6
     * with hessian2 and its own choice of engine (OpenSSL, since BoringSSL is on the class path). One-way TLS with
     * {@link Certificates}; each consumer is checked to speak TLS ({@link TlsCheck}) before it is measured.
     */
    public static final String TLS_NAMES = "ferry,ferry-tls-jdk,ferry-tls-openssl,dubbo-tls";
    /**
     * The observability rows beside plain Ferry: every call timed in Prometheus's registry, and timed and traced
     * ({@link ObservedFerry}). They need Micrometer on the class path, which suite.sh adds only for them.
     */
    public static final String OBSERVED_NAMES = "ferry,ferry-metrics,ferry-tracing";
    /** Every system a command line may name. */
    public static final List<String> KNOWN = Stream.of(ALL.stream(), Stream.of(TLS_NAMES.split(",")),
            Stream.of(OBSERVED_NAMES.split(","))).flatMap(s -> s).distinct().toList();

    /**
     * Netty 4.2 verifies by default the host of every client handshake, and Dubbo's consumer gives its TLS engine
     * none, so every handshake fails ("Hostname or IP address is undefined") unless the default is off. Ferry's
     * consumer sets its own verification, so this changes Dubbo's alone.
     */
    private static final String NETTY_NO_DEFAULT_HOST_CHECK =
            "io.netty.handler.ssl.defaultEndpointVerificationAlgorithm=NONE";

    private Systems() {
    }

    /** Whether a system observes its calls with Micrometer (on both sides). */
    public static boolean isObserved(String name) {
        return FerrySystem.isObserved(Variant.parse(name).system());
    }

    /** Whether a system's calls go over TLS, checked by {@link TlsCheck} for each consumer. */
    public static boolean isTls(String name) {
        String system = Variant.parse(name).system();
        return system.startsWith("ferry-tls-") || system.equals("dubbo-tls");
    }

    /**
     * The flags a system's JVMs (its provider's, the benchmark forks') start with: what the system needs (the TLS
     * systems' certificate directory, Dubbo's Netty setting), then its variant's properties.
     */
    public static List<String> jvmOptions(String name) {
        List<String> options = new ArrayList<>();
        if (isTls(name)) {
            options.add(Certificates.ofThisRun().jvmOption());
        }
        ownProperties(name).forEach(p -> options.add("-D" + p));
        options.addAll(Variant.parse(name).properties());
        return options;
    }

    /**
     * Sets in this JVM what these systems' consumers need, for the consumers made here (the suite's provider
     * warm-up). Call it before any system starts: Netty reads its TLS defaults once, when its TLS classes load.
     */
    public static void prepareThisJvm(List<String> names) {
        for (String name : names) {
            for (String property : ownProperties(name)) {
                int eq = property.indexOf('=');
                System.setProperty(property.substring(0, eq), property.substring(eq + 1));
            }
        }
    }

    private static List<String> ownProperties(String name) {
        return Variant.parse(name).system().equals("dubbo-tls") ? List.of(NETTY_NO_DEFAULT_HOST_CHECK) : List.of();
    }

    public static Provider provider(String system, String host, int port, Tuning tuning) {
        return (Provider) call(system, "provider", host, port, tuning);
    }

    /**
     * A consumer of the system's provider; for a TLS system, one that has made a call and found the provider's
     * port closed to plain text.
     *
     * @throws IllegalStateException when a TLS system's port answers plain text
     */
    public static Consumer consumer(String system, String host, int port, Tuning tuning) {
        Consumer consumer = (Consumer) call(system, "consumer", host, port, tuning);
        if (!isTls(system)) {
            return consumer;
        }
        try {
            consumer.service().getUser(1);
            System.out.println(system + ": " + TlsCheck.verify(system, host, port, Certificates.ofThisRun()));
            return consumer;
        } catch (RuntimeException e) {
            consumer.close();
            throw e;
        }
    }

    private static Object call(String name, String what, String host, int port, Tuning tuning) {
        String system = Variant.parse(name).system();
        String type = switch (system) {
            case "ferry", "ferry-tls-jdk", "ferry-tls-openssl", "ferry-metrics", "ferry-tracing" -> "FerrySystem";
            case "dubbo", "dubbo-fastjson2", "dubbo-tls" -> "DubboSystem";
            case "grpc" -> "GrpcSystem";
            case "echo" -> "EchoSystem";
            default -> throw new IllegalArgumentException("system: " + system + " (expected: one of " + KNOWN + ")");
        };
        try {
            return Class.forName(Systems.class.getPackageName() + "." + type)
                    .getMethod(what, String.class, String.class, int.class, Tuning.class)
                    .invoke(null, system, host, port, tuning);
        } catch (InvocationTargetException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }
}
