package io.ferry.rpc.benchmark.demo;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Two callers calling the demo's Greeter until a deadline, so that its admin pages have something to show: mostly
 * greet, every tenth call greetAll, every twentieth strict with a name it refuses (a business exception, counted as
 * an error on both sides).
 */
final class DemoLoad {
    private static final int CALLERS = 2;
    private static final List<String> NAMES = List.of("Ada", "Grace", "Linus");

    private final Greeter greeter;
    private final AtomicLong calls = new AtomicLong();
    private final AtomicLong refused = new AtomicLong();

    DemoLoad(Greeter greeter) {
        this.greeter = greeter;
    }

    /** Calls until {@code duration} has passed, then says how many calls were made. */
    void callFor(Duration duration) throws Exception {
        long deadline = System.nanoTime() + duration.toNanos();
        ExecutorService callers = Executors.newFixedThreadPool(CALLERS, r -> {
            Thread thread = new Thread(r, "demo-caller");
            thread.setDaemon(true);
            return thread;
        });
        try {
            Future<?>[] running = new Future<?>[CALLERS];
            for (int i = 0; i < CALLERS; i++) {
                running[i] = callers.submit(() -> callUntil(deadline));
            }
            for (Future<?> caller : running) {
                caller.get(); // a caller's failure other than the refused names ends the demo with it
            }
        } finally {
            callers.shutdownNow();
        }
        System.out.println(calls.get() + " calls made under load, " + refused.get()
                + " of them refused by the provider's own check");
    }

    private Void callUntil(long deadline) {
        for (long n = 1; System.nanoTime() - deadline < 0; n++) {
            if (n % 20 == 0) {
                try {
                    greeter.strict("lower-case");
                } catch (Greeter.UnknownNameException expected) {
                    refused.incrementAndGet();
                }
            } else if (n % 10 == 0) {
                greeter.greetAll(NAMES);
            } else {
                greeter.greet("caller");
            }
            calls.incrementAndGet();
        }
        return null;
    }
}
