package io.ferry.rpc.config.internal;

import io.ferry.rpc.RpcReference;
import io.ferry.rpc.config.ReferenceConfig;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.function.Function;

/** Sets the {@link RpcReference} fields of an object, each to a reference made from its annotation. */
public final class ReferenceInjector {
    private final Function<ReferenceConfig<?>, Object> references;

    /** @param references makes the reference a config describes */
    public ReferenceInjector(Function<ReferenceConfig<?>, Object> references) {
        this.references = references;
    }

    /**
     * Sets every field of {@code target} (and of its superclasses) annotated {@link RpcReference}. A field without a
     * url uses {@code defaultUrl}; when that is null too, the reference finds its providers in the registry.
     */
    public void inject(Object target, String defaultUrl) {
        for (Class<?> k = target.getClass(); k != null && k != Object.class; k = k.getSuperclass()) {
            for (Field field : k.getDeclaredFields()) {
                RpcReference annotation = field.getAnnotation(RpcReference.class);
                if (annotation != null) {
                    set(target, field, references.apply(config(field, annotation, defaultUrl)));
                }
            }
        }
    }

    private static ReferenceConfig<?> config(Field field, RpcReference annotation, String defaultUrl) {
        if (Modifier.isStatic(field.getModifiers()) || !field.getType().isInterface()) {
            throw new IllegalArgumentException("@RpcReference " + field + " (expected: an instance field "
                    + "of an interface type)");
        }
        ReferenceConfig.Builder<?> reference = ReferenceConfig.fromAnnotation(annotation, field.getType(),
                field.getDeclaringClass().getName() + "." + field.getName());
        if (annotation.url().isEmpty() && defaultUrl != null) {
            reference.url(defaultUrl);
        }
        return reference.build();
    }

    private static void set(Object target, Field field, Object proxy) {
        try {
            field.setAccessible(true);
            field.set(target, proxy);
        } catch (IllegalAccessException | RuntimeException e) {
            throw new IllegalArgumentException("@RpcReference " + field + ": cannot set it: " + e, e);
        }
    }
}
