package io.ferry.rpc.spring.boot;

import io.ferry.rpc.RpcExport;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** {@link Hello}, exported by annotation; {@link #slow} holds its call until {@link #release}. */
@RpcExport(version = "1.0")
public class HelloService implements Hello {
    final CountDownLatch slowEntered = new CountDownLatch(1);
    final CountDownLatch release = new CountDownLatch(1);

    @Override
    public String hello(String name) {
        return "Hello " + name;
    }

    @Override
    public String slow(String name) {
        slowEntered.countDown();
        try {
            if (!release.await(60, TimeUnit.SECONDS)) {
                throw new IllegalStateException("never released");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
        return "Slowly, " + name;
    }
}
