package io.ferry.rpc.architecture;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Every public value type of the public API prints what it holds: a user who logs a config, a setting or an
 * invocation must not read {@code ReferenceConfig@17f62e33}. Flagged: a public class with instance fields whose
 * {@code toString} is Object's, and a record holding an array whose {@code toString} is the generated one (it
 * prints the array's identity). Builders, enums, interfaces, annotations and exceptions are left out by kind; the
 * few other classes left out are named below with the reason. (What they print is pinned where they live, e.g.
 * rpc-config's ToStringTest.)
 */
class PublicToStringTest {
    private static final List<String> PUBLIC_PACKAGES = List.of("io.ferry.rpc", "io.ferry.rpc.cluster",
            "io.ferry.rpc.option", "io.ferry.rpc.config", "io.ferry.rpc.config.option", "io.ferry.rpc.config.extension",
            "io.ferry.rpc.remoting", "io.ferry.rpc.registry");

    /** Public classes with state that are not values to print. */
    private static final Map<String, String> NOT_VALUES = Map.of(
            "io.ferry.rpc.config.Ferry", "a bootstrap with a lifecycle; describe() says what it runs",
            "io.ferry.rpc.remoting.Client", "a transport with threads and connections; connectionView() prints them",
            "io.ferry.rpc.remoting.Server", "a listening server; connectionView() prints its connections",
            "io.ferry.rpc.registry.ZookeeperRegistry", "a registry session; describe() names it",
            "io.ferry.rpc.registry.EmbeddedZooKeeper", "an in-process ZooKeeper server, a resource");

    @Test
    void everyPublicValueTypePrintsWhatItHolds() {
        List<String> flagged = new ArrayList<>();
        for (JavaClass type : new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages(PUBLIC_PACKAGES)) {
            if (!PUBLIC_PACKAGES.contains(type.getPackageName()) || !isPublicValueCandidate(type)
                    || NOT_VALUES.containsKey(type.getName())) {
                continue;
            }
            Class<?> c = type.reflect();
            if (c.isRecord()) {
                boolean holdsArray = Arrays.stream(c.getRecordComponents()).map(RecordComponent::getType)
                        .anyMatch(Class::isArray);
                if (holdsArray && generatedToString(type)) {
                    flagged.add(c.getName() + " (a record holding an array, printed by identity)");
                }
            } else if (hasInstanceFields(c) && inheritsObjectsToString(c)) {
                flagged.add(c.getName());
            }
        }
        assertEquals(List.of(), flagged, "public value types that print as Type@hash: give each a toString"
                + " (never with a token or password), or list it in NOT_VALUES with the reason");
    }

    private static boolean isPublicValueCandidate(JavaClass type) {
        return type.getModifiers().contains(JavaModifier.PUBLIC) && !type.isInterface() && !type.isEnum()
                && !type.isAnnotation() && !type.isAnonymousClass() && !type.isLocalClass()
                && !type.isAssignableTo(Throwable.class) && !type.getSimpleName().equals("Builder")
                && (!type.isNestedClass() || type.getModifiers().contains(JavaModifier.STATIC)
                || type.isRecord());
    }

    private static boolean hasInstanceFields(Class<?> c) {
        for (Class<?> k = c; k != Object.class; k = k.getSuperclass()) {
            for (Field f : k.getDeclaredFields()) {
                if (!Modifier.isStatic(f.getModifiers()) && !f.isSynthetic()) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean inheritsObjectsToString(Class<?> c) {
        try {
            return c.getMethod("toString").getDeclaringClass() == Object.class;
        } catch (NoSuchMethodException e) {
            throw new AssertionError(e);
        }
    }

    /** A record's toString written by the compiler: one invokedynamic, no call or field access of its own. */
    private static boolean generatedToString(JavaClass record) {
        return record.getMethod("toString").getAccessesFromSelf().isEmpty();
    }
}
