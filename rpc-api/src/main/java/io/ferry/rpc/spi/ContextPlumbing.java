package io.ferry.rpc.spi;

import io.ferry.rpc.Deadline;
import io.ferry.rpc.PeerIdentity;
import io.ferry.rpc.RpcContext;

import java.net.SocketAddress;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * For Ferry's own modules, not for applications: what the call path does to a thread's {@link RpcContext} around a
 * call (take what the user set for the next call, fill and clear a provider call's context). Kept off
 * {@code RpcContext}'s public surface, which holds only what users call; {@code RpcContext} lends these operations
 * here when it loads.
 */
public final class ContextPlumbing {
    /** The operations {@code RpcContext} lends; only its own implementation is accepted. */
    public interface Access {
        Map<String, Object> takeOutgoingAttachments(RpcContext context);

        Duration takeTimeout(RpcContext context);

        boolean isAsyncRequested(RpcContext context);

        void offerAsync(RpcContext context, CompletableFuture<?> future);

        void setFuture(RpcContext context, CompletableFuture<?> future);

        void enterProviderCall(RpcContext context, Map<String, Object> attachments, Deadline deadline,
                               SocketAddress from, PeerIdentity identity);

        Map<String, Object> exitProviderCall(RpcContext context);

        void setResponseAttachments(RpcContext context, Map<String, Object> attachments);
    }

    private static volatile Access access;

    private ContextPlumbing() {
    }

    /**
     * Called by {@code RpcContext} as it loads.
     *
     * @throws IllegalStateException for any other caller, or a second time
     */
    public static synchronized void install(Access lent) {
        if (lent.getClass().getNestHost() != RpcContext.class || access != null) {
            throw new IllegalStateException("ContextPlumbing is lent by RpcContext alone, once");
        }
        access = lent;
    }

    private static Access access() {
        Access lent = access;
        if (lent == null) {
            RpcContext.current(); // loads RpcContext, which installs its access
            lent = access;
        }
        return lent;
    }

    /**
     * Consumer side: returns and clears the attachments set for the next call: a new mutable map the caller keeps,
     * or an immutable empty one when none were set.
     */
    public static Map<String, Object> takeOutgoingAttachments(RpcContext context) {
        return access().takeOutgoingAttachments(context);
    }

    /** Consumer side: returns and clears the timeout override for the next call, or null. */
    public static Duration takeTimeout(RpcContext context) {
        return access().takeTimeout(context);
    }

    /** Consumer side: inside {@code RpcContext.async}: the proxy returns at once and offers its future. */
    public static boolean isAsyncRequested(RpcContext context) {
        return access().isAsyncRequested(context);
    }

    /** Consumer side: the future of the call made inside {@code RpcContext.async}. */
    public static void offerAsync(RpcContext context, CompletableFuture<?> future) {
        access().offerAsync(context, future);
    }

    /** Consumer side: the future of a call to a method configured async, for {@code RpcContext.future()}. */
    public static void setFuture(RpcContext context, CompletableFuture<?> future) {
        access().setFuture(context, future);
    }

    /** Consumer side: the attachments that came back with a synchronous answer, for the caller to read. */
    public static void setResponseAttachments(RpcContext context, Map<String, Object> attachments) {
        access().setResponseAttachments(context, attachments);
    }

    /**
     * Provider side: the call being served, while its business code runs on this thread; {@code identity} is the
     * consumer's verified certificate identity, or null when its connection is not mutual TLS.
     */
    public static void enterProviderCall(RpcContext context, Map<String, Object> attachments, Deadline deadline,
                                         SocketAddress from, PeerIdentity identity) {
        access().enterProviderCall(context, attachments, deadline, from, identity);
    }

    /** Provider side: ends the call; returns the response attachments it set and clears the context. */
    public static Map<String, Object> exitProviderCall(RpcContext context) {
        return access().exitProviderCall(context);
    }
}
