package io.ferry.rpc.benchmark.suite;

import java.util.List;

/**
 * How long and how often the suite measures.
 *
 * @param warmups         warm-up iterations of each benchmark, of {@code warmupSeconds} each
 * @param measurements    measured iterations, of {@code measureSeconds} each
 * @param rounds          rounds over all systems, in rotating order; the report gives each cell's median
 * @param providerWarmup  seconds of load on a fresh provider before its first benchmark
 * @param methods         workload methods measured
 * @param latency         whether a SampleTime run (percentiles) follows each throughput run
 * @param windows         async windows (calls in flight)
 */
public record Profile(String name, int warmups, int warmupSeconds, int measurements, int measureSeconds, int rounds,
                      int providerWarmup, List<String> methods, boolean latency, List<Integer> windows) {
    static final List<String> ALL_METHODS = List.of("existUser", "createUser", "getUser", "listUser");

    /** For CI: proves the suite runs end to end, every system answering; its numbers mean little. */
    public static final Profile SMOKE = new Profile("smoke", 1, 1, 1, 1, 1, 0, List.of("getUser"), false, List.of(32));
    /** A few minutes: every method and system once, short iterations. */
    public static final Profile QUICK = new Profile("quick", 2, 2, 2, 3, 1, 5, ALL_METHODS, true, List.of(32, 128));
    /** For published results: the iterations, three rounds, a provider warmed for 20 s. */
    public static final Profile FULL = new Profile("full", 6, 5, 3, 8, 3, 20, ALL_METHODS, true, List.of(32, 128));

    /** This profile with other iterations of each benchmark. */
    public Profile withIterations(int warmups, int warmupSeconds, int measurements, int measureSeconds) {
        return new Profile(name, warmups, warmupSeconds, measurements, measureSeconds, rounds, providerWarmup,
                methods, latency, windows);
    }

    /** This profile with its iterations, measuring another workload. */
    public Profile withWorkload(int rounds, int providerWarmup, List<String> methods, boolean latency,
                                List<Integer> windows) {
        return new Profile(name, warmups, warmupSeconds, measurements, measureSeconds, rounds, providerWarmup,
                List.copyOf(methods), latency, List.copyOf(windows));
    }

    /** The three profiles: smoke, quick, full. */
    public static final List<Profile> ALL = List.of(SMOKE, QUICK, FULL);

    public static Profile named(String name) {
        return switch (name) {
            case "smoke" -> SMOKE;
            case "quick" -> QUICK;
            case "full" -> FULL;
            default -> throw new IllegalArgumentException("profile: " + name + " (expected: smoke, quick or full)");
        };
    }
}
