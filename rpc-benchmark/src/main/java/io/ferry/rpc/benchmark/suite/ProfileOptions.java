package io.ferry.rpc.benchmark.suite;

import io.ferry.rpc.benchmark.Cli;
import io.ferry.rpc.benchmark.suite.systems.Systems;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * {@code --profile} and the flags that override its JMH iterations, mixed into every {@link Bench} command that
 * runs JMH. An override left out keeps the profile's figure; the usage text's footer lists each profile's figures.
 */
final class ProfileOptions {
    @Spec(Spec.Target.MIXEE)
    private CommandSpec spec;

    @Option(names = "--profile", defaultValue = "quick", converter = ByName.class, paramLabel = "smoke|quick|full",
            description = "How long and how often to measure; each profile's figures are listed below "
                    + "(default: ${DEFAULT-VALUE}).")
    private Profile profile;

    @Option(names = "--warmups", paramLabel = "N",
            description = "Warm-up iterations of each benchmark (default: the profile's).")
    private Integer warmups;

    @Option(names = "--warmupSeconds", paramLabel = "SECONDS",
            description = "Length of each warm-up iteration, in seconds (default: the profile's).")
    private Integer warmupSeconds;

    @Option(names = "--measurements", paramLabel = "N",
            description = "Measured iterations of each benchmark (default: the profile's).")
    private Integer measurements;

    @Option(names = "--measureSeconds", paramLabel = "SECONDS",
            description = "Length of each measured iteration, in seconds (default: the profile's).")
    private Integer measureSeconds;

    /** The profile named, with the iterations given; fails the parse on a count out of range. */
    Profile profile() {
        Profile p = profile.withIterations(Objects.requireNonNullElse(warmups, profile.warmups()),
                Objects.requireNonNullElse(warmupSeconds, profile.warmupSeconds()),
                Objects.requireNonNullElse(measurements, profile.measurements()),
                Objects.requireNonNullElse(measureSeconds, profile.measureSeconds()));
        Cli.atLeast(spec, "--warmups", p.warmups(), 0);
        Cli.atLeast(spec, "--warmupSeconds", p.warmupSeconds(), 1);
        Cli.atLeast(spec, "--measurements", p.measurements(), 1);
        Cli.atLeast(spec, "--measureSeconds", p.measureSeconds(), 1);
        return p;
    }

    /**
     * The footer of a usage text with {@code --profile}: each profile as the flags it stands for, with its workload's
     * when the command has {@link WorkloadOptions}.
     */
    static String[] footer(boolean withWorkload) {
        List<String> lines = new ArrayList<>();
        lines.add("%nThe profiles, as the flags they stand for (a flag given overrides its figure):");
        for (Profile p : Profile.ALL) {
            String indent = " ".repeat(p.name().length() + 4);
            lines.add("  " + p.name() + ": --warmups " + p.warmups() + " --warmupSeconds " + p.warmupSeconds()
                    + " --measurements " + p.measurements() + " --measureSeconds " + p.measureSeconds());
            if (withWorkload) {
                lines.add(indent + "--rounds " + p.rounds() + " --providerWarmup " + p.providerWarmup()
                        + " --latency " + p.latency() + " --windows "
                        + String.join(",", p.windows().stream().map(String::valueOf).toList()));
                lines.add(indent + "--methods " + String.join(",", p.methods()));
                RunPlan plan = new RunPlan(p, Systems.ALL.size());
                lines.add(indent + "planned: " + RunPlan.clock(plan.systemSeconds()) + " a system a round, "
                        + RunPlan.clock(plan.totalSeconds()) + " for the " + Systems.ALL.size() + " default systems");
            }
        }
        return lines.toArray(String[]::new);
    }

    /** A profile by its name. */
    static final class ByName implements ITypeConverter<Profile> {
        @Override
        public Profile convert(String name) {
            try {
                return Profile.named(name);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }
}
