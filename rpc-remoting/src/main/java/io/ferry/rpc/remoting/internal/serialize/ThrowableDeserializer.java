package io.ferry.rpc.remoting.internal.serialize;

import com.alibaba.com.caucho.hessian.io.AbstractDeserializer;
import com.alibaba.com.caucho.hessian.io.AbstractHessianInput;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Rebuilds a Throwable written by {@link ThrowableSerializer} or by a Dubbo peer, through public API: the
 * message goes to a constructor (and is put back exactly if the constructor changed it, see
 * {@link ThrowableMessage}), the cause to {@code initCause}, the stack to {@code setStackTrace}, suppressed
 * exceptions to {@code addSuppressed}; an application subclass's own fields are set reflectively. Unknown fields
 * are read and dropped. A cause that refers back to the throwable itself (Dubbo writes an unset cause that way)
 * means "no cause".
 */
final class ThrowableDeserializer extends AbstractDeserializer {
    private final Class<?> type;
    private final Map<String, Field> ownFields = new HashMap<>();

    ThrowableDeserializer(Class<?> type) {
        this.type = type;
        for (Field field : ThrowableSerializer.applicationFields(type)) {
            ownFields.putIfAbsent(field.getName(), field);
        }
    }

    @Override
    public Class<?> getType() {
        return type;
    }

    @Override
    public Object readObject(AbstractHessianInput in, Object[] fields) throws IOException {
        int ref = in.addRef(null);
        String message = null;
        Object cause = null;
        Object stackTrace = null;
        Object suppressed = null;
        Map<Field, Object> own = new HashMap<>();
        for (Object f : fields) {
            String name = (String) f;
            switch (name) {
                case "detailMessage" -> message = (String) in.readObject(String.class);
                case "cause" -> cause = in.readObject(Throwable.class);
                case "stackTrace" -> stackTrace = in.readObject(StackTraceElement[].class);
                case "suppressedExceptions" -> suppressed = in.readObject(List.class);
                default -> {
                    Field field = ownFields.get(name);
                    if (field != null) {
                        own.put(field, in.readObject(field.getType()));
                    } else {
                        in.readObject();
                    }
                }
            }
        }
        Throwable result = instantiate(message, cause);
        ThrowableMessage.restore(result, message);
        in.setRef(ref, result);
        if (cause instanceof Throwable c && c != result && result.getCause() == null) {
            try {
                result.initCause(c);
            } catch (IllegalStateException | IllegalArgumentException alreadySet) {
                // the constructor set a cause of its own: keep it
            }
        }
        if (stackTrace instanceof StackTraceElement[] elements) {
            result.setStackTrace(elements);
        }
        if (suppressed instanceof List<?> list) {
            for (Object s : list) {
                if (s instanceof Throwable t && t != result) {
                    result.addSuppressed(t);
                }
            }
        }
        for (Map.Entry<Field, Object> e : own.entrySet()) {
            try {
                e.getKey().set(result, e.getValue());
            } catch (IllegalAccessException | IllegalArgumentException ignored) {
                // a field we cannot or should not set is left at its constructor value
            }
        }
        return result;
    }

    @Override
    public Object readObject(AbstractHessianInput in, String[] fieldNames) throws IOException {
        return readObject(in, (Object[]) fieldNames);
    }

    /**
     * Creates the instance through a constructor: (String) first, then shapes that also take the cause, then (),
     * then any other, filling a String parameter with the message and a Throwable one with the cause where it fits.
     */
    private Throwable instantiate(String message, Object cause) throws IOException {
        Constructor<?>[] constructors = type.getDeclaredConstructors();
        java.util.Arrays.sort(constructors, java.util.Comparator.comparingInt(c -> rank(c)));
        Exception last = null;
        for (Constructor<?> constructor : constructors) {
            Object[] arguments = arguments(constructor.getParameterTypes(), message, cause);
            if (arguments == null || !constructor.trySetAccessible()) {
                continue;
            }
            try {
                return (Throwable) constructor.newInstance(arguments);
            } catch (ReflectiveOperationException | RuntimeException e) {
                last = e; // e.g. a constructor that rejects a null cause: try the next one
            }
        }
        throw new IOException("cannot create " + type.getName() + (last == null ? ": no usable constructor"
                : ": " + last.getClass().getName()), last);
    }

    private static int rank(Constructor<?> c) {
        Class<?>[] p = c.getParameterTypes();
        if (p.length == 1 && p[0] == String.class) {
            return 0;
        }
        if (p.length == 2 && p[0] == String.class && Throwable.class.isAssignableFrom(p[1])) {
            return 1;
        }
        if (p.length == 0) {
            return 2;
        }
        return 3 + p.length;
    }

    /** Arguments for a constructor, or null when one of its parameters cannot be filled sensibly. */
    private static Object[] arguments(Class<?>[] types, String message, Object cause) {
        Object[] arguments = new Object[types.length];
        for (int i = 0; i < types.length; i++) {
            Class<?> t = types[i];
            if (t == String.class) {
                arguments[i] = message;
            } else if (Throwable.class.isAssignableFrom(t)) {
                arguments[i] = t.isInstance(cause) ? cause : null;
            } else if (t.isPrimitive()) {
                arguments[i] = t == boolean.class ? Boolean.FALSE : t == char.class ? (Object) '\0'
                        : t == long.class ? (Object) 0L : t == double.class ? (Object) 0d : t == float.class
                        ? (Object) 0f : t == byte.class ? (Object) (byte) 0 : t == short.class ? (Object) (short) 0 : 0;
            } else if (!t.isArray() && !t.isInterface()) {
                arguments[i] = null;
            } else {
                return null;
            }
        }
        return arguments;
    }
}
