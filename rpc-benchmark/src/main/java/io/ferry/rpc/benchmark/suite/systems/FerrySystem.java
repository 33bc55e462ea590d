package io.ferry.rpc.benchmark.suite.systems;

import io.ferry.rpc.benchmark.suite.workload.UserService;
import io.ferry.rpc.benchmark.suite.workload.Users;
import io.ferry.rpc.config.ApplicationConfig;
import io.ferry.rpc.config.ConsumerConfig;
import io.ferry.rpc.config.Ferry;
import io.ferry.rpc.config.ProtocolConfig;
import io.ferry.rpc.config.ReferenceConfig;
import io.ferry.rpc.config.ServiceConfig;
import io.ferry.rpc.remoting.SocketOptions;

import java.time.Duration;

/** Ferry with its defaults: a provider on one port, a consumer calling it by url. */
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
        Ferry ferry = Ferry.builder().shutdownHook(false).application(ApplicationConfig.of("bench-provider"))
                .protocol(protocol.build()).build();
        int bound = ferry.export(ServiceConfig.builder(UserService.class, (UserService) new Users()).build());
        return Provider.of(bound, ferry::close);
    }

    public static Consumer consumer(String system, String host, int port, Tuning tuning) {
        ConsumerConfig.Builder consumer = ConsumerConfig.builder().timeout(TIMEOUT);
        if (tuning.ioThreads() > 0) {
            consumer.ioThreads(tuning.ioThreads());
        }
        if (tuning.tcpNoDelay() != null) {
            consumer.socket(SocketOptions.builder().tcpNoDelay(tuning.tcpNoDelay()).build());
        }
        Ferry ferry = Ferry.builder().shutdownHook(false).application(ApplicationConfig.of("bench-consumer"))
                .consumer(consumer.build()).build();
        ReferenceConfig.Builder<UserService> reference = ReferenceConfig.builder(UserService.class)
                .url("dubbo://" + host + ":" + port);
        if (tuning.connections() > 0) {
            reference.connections(tuning.connections());
        }
        UserService service = ferry.reference(reference.build());
        return Consumer.of(service, ferry::close);
    }
}
