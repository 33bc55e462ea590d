package io.ferry.rpc.config.internal.mock;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Modifier;
import java.util.function.UnaryOperator;

/**
 * Dubbo's {@code stub}: a class of the consumer's own that implements the interface and is made with a public
 * constructor taking the reference's proxy, so that it can check arguments, cache or catch around the remote calls.
 * The reference handed out is the stub. {@code true} or {@code default} name the interface's {@code XxxStub} class.
 */
public final class Stubs {
    private Stubs() {
    }

    /**
     * What wraps the proxy, checked now; null for none ({@code stub} unset or {@code false}).
     *
     * @param where where {@code stub} was set, for the message
     * @throws IllegalArgumentException naming where, the option, the class and what is wrong with it
     */
    public static <T> UnaryOperator<T> of(Class<T> serviceInterface, String stub, String where) {
        if (stub == null || stub.strip().equals("false")) {
            return null;
        }
        String written = stub.strip();
        boolean byConvention = written.equals("true") || written.equals("default");
        String className = byConvention ? serviceInterface.getName() + "Stub" : written;
        String prefix = (where.isEmpty() ? "" : where + ": ") + "stub: '" + className + "'";
        Class<?> type;
        try {
            type = MockPlan.load(className, serviceInterface);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(prefix + ": no such class (expected: "
                    + (byConvention ? "a class " + className + " beside " + serviceInterface.getSimpleName()
                    + ", as " + written + " asks" : "true, default or a class on the class path") + ")");
        }
        if (!serviceInterface.isAssignableFrom(type)) {
            throw new IllegalArgumentException(prefix + " does not implement " + serviceInterface.getName()
                    + " (expected: a stub class implementing the interface)");
        }
        Constructor<?> constructor;
        try {
            constructor = type.getConstructor(serviceInterface);
        } catch (NoSuchMethodException e) {
            constructor = null;
        }
        if (constructor == null || Modifier.isAbstract(type.getModifiers())) {
            throw new IllegalArgumentException(prefix + " has no constructor public " + type.getSimpleName() + "("
                    + serviceInterface.getName() + ") (expected: one taking the reference, as Dubbo makes stubs)");
        }
        Constructor<?> make = constructor;
        return proxy -> {
            try {
                return serviceInterface.cast(make.newInstance(proxy));
            } catch (InvocationTargetException e) {
                throw new IllegalArgumentException(prefix + ": its constructor threw " + e.getCause(), e.getCause());
            } catch (ReflectiveOperationException e) {
                throw new IllegalArgumentException(prefix + " cannot be made: " + e, e);
            }
        };
    }
}
