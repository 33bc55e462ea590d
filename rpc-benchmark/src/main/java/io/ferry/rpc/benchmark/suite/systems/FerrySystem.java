package io.ferry.rpc.benchmark.suite.systems;

import io.ferry.rpc.benchmark.suite.workload.UserService;
import io.ferry.rpc.benchmark.suite.workload.Users;
import io.ferry.rpc.config.ApplicationConfig;
import io.ferry.rpc.config.ConsumerConfig;
import io.ferry.rpc.config.Ferry;
import io.ferry.rpc.config.ProtocolConfig;
import io.ferry.rpc.config.ReferenceConfig;
import io.ferry.rpc.config.RegistryConfig;
import io.ferry.rpc.config.ServiceConfig;
import io.ferry.rpc.config.SslConfig;
import io.ferry.rpc.remoting.SocketOptions;
import io.ferry.rpc.remoting.SslProvider;

import java.time.Duration;

/**
 * Ferry with its defaults: a provider on one port, a consumer calling it by url. {@code ferry-tls-jdk} and
 * {@code ferry-tls-openssl} add one-way TLS with that engine: the provider's port speaks TLS only (ssl-enabled) with
 * the run's provider certificate, and the consumer's reference trusts the run's CA and checks the provider's address.
 * {@code ferry-metrics} and {@code ferry-tracing} observe every call on both sides ({@link ObservedFerry}).
 */
public final class FerrySystem {
    /** Both systems get the same call timeout, long enough that a GC pause is not an error. */
    static final Duration TIMEOUT = Duration.ofSeconds(5);

    private FerrySystem() {
    }

    public static Provider provider(String system, String host, int port, Tuning tuning) {
        ProtocolConfig.Builder protocol = ProtocolConfig.builder().host(host).port(port);
        if (tuning.ioThreads() > 0) {
            protocol.ioThreads(tuning.ioThreads());
        }
        if (tuning.tcpNoDelay() != null) {
            protocol.socket(SocketOptions.builder().tcpNoDelay(tuning.tcpNoDelay()).build());
        }
        Ferry.Builder ferry = Ferry.builder().shutdownHook(false).application(ApplicationConfig.of("bench-provider"));
        SslProvider engine = tlsEngine(system);
        if (engine != null) {
            Certificates certificates = Certificates.ofThisRun();
            ferry.ssl(SslConfig.builder().provider(engine).serverKeyCertChain(
                    certificates.providerChain().toString(), certificates.providerKey().toString()).build());
            protocol.sslEnabled(true);
        }
        if (isObserved(system)) {
            ferry.observability(ObservedFerry.observability(system));
        }
        if (tuning.registry() != null) {
            Long session = Long.getLong("bench.registrySessionMs");
            ferry.registry(RegistryConfig.of(tuning.registry(), session == null ? null : Duration.ofMillis(session),
                    null, RegistryConfig.NO_CACHE_FILE));
        }
        Ferry provider = ferry.protocol(protocol.build()).build();
        int bound = provider.export(ServiceConfig.builder(UserService.class, (UserService) new Users()).build());
        return Provider.of(bound, provider::close);
    }

    public static Consumer consumer(String system, String host, int port, Tuning tuning) {
        ConsumerConfig.Builder consumer = ConsumerConfig.builder().timeout(TIMEOUT);
        if (tuning.ioThreads() > 0) {
            consumer.ioThreads(tuning.ioThreads());
        }
        if (tuning.tcpNoDelay() != null) {
            consumer.socket(SocketOptions.builder().tcpNoDelay(tuning.tcpNoDelay()).build());
        }
        Ferry.Builder ferry = Ferry.builder().shutdownHook(false).application(ApplicationConfig.of("bench-consumer"))
                .consumer(consumer.build());
        ReferenceConfig.Builder<UserService> reference = ReferenceConfig.builder(UserService.class)
                .url("dubbo://" + host + ":" + port);
        SslProvider engine = tlsEngine(system);
        if (engine != null) {
            ferry.ssl(SslConfig.builder().provider(engine)
                    .clientTrustCertCollection(Certificates.ofThisRun().ca().toString()).build());
            reference.sslEnabled(true);
        }
        if (tuning.connections() > 0) {
            reference.connections(tuning.connections());
        }
        if (isObserved(system)) {
            ferry.observability(ObservedFerry.observability(system));
        }
        Ferry calling = ferry.build();
        UserService service = calling.reference(reference.build());
        return Consumer.of(service, calling::close);
    }

    /** Whether the system observes its calls (both sides): Micrometer's classes are loaded only then. */
    static boolean isObserved(String system) {
        return system.equals("ferry-metrics") || system.equals("ferry-tracing");
    }

    /** The TLS engine a system name asks for, or null for plain Ferry. */
    private static SslProvider tlsEngine(String system) {
        return switch (system) {
            case "ferry", "ferry-metrics", "ferry-tracing" -> null;
            case "ferry-tls-jdk" -> SslProvider.JDK;
            case "ferry-tls-openssl" -> SslProvider.OPENSSL;
            default -> throw new IllegalArgumentException("system: " + system + " (expected: ferry, ferry-tls-jdk, "
                    + "ferry-tls-openssl, ferry-metrics or ferry-tracing)");
        };
    }
}
