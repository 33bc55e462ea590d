package io.ferry.rpc.config.extension;

import java.lang.ref.SoftReference;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.WeakHashMap;

/**
 * The extensions on the class path, by kind and name, as {@link ServiceLoader} finds them through the context
 * class loader (Ferry's own when a thread has none). Read once per class loader and kind; names are matched without
 * regard to case. Two extensions of one kind with the same name are a mistake reported when that kind is first
 * read.
 */
public final class Extensions {
    /** Per class loader: soft, so an unloaded application's loader and classes can go. */
    private static final Map<ClassLoader, SoftReference<Map<Class<?>, Map<String, Extension>>>> CATALOGS =
            new WeakHashMap<>();

    private static final String OWN_PACKAGE = "io.ferry.rpc.config.internal.";

    private Extensions() {
    }

    /** The names of the extensions of a kind, in class path order (Ferry's own first). */
    public static List<String> names(Class<? extends Extension> kind) {
        return catalog(kind).values().stream().map(Extension::name).toList();
    }

    /** The extension of {@code kind} called {@code name}, or null when there is none. */
    public static <P extends Extension> P find(Class<P> kind, String name) {
        return name == null ? null : kind.cast(catalog(kind).get(name.toLowerCase(Locale.ROOT)));
    }

    /**
     * The extension of {@code kind} called {@code name}.
     *
     * @throws IllegalArgumentException naming the option as {@code spelled}, the name, and the names there are
     */
    public static <P extends Extension> P require(Class<P> kind, String name, String spelled) {
        P found = find(kind, name);
        if (found == null) {
            throw new IllegalArgumentException(spelled + ": '" + name + "' (expected: one of "
                    + String.join(", ", names(kind)) + ")");
        }
        return found;
    }

    private static Map<String, Extension> catalog(Class<? extends Extension> kind) {
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        if (loader == null) {
            loader = Extensions.class.getClassLoader();
        }
        synchronized (CATALOGS) {
            SoftReference<Map<Class<?>, Map<String, Extension>>> ref = CATALOGS.get(loader);
            Map<Class<?>, Map<String, Extension>> kinds = ref == null ? null : ref.get();
            if (kinds == null) {
                kinds = new HashMap<>();
                CATALOGS.put(loader, new SoftReference<>(kinds));
            }
            Map<String, Extension> byName = kinds.get(kind);
            if (byName == null) {
                byName = load(kind, loader);
                kinds.put(kind, byName);
            }
            return byName;
        }
    }

    private static Map<String, Extension> load(Class<? extends Extension> kind, ClassLoader loader) {
        List<Extension> found = new ArrayList<>();
        try {
            ServiceLoader.load(kind, loader).forEach(found::add);
            // Ferry's own first, whatever the class path order: error messages list the names in that order
            found.sort(Comparator.comparing(e -> !e.getClass().getName().startsWith(OWN_PACKAGE)));
            Map<String, Extension> byName = new LinkedHashMap<>();
            for (Extension extension : found) {
                String name = extension.name();
                if (name == null || !name.matches("[A-Za-z0-9][A-Za-z0-9-]*")) {
                    throw new IllegalStateException(kind.getSimpleName() + " " + extension.getClass().getName()
                            + ": name '" + name + "' (expected: letters, digits and -)");
                }
                Extension before = byName.putIfAbsent(name.toLowerCase(Locale.ROOT), extension);
                if (before != null) {
                    throw new IllegalStateException(kind.getSimpleName() + " '" + name + "' is registered twice: by "
                            + before.getClass().getName() + " and by " + extension.getClass().getName());
                }
            }
            return Collections.unmodifiableMap(byName);
        } catch (ServiceConfigurationError e) {
            throw new IllegalStateException("cannot load a " + kind.getSimpleName() + ": " + e.getMessage(), e);
        }
    }
}
