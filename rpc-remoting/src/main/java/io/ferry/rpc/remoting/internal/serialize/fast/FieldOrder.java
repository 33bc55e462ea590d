package io.ferry.rpc.remoting.internal.serialize.fast;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The fields of a class in the order hessian-lite's UnsafeSerializer writes them, which is its wire layout: walking
 * from the class up through its superclasses, the non-static, non-transient fields whose type is primitive or in
 * {@code java.lang} (but not Object) first, the others after; and then that whole list reversed.
 */
final class FieldOrder {
    private FieldOrder() {
    }

    static List<Field> of(Class<?> type) {
        List<Field> simple = new ArrayList<>();
        List<Field> compound = new ArrayList<>();
        for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            for (Field field : c.getDeclaredFields()) {
                int modifiers = field.getModifiers();
                if (Modifier.isTransient(modifiers) || Modifier.isStatic(modifiers)) {
                    continue;
                }
                (isSimple(field.getType()) ? simple : compound).add(field);
            }
        }
        List<Field> fields = new ArrayList<>(simple);
        fields.addAll(compound);
        Collections.reverse(fields);
        return fields;
    }

    private static boolean isSimple(Class<?> type) {
        return type.isPrimitive() || (type.getName().startsWith("java.lang.") && type != Object.class);
    }
}
