package io.ferry.rpc.benchmark.suite;

/**
 * How long a suite run should take: its profile's JMH iterations and provider warm-ups, with an allowance for
 * starting each JVM, over every system and round. The allowances were measured on the project's 2-core machine
 * (the smoke profile); a busier machine takes longer, which {@link #secondsLeft} corrects for as the run goes.
 */
record RunPlan(Profile profile, int systems) {
    /** A JMH fork's JVM start, its consumer's set-up and tear-down, and JMH's own bookkeeping. */
    static final int FORK_START_SECONDS = 4;
    /** A provider JVM's start until it serves, and its stop. */
    static final int PROVIDER_START_SECONDS = 3;

    /** One JMH fork: its start, warm-up and measured iterations. */
    int forkSeconds() {
        return FORK_START_SECONDS + profile.warmups() * profile.warmupSeconds()
                + profile.measurements() * profile.measureSeconds();
    }

    /** The forks of one system: one per method (two with latency), one per async window. */
    int forksPerSystem() {
        return profile.methods().size() * (profile.latency() ? 2 : 1) + profile.windows().size();
    }

    int systemSeconds() {
        return PROVIDER_START_SECONDS + profile.providerWarmup() + forksPerSystem() * forkSeconds();
    }

    int totalSeconds() {
        return profile.rounds() * systems * systemSeconds();
    }

    /**
     * The seconds still to run once {@code done} planned seconds have run in {@code elapsed} real ones: the plan's
     * rest, at this run's pace so far (never faster than planned).
     */
    long secondsLeft(long done, long elapsed) {
        long rest = Math.max(0, totalSeconds() - done);
        double pace = done > 0 ? Math.max(1.0, (double) elapsed / done) : 1.0;
        return Math.round(rest * pace);
    }

    /** "1:05:30", "10:36" or "0:42". */
    static String clock(long seconds) {
        long h = seconds / 3600;
        long m = seconds % 3600 / 60;
        long s = seconds % 60;
        return h > 0 ? String.format("%d:%02d:%02d", h, m, s) : String.format("%d:%02d", m, s);
    }
}
