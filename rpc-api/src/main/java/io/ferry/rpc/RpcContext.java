package io.ferry.rpc;

import io.ferry.rpc.spi.ContextPlumbing;

import java.net.SocketAddress;
import java.time.Duration;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * The per-thread context of remote calls.
 *
 * <p>On the consumer, what is set here applies to the <em>next</em> call this thread makes, and is cleared by it:
 * <pre>{@code
 * RpcContext.current().setAttachment("trace-id", id).setTimeout(Duration.ofSeconds(3));
 * greeter.hello("ann");                       // carries trace-id, waits up to 3 s
 * RpcContext.current().responseAttachments(); // what the provider sent back with that answer
 *
 * CompletableFuture<String> f = RpcContext.async(() -> greeter.hello("bob")); // a plain method, called async
 *
 * greeter.slowHello("eve");                   // a method configured async="true" returns null at once
 * CompletableFuture<String> g = RpcContext.current().future(); // its outcome, as Dubbo's RpcContext.getFuture()
 * }</pre>
 *
 * <p>On the provider, during a call, {@link #requestAttachments()} holds what the consumer sent and
 * {@link #setResponseAttachment} adds to what goes back. The context belongs to the calling thread; it is not
 * thread-safe and should not be handed to other threads.
 */
public final class RpcContext {
    private static final ThreadLocal<RpcContext> CURRENT = ThreadLocal.withInitial(RpcContext::new);

    private final Map<String, Object> outgoing = new HashMap<>();
    private Duration timeout;
    private boolean asyncRequested;
    private CompletableFuture<?> asyncFuture;
    private CompletableFuture<?> lastAsync;
    private Map<String, Object> requestAttachments = Collections.emptyMap();
    private final Map<String, Object> responseOut = new HashMap<>();
    private Map<String, Object> responseIn = Collections.emptyMap();
    private Deadline incoming = Deadline.none();
    private SocketAddress remoteAddress;
    private PeerIdentity peerIdentity;

    private RpcContext() {
    }

    /** This thread's context. */
    public static RpcContext current() {
        return CURRENT.get();
    }

    /**
     * Calls a plain (non-future) remote method without waiting: the proxy call inside {@code call} returns at once
     * and its outcome completes the returned future, on the consumer's callback executor.
     */
    @SuppressWarnings("unchecked")
    public static <T> CompletableFuture<T> async(Supplier<T> call) {
        RpcContext context = current();
        context.asyncRequested = true;
        context.asyncFuture = null;
        try {
            call.get();
            CompletableFuture<?> future = context.asyncFuture;
            if (future == null) {
                throw new IllegalStateException("RpcContext.async: the supplier made no remote call");
            }
            return (CompletableFuture<T>) future;
        } finally {
            context.asyncRequested = false;
            context.asyncFuture = null;
        }
    }

    /** Adds an attachment to the next call. Values should be Strings or other allow-listed JDK types. */
    public RpcContext setAttachment(String key, Object value) {
        outgoing.put(key, value);
        return this;
    }

    /** Overrides the timeout of the next call only. */
    public RpcContext setTimeout(Duration timeout) {
        if (timeout == null || timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout: " + (timeout == null ? "none" : timeout.toMillis() + "ms")
                    + " (expected: > 0)");
        }
        this.timeout = timeout;
        return this;
    }

    /** Provider side: what the consumer attached to the call being served. */
    public Map<String, Object> requestAttachments() {
        return requestAttachments;
    }

    /**
     * Provider side: the time left before the caller of the request being served gives up, or null when its
     * consumer sent no deadline. Calls made from here inherit what is left (a shorter timeout of their own still
     * applies).
     */
    public Duration remainingTime() {
        return incoming.isNone() ? null : Duration.ofNanos(incoming.remainingNanos());
    }

    /** Provider side: the deadline of the request being served ({@link Deadline#none()} outside one). */
    public Deadline incomingDeadline() {
        return incoming;
    }

    /**
     * Provider side: the address of the consumer connection the request being served came on, or null outside
     * one. The transport's address, never a value the consumer sent.
     */
    public SocketAddress remoteAddress() {
        return remoteAddress;
    }

    /**
     * Provider side: who the consumer of the request being served is, as its client certificate proved on a
     * mutual-TLS connection; empty on a plain or one-way TLS connection, and outside a call. The only identity a
     * rule may trust: attachments such as {@code remote.application} are whatever the consumer chose to send.
     */
    public Optional<PeerIdentity> peerIdentity() {
        return Optional.ofNullable(peerIdentity);
    }

    /** Provider side: adds an attachment to the answer of the call being served. */
    public RpcContext setResponseAttachment(String key, Object value) {
        responseOut.put(key, value);
        return this;
    }

    /**
     * Consumer side: the future of the last call this thread made to a method configured {@code async="true"}
     * (in a file, or {@code Options.ASYNC} on a method, reference or consumer), which returned at once with null,
     * 0 or false: Dubbo's {@code RpcContext.getFuture()}. Null before any such call; the next one replaces it.
     * Its callbacks run on the consumer's callback executor.
     */
    @SuppressWarnings("unchecked")
    public <T> CompletableFuture<T> future() {
        return (CompletableFuture<T>) lastAsync;
    }

    /** Consumer side: the attachments that came back with the last synchronous answer on this thread. */
    public Map<String, Object> responseAttachments() {
        return responseIn;
    }

    // ---- for the framework, lent to ContextPlumbing: take-and-clear operations used around one call ----

    static {
        ContextPlumbing.install(new Plumbing());
    }

    /** What {@link ContextPlumbing} does to a context, on its behalf. */
    private static final class Plumbing implements ContextPlumbing.Access {
        @Override
        public Map<String, Object> takeOutgoingAttachments(RpcContext c) {
            if (c.outgoing.isEmpty()) {
                return Collections.emptyMap();
            }
            Map<String, Object> copy = new HashMap<>(c.outgoing);
            c.outgoing.clear();
            return copy;
        }

        @Override
        public Duration takeTimeout(RpcContext c) {
            Duration t = c.timeout;
            c.timeout = null;
            return t;
        }

        @Override
        public boolean isAsyncRequested(RpcContext c) {
            return c.asyncRequested;
        }

        @Override
        public void offerAsync(RpcContext c, CompletableFuture<?> future) {
            c.asyncFuture = future;
        }

        @Override
        public void setFuture(RpcContext c, CompletableFuture<?> future) {
            c.lastAsync = future;
        }

        @Override
        public void enterProviderCall(RpcContext c, Map<String, Object> attachments, Deadline deadline,
                                      SocketAddress from, PeerIdentity identity) {
            c.requestAttachments = attachments == null ? Collections.emptyMap()
                    : Collections.unmodifiableMap(attachments);
            c.incoming = deadline == null ? Deadline.none() : deadline;
            c.remoteAddress = from;
            c.peerIdentity = identity;
            c.responseOut.clear();
        }

        @Override
        public Map<String, Object> exitProviderCall(RpcContext c) {
            c.requestAttachments = Collections.emptyMap();
            c.incoming = Deadline.none();
            c.remoteAddress = null;
            c.peerIdentity = null;
            if (c.responseOut.isEmpty()) {
                return Collections.emptyMap();
            }
            Map<String, Object> copy = new HashMap<>(c.responseOut);
            c.responseOut.clear();
            return copy;
        }

        @Override
        public void setResponseAttachments(RpcContext c, Map<String, Object> attachments) {
            c.responseIn = attachments == null ? Collections.emptyMap() : Collections.unmodifiableMap(attachments);
        }
    }

    /**
     * This thread's context for diagnostics. Attachments by their keys only: a value may be a credential (Dubbo's
     * {@code token} travels as one), and no credential may appear in a log line.
     */
    @Override
    public String toString() {
        return "RpcContext{timeout=" + (timeout == null ? "none" : timeout.toMillis() + " ms")
                + ", asyncRequested=" + asyncRequested + ", outgoing=" + outgoing.keySet()
                + ", requestAttachments=" + requestAttachments.keySet() + ", responseOut=" + responseOut.keySet()
                + ", responseIn=" + responseIn.keySet() + ", incoming=" + incoming
                + (remoteAddress == null ? "" : ", remoteAddress=" + remoteAddress)
                + (peerIdentity == null ? "" : ", peerIdentity=" + peerIdentity) + "}";
    }
}
