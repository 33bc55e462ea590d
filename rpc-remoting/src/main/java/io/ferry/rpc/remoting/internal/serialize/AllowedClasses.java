package io.ferry.rpc.remoting.internal.serialize;

import com.alibaba.com.caucho.hessian.io.HessianProtocolException;
import io.ferry.rpc.ClassAllowList;
import io.ferry.rpc.spi.WireText;

import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.util.Collection;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The classes one side may deserialize: the JDK basics, everything reachable from the signatures of its services
 * (parameters, return values, declared exceptions, generic type arguments and, recursively, their fields), and the
 * user's {@link ClassAllowList}. Type names arrive from the peer; this class decides on the name alone, before
 * anything is loaded.
 */
public final class AllowedClasses {
    private static final Set<String> JDK_CLASSES = Set.of(
            "java.lang.Object", "java.lang.String", "java.lang.Boolean", "java.lang.Byte", "java.lang.Short",
            "java.lang.Integer", "java.lang.Long", "java.lang.Float", "java.lang.Double", "java.lang.Character",
            "java.lang.Number", "java.lang.Enum", "java.lang.StackTraceElement",
            "java.math.BigDecimal", "java.math.BigInteger",
            "java.util.Date", "java.util.UUID", "java.util.Locale", "java.util.Currency", "java.util.BitSet",
            "java.sql.Date", "java.sql.Time", "java.sql.Timestamp",
            "java.util.concurrent.TimeUnit",
            // exceptions commonly thrown by service code, and the ones Ferry itself produces
            "java.lang.Throwable", "java.lang.Exception", "java.lang.RuntimeException", "java.lang.Error",
            "java.lang.IllegalArgumentException", "java.lang.IllegalStateException",
            "java.lang.NullPointerException", "java.lang.UnsupportedOperationException",
            "java.lang.IndexOutOfBoundsException", "java.lang.ArrayIndexOutOfBoundsException",
            "java.lang.StringIndexOutOfBoundsException", "java.lang.ArithmeticException",
            "java.lang.ClassCastException", "java.lang.NumberFormatException", "java.lang.SecurityException",
            "java.lang.InterruptedException", "java.lang.CloneNotSupportedException",
            "java.io.IOException", "java.io.UncheckedIOException", "java.io.FileNotFoundException",
            "java.io.EOFException",
            "java.util.NoSuchElementException", "java.util.ConcurrentModificationException",
            "java.util.concurrent.TimeoutException", "java.util.concurrent.CancellationException",
            "java.util.concurrent.ExecutionException", "java.util.concurrent.CompletionException",
            "java.util.concurrent.RejectedExecutionException",
            "io.ferry.rpc.RpcException", "io.ferry.rpc.RpcStatus",
            // java.time values (hessian-lite sends most as its own handles, allowed below)
            "java.time.LocalDate", "java.time.LocalDateTime", "java.time.LocalTime", "java.time.Instant",
            "java.time.Duration", "java.time.Period", "java.time.ZonedDateTime", "java.time.OffsetDateTime",
            "java.time.OffsetTime", "java.time.Year", "java.time.YearMonth", "java.time.MonthDay",
            "java.time.ZoneOffset", "java.time.ZoneId", "java.time.DayOfWeek", "java.time.Month");

    /** Longest type name accepted from a peer; real class names are far shorter. */
    public static final int MAX_TYPE_NAME = 1024;
    /** Most array dimensions the JVM allows. */
    public static final int MAX_ARRAY_DIMENSIONS = 255;

    /** hessian-lite writes java.time values as these handle objects. */
    private static final String HESSIAN_JAVA8_HANDLES = "com.alibaba.com.caucho.hessian.io.java8.";

    /** Hessian's own short type names (typed lists of primitives, "string", "object", ...). */
    private static final Set<String> HESSIAN_TYPE_NAMES = Set.of(
            "boolean", "byte", "short", "int", "long", "float", "double", "char", "string", "object", "date",
            "list", "map", "null");

    /** JDK collection classes seen so far; only positive answers are kept, so a peer cannot grow it. */
    private static final Set<String> JDK_COLLECTIONS = ConcurrentHashMap.newKeySet();

    private final Set<String> reachable;
    private final ClassAllowList user;
    private final String remedy;

    private AllowedClasses(Set<String> reachable, ClassAllowList user, String remedy) {
        this.reachable = Set.copyOf(reachable);
        this.user = user;
        this.remedy = remedy;
    }

    /** Only the JDK basics: for error messages and events, which carry no application types. */
    public static AllowedClasses jdkOnly() {
        return new AllowedClasses(Set.of(), ClassAllowList.none(),
                "allow it with ClassAllowList if it is a trusted subtype of a declared type");
    }

    /** The classes allowed for calls of these service interfaces. */
    public static AllowedClasses forServices(Collection<Class<?>> serviceInterfaces, ClassAllowList user) {
        return forServices(serviceInterfaces, user,
                "allow it with ClassAllowList if it is a trusted subtype of a declared type");
    }

