package io.ferry.rpc;

import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Classes a user trusts for deserialization beyond those Ferry allows on its own: subtypes of declared types
 * (an {@code Admin} where the signature says {@code User}), or classes only ever carried in attachments.
 *
 * <p>Ferry always allows the JDK basics and every class reachable from the signatures of the services a side
 * exports or references. Anything else that arrives is rejected with an error naming the class.
 */
public final class ClassAllowList {
    private static final ClassAllowList NONE = new ClassAllowList(Set.of(), Set.of());

    private final Set<String> classNames;
    private final Set<String> packagePrefixes;

    private ClassAllowList(Set<String> classNames, Set<String> packagePrefixes) {
        this.classNames = Set.copyOf(classNames);
        this.packagePrefixes = Set.copyOf(packagePrefixes);
    }

    /** Allows nothing beyond Ferry's own rules. */
    public static ClassAllowList none() {
        return NONE;
    }

    /** Allows exactly these classes. */
    public static ClassAllowList ofClasses(Class<?>... classes) {
        Builder builder = builder();
        Arrays.stream(classes).forEach(builder::allowClass);
        return builder.build();
    }

    public static Builder builder() {
        return new Builder();
    }

    public Set<String> classNames() {
        return classNames;
    }

    /** Package prefixes, each ending with a dot. */
    public Set<String> packagePrefixes() {
        return packagePrefixes;
    }

    public boolean allows(String className) {
        if (classNames.contains(className)) {
            return true;
        }
        for (String prefix : packagePrefixes) {
            if (className.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }

    /** Combines two lists. */
    public ClassAllowList and(ClassAllowList other) {
        Set<String> names = new LinkedHashSet<>(classNames);
        names.addAll(other.classNames);
        Set<String> packages = new LinkedHashSet<>(packagePrefixes);
        packages.addAll(other.packagePrefixes);
        return new ClassAllowList(names, packages);
    }

    @Override
    public String toString() {
        return "ClassAllowList{classes=" + new java.util.TreeSet<>(classNames) + ", packages="
                + new java.util.TreeSet<>(packagePrefixes) + "}";
    }

    public static final class Builder {
        private final Set<String> classNames = new LinkedHashSet<>();
        private final Set<String> packagePrefixes = new LinkedHashSet<>();

        public Builder allowClass(Class<?> type) {
            return allowClass(type.getName());
        }

        public Builder allowClass(String className) {
            if (className == null || className.isBlank()) {
                throw new IllegalArgumentException("allowClass: '" + className + "' (expected: a class name)");
            }
            classNames.add(className);
            return this;
        }

        /** Allows every class in this package and its subpackages, e.g. {@code "com.acme.model"}. */
        public Builder allowPackage(String packageName) {
            if (packageName == null || packageName.isBlank() || packageName.startsWith("java.")
                    || packageName.equals("java")) {
                throw new IllegalArgumentException("allowPackage: '" + packageName
                        + "' (expected: an application package; JDK classes are allowed one by one)");
            }
            packagePrefixes.add(packageName.endsWith(".") ? packageName : packageName + ".");
            return this;
        }

        public ClassAllowList build() {
            return new ClassAllowList(classNames, packagePrefixes);
        }
    }
}
