package io.ferry.rpc.remoting.internal.serialize;

import com.alibaba.com.caucho.hessian.io.AbstractHessianOutput;
import com.alibaba.com.caucho.hessian.io.AbstractSerializer;

import io.ferry.rpc.remoting.internal.generic.GenericFailure;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Writes a Throwable in the field layout a Dubbo peer reads ({@code detailMessage}, {@code cause},
 * {@code stackTrace}, {@code suppressedExceptions}, then the application subclass's own fields), taking every
 * Throwable value from its public API: no reflection into {@code java.lang}, so no {@code --add-opens} on JDK 17+.
 * Fields of JDK subclasses are left out; fields of application subclasses are read reflectively, which the
 * application's own module allows.
 */
final class ThrowableSerializer extends AbstractSerializer {
    static final String[] THROWABLE_FIELDS = {"detailMessage", "cause", "stackTrace", "suppressedExceptions"};

    private static final ClassValue<ThrowableSerializer> BY_CLASS = new ClassValue<>() {
        @Override
        protected ThrowableSerializer computeValue(Class<?> type) {
            return new ThrowableSerializer(type);
        }
    };

    private final List<Field> ownFields;
    private final String[] fieldNames;
    private final String typeName;

    private ThrowableSerializer(Class<?> type) {
        // a generic call's failure travels as Dubbo's GenericException, whose fields it has
        this.typeName = type == GenericFailure.class ? GenericFailure.DUBBO_CLASS : type.getName();
        this.ownFields = applicationFields(type);
        List<String> names = new ArrayList<>(Arrays.asList(THROWABLE_FIELDS));
        ownFields.forEach(f -> names.add(f.getName()));
        this.fieldNames = names.toArray(String[]::new);
    }

    static ThrowableSerializer forClass(Class<?> type) {
        return BY_CLASS.get(type);
    }

    /** The serializable fields declared by application classes between {@code type} and Throwable. */
    static List<Field> applicationFields(Class<?> type) {
        List<Field> fields = new ArrayList<>();
        for (Class<?> k = type; k != null && k != Throwable.class; k = k.getSuperclass()) {
            if (isJdk(k)) {
                continue;
            }
            for (Field field : k.getDeclaredFields()) {
                int modifiers = field.getModifiers();
                if (!Modifier.isStatic(modifiers) && !Modifier.isTransient(modifiers) && field.trySetAccessible()) {
                    fields.add(field);
                }
            }
        }
        return fields;
    }

    static boolean isJdk(Class<?> type) {
        String name = type.getName();
        return name.startsWith("java.") || name.startsWith("javax.") || name.startsWith("jdk.");
    }

    @Override
    public void writeObject(Object obj, AbstractHessianOutput out) throws IOException {
        if (out.addRef(obj)) {
            return;
        }
        Throwable t = (Throwable) obj;
        String type = typeName;
        int ref = out.writeObjectBegin(type);
        if (ref < -1) {
            throw new IOException("hessian 1 map form is not supported for " + type);
        }
        if (ref == -1) {
            out.writeInt(fieldNames.length);
            for (String name : fieldNames) {
                out.writeString(name);
            }
            out.writeObjectBegin(type);
        }
        out.writeString(t.getMessage());
        out.writeObject(t.getCause());
        out.writeObject(t.getStackTrace());
        out.writeObject(new ArrayList<>(Arrays.asList(t.getSuppressed())));
        for (Field field : ownFields) {
            try {
                out.writeObject(field.get(obj));
            } catch (IllegalAccessException e) {
                out.writeNull();
            }
        }
    }
}
