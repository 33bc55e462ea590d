package io.ferry.rpc.config.internal.mock;

import io.ferry.rpc.Invocation;
import io.ferry.rpc.Result;
import io.ferry.rpc.RpcException;
import io.ferry.rpc.RpcStatus;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * What one method's {@code mock} says, read once when the reference is created, after Dubbo's
 * {@code MockInvoker.normalizeMock}: {@code fail:} in front is the same as nothing, {@code force:} answers every call
 * without calling a provider, {@code return} alone is {@code return null}, {@code true}, {@code default},
 * {@code fail} and {@code force} alone name the interface's {@code XxxMock} class, and backquotes in a {@code return}
 * or {@code throw} stand for double quotes. Everything a call would need (a class, its constructor, a value of the
 * return type) is looked up and checked here, so a wrong mock fails the reference's creation, not a call.
 *
 * @param forced  true: the provider is never called
 * @param text    the mock as written, for messages
 * @param answer  what answers the call
 */
record MockPlan(boolean forced, String text, Answer answer) {
    /** The message of the exceptions {@code throw} makes, Dubbo's own words. */
    static final String DEGRADED = "mocked exception for service degradation.";

    /** Answers one call; {@code failure} is the real call's error, or null when the mock is forced. */
    interface Answer {
        CompletableFuture<Result> answer(Invocation invocation, RpcException failure);
    }

    /**
     * The plan of {@code method}, or null for none ({@code false}).
     *
     * @param mockInstance the interface's mock objects, made once per class and reference
     * @throws IllegalArgumentException saying what is wrong, to be put after "mock: "
     */
    static MockPlan of(String written, Method method, MockInstances mockInstance) {
        String text = written.strip();
        if (text.equals("false")) {
            return null;
        }
        boolean forced = text.equals("force") || text.startsWith("force:");
        String mock = normalize(text);
        if (mock.startsWith("return ")) {
            Supplier<Object> value = valueOf(mock.substring("return ".length()).strip(), method, written);
            return new MockPlan(forced, written, (invocation, failure) ->
                    CompletableFuture.completedFuture(Result.of(value.get())));
        }
        if (mock.equals("throw")) {
            return new MockPlan(forced, written, MockPlan::degraded);
        }
        if (mock.startsWith("throw ")) {
            Constructor<?> exception = exception(mock.substring("throw ".length()).strip(), method);
            return new MockPlan(forced, written, (invocation, failure) -> thrown(exception, failure));
        }
        if (mock.startsWith("return") || mock.startsWith("throw")) {
            throw new IllegalArgumentException("'" + written + "' (expected: return <value>, throw or throw "
                    + "<exception class>, with a space after return or throw)");
        }
        // the reference's interface, not the method's: an inherited method is answered by the same XxxMock
        Object target = mockInstance.of(mock.equals("default") ? mockInstance.serviceInterface().getName() + "Mock"
                : mock, mock.equals("default"));
        return new MockPlan(forced, written, (invocation, failure) -> call(target, invocation));
    }

    private static String normalize(String text) {
        String mock = text;
        if (mock.equals("return")) {
            return "return null";
        }
        if (mock.equals("true") || mock.equals("default") || mock.equals("fail") || mock.equals("force")) {
            return "default";
        }
        if (mock.startsWith("fail:")) {
            mock = mock.substring("fail:".length()).strip();
        } else if (mock.startsWith("force:")) {
            mock = mock.substring("force:".length()).strip();
        }
        if (mock.equals("return")) {
            return "return null";
        }
        if (mock.equals("true") || mock.equals("default")) {
            return "default";
        }
        return mock.startsWith("return") || mock.startsWith("throw") ? mock.replace('`', '"') : mock;
    }

    /** The type a {@code return} value must be: the method's, or the {@code V} of its {@code CompletableFuture<V>}. */
    static Type valueType(Method method) {
        if (CompletableFuture.class.isAssignableFrom(method.getReturnType())) {
            Type generic = method.getGenericReturnType();
            return generic instanceof ParameterizedType p ? p.getActualTypeArguments()[0] : Object.class;
        }
        return method.getGenericReturnType();
    }

    /** A {@code return} value; any for a void method, whose answer is no value, as Dubbo's. */
    private static Supplier<Object> valueOf(String value, Method method, String written) {
        Type type = valueType(method);
        if (type == void.class || type == Void.class) {
            return () -> null;
        }
        try {
            return MockValue.parse(value, type);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("'" + written.strip() + "' for " + method.getName() + "(), which "
                    + "returns " + type.getTypeName() + " (expected: " + e.getMessage() + ")", e);
        }
    }

