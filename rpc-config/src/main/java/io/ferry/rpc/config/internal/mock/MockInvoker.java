package io.ferry.rpc.config.internal.mock;

import io.ferry.rpc.Invocation;
import io.ferry.rpc.Invoker;
import io.ferry.rpc.Result;
import io.ferry.rpc.RpcException;
import io.ferry.rpc.RpcStatus;
import io.ferry.rpc.Ticker;
import io.ferry.rpc.config.option.Options;
import io.ferry.rpc.config.option.Resolved;
import io.ferry.rpc.config.option.Settings;
import io.ferry.rpc.spi.LogLimiter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Dubbo's {@code mock} on a reference: around the reference's whole chain (its filters, then the cluster), it lets
 * each call through and, when the call fails with an {@link RpcException} (no provider, a timeout, a lost or
 * refused connection, a provider refusing it, a limit, ...), answers it with the method's mock instead. A call
 * that fails with anything else, the service's own exception, fails as it is. A forced mock ({@code force:})
 * answers every call and never lets one through.
 *
 * <p>Sync, async and one-way calls pass here alike (one future). The mock answers once the real call has failed,
 * and that is within the call's one deadline: the cluster's attempts all share it. A mock object's
 * {@code CompletableFuture} not complete by the deadline is not waited for: the call fails with the real error (a
 * forced call with {@code TIMEOUT}). A mock object's code runs on the call's executor (the caller's thread for a
 * synchronous call, the callback executor for an asynchronous one), never on an IO thread or a timer.
 */
public final class MockInvoker implements Invoker {
    private static final Logger log = LoggerFactory.getLogger(MockInvoker.class);

    private final Invoker next;
    private final Map<Method, MockPlan> plans;
    private final ScheduledExecutorService timer;
    private final LogLimiter answered;

    private MockInvoker(Invoker next, Map<Method, MockPlan> plans, ScheduledExecutorService timer, Ticker ticker) {
        this.next = next;
        this.plans = Map.copyOf(plans);
        this.timer = timer;
        this.answered = new LogLimiter(1, ticker);
    }

    /**
     * The plans of every method of the interface, read from {@code resolved}'s {@code mock} and checked: empty when
     * no method has one. Call before anything of the reference is opened.
     *
     * @throws IllegalArgumentException naming where the mock was set, the option, the method and what is wrong
     */
    public static Plans plans(Class<?> serviceInterface, Resolved resolved) {
        Map<Method, MockPlan> plans = new HashMap<>();
        MockInstances instances = new MockInstances(serviceInterface);
        for (Method method : serviceInterface.getMethods()) {
            if (method.getDeclaringClass() == Object.class || Modifier.isStatic(method.getModifiers())) {
                continue;
            }
            String mock = resolved.get(Options.MOCK, method);
            if (mock == null) {
                continue;
            }
            try {
                MockPlan plan = MockPlan.of(mock, method, instances);
                if (plan != null) {
                    plans.put(method, plan);
                }
            } catch (IllegalArgumentException e) {
                Settings.Setting setting = resolved.setting(Options.MOCK, method);
                String where = setting.where();
                boolean wholeReference = mock.strip().matches("((fail|force):)?\\s*return(\\s.*)?")
                        && setting.equals(resolved.setting(Options.MOCK, null));
                if (wholeReference) {
                    // Dubbo files put "return null" on references with int methods: those methods go without a
                    // mock (Dubbo's fail their calls later), the file still starts, and the log says which
                    log.warn("{}mock: {}; {}() has no mock: its failures reach the caller (a mock of the method's "
                            + "own, <method name=\"{}\" mock=...>, would answer them)", where.isEmpty() ? ""
                            : where + ": ", e.getMessage(), method.getName(), method.getName());
                    continue;
                }
                throw new IllegalArgumentException((where.isEmpty() ? "" : where + ": ") + "mock: "
                        + e.getMessage(), e);
            }
        }
        return new Plans(plans);
    }

    /** The checked mocks of a reference's methods. */
    public static final class Plans {
        private final Map<Method, MockPlan> byMethod;

        private Plans(Map<Method, MockPlan> byMethod) {
            this.byMethod = byMethod;
        }

        public boolean isEmpty() {
            return byMethod.isEmpty();
        }

