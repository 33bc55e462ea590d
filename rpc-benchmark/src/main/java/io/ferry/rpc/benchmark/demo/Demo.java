package io.ferry.rpc.benchmark.demo;

import io.ferry.rpc.EchoService;
import io.ferry.rpc.RpcContext;
import io.ferry.rpc.RpcReference;
import io.ferry.rpc.benchmark.Cli;
import io.ferry.rpc.config.ApplicationConfig;
import io.ferry.rpc.config.Ferry;
import io.ferry.rpc.config.ProtocolConfig;
import io.ferry.rpc.config.RegistryConfig;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Starts a provider and a consumer in this process that find each other through ZooKeeper, and makes real calls
 * between them over TCP on 127.0.0.1: synchronous, asynchronous, one-way, a business exception and Dubbo's $echo
 * health check. No ZooKeeper needs to be installed: {@link RegistryConfig#embedded()} asks for an embedded one,
 * {@code zookeeper://127.0.0.1:2181?embedded=true}, which this process hosts when nothing listens there (and uses
 * the one that does otherwise). A plain address never starts a server.
 */
@Command(name = "Demo", description = {"Starts a provider and a consumer in this process that find each other "
        + "through an embedded ZooKeeper, and makes real calls between them over TCP on 127.0.0.1.",
        "Without options: mvn -B -q -pl rpc-benchmark exec:java",
        "With the admin pages under load for a while: mvn -B -q -pl rpc-benchmark exec:java "
                + "-Dexec.args='--admin-seconds 300'"})
public final class Demo implements Callable<Integer> {
    @Mixin
    private Cli.HelpOption help;
    @Spec
    private CommandSpec spec;

    @Option(names = "--admin-seconds", paramLabel = "SECONDS", description = "After the calls above, keep two "
            + "callers calling for this long, with both sides' admin pages (meters on) open: the provider's on "
            + "--admin-port, the consumer's on the port after it (default: ${DEFAULT-VALUE}: no admin pages).")
    private int adminSeconds;

    @Option(names = "--admin-port", paramLabel = "PORT", defaultValue = "22222",
            description = "The provider's admin port; the consumer's is the next (default: ${DEFAULT-VALUE}).")
    private int adminPort;

    @RpcReference
    private Greeter greeter;

    /**
     * Runs the demo. Under {@code exec:java} this runs in Maven's JVM, so it exits the JVM only when it fails (a
     * wrong argument, or an exception) and returns once the demo has finished.
     */
    public static void main(String[] args) {
        int code = commandLine().execute(args);
        if (code != 0) {
            System.exit(code);
        }
    }

    /** The command line {@link #main} parses and runs. */
    public static CommandLine commandLine() {
        return Cli.of(new Demo());
    }

    @Override
    public Integer call() throws Exception {
        Cli.atLeast(spec, "--admin-seconds", adminSeconds, 0);
        Cli.atLeast(spec, "--admin-port", adminPort, 1);
        try (Ferry provider = ferry("demo-provider", adminPort)
                .protocol(ProtocolConfig.builder().host("127.0.0.1").port(0).build()).build();
             Ferry consumer = ferry("demo-consumer", adminPort + 1).build()) {
            int port = provider.export(new GreeterImpl());
            System.out.println("provider exported Greeter on 127.0.0.1:" + port + " and registered it in ZooKeeper");

            consumer.inject(this, null); // no url: the reference finds its providers in the registry
            System.out.println("consumer found " + greeter);
            run();
            if (adminSeconds > 0) {
                System.out.println("admin pages: provider http://127.0.0.1:" + provider.adminPort()
                        + "/ and consumer http://127.0.0.1:" + consumer.adminPort() + "/ ; two callers calling for "
                        + adminSeconds + " s, one call in 20 a business exception");
                new DemoLoad(greeter).callFor(Duration.ofSeconds(adminSeconds));
            }
        }
        System.out.println("demo finished: provider and consumer closed");
        return 0;
    }

    /** One side of the demo; with --admin-seconds, with its admin port and its own meters. */
    private Ferry.Builder ferry(String application, int port) {
        ApplicationConfig.Builder app = ApplicationConfig.builder().name(application);
        Ferry.Builder builder = Ferry.builder().registry(RegistryConfig.embedded());
        if (adminSeconds > 0) {
            app.qosEnable(true).qosPort(port);
            builder.observability(DemoMeters.observability());
        }
        return builder.application(app.build());
    }

    private void run() throws Exception {
        System.out.println("sync     greet(\"Ada\")        -> " + greeter.greet("Ada"));
        System.out.println("sync     greetAll([...])      -> " + greeter.greetAll(List.of("Ada", "Grace", "Linus")));

        CompletableFuture<String> later = greeter.greetLater("Barbara");
        System.out.println("async    greetLater(...)      -> " + later.get(5, TimeUnit.SECONDS));

        CompletableFuture<String> plain = RpcContext.async(() -> greeter.greet("Edsger"));
        System.out.println("async    RpcContext.async     -> " + plain.get(5, TimeUnit.SECONDS));

        greeter.log("a one-way call: the consumer did not wait for an answer");

        try {
            greeter.strict("alan");
        } catch (Greeter.UnknownNameException e) {
            System.out.println("business exception            -> " + e.getClass().getSimpleName() + ": "
                    + e.getMessage());
        }
        System.out.println("health   $echo(\"OK\")          -> " + ((EchoService) greeter).$echo("OK"));

        RpcContext.current().setAttachment("request-id", "demo-42");
        System.out.println("sync with an attachment       -> " + greeter.greet("Ken"));
        int calls = 1000;
        for (int i = 0; i < calls; i++) {
            greeter.greet("n" + i);
        }
        System.out.println(calls + " more sync calls made over the same connection");
    }
}
