package io.ferry.rpc.config.internal;

import io.ferry.rpc.Deadline;
import io.ferry.rpc.EchoService;
import io.ferry.rpc.GenericService;
import io.ferry.rpc.Invocation;
import io.ferry.rpc.Invoker;
import io.ferry.rpc.Result;
import io.ferry.rpc.RpcContext;
import io.ferry.rpc.RpcException;
import io.ferry.rpc.RpcStatus;
import io.ferry.rpc.Ticker;
import io.ferry.rpc.cluster.Directory;
import io.ferry.rpc.spi.ContextPlumbing;
import io.ferry.rpc.remoting.Client;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.UndeclaredThrowableException;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The proxy behind a reference: turns each method call into an {@link Invocation} with an absolute deadline,
 * computed once here from the call's timeout (and no later than the deadline of the provider call this thread is
 * serving), and hands it to the reference's invoker chain (filters, then the cluster). One call path: a
 * synchronous call waits on the future threadlessly (running its own completion), an asynchronous one returns it
 * (completing on the consumer's callback executor), a one-way call returns without waiting. {@code toString},
 * {@code equals} and {@code hashCode} are answered locally.
 */
public final class ReferenceHandler implements InvocationHandler {
    private static final Logger log = LoggerFactory.getLogger(ReferenceHandler.class);

    /**
     * What one interface method resolves to, computed once.
     *
     * @param timeoutNanos          the method's timeout, when {@code providersTimeoutNanos} is null
     * @param async                 it returns a future
     * @param inContext             it is configured async: it returns at once and leaves its future in
     *                              {@code RpcContext.future()}
     * @param providersTimeoutNanos where the reference sets no timeout for the method: its providers' now (their
     *                              registry URLs'), or the default
     */
    public record MethodPlan(long timeoutNanos, boolean oneway, boolean async, boolean inContext,
                             LongSupplier providersTimeoutNanos) {
        public MethodPlan(long timeoutNanos, boolean oneway, boolean async) {
            this(timeoutNanos, oneway, async, false, null);
        }

        /** The timeout of a call made now. */
        long timeoutNanosNow() {
            return providersTimeoutNanos == null ? timeoutNanos : providersTimeoutNanos.getAsLong();
        }
    }

    private static final Object[] NO_ARGUMENTS = new Object[0];
    /** The attachment that marks a generic call, with Dubbo's default form, POJOs as maps. */
    private static final String GENERIC = "generic";
    private static final Method ECHO;

    static {
        try {
            ECHO = EchoService.class.getMethod("$echo", Object.class);
        } catch (NoSuchMethodException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final String service;
    private final String version;
    private final String group;
    private final String application;
    private final Invoker invoker;
    private final Executor callbacks;
    private final Ticker ticker;
    private final Map<Method, MethodPlan> plans;
    private final MethodPlan echoPlan;
    private final String description;
    private final AtomicLong nextOnewayWarning;
    private final Directory directory;
    private final boolean generic;

    /**
     * Whom a reference calls, as its invocations and its {@code toString} name it: {@code service} is the interface's
     * name, which a generic reference ({@code interfaceType} GenericService) gives as text.
     */
    public record Target(Class<?> interfaceType, String service, String version, String group, String application) {
        public Target(Class<?> interfaceType, String version, String group, String application) {
            this(interfaceType, interfaceType.getName(), version, group, application);
        }

        /** A generic reference: its calls carry Dubbo's {@code generic=true}. */
        boolean generic() {
            return interfaceType == GenericService.class && !service.equals(interfaceType.getName());
        }
    }

    public ReferenceHandler(Target target, Invoker invoker, Executor callbacks, Ticker ticker,
                            Map<Method, MethodPlan> plans, Duration echoTimeout, Directory directory) {
        this.directory = directory;
        this.service = target.service();
        this.generic = target.generic();
        this.version = target.version();
        this.group = target.group();
        this.application = target.application();
        this.invoker = invoker;
        this.callbacks = callbacks;
        this.ticker = ticker;
        this.nextOnewayWarning = new AtomicLong(ticker.nanoTime());
        this.plans = Map.copyOf(plans);
        this.echoPlan = new MethodPlan(echoTimeout.toNanos(), false, false);
        this.description = "Ferry reference to " + service + (version.isEmpty() ? "" : ":" + version)
                + (group.isEmpty() ? "" : " group " + group) + " via ";
    }

    /** The plan of a method: its resolved timeout and one-way setting, and whether it returns a future. */
    public static MethodPlan plan(Method method, Duration timeout, boolean oneway) {
        return plan(method, timeout, oneway, false, null);
    }

    /**
     * As {@link #plan(Method, Duration, boolean)}; {@code async}: configured async (Dubbo's {@code async="true"}),
     * so that a method that does not return a future returns at once and leaves it in {@code RpcContext.future()};
     * the timeout read at each call when {@code fromProviders} is set.
     */
    public static MethodPlan plan(Method method, Duration timeout, boolean oneway, boolean async,
                                  LongSupplier fromProviders) {
        if (oneway && method.getReturnType() != void.class) {
            throw new IllegalArgumentException("oneway: " + method + " (expected: a void method)");
        }
        boolean returnsFuture = CompletableFuture.class.isAssignableFrom(method.getReturnType());
        return new MethodPlan(timeout.toNanos(), oneway, returnsFuture, async && !returnsFuture, fromProviders);
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
        if (method.getDeclaringClass() == Object.class) {
            return local(proxy, method, args);
        }
        boolean echo = method.getDeclaringClass() == EchoService.class;
        MethodPlan plan = echo ? echoPlan : plans.get(method);
        if (plan == null) {
            throw new RpcException(RpcStatus.ILLEGAL_STATE, "not a remote method: " + method);
        }
        RpcContext context = RpcContext.current();
        Duration override = ContextPlumbing.takeTimeout(context);
        Deadline deadline = Deadline.afterNanos(override != null ? override.toNanos() : plan.timeoutNanosNow(), ticker)
                .earlier(context.incomingDeadline());
        Map<String, Object> attachments = ContextPlumbing.takeOutgoingAttachments(context); // this call's own, or empty
        if (attachments.isEmpty()) {
            attachments = new HashMap<>(4);
        }
        attachments.put("remote.application", application);
        if (generic && !echo) {
            attachments.put(GENERIC, "true"); // as Dubbo's generic reference: the provider converts maps for us
        }
        Object[] arguments = args == null ? NO_ARGUMENTS : args;
        Method called = echo ? ECHO : method;

        if (plan.oneway() && !plan.async() && !ContextPlumbing.isAsyncRequested(context)) {
            return sendOneway(new Invocation(service, version, group, called, arguments, attachments, deadline,
                    true, callbacks), method);
        }
        if (plan.async() || plan.inContext() || ContextPlumbing.isAsyncRequested(context)) {
            Invocation invocation = new Invocation(service, version, group, called, arguments, attachments,
                    deadline, plan.oneway(), callbacks);
            CompletableFuture<Object> future = invoker.invoke(invocation).thenApply(result -> {
                // runs on the callback thread that completes the call: stages the caller chained before
                // completion run right after on the same thread and see the answer's attachments
                ContextPlumbing.setResponseAttachments(RpcContext.current(), result.attachments());
                return result.value();
            });
            if (plan.async()) {
                return future;
            }
            if (ContextPlumbing.isAsyncRequested(context)) {
                ContextPlumbing.offerAsync(context, future);
            } else {
                ContextPlumbing.setFuture(context, future); // configured async: Dubbo's RpcContext.getFuture()
            }
            return defaultValue(method.getReturnType());
        }
        if (Client.isIoThread()) {
            throw new RpcException(RpcStatus.ILLEGAL_STATE, "synchronous call of " + service + "."
                    + method.getName() + " on IO thread " + Thread.currentThread().getName()
                    + ": it would block the event loop; call it asynchronously instead");
        }
        ThreadlessExecutor executor = new ThreadlessExecutor(callbacks);
        Invocation invocation = new Invocation(service, version, group, called, arguments, attachments, deadline,
                plan.oneway(), executor);
        return waitFor(invocation, context, method, executor);
    }

    /**
     * A one-way call never waits: it returns once handed over. What fails before anything could be sent (no
     * provider, a payload too large, a provider known to be down) is thrown at once; what fails later is logged,
     * at most once a second, since nobody waits for it.
     */
    private Object sendOneway(Invocation invocation, Method method) throws Throwable {
        CompletableFuture<Result> sent = invoker.invoke(invocation);
        if (sent.isCompletedExceptionally()) {
            try {
                sent.join();
            } catch (CompletionException e) {
                throw throwable(e.getCause(), method);
            }
        }
        sent.whenComplete((r, error) -> {
            long now = ticker.nanoTime();
            long allowed = nextOnewayWarning.get();
            if (error != null && now - allowed >= 0 && nextOnewayWarning.compareAndSet(allowed, now + 1_000_000_000L)) {
                log.warn("one-way call {} was not delivered: {}", invocation.description(), error.toString());
            }
        });
        return null;
    }

    private Object waitFor(Invocation invocation, RpcContext context, Method method, ThreadlessExecutor executor)
            throws Throwable {
        CompletableFuture<Result> future = invoker.invoke(invocation);
        try {
            executor.runUntilDone(future);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RpcException(RpcStatus.ILLEGAL_STATE, "interrupted while waiting for "
                    + invocation.description());
        }
        try {
            Result result = future.join();
            ContextPlumbing.setResponseAttachments(context, result.attachments());
            return result.value();
        } catch (CompletionException e) {
            throw throwable(e.getCause(), method);
        }
    }

    /**
     * Rethrows as the method may: the framework's own exceptions with the caller's stack (the original, with the
     * stack of the thread where the call failed, suppressed in it); unchecked and declared checked exceptions of
     * the service as they are; anything else wrapped.
     */
    private static Throwable throwable(Throwable t, Method method) {
        if (t instanceof RpcException rpc) {
            return rpc.rethrownHere();
        }
        if (t instanceof RuntimeException || t instanceof Error) {
            return t;
        }
        for (Class<?> declared : method.getExceptionTypes()) {
            if (declared.isInstance(t)) {
                return t;
            }
        }
        return new UndeclaredThrowableException(t);
    }

    private Object local(Object proxy, Method method, Object[] args) {
        switch (method.getName()) {
            case "toString":
                return description + directory.describe(); // live: a registry's providers come and go
            case "hashCode":
                return System.identityHashCode(proxy);
            case "equals":
                return proxy == args[0];
            default:
                throw new UnsupportedOperationException(method.toString());
        }
    }

    private static Object defaultValue(Class<?> type) {
        if (!type.isPrimitive() || type == void.class) {
            return null;
        }
        if (type == boolean.class) {
            return false;
        }
        if (type == char.class) {
            return '\0';
        }
        if (type == long.class) {
            return 0L;
        }
        if (type == float.class) {
            return 0f;
        }
        if (type == double.class) {
            return 0d;
        }
        if (type == byte.class) {
            return (byte) 0;
        }
        if (type == short.class) {
            return (short) 0;
        }
        return 0;
    }
}
