package io.ferry.rpc.benchmark.suite.jmh;

import io.ferry.rpc.benchmark.suite.systems.Consumer;
import io.ferry.rpc.benchmark.suite.systems.Systems;
import io.ferry.rpc.benchmark.suite.systems.Tuning;

/**
 * The provider a benchmark fork calls, as the suite passes it: {@code -Dbench.host}, {@code -Dbench.port},
 * {@code -Dbench.providerPid} (for CPU accounting) and the tuning properties.
 */
final class Target {
    private Target() {
    }

    static String host() {
        return System.getProperty("bench.host", "127.0.0.1");
    }

    static int port() {
        String port = System.getProperty("bench.port");
        if (port == null) {
            throw new IllegalStateException("-Dbench.port is not set: run the benchmarks through the suite or client");
        }
        return Integer.parseInt(port);
    }

    static Consumer consumer(String system) {
        return Systems.consumer(system, host(), port(), Tuning.fromSystemProperties());
    }
}
