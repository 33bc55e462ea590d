package io.ferry.rpc.spi;

import io.ferry.rpc.Deadline;
import io.ferry.rpc.RpcContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The context operations the call path performs, off RpcContext's public surface. */
class ContextPlumbingTest {
    private final RpcContext context = RpcContext.current();

    @AfterEach
    void clear() {
        ContextPlumbing.exitProviderCall(context);
        ContextPlumbing.takeOutgoingAttachments(context);
        ContextPlumbing.takeTimeout(context);
    }

    @Test
    void whatTheUserSetsForTheNextCallIsTakenOnce() {
        context.setAttachment("trace", "t1").setTimeout(Duration.ofSeconds(3));

        assertEquals(Map.of("trace", "t1"), ContextPlumbing.takeOutgoingAttachments(context));
        assertEquals(Duration.ofSeconds(3), ContextPlumbing.takeTimeout(context));
        assertEquals(Map.of(), ContextPlumbing.takeOutgoingAttachments(context), "cleared by the call that took it");
        assertNull(ContextPlumbing.takeTimeout(context));
    }

    @Test
    void aProviderCallFillsTheContextAndLeavesNothingBehind() {
        InetSocketAddress consumer = new InetSocketAddress("127.0.0.1", 40000);
        ContextPlumbing.enterProviderCall(context, Map.of("k", "v"), Deadline.none(), consumer, null);
        context.setResponseAttachment("answer", "a");
        assertEquals(Map.of("k", "v"), context.requestAttachments());
        assertEquals(consumer, context.remoteAddress());
        assertTrue(context.peerIdentity().isEmpty(), "no certificate, no identity");

        assertEquals(Map.of("answer", "a"), ContextPlumbing.exitProviderCall(context));
        assertEquals(Map.of(), context.requestAttachments());
        assertNull(context.remoteAddress());
    }

    @Test
    void onlyRpcContextLendsItsOperations() {
        ContextPlumbing.Access impostor = new ContextPlumbing.Access() {
            @Override
            public Map<String, Object> takeOutgoingAttachments(RpcContext c) {
                return Map.of("stolen", true);
            }

            @Override
            public Duration takeTimeout(RpcContext c) {
                return null;
            }

            @Override
            public boolean isAsyncRequested(RpcContext c) {
                return false;
            }

            @Override
            public void offerAsync(RpcContext c, java.util.concurrent.CompletableFuture<?> future) {
            }

            @Override
            public void setFuture(RpcContext c, java.util.concurrent.CompletableFuture<?> future) {
            }

            @Override
            public void enterProviderCall(RpcContext c, Map<String, Object> a, Deadline d, java.net.SocketAddress f,
                                          io.ferry.rpc.PeerIdentity i) {
            }

            @Override
            public Map<String, Object> exitProviderCall(RpcContext c) {
                return Map.of();
            }

            @Override
            public void setResponseAttachments(RpcContext c, Map<String, Object> attachments) {
            }
        };
        assertThrows(IllegalStateException.class, () -> ContextPlumbing.install(impostor));
    }

    @Test
    void rpcContextsPublicMethodsAreTheUsersOnly() {
        List<String> framework = List.of("takeOutgoingAttachments", "takeTimeout", "isAsyncRequested", "offerAsync",
                "enterProviderCall", "exitProviderCall", "setResponseAttachments");
        List<String> exposed = Arrays.stream(RpcContext.class.getDeclaredMethods())
                .filter(m -> Modifier.isPublic(m.getModifiers())).map(Method::getName)
                .filter(framework::contains).toList();
        assertTrue(exposed.isEmpty(), "framework operations on RpcContext's public surface: " + exposed);
    }
}
