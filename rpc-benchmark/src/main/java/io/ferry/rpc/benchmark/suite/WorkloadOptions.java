package io.ferry.rpc.benchmark.suite;

import io.ferry.rpc.benchmark.Cli;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.util.List;
import java.util.Objects;

/**
 * The flags that override what a profile measures and how often: mixed into {@code Bench suite} and
 * {@code Bench client}, beside {@link ProfileOptions}. An override left out keeps the profile's figure.
 */
final class WorkloadOptions {
    @Spec(Spec.Target.MIXEE)
    private CommandSpec spec;

    @Option(names = "--rounds", paramLabel = "N", description = "Rounds over all systems, in rotating order; the "
            + "report gives each figure's median over them (default: the profile's).")
    private Integer rounds;

    @Option(names = "--providerWarmup", paramLabel = "SECONDS", description = "Load on each fresh provider before "
            + "its first benchmark, in seconds; 0 for none (default: the profile's).")
    private Integer providerWarmup;

    @Option(names = "--methods", split = ",", paramLabel = "METHOD", description = "Workload methods measured, "
            + "comma-separated: existUser, createUser, getUser, listUser (default: the profile's).")
    private List<String> methods;

    @Option(names = "--windows", split = ",", paramLabel = "CALLS", description = "Windows of the async benchmark "
            + "(calls in flight), comma-separated (default: the profile's).")
    private List<Integer> windows;

    @Option(names = "--latency", arity = "1", paramLabel = "true|false", description = "Whether a JMH SampleTime run "
            + "(the percentiles) follows each throughput run (default: the profile's).")
    private Boolean latency;

    /** {@code profile} with the figures given; fails the parse on a value out of range. */
    Profile applyTo(Profile profile) {
        Profile p = profile.withWorkload(Objects.requireNonNullElse(rounds, profile.rounds()),
                Objects.requireNonNullElse(providerWarmup, profile.providerWarmup()),
                Objects.requireNonNullElse(methods, profile.methods()),
                Objects.requireNonNullElse(latency, profile.latency()),
                Objects.requireNonNullElse(windows, profile.windows()));
        Cli.atLeast(spec, "--rounds", p.rounds(), 1);
        Cli.atLeast(spec, "--providerWarmup", p.providerWarmup(), 0);
        for (String method : p.methods()) {
            if (!Profile.ALL_METHODS.contains(method)) {
                throw new ParameterException(spec.commandLine(), "--methods: " + method + " (expected: one of "
                        + String.join(", ", Profile.ALL_METHODS) + ")");
            }
        }
        for (int window : p.windows()) {
            Cli.atLeast(spec, "--windows", window, 1);
        }
        return p;
    }
}
