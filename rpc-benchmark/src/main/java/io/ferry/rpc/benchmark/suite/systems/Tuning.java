package io.ferry.rpc.benchmark.suite.systems;

/**
 * What an experiment changes from a system's defaults; zero or null keeps the default. The suite itself runs every
 * system with its defaults.
 *
 * @param ioThreads   event-loop threads (provider: the server's; consumer: the client's)
 * @param connections connections from the consumer to the provider
 * @param tcpNoDelay  false turns Nagle's algorithm on
 * @param splitAnswers the echo writes each answer in two segments (header, then the rest), as the field report's
 *                     server did
 * @param registry     a Ferry provider also registers at this address ({@code zookeeper://10.77.0.10:2181}, the
 *                     network experiments'), or null for none
 */
public record Tuning(int ioThreads, int connections, Boolean tcpNoDelay, boolean splitAnswers, String registry) {
    public static final Tuning DEFAULTS = new Tuning(0, 0, null, false, null);

    /**
     * From system properties {@code bench.ioThreads}, {@code bench.connections}, {@code bench.tcpNoDelay},
     * {@code bench.splitAnswers}, {@code bench.registry}.
     */
    public static Tuning fromSystemProperties() {
        String noDelay = System.getProperty("bench.tcpNoDelay");
        return new Tuning(Integer.getInteger("bench.ioThreads", 0), Integer.getInteger("bench.connections", 0),
                noDelay == null ? null : Boolean.valueOf(noDelay), Boolean.getBoolean("bench.splitAnswers"),
                System.getProperty("bench.registry"));
    }
}
