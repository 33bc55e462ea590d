package io.ferry.rpc.config;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Starts what a configuration file describes, exports its services and creates its references, then runs until
 * the process is stopped (Ctrl-C or SIGTERM close it gracefully).
 *
 * <pre>
 *   java -cp ... io.ferry.rpc.config.FerryMain provider.properties
 *   java -cp ... io.ferry.rpc.config.FerryMain provider.xml
 * </pre>
 * {@link Ferry#load(Path)} reads the file: XML when its name ends in {@code .xml}, properties otherwise. Without an
 * argument, {@link Ferry#load()} reads {@code ferry.xml} or {@code ferry.properties} from the class path. A wrong
 * file prints every mistake in it, one per line in file order, and exits with status 2.
 */
public final class FerryMain {
    private FerryMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        if (args.length > 1 || (args.length == 1 && !Files.isRegularFile(Path.of(args[0])))) {
            System.err.println("usage: FerryMain [ferry.xml | ferry.properties] (none: the class path's)"
                    + (args.length == 1 ? " (no such file: " + args[0] + ")" : ""));
            System.exit(2);
        }
        Ferry ferry;
        try {
            ferry = args.length == 1 ? Ferry.load(Path.of(args[0])) : Ferry.load();
        } catch (RuntimeException e) {
            System.err.println(e.getMessage()); // every mistake of the file, one per line, each with its line
            System.exit(2);
            return;
        }
        if (ferry.describe().equals("no services")) {
            ferry.close();
            System.err.println((args.length == 1 ? args[0] : "the class path's file") + ": no service and no "
                    + "reference (expected: at least one <service> or <reference>, or ferry.service.* or "
                    + "ferry.reference.* keys)");
            System.exit(2);
        }
        System.out.println("Ferry started from " + (args.length == 1 ? args[0] : "the class path") + ": "
                + ferry.describe());
        ferry.awaitTermination();
    }
}