    /** {@code throw} alone: an RpcException, of the real failure's status, or refusing a forced call unsent. */
    private static CompletableFuture<Result> degraded(Invocation invocation, RpcException failure) {
        if (failure == null) {
            return CompletableFuture.failedFuture(RpcException.notExecuted(RpcStatus.ILLEGAL_STATE, DEGRADED + " "
                    + invocation.description() + " is forced to throw (mock), no provider was called", null));
        }
        String message = DEGRADED + " " + invocation.description() + " failed: " + failure.getMessage();
        return CompletableFuture.failedFuture(failure.isNotExecuted()
                ? RpcException.notExecuted(failure.status(), message, failure)
                : RpcException.mayHaveRun(failure.status(), message, failure));
    }

    private static Constructor<?> exception(String className, Method method) {
        Class<?> type = load(className, method.getDeclaringClass()); // beside the interface, in its class loader
        if (!Throwable.class.isAssignableFrom(type)) {
            throw new IllegalArgumentException("'throw " + className + "': not a Throwable (expected: an exception "
                    + "class)");
        }
        boolean checked = !RuntimeException.class.isAssignableFrom(type) && !Error.class.isAssignableFrom(type);
        if (checked && java.util.Arrays.stream(method.getExceptionTypes()).noneMatch(d -> d.isAssignableFrom(type))) {
            throw new IllegalArgumentException("'throw " + className + "': a checked exception that "
                    + method.getName() + "() does not declare (expected: an unchecked exception, or one the method "
                    + "throws)");
        }
        try {
            Constructor<?> constructor = type.getConstructor(String.class);
            if (Modifier.isAbstract(type.getModifiers())) {
                throw new NoSuchMethodException(type.getName() + " is abstract");
            }
            return constructor;
        } catch (NoSuchMethodException e) {
            throw new IllegalArgumentException("'throw " + className + "': no public constructor "
                    + type.getSimpleName()
                    + "(String) (expected: an exception made with its message, as Dubbo makes it)");
        }
    }

    private static CompletableFuture<Result> thrown(Constructor<?> constructor, RpcException failure) {
        Throwable t;
        try {
            t = (Throwable) constructor.newInstance(DEGRADED);
        } catch (InvocationTargetException e) {
            t = e.getCause();
        } catch (ReflectiveOperationException e) {
            t = new RpcException(RpcStatus.ILLEGAL_STATE, "mock cannot make " + constructor.getName() + ": " + e, e);
        }
        if (failure != null && t.getCause() == null) {
            try {
                t.initCause(failure); // the real error stays readable in the stack trace
            } catch (IllegalStateException | IllegalArgumentException ignored) {
                // the exception set its cause itself
            }
        }
        return CompletableFuture.failedFuture(t);
    }

    /** Calls the mock object's implementation of the method; its future, for a method that returns one. */
    @SuppressWarnings("unchecked")
    private static CompletableFuture<Result> call(Object target, Invocation invocation) {
        Object value;
        try {
            value = invocation.method().invoke(target, invocation.arguments());
        } catch (InvocationTargetException e) {
            return CompletableFuture.failedFuture(e.getCause());
        } catch (IllegalAccessException | RuntimeException e) {
            return CompletableFuture.failedFuture(new RpcException(RpcStatus.ILLEGAL_STATE, "mock "
                    + target.getClass().getName() + " cannot answer " + invocation.description() + ": " + e, e));
        }
        if (CompletableFuture.class.isAssignableFrom(invocation.method().getReturnType())) {
            if (value == null) {
                return CompletableFuture.failedFuture(new RpcException(RpcStatus.ILLEGAL_STATE, "mock "
                        + target.getClass().getName() + " answered " + invocation.description()
                        + " with no future (expected: a CompletableFuture)"));
            }
            return ((CompletableFuture<Object>) value).thenApply(Result::of);
        }
        return CompletableFuture.completedFuture(Result.of(value));
    }

    static Class<?> load(String className, Class<?> beside) {
        try {
            return Class.forName(className, false, beside.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            throw new IllegalArgumentException("'" + className + "': no such class (expected: a class on the class "
                    + "path)");
        }
    }
}
