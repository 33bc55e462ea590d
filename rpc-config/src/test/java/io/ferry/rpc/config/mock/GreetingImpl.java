package io.ferry.rpc.config.mock;

import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** The real provider: counts the calls that reach it. */
public class GreetingImpl implements Greeting {
    public final AtomicInteger calls = new AtomicInteger();
    public final CountDownLatch release = new CountDownLatch(1);
    public final BlockingQueue<String> notes = new LinkedBlockingQueue<>();

    @Override
    public String greet(String name) {
        calls.incrementAndGet();
        return "hello " + name;
    }

    @Override
    public int count() {
        return calls.incrementAndGet();
    }

    @Override
    public List<String> names() {
        calls.incrementAndGet();
        return List.of("ann", "bob");
    }

    @Override
    public CompletableFuture<String> greetLater(String name) {
        calls.incrementAndGet();
        return CompletableFuture.completedFuture("later " + name);
    }

    @Override
    public void note(String text) {
        calls.incrementAndGet();
        notes.add(text);
    }

    @Override
    public String refuse(String why) throws GreetingRefused {
        calls.incrementAndGet();
        throw new GreetingRefused(why);
    }

    @Override
    public CompletableFuture<String> refuseLater(String why) {
        calls.incrementAndGet();
        return CompletableFuture.failedFuture(new IllegalArgumentException(why));
    }

    @Override
    public String hang(String tag) {
        calls.incrementAndGet();
        try {
            release.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return "released " + tag;
    }

    @Override
    public CompletableFuture<String> hangLater(String tag) {
        return CompletableFuture.supplyAsync(() -> hang(tag));
    }
}
