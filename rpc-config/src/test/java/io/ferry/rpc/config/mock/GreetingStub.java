package io.ferry.rpc.config.mock;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/** The stub {@code stub="true"} finds beside {@link Greeting}: it wraps the reference's answers. */
public class GreetingStub implements Greeting {
    private final Greeting remote;

    public GreetingStub(Greeting remote) {
        this.remote = remote;
    }

    @Override
    public String greet(String name) {
        return "stub(" + remote.greet(name) + ")";
    }

    @Override
    public int count() {
        return remote.count();
    }

    @Override
    public List<String> names() {
        return remote.names();
    }

    @Override
    public CompletableFuture<String> greetLater(String name) {
        return remote.greetLater(name);
    }

    @Override
    public void note(String text) {
        remote.note(text);
    }

    @Override
    public String refuse(String why) throws GreetingRefused {
        return remote.refuse(why);
    }

    @Override
    public CompletableFuture<String> refuseLater(String why) {
        return remote.refuseLater(why);
    }

    @Override
    public String hang(String tag) {
        return remote.hang(tag);
    }

    @Override
    public CompletableFuture<String> hangLater(String tag) {
        return remote.hangLater(tag);
    }
}
