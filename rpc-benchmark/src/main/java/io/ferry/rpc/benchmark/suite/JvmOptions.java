package io.ferry.rpc.benchmark.suite;

import picocli.CommandLine.Option;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code --jvm-arg}, repeatable: JVM options for every JVM a run starts (providers and JMH forks). A system property
 * ({@code -Dname=value}) is also set in the running JVM, where JMH's runner reads its own
 * ({@code -Djmh.ignoreLock=true}) and the suite's warm-up consumers run.
 */
final class JvmOptions {
    @Option(names = "--jvm-arg", paramLabel = "OPTION", description = "A JVM option for the providers and the JMH "
            + "forks, repeatable (--jvm-arg -Djmh.ignoreLock=true --jvm-arg -XX:+UseParallelGC); a -D one is "
            + "also set in this JVM (default: none).")
    private List<String> options = new ArrayList<>();

    /** The options given, in order; sets the system properties among them in this JVM. */
    List<String> applied() {
        for (String option : options) {
            int eq = option.indexOf('=');
            if (option.startsWith("-D") && eq > 2) {
                System.setProperty(option.substring(2, eq), option.substring(eq + 1));
            } else if (option.startsWith("-D")) {
                System.setProperty(option.substring(2), "");
            }
        }
        return List.copyOf(options);
    }
}
