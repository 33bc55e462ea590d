package io.ferry.rpc.benchmark.demo;

import io.ferry.rpc.RpcExport;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/** The demo's provider: exported by annotation. */
@RpcExport
public class GreeterImpl implements Greeter {
    @Override
    public String greet(String name) {
        return "Hello, " + name + "!";
    }

    @Override
    public List<Greeting> greetAll(List<String> names) {
        return names.stream().map(n -> new Greeting(n, greet(n), System.currentTimeMillis())).toList();
    }

    @Override
    public CompletableFuture<String> greetLater(String name) {
        return CompletableFuture.supplyAsync(() -> "Hello later, " + name + "!");
    }

    @Override
    public void log(String line) {
        System.out.println("  [provider] log: " + line);
    }

    @Override
    public Greeting strict(String name) throws UnknownNameException {
        if (!Character.isUpperCase(name.charAt(0))) {
            throw new UnknownNameException("names start with a capital letter: '" + name + "'");
        }
        return new Greeting(name, greet(name), System.currentTimeMillis());
    }
}
