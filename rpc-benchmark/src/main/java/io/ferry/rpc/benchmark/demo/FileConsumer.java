package io.ferry.rpc.benchmark.demo;

import io.ferry.rpc.config.Ferry;

import java.nio.file.Path;

/** A consumer whose whole configuration is a file (XML or properties): it calls the demo provider and exits. */
public final class FileConsumer {
    private FileConsumer() {
    }

    public static void main(String[] args) {
        try (Ferry ferry = Ferry.load(Path.of(args[0]))) {
            Greeter greeter = ferry.reference("greeter", Greeter.class);
            System.out.println("greet(\"Ada\") -> " + greeter.greet("Ada"));
            System.out.println("greetAll(...) -> " + greeter.greetAll(java.util.List.of("Grace", "Linus")));
        }
        System.exit(0);
    }
}
