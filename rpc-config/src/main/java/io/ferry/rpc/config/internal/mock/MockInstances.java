package io.ferry.rpc.config.internal.mock;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Modifier;
import java.util.HashMap;
import java.util.Map;

/**
 * The mock objects of one reference, one per class its methods name, made once when the reference is created:
 * each must implement the interface and have a public no-argument constructor (Dubbo's rules).
 */
final class MockInstances {
    private final Class<?> serviceInterface;
    private final Map<String, Object> made = new HashMap<>();

    MockInstances(Class<?> serviceInterface) {
        this.serviceInterface = serviceInterface;
    }

    Class<?> serviceInterface() {
        return serviceInterface;
    }

    /**
     * The object of {@code className}, made on first use.
     *
     * @param byConvention true when the class was not named but derived ({@code XxxMock} for {@code mock="true"})
     * @throws IllegalArgumentException saying what is wrong with the class
     */
    Object of(String className, boolean byConvention) {
        Object existing = made.get(className);
        if (existing != null) {
            return existing;
        }
        Class<?> type;
        try {
            type = MockPlan.load(className, serviceInterface);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("'" + className + "': no such class (expected: "
                    + (byConvention ? "a class " + className + " beside " + serviceInterface.getSimpleName()
                    + ", as true or default ask, implementing it" : "return ..., throw ..., true, default, or a class "
                    + "implementing " + serviceInterface.getName()) + ")");
        }
        if (!serviceInterface.isAssignableFrom(type)) {
            throw new IllegalArgumentException("'" + className + "' does not implement " + serviceInterface.getName()
                    + " (expected: a mock class implementing the interface)");
        }
        Object instance = newInstance(type);
        made.put(className, instance);
        return instance;
    }

    private static Object newInstance(Class<?> type) {
        Constructor<?> constructor;
        try {
            constructor = type.getConstructor();
        } catch (NoSuchMethodException e) {
            constructor = null;
        }
        if (constructor == null || Modifier.isAbstract(type.getModifiers())
                || !Modifier.isPublic(type.getModifiers())) {
            throw new IllegalArgumentException("'" + type.getName() + "' has no public no-argument constructor "
                    + "(expected: a public, concrete class with one, as Dubbo makes mocks)");
        }
        try {
            return constructor.newInstance();
        } catch (InvocationTargetException e) {
            throw new IllegalArgumentException("'" + type.getName() + "': its constructor threw "
                    + e.getCause(), e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IllegalArgumentException("'" + type.getName() + "' cannot be made: " + e, e);
        }
    }
}
