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
 * Rebuilds a Throwable written by {@link ThrowableSerializer} or by a Dubbo peer, through public API only: the
 * message goes to a constructor, the cause to {@code initCause}, the stack to {@code setStackTrace}, suppressed
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
        Throwable result = instantiate(message);
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

    private Throwable instantiate(String message) throws IOException {
        try {
            try {
                Constructor<?> withMessage = type.getDeclaredConstructor(String.class);
                if (withMessage.trySetAccessible()) {
                    return (Throwable) withMessage.newInstance(message);
                }
            } catch (NoSuchMethodException ignored) {
                // try the next shape
            }
            try {
                Constructor<?> withCause = type.getDeclaredConstructor(String.class, Throwable.class);
                if (withCause.trySetAccessible()) {
                    return (Throwable) withCause.newInstance(message, null);
                }
            } catch (NoSuchMethodException ignored) {
                // try the next shape
            }
            Constructor<?> none = type.getDeclaredConstructor();
            if (none.trySetAccessible()) {
                return (Throwable) none.newInstance();
            }
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IOException("cannot create " + type.getName() + ": " + e.getClass().getName(), e);
        }
        throw new IOException("cannot create " + type.getName() + ": no accessible constructor taking "
                + "(String), (String, Throwable) or ()");
    }
}
