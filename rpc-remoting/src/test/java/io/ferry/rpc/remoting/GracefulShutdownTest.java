package io.ferry.rpc.remoting;

import io.ferry.rpc.testkit.StandardErrorLines;
import static io.ferry.rpc.remoting.ClientExtension.hello;
import io.ferry.rpc.Result;
import io.ferry.rpc.RpcException;
import io.ferry.rpc.RpcStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The provider's graceful shutdown, seen by a consumer with calls in flight. */
class GracefulShutdownTest {
    @RegisterExtension
    final ClientExtension clients = new ClientExtension();

    /** Calls the test completes by hand: they stay in flight until it does. */
    private final BlockingQueue<CompletableFuture<Object>> held = new LinkedBlockingQueue<>();

    private Server start() {
        Server server = Server.start(ServerOptions.builder().host("127.0.0.1").port(0)
                .shutdown(Duration.ZERO, Duration.ofSeconds(10)).build());
        server.export(ServiceExport.of(Greeter.class, invocation -> {
            CompletableFuture<Object> answer = new CompletableFuture<>();
            held.add(answer);
            return answer.thenApply(Result::of);
        }));
        return server;
    }

    /** The service's side of the calls in flight, to complete by hand. */
    private final List<CompletableFuture<Object>> running = new ArrayList<>();

    private List<CompletableFuture<Result>> threeCallsInFlight(ProviderEndpoint client) throws Exception {
        List<CompletableFuture<Result>> calls = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            calls.add(client.invoke(hello("" + i, 20_000)));
        }
        for (int i = 0; i < 3; i++) {
            CompletableFuture<Object> reached = held.poll(10, TimeUnit.SECONDS);
            assertTrue(reached != null, "call " + i + " reached the service");
            running.add(reached);
        }
        return calls;
    }

    @Test
    void callsInFlightAreAnsweredAndLateOnesAreRefusedUnrun() throws Exception {
        Server server = start();
        String at = server.address().toString();
        try (StandardErrorLines log = new StandardErrorLines();
             ProviderEndpoint client = clients.direct(server.address(), ClientOptions.builder().connections(1)
                .build())) {
            List<CompletableFuture<Result>> inFlight = threeCallsInFlight(client);
            Thread shutdown = new Thread(server::shutdownGracefully, "shutdown");
            shutdown.start();

            await("the provider announced it is shutting down (the readonly event)").atMost(Duration.ofSeconds(10))
                    .until(() -> !client.isReady());

            ExecutionException late = assertThrows(ExecutionException.class,
                    () -> client.invoke(hello("late", 20_000)).get(10, TimeUnit.SECONDS));
            RpcException refused = (RpcException) late.getCause();
            assertEquals(RpcStatus.SHUTTING_DOWN, refused.status());
            assertTrue(refused.isNotExecuted(), "safe to send elsewhere");
            assertTrue(shutdown.isAlive(), "still draining the three calls in flight");

            // the service finishes its three calls: their answers still go out
            running.forEach(a -> a.complete("done"));
            for (CompletableFuture<Result> call : inFlight) {
                assertEquals("done", call.get(10, TimeUnit.SECONDS).value());
            }
            shutdown.join(10_000);
            assertFalse(shutdown.isAlive(), "the drain ended when the last call was answered");
            log.inOrder(at + ": stopped accepting; readonly event sent to 1 consumer connection(s)",
                    at + ": waiting up to 10000 ms for 3 call(s) in flight", at + ": closed in ");
        } finally {
            server.close();
        }
    }

    @Test
    void anAbruptCloseFailsTheCallsInFlight() throws Exception {
        Server server = start();
        try (ProviderEndpoint client = clients.direct(server.address(), ClientOptions.builder().connections(1)
                .build())) {
            List<CompletableFuture<Result>> inFlight = threeCallsInFlight(client);
            server.close();
            for (CompletableFuture<Result> call : inFlight) {
                ExecutionException e = assertThrows(ExecutionException.class, () -> call.get(10, TimeUnit.SECONDS));
                assertEquals(RpcStatus.NETWORK, ((RpcException) e.getCause()).status());
            }
        } finally {
            running.forEach(f -> f.complete("too late"));
        }
    }

    @Test
    void withNoConsumerConnectedThereIsNoGraceToWaitOut() {
        Server server = Server.start(ServerOptions.builder().host("127.0.0.1").port(0)
                .shutdown(Duration.ofHours(1), Duration.ofSeconds(10)).build());
        String at = server.address().toString();
        try (StandardErrorLines log = new StandardErrorLines()) {
            server.shutdownGracefully(); // with an hour's grace: returning at all shows it was not waited out
            log.inOrder(at + ": stopped accepting; no consumer connected, so no readonly event and no grace period",
                    at + ": closed in ");
            assertEquals(List.of(), log.containing("readonly event sent"));
        }
    }

    @Test
    void theGraceEndsWhenTheLastConsumerConnectionCloses() throws Exception {
        Server server = Server.start(ServerOptions.builder().host("127.0.0.1").port(0)
                .shutdown(Duration.ofHours(1), Duration.ofSeconds(10)).build());
        String at = server.address().toString();
        try (StandardErrorLines log = new StandardErrorLines()) {
            ProviderEndpoint client = clients.direct(server.address(), ClientOptions.builder().connections(1)
                    .build());
            client.whenReady().get(10, TimeUnit.SECONDS);
            CompletableFuture<Void> shutdown = CompletableFuture.runAsync(server::shutdownGracefully);
            await("the provider announced it is shutting down (the readonly event)").atMost(Duration.ofSeconds(10))
                    .until(() -> !client.isReady());
            assertFalse(shutdown.isDone(), "serving the connected consumer through the grace period");

            client.close();
            shutdown.get(1, TimeUnit.MINUTES); // an hour's grace: finishing at all shows it ended early
            log.inOrder(at + ": stopped accepting; readonly event sent to 1 consumer connection(s)",
                    at + ": every consumer connection closed within the grace period", at + ": closed in ");
            assertEquals(List.of(), log.containing("call(s) in flight"), "none was in flight");
        } finally {
            server.close();
        }
    }

    @Test
    void readonlyWithoutShutdownIsWhatTheViewAndTheCountsBothSay() throws Exception {
        Server server = start();
        try (ProviderEndpoint client = clients.direct(server.address(), ClientOptions.builder().connections(1)
                .build())) {
            await("connected").atMost(Duration.ofSeconds(10)).until(client::isReady);
            assertEquals(1, server.connectionCounts().get(ConnectionInfo.State.READY));

            assertEquals(1, server.announceReadonly());
            await("the consumer heard it").atMost(Duration.ofSeconds(10)).until(() -> !client.isReady());
            assertEquals(ConnectionInfo.State.READONLY, server.connectionView().connections().get(0).state());
            assertEquals(1, server.connectionCounts().get(ConnectionInfo.State.READONLY));
            assertEquals(0, server.connectionCounts().get(ConnectionInfo.State.READY));

            server.announceWritable();
            await("ready again").atMost(Duration.ofSeconds(10)).until(client::isReady);
            assertEquals(1, server.connectionCounts().get(ConnectionInfo.State.READY));
        } finally {
            server.close();
        }
    }
}
