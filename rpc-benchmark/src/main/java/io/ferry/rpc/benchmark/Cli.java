package io.ferry.rpc.benchmark;

import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What the entry points of this module share on their command lines (picocli): the same parser settings, the
 * {@code -h}/{@code --help} option, range checks whose message names the flag, and the flags as given, for the
 * reports that quote their command.
 *
 * <p>A wrong flag or value fails the parse: picocli prints what is wrong, naming the flag, and the usage text on
 * stderr, and {@link CommandLine#execute} returns {@link CommandLine.ExitCode#USAGE} (2).
 */
public final class Cli {
    private Cli() {
    }

    /**
     * {@code command} on a command line: enum values in any case ({@code scenario=stall} or {@code STALL}), every
     * other parser setting picocli's default.
     */
    public static CommandLine of(Object command) {
        return new CommandLine(command).setCaseInsensitiveEnumValuesAllowed(true);
    }

    /** {@code -h, --help}, mixed into every command and subcommand ({@code @Mixin Cli.HelpOption help;}). */
    public static final class HelpOption {
        @Option(names = {"-h", "--help"}, usageHelp = true, description = "Print this usage text and exit.")
        boolean help;
    }

    /**
     * Fails the parse of {@code spec}'s command unless {@code value >= min}, with a message in the form
     * {@code "--rounds: 0 (expected: >= 1)"}.
     */
    public static void atLeast(CommandSpec spec, String name, long value, long min) {
        if (value < min) {
            throw new ParameterException(spec.commandLine(), name + ": " + value + " (expected: >= " + min + ")");
        }
    }

    /**
     * The options given on the command line of {@code spec}'s command, in the order first given, each as
     * {@code "--name value"} with the value as typed (a repeated list option gives each of its values), leaving out
     * those named in {@code except}. Usable once the command line is parsed.
     */
    public static List<String> given(CommandSpec spec, String... except) {
        Set<OptionSpec> matched = new LinkedHashSet<>(spec.commandLine().getParseResult().matchedOptions());
        List<String> given = new ArrayList<>();
        for (OptionSpec option : matched) {
            if (!Set.of(except).contains(option.longestName()) && !option.usageHelp()) {
                if (option.arity().max() == 0) { // a flag such as --publish, whose value picocli records as true
                    given.add(option.longestName());
                    continue;
                }
                for (String value : ((ArgSpec) option).originalStringValues()) {
                    given.add(option.longestName() + " " + value);
                }
            }
        }
        return given;
    }
}