    /**
     * The classes allowed for calls of these service interfaces; {@code remedy} tells, in a rejection's message,
     * where this side's user adds a class (the provider's service config, the consumer's reference config).
     */
    public static AllowedClasses forServices(Collection<Class<?>> serviceInterfaces, ClassAllowList user,
                                             String remedy) {
        Set<String> names = new HashSet<>();
        Reach reach = new Reach(names);
        for (Class<?> iface : serviceInterfaces) {
            for (Method method : iface.getMethods()) {
                if (method.getDeclaringClass() == Object.class) {
                    continue;
                }
                reach.type(method.getGenericReturnType());
                for (Type parameter : method.getGenericParameterTypes()) {
                    reach.type(parameter);
                }
                for (Type exception : method.getGenericExceptionTypes()) {
                    reach.type(exception);
                }
            }
        }
        return new AllowedClasses(names, user, remedy);
    }

    /**
     * Decides on a type name as it appears in a hessian stream: a class name, an array of one ({@code [Foo}), or
     * one of hessian's short names.
     */
    public boolean allows(String typeName) {
        if (typeName.length() > MAX_TYPE_NAME) {
            return false;
        }
        int dimensions = 0;
        while (dimensions < typeName.length() && typeName.charAt(dimensions) == '[') {
            dimensions++;
        }
        if (dimensions > MAX_ARRAY_DIMENSIONS) {
            return false;
        }
        String name = dimensions == 0 ? typeName : typeName.substring(dimensions);
        if (HESSIAN_TYPE_NAMES.contains(name) || JDK_CLASSES.contains(name) || reachable.contains(name)) {
            return true;
        }
        if (name.startsWith(HESSIAN_JAVA8_HANDLES) && name.endsWith("Handle") && name.indexOf('$') < 0) {
            return true;
        }
        if (name.startsWith("java.util.")) {
            if (JDK_COLLECTIONS.contains(name)) {
                return true;
            }
            if (isJdkCollection(name)) {
                JDK_COLLECTIONS.add(name);
                return true;
            }
            return false;
        }
        return user.allows(name);
    }

    /** Throws the error a rejected class gets, naming the class and never touching an instance of it. */
    public void check(String typeName) throws ClassNotAllowedException {
        if (!allows(typeName)) {
            throw new ClassNotAllowedException(typeName, remedy);
        }
    }

    /**
     * A type name from the stream as messages show it: control characters escaped, and cut at
     * {@link #MAX_TYPE_NAME}, the longest name this side would accept anyway.
     */
    static String shown(String typeName) {
        if (typeName.length() <= MAX_TYPE_NAME) {
            return WireText.escape(typeName);
        }
        return WireText.escape(typeName.substring(0, MAX_TYPE_NAME)) + "... (" + typeName.length() + " chars)";
    }

    /** A JDK collection or map, including the private implementations in Collections, Arrays and friends. */
    private static boolean isJdkCollection(String name) {
        try {
            Class<?> type = Class.forName(name, false, null);
            return Collection.class.isAssignableFrom(type) || Map.class.isAssignableFrom(type)
                    || Map.Entry.class.isAssignableFrom(type);
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    /** Walks types: generic arguments, array components, and the fields of application classes. */
    private static final class Reach {
        private final Set<String> names;

        Reach(Set<String> names) {
            this.names = names;
        }

        void type(Type type) {
            if (type instanceof Class<?> c) {
                type(c);
            } else if (type instanceof ParameterizedType p) {
                type(p.getRawType());
                for (Type argument : p.getActualTypeArguments()) {
                    type(argument);
                }
            } else if (type instanceof GenericArrayType a) {
                type(a.getGenericComponentType());
            } else if (type instanceof WildcardType w) {
                for (Type bound : w.getUpperBounds()) {
                    type(bound);
                }
                for (Type bound : w.getLowerBounds()) {
                    type(bound);
                }
            } else if (type instanceof TypeVariable<?> v) {
                for (Type bound : v.getBounds()) {
                    type(bound);
                }
            }
        }

        private void type(Class<?> c) {
            if (c.isArray()) {
                type(c.getComponentType());
                return;
            }
            if (c.isPrimitive() || !names.add(c.getName()) || isJdk(c)) {
                return;
            }
            for (Class<?> k = c; k != null && !isJdk(k); k = k.getSuperclass()) {
                names.add(k.getName());
                for (Field field : k.getDeclaredFields()) {
                    int modifiers = field.getModifiers();
                    if (!Modifier.isStatic(modifiers) && !Modifier.isTransient(modifiers)) {
                        type(field.getGenericType());
                    }
                }
            }
        }

        private static boolean isJdk(Class<?> c) {
            String name = c.getName();
            return name.startsWith("java.") || name.startsWith("javax.") || name.startsWith("jdk.")
                    || name.startsWith("sun.");
        }
    }

    /**
     * A peer sent a class this side does not allow. An IOException, so that hessian's own field-error wrapping
     * keeps this message (and with it the class name) intact.
     */
    public static final class ClassNotAllowedException extends HessianProtocolException {
        private static final long serialVersionUID = 1L;

        ClassNotAllowedException(String className, String remedy) {
            super("class not allowed for deserialization: " + shown(className) + " (" + remedy + ")");
        }
    }
}
