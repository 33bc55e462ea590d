package io.ferry.rpc.config;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.ferry.rpc.Deadline;
import io.ferry.rpc.Invocation;
import io.ferry.rpc.config.fixtures.UserService;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every public value type of the public API prints what it holds: a user who logs a config, a setting or an
 * invocation must not read {@code ReferenceConfig@17f62e33}. Flagged: a public class with instance fields whose
 * {@code toString} is Object's, and a record holding an array whose {@code toString} is the generated one (it
 * prints the array's identity). Builders, enums, interfaces, annotations and exceptions are left out by kind; the
 * few other classes left out are named below with the reason.
 */
class PublicToStringTest {
    private static final List<String> PUBLIC_PACKAGES = List.of("io.ferry.rpc", "io.ferry.rpc.cluster",
            "io.ferry.rpc.config", "io.ferry.rpc.config.option", "io.ferry.rpc.remoting", "io.ferry.rpc.registry");

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

    @Test
    void settingsPrintAsATableOfOptionValueAndWhereSet() {
        try (Ferry ferry = Ferry.builder().shutdownHook(false).build()) {
            String table = ferry.settingsOf(ReferenceConfig.builder(UserService.class).timeout(Duration.ofMillis(500))
                    .method(MethodConfig.builder("hello").timeout(Duration.ofMillis(200)).build()).build()).toString();
            List<String> lines = table.lines().map(l -> l.replaceAll(" +", " ").trim()).toList();
            assertEquals("option value set at", lines.get(0), table);
            assertTrue(lines.contains("timeout 500 ms code"), table);
            assertTrue(lines.contains("retries 2 default"), table);
            assertTrue(lines.contains("timeout [hello] 200 ms method hello"), table);
            assertFalse(table.contains("threads"), "a provider's option, not a reference's: " + table);
        }
    }

    @Test
    void anInvocationShowsAttachmentKeysNotValues() throws Exception {
        Invocation call = new Invocation(UserService.class.getName(), "1.0", "", UserService.class.getMethod("hello",
                String.class), new Object[] {"secret argument"}, Map.of("token", "s3cr3t"), Deadline.none(), false,
                Runnable::run);
        String printed = call.toString();
        assertTrue(printed.contains(".hello(String)") && printed.contains("attachments=[token]"), printed);
        assertFalse(printed.contains("s3cr3t") || printed.contains("secret argument"), printed);
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
