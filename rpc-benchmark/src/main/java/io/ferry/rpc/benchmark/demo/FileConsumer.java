package io.ferry.rpc.benchmark.demo;

import io.ferry.rpc.benchmark.Cli;
import io.ferry.rpc.config.Ferry;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/** A consumer whose whole configuration is a file (XML or properties): it calls the demo provider and exits. */
@Command(name = "FileConsumer", description = "Calls the demo provider (FerryMain with demo-provider.xml or "
        + ".properties) through the reference \"greeter\" of a configuration file, and exits.")
public final class FileConsumer implements Callable<Integer> {
    @Mixin
    private Cli.HelpOption help;

    @Parameters(index = "0", paramLabel = "FILE", description = "The consumer's configuration, XML or .properties, "
            + "e.g. rpc-benchmark/src/main/resources/demo-consumer.xml.")
    private Path file;

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** The command line {@link #main} parses and runs. */
    public static CommandLine commandLine() {
        return Cli.of(new FileConsumer());
    }

    @Override
    public Integer call() {
        try (Ferry ferry = Ferry.load(file)) {
            Greeter greeter = ferry.reference("greeter", Greeter.class);
            System.out.println("greet(\"Ada\") -> " + greeter.greet("Ada"));
            System.out.println("greetAll(...) -> " + greeter.greetAll(List.of("Grace", "Linus")));
        }
        return 0;
    }
}
