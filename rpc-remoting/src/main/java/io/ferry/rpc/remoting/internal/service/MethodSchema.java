package io.ferry.rpc.remoting.internal.service;

import java.lang.reflect.Method;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.concurrent.CompletableFuture;

/**
 * One service method as the wire names it: its name and its JVM parameter descriptor
 * ({@code Ljava/lang/String;I}), which must equal the provider's signature exactly, and the types its arguments and
 * result are read as. A method returning {@code CompletableFuture<T>} is asynchronous and its result type is T.
 */
public final class MethodSchema {
    private final Method method;
    private final String descriptor;
    private final Class<?> resultType;
    private final Type genericResultType;
    private final boolean async;
    private final String description;
    private final boolean generic;

    MethodSchema(Method method) {
        this.method = method;
        this.description = method.getDeclaringClass().getSimpleName() + "." + method.getName();
        this.generic = method.getDeclaringClass() == io.ferry.rpc.GenericService.class;
        this.descriptor = descriptor(method.getParameterTypes());
        this.async = CompletableFuture.class.isAssignableFrom(method.getReturnType());
        if (async) {
            Type generic = method.getGenericReturnType();
            Type argument = generic instanceof ParameterizedType p ? p.getActualTypeArguments()[0] : Object.class;
            this.genericResultType = argument;
            this.resultType = rawClass(argument);
        } else {
            this.genericResultType = method.getGenericReturnType();
            this.resultType = method.getReturnType();
        }
    }

    public Method method() {
        return method;
    }

    public String name() {
        return method.getName();
    }

    /** "Interface.method", for messages: built once, not per call. */
    public String description() {
        return description;
    }

    /** The JVM descriptor of the parameter types, as Dubbo's {@code ReflectUtils.getDesc} writes it. */
    public String descriptor() {
        return descriptor;
    }

    public Class<?>[] parameterTypes() {
        return method.getParameterTypes();
    }

    /** The type the result is read as: the return type, or T for {@code CompletableFuture<T>}. */
    public Class<?> resultType() {
        return resultType;
    }

    public Type genericResultType() {
        return genericResultType;
    }

    /** True for {@code GenericService.$invoke} and {@code $invokeAsync}: the answer is read in generic form. */
    public boolean isGeneric() {
        return generic;
    }

    /** True when the method returns a {@code CompletableFuture}. */
    public boolean isAsync() {
        return async;
    }

    /** The descriptor of a parameter list: {@code Z B C D F I J S V}, {@code [} for arrays, {@code Lpkg/Name;}. */
    public static String descriptor(Class<?>... types) {
        StringBuilder sb = new StringBuilder();
        for (Class<?> type : types) {
            appendDescriptor(sb, type);
        }
        return sb.toString();
    }

    private static void appendDescriptor(StringBuilder sb, Class<?> type) {
        while (type.isArray()) {
            sb.append('[');
            type = type.getComponentType();
        }
        if (type.isPrimitive()) {
            sb.append(type == boolean.class ? 'Z' : type == byte.class ? 'B' : type == char.class ? 'C'
                    : type == double.class ? 'D' : type == float.class ? 'F' : type == int.class ? 'I'
                    : type == long.class ? 'J' : type == short.class ? 'S' : 'V');
        } else {
            sb.append('L').append(type.getName().replace('.', '/')).append(';');
        }
    }

    private static Class<?> rawClass(Type type) {
        if (type instanceof Class<?> c) {
            return c;
        }
        if (type instanceof ParameterizedType p) {
            return (Class<?>) p.getRawType();
        }
        return Object.class;
    }
}
