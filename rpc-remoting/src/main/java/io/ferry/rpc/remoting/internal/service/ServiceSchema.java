package io.ferry.rpc.remoting.internal.service;

import io.ferry.rpc.ClassAllowList;
import io.ferry.rpc.GenericService;
import io.ferry.rpc.remoting.internal.generic.PojoMaps;
import io.ferry.rpc.remoting.internal.serialize.AllowedClasses;
import io.ferry.rpc.remoting.internal.serialize.SafeSerializerFactory;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * A service interface as the wire sees it: its name, its methods by name and descriptor, and the classes its calls
 * may deserialize (everything reachable from its signatures, plus the user's {@link ClassAllowList}). Built once
 * per interface; immutable and thread-safe.
 */
public final class ServiceSchema {
    /** The health-check method every provider answers ({@code EchoService.$echo}). */
    public static final String ECHO_METHOD = "$echo";
    public static final String ECHO_DESCRIPTOR = "Ljava/lang/Object;";

    private static final MethodSchema ECHO;

    static {
        try {
            ECHO = new MethodSchema(io.ferry.rpc.EchoService.class.getMethod(ECHO_METHOD, Object.class));
        } catch (NoSuchMethodException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Class<?> type;
    /** name → parameter descriptor → method: looked up per request without building a key string. */
    private final Map<String, Map<String, MethodSchema>> byNameAndDescriptor = new HashMap<>();
    private final Map<Method, MethodSchema> byMethod = new HashMap<>();
    private final SafeSerializerFactory serializerFactory;
    private final PojoMaps.Realizer realizer;

    /** Which end of a call a schema serves: it says where a rejected class must be allowed. */
    public enum Side {
        PROVIDER("a class in a request: allow it on the provider, in its ServiceConfig.allowList(...)"),
        CONSUMER("a class in an answer: allow it on the consumer, in its ReferenceConfig.allowList(...)");

        private final String remedy;

        Side(String remedy) {
            this.remedy = remedy;
        }
    }

    private ServiceSchema(Class<?> type, ClassAllowList allowList, Side side) {
        if (!type.isInterface()) {
            throw new IllegalArgumentException("interface: " + type.getName() + " (expected: an interface)");
        }
        this.type = type;
        for (Method method : type.getMethods()) {
            if (Modifier.isStatic(method.getModifiers()) || method.getDeclaringClass() == Object.class) {
                continue;
            }
            MethodSchema schema = new MethodSchema(method);
            byNameAndDescriptor.computeIfAbsent(schema.name(), n -> new HashMap<>())
                    .putIfAbsent(schema.descriptor(), schema);
            byMethod.put(method, schema);
        }
        AllowedClasses allowed = AllowedClasses.forServices(List.of(type), allowList, side.remedy);
        // a generic caller has no classes of the service: what it may not read arrives as maps, never refused
        this.serializerFactory = side == Side.CONSUMER && type == GenericService.class
                ? SafeSerializerFactory.unknownAsMaps(allowed) : new SafeSerializerFactory(allowed);
        this.realizer = PojoMaps.realizer(allowed, type.getClassLoader());
    }

    /** A schema for one end of the calls: rejections then say on which end to allow the class. */
    public static ServiceSchema of(Class<?> type, ClassAllowList allowList, Side side) {
        return new ServiceSchema(type, allowList, side);
    }

    public Class<?> type() {
        return type;
    }

    /** The interface's fully qualified name: the service path on the wire. */
    public String name() {
        return type.getName();
    }

    /** {@code EchoService.$echo}, which every provider answers for every service. */
    public static MethodSchema echoMethod() {
        return ECHO;
    }

    /** The method with this name and parameter descriptor, or null. */
    public MethodSchema method(String name, String descriptor) {
        Map<String, MethodSchema> overloads = byNameAndDescriptor.get(name);
        return overloads == null ? null : overloads.get(descriptor);
    }

    /** The schema of one of this interface's methods, or null. */
    public MethodSchema method(Method method) {
        return byMethod.get(method);
    }

    /** The method of this name when it is the only one, else null (for a generic call that names no types). */
    public MethodSchema onlyMethodNamed(String name) {
        Map<String, MethodSchema> overloads = byNameAndDescriptor.get(name);
        return overloads != null && overloads.size() == 1 ? overloads.values().iterator().next() : null;
    }

    /** For generic calls: turns maps into this service's parameter types, under its allow-list. */
    public PojoMaps.Realizer realizer() {
        return realizer;
    }

    public boolean hasMethodNamed(String name) {
        return byNameAndDescriptor.containsKey(name);
    }

    /** Method names, sorted, comma-separated: the {@code methods} parameter a registry URL carries. */
    public String methodNames() {
        return String.join(",", new TreeSet<>(byNameAndDescriptor.keySet()));
    }

    /** For the codec: the serializer factory bound to this service's allowed classes. */
    public SafeSerializerFactory serializerFactory() {
        return serializerFactory;
    }
}
