package io.ferry.rpc.spring;

import io.ferry.rpc.config.fixtures.DemoService;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** Greets once the test lets it: a call in flight for as long as a test needs one. */
public final class HeldDemoService implements DemoService {
    final CountDownLatch entered = new CountDownLatch(1);
    final CountDownLatch release = new CountDownLatch(1);

    @Override
    public String sayHello(String name) {
        entered.countDown();
        try {
            if (!release.await(20, TimeUnit.SECONDS)) {
                throw new IllegalStateException("never released");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        return "Hello " + name;
    }
}
