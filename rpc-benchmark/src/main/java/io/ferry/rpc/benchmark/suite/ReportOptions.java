package io.ferry.rpc.benchmark.suite;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.nio.file.Path;

/**
 * Where a run's report goes, mixed into {@code Bench suite} and the experiments: the build's output unless told
 * otherwise, so that trying the suite never changes the committed results; {@code --publish} writes them.
 */
final class ReportOptions {
    /** The committed results, which only a run given {@code --publish} writes. */
    static final Path PUBLISHED = Path.of("rpc-benchmark", "results");
    /** Where a run's report goes by default: the module's build output, which git ignores. */
    static final Path DEFAULT = Path.of("rpc-benchmark", "target", "reports");

    @Spec(Spec.Target.MIXEE)
    private CommandSpec spec;

    @Option(names = "--out", paramLabel = "DIR", description = "The directory the report goes to (default: "
            + "rpc-benchmark/target/reports; rpc-benchmark/results with --publish).")
    private Path out;

    @Option(names = "--publish", description = "Write the report into the committed rpc-benchmark/results, "
            + "replacing the published one of the same name.")
    private boolean publish;

    /** The directory to write into; fails the parse when both {@code --out} and {@code --publish} are given. */
    Path directory() {
        if (publish && out != null) {
            throw new ParameterException(spec.commandLine(), "--out " + out + " and --publish (expected: one of "
                    + "them; --publish writes to " + PUBLISHED + ")");
        }
        return publish ? PUBLISHED : out != null ? out : DEFAULT;
    }
}
