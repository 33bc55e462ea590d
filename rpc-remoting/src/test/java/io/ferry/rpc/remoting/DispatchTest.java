package io.ferry.rpc.remoting;

import io.ferry.rpc.ClassAllowList;
import io.ferry.rpc.Deadline;
import io.ferry.rpc.Invocation;
import io.ferry.rpc.Result;
import io.ferry.rpc.Ticker;
import io.ferry.rpc.RpcException;
import io.ferry.rpc.RpcStatus;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Where a provider runs requests: the dispatcher, and pools of a service's own. Real sockets on 127.0.0.1. */
class DispatchTest {
    /** A second service, to starve. */
    public interface Slow {
        String hold();
    }

    @RegisterExtension
    final ClientExtension clients = new ClientExtension();
    private Server server;

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void theDirectDispatcherRunsServiceCodeOnTheIoThread() throws Exception {
        server = Server.start(ServerOptions.builder().host("127.0.0.1").port(0).dispatcher(Dispatcher.DIRECT).build());
        server.export(ServiceExport.of(Greeter.class,
                invocation -> CompletableFuture.completedFuture(Result.of(Thread.currentThread().getName()))));
        String thread = (String) ClientExtension.call(clients.direct(server.address(), ClientOptions.defaults()), "x");
        assertTrue(thread.startsWith("ferry-server-io"), thread);
    }

    @Test
    void aServiceWithAPoolOfItsOwnCannotStarveTheOthers() throws Exception {
        server = Server.start(ServerOptions.builder().host("127.0.0.1").port(0).threads(1).build());
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch held = new CountDownLatch(1);
        server.export(new ServiceExport(Slow.class, "", "", invocation -> {
            held.countDown();
            try {
                release.await(10, TimeUnit.SECONDS); // keeps its own pool's only thread
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return CompletableFuture.completedFuture(Result.of("late"));
        }, ClassAllowList.none(), null, Map.of(), PoolOptions.fixed(1, 0)));
        server.export(ServiceExport.of(Greeter.class,
                invocation -> CompletableFuture.completedFuture(Result.of(Thread.currentThread().getName()))));
        try {
            ProviderEndpoint slow = clients.client().endpoints(Slow.class, ClassAllowList.none(),
                    ClientOptions.defaults()).open(server.address(), 100, Duration.ZERO);
            CompletableFuture<Result> first = slow.invoke(hold());
            assertTrue(held.await(10, TimeUnit.SECONDS));
            ExecutionException refused = assertThrows(ExecutionException.class,
                    () -> slow.invoke(hold()).get(10, TimeUnit.SECONDS));
            assertEquals(RpcStatus.THREADPOOL_EXHAUSTED, ((RpcException) refused.getCause()).status(),
                    "the slow service's own pool is full");

            ProviderEndpoint greeter = clients.direct(server.address(), ClientOptions.defaults());
            String thread = (String) ClientExtension.call(greeter, "x");
            assertTrue(thread.startsWith("ferry-server-biz"), "the others still run, on the shared pool: " + thread);

            release.countDown();
            assertEquals("late", first.get(10, TimeUnit.SECONDS).value());
            slow.close();
        } finally {
            release.countDown();
        }
    }

    /**
     * A connection's requests reach the pool through a few drainers; requests to a method that blocks must still run
     * side by side, not one after another behind the first. Each call here waits until all eight are running.
     */
    @Test
    void requestsOfOneConnectionToABlockingMethodRunSideBySide() throws Exception {
        server = Server.start(ServerOptions.builder().host("127.0.0.1").port(0).build());
        int calls = 8;
        CountDownLatch running = new CountDownLatch(calls);
        server.export(ServiceExport.of(Slow.class, invocation -> {
            running.countDown();
            try {
                boolean together = running.await(10, TimeUnit.SECONDS);
                return CompletableFuture.completedFuture(Result.of(together ? "together" : "alone"));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return CompletableFuture.completedFuture(Result.of("interrupted"));
            }
        }));
        ProviderEndpoint slow = clients.client().endpoints(Slow.class, ClassAllowList.none(),
                ClientOptions.defaults()).open(server.address(), 100, Duration.ZERO);
        List<CompletableFuture<Result>> answers = new ArrayList<>();
        for (int i = 0; i < calls; i++) {
            answers.add(slow.invoke(hold()));
        }
        for (CompletableFuture<Result> answer : answers) {
            assertEquals("together", answer.get(10, TimeUnit.SECONDS).value());
        }
        slow.close();
    }

    private static Invocation hold() throws NoSuchMethodException {
        return new Invocation(Slow.class.getName(), "", "", Slow.class.getMethod("hold"), new Object[0],
                new HashMap<>(), Deadline.after(Duration.ofSeconds(5), Ticker.system()), false, Runnable::run);
    }
}