        /** The methods whose every call the mock answers without calling a provider, as "greet: force:return null". */
        public String forced() {
            StringBuilder sb = new StringBuilder();
            byMethod.forEach((method, plan) -> {
                if (plan.forced()) {
                    sb.append(sb.length() == 0 ? "" : ", ").append(method.getName()).append(": ").append(plan.text());
                }
            });
            return sb.toString();
        }

        /** Whether every one of {@code methods} is forced: no call of the reference ever reaches a provider. */
        public boolean forcesAll(java.util.Collection<Method> methods) {
            return !methods.isEmpty() && methods.stream().allMatch(m -> byMethod.containsKey(m)
                    && byMethod.get(m).forced());
        }

        /** {@code chain} with the mocks around it; {@code chain} itself when there are none. */
        public Invoker around(Invoker chain, ScheduledExecutorService timer, Ticker ticker) {
            return byMethod.isEmpty() ? chain : new MockInvoker(chain, byMethod, timer, ticker);
        }
    }

    @Override
    public CompletableFuture<Result> invoke(Invocation invocation) {
        MockPlan plan = plans.get(invocation.method());
        if (plan == null) {
            return next.invoke(invocation);
        }
        if (plan.forced()) {
            return answer(plan, invocation, null);
        }
        CompletableFuture<Result> real;
        try {
            real = next.invoke(invocation);
        } catch (RuntimeException e) {
            real = CompletableFuture.failedFuture(e);
        }
        if (real.isDone()) { // failed before anything was sent: answer on the caller's thread, as the failure came
            return real.exceptionallyCompose(error -> fallback(plan, invocation, error));
        }
        // a later failure completes where the transport or a timer completes it: the mock runs on the call's executor
        return real.exceptionallyComposeAsync(error -> fallback(plan, invocation, error), invocation.executor());
    }

    private CompletableFuture<Result> fallback(MockPlan plan, Invocation invocation, Throwable error) {
        Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        if (!(cause instanceof RpcException failure)) {
            return CompletableFuture.failedFuture(cause); // the service's own exception: never mocked
        }
        long skipped = answered.tryLog();
        if (skipped >= 0) {
            log.warn("mock '{}' answers {} of {}, which failed: {}{}", plan.text(), invocation.description(),
                    invocation.service(), failure.toString(), skipped > 0 ? " (" + skipped + " more not logged)" : "");
        }
        return answer(plan, invocation, failure);
    }

    /** The mock's answer, held to the call's deadline when it is a future still running. */
    private CompletableFuture<Result> answer(MockPlan plan, Invocation invocation, RpcException failure) {
        CompletableFuture<Result> answer;
        try {
            answer = plan.answer().answer(invocation, failure);
        } catch (RuntimeException e) {
            answer = CompletableFuture.failedFuture(e);
        }
        if (answer.isDone() || invocation.deadline().isNone()) {
            return answer;
        }
        CompletableFuture<Result> bounded = new CompletableFuture<>();
        long left = Math.max(0, invocation.deadline().remainingNanos());
        ScheduledFuture<?> late = timer.schedule(() -> complete(invocation, bounded, null,
                late(plan, invocation, failure)), left, TimeUnit.NANOSECONDS);
        answer.whenComplete((result, error) -> {
            late.cancel(false);
            complete(invocation, bounded, result, error instanceof CompletionException && error.getCause() != null
                    ? error.getCause() : error);
        });
        return bounded;
    }

    private static RpcException late(MockPlan plan, Invocation invocation, RpcException failure) {
        String message = "mock '" + plan.text() + "' did not answer " + invocation.description()
                + " within its timeout of " + invocation.deadline().timeoutMillis() + " ms";
        if (failure == null) {
            return RpcException.notExecuted(RpcStatus.TIMEOUT, message + " (forced: no provider was called)", null);
        }
        failure.addSuppressed(new RpcException(RpcStatus.TIMEOUT, message));
        return failure;
    }

    /** Completes on the call's executor, never on the timer or a thread of the mock's. */
    private static void complete(Invocation invocation, CompletableFuture<Result> future, Result result,
                                 Throwable error) {
        Runnable task = () -> {
            if (error == null) {
                future.complete(result);
            } else {
                future.completeExceptionally(error);
            }
        };
        try {
            invocation.executor().execute(task);
        } catch (RejectedExecutionException e) {
            task.run();
        }
    }
}
