package io.ferry.rpc.config.internal;

import io.ferry.rpc.EchoService;
import io.ferry.rpc.RpcContext;
import io.ferry.rpc.RpcException;
import io.ferry.rpc.RpcMethod;
import io.ferry.rpc.RpcStatus;
import io.ferry.rpc.remoting.MethodSchema;
import io.ferry.rpc.remoting.OutboundCall;
import io.ferry.rpc.remoting.ClientTransport;
import io.ferry.rpc.remoting.ServiceSchema;
import io.ferry.rpc.remoting.internal.exchange.Reply;
import io.ferry.rpc.remoting.internal.exchange.ThreadlessExecutor;
import io.ferry.rpc.remoting.internal.transport.Transports;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.UndeclaredThrowableException;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * The proxy behind a reference. One call path: every call becomes an {@link OutboundCall} and a future; a
 * synchronous call then waits on it threadlessly (running its own completion), an asynchronous one returns it
 * (completing on the consumer's callback executor), a one-way call completes when written.
 * {@code toString}, {@code equals} and {@code hashCode} are answered locally.
 */
public final class ReferenceHandler implements InvocationHandler {
    /**
     * What one interface method resolves to, computed once; {@code attachments} are those of a call that adds none
     * of its own (a HashMap, as hessian writes Dubbo's untyped map; shared, never modified).
     */
    public record MethodPlan(MethodSchema schema, long timeoutNanos, boolean oneway,
                             HashMap<String, Object> attachments) {
        MethodPlan withAttachments(Map<String, Object> fixed) {
            HashMap<String, Object> all = new HashMap<>(fixed);
            all.put("timeout", String.valueOf(timeoutNanos / 1_000_000));
            return new MethodPlan(schema, timeoutNanos, oneway, all);
        }
    }

    private static final Object[] NO_ARGUMENTS = new Object[0];

    private final ServiceSchema schema;
    private final CallTarget target;
    private final ClientTransport transport;
    private final Map<Method, MethodPlan> plans;
    private final MethodPlan echoPlan;
    private final Map<String, Object> fixedAttachments;
    private final String version;
    private final String description;

    public ReferenceHandler(Class<?> interfaceType, ServiceSchema schema, CallTarget target,
                            ClientTransport transport, Map<Method, MethodPlan> plans, Duration echoTimeout,
                            String version, String group, String application) {
        this.schema = schema;
        this.target = target;
        this.transport = transport;
        Map<String, Object> fixed = new HashMap<>();
        fixed.put("path", schema.name());
        fixed.put("interface", schema.name());
        this.version = version.isEmpty() ? "0.0.0" : version;
        fixed.put("version", this.version);
        if (!group.isEmpty()) {
            fixed.put("group", group);
        }
        fixed.put("remote.application", application);
        this.fixedAttachments = Map.copyOf(fixed);
        Map<Method, MethodPlan> prepared = new HashMap<>();
        plans.forEach((m, p) -> prepared.put(m, p.withAttachments(fixedAttachments)));
        this.plans = prepared;
        this.echoPlan = new MethodPlan(ServiceSchema.echoMethod(), echoTimeout.toNanos(), false, null)
                .withAttachments(fixedAttachments);
        this.description = "Ferry reference to " + schema.name() + (version.isEmpty() ? "" : ":" + version)
                + (group.isEmpty() ? "" : " group " + group) + " via " + target.describe();
    }

    /** Computes the plan of each method: timeout from the call site down to the consumer default, and one-way. */
    public static MethodPlan plan(MethodSchema schema, Duration methodTimeout, Duration referenceTimeout,
                                  Boolean onewayOverride) {
        RpcMethod annotation = schema.method().getAnnotation(RpcMethod.class);
        Duration timeout = methodTimeout != null ? methodTimeout
                : annotation != null && annotation.timeoutMillis() > 0 ? Duration.ofMillis(annotation.timeoutMillis())
                : referenceTimeout;
        boolean oneway = onewayOverride != null ? onewayOverride : annotation != null && annotation.oneway();
        if (oneway && schema.method().getReturnType() != void.class) {
            throw new IllegalArgumentException("oneway: " + schema.method() + " (expected: a void method)");
        }
        return new MethodPlan(schema, timeout.toNanos(), oneway, null);
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
        if (method.getDeclaringClass() == Object.class) {
            return local(proxy, method, args);
        }
        MethodPlan plan = method.getDeclaringClass() == EchoService.class ? echoPlan : plans.get(method);
        if (plan == null) {
            throw new RpcException(RpcStatus.ILLEGAL_STATE, "not a remote method: " + method);
        }
        RpcContext context = RpcContext.current();
        Duration override = context.takeTimeout();
        long timeoutNanos = override != null ? override.toNanos() : plan.timeoutNanos();
        Map<String, Object> own = context.takeOutgoingAttachments();
        Map<String, Object> attachments = plan.attachments();
        if (!own.isEmpty() || override != null) {
            HashMap<String, Object> merged = new HashMap<>(own);
            merged.putAll(fixedAttachments);
            merged.put("timeout", String.valueOf(timeoutNanos / 1_000_000));
            attachments = merged;
        }
        OutboundCall call = new OutboundCall(schema, plan.schema(), version, args == null ? NO_ARGUMENTS : args,
                attachments, timeoutNanos, plan.oneway());

        boolean asyncMethod = plan.schema().isAsync();
        if (asyncMethod || context.isAsyncRequested()) {
            CompletableFuture<Object> future = target.invoke(call, transport.callbackExecutor())
                    .thenApply(Reply::value);
            if (asyncMethod) {
                return future;
            }
            context.offerAsync(future);
            return defaultValue(method.getReturnType());
        }
        return waitFor(call, context, method);
    }

    private Object waitFor(OutboundCall call, RpcContext context, Method method) throws Throwable {
        if (Transports.inEventLoop()) {
            throw new RpcException(RpcStatus.ILLEGAL_STATE, "synchronous call of " + call.description()
                    + " on IO thread " + Thread.currentThread().getName()
                    + ": it would block the event loop; call it asynchronously instead");
        }
        ThreadlessExecutor executor = new ThreadlessExecutor(transport.callbackExecutor());
        CompletableFuture<Reply> future = target.invoke(call, executor);
        try {
            executor.runUntilDone(future);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RpcException(RpcStatus.ILLEGAL_STATE, "interrupted while waiting for " + call.description());
        }
        try {
            Reply reply = future.join();
            context.setResponseAttachments(reply.attachments());
            return reply.value();
        } catch (CompletionException e) {
            throw throwable(e.getCause(), method);
        }
    }

    /** Rethrows as the method may: unchecked as is, declared checked as is, anything else wrapped. */
    private static Throwable throwable(Throwable t, Method method) {
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
                return description;
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
