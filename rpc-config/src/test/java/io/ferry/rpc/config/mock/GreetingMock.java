package io.ferry.rpc.config.mock;

import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;

/** The mock {@code mock="true"} finds beside {@link Greeting}. */
public class GreetingMock implements Greeting {
    /** What the mock's one-way method was given, across instances (the tests clear it). */
    public static final BlockingQueue<String> NOTES = new LinkedBlockingQueue<>();

    @Override
    public String greet(String name) {
        return "mock " + name;
    }

    @Override
    public int count() {
        return -1;
    }

    @Override
    public List<String> names() {
        return List.of("mock");
    }

    /** "never": a future that never completes, which the call's deadline ends. */
    @Override
    public CompletableFuture<String> greetLater(String name) {
        return name.equals("never") ? new CompletableFuture<>()
                : CompletableFuture.completedFuture("mock later " + name);
    }

    @Override
    public void note(String text) {
        NOTES.add(text);
    }

    @Override
    public String refuse(String why) {
        return "mock refuse " + why;
    }

    @Override
    public CompletableFuture<String> refuseLater(String why) {
        return CompletableFuture.completedFuture("mock refuse later " + why);
    }

    @Override
    public String hang(String tag) {
        return "mock hang " + tag;
    }

    @Override
    public CompletableFuture<String> hangLater(String tag) {
        return CompletableFuture.completedFuture("mock hang later " + tag);
    }
}
