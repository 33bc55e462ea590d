package io.ferry.rpc.config.internal.files;

import io.ferry.rpc.RpcExport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Modifier;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * Finds the classes annotated {@link RpcExport} in a package and its subpackages, on a class loader's class path
 * (directories and jars), for {@code <annotation package>} without Spring. Classes are loaded without being
 * initialised, and only concrete ones are kept; a class that cannot be loaded (a dependency missing) is passed over,
 * as Spring's scanning passes over what it cannot read.
 */
final class ExportScan {
    private ExportScan() {
    }

    /**
     * The concrete {@code @RpcExport} classes of {@code packageName} and its subpackages, by name.
     *
     * @param where the file and line, and the attribute or key, that asked: how the message starts
     * @throws IllegalArgumentException when none is there, naming the package and where it was asked for
     */
    static List<Class<?>> annotated(String packageName, ClassLoader loader, String where) {
        String path = packageName.replace('.', '/');
        Set<String> names = new TreeSet<>();
        try {
            Enumeration<URL> roots = loader.getResources(path);
            while (roots.hasMoreElements()) {
                URL root = roots.nextElement();
                switch (root.getProtocol()) {
                    case "file" -> directory(Path.of(root.toURI()), packageName, names);
                    case "jar" -> jar(root, path, names);
                    default -> { } // a class path of another kind (a module image) holds no application's classes
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot scan " + packageName + ": " + e.getMessage(), e);
        } catch (URISyntaxException e) {
            throw new IllegalStateException("cannot scan " + packageName + ": " + e.getMessage(), e);
        }
        List<Class<?>> found = new ArrayList<>();
        for (String name : names) {
            Class<?> type;
            try {
                type = Class.forName(name, false, loader);
            } catch (ClassNotFoundException | LinkageError e) {
                continue;
            }
            if (type.isAnnotationPresent(RpcExport.class) && !type.isInterface()
                    && !Modifier.isAbstract(type.getModifiers())) {
                found.add(type);
            }
        }
        if (found.isEmpty()) {
            throw new IllegalArgumentException(where + ": '" + packageName + "': "
                    + (names.isEmpty() ? "no such package on the class path" : "no class in it is annotated @RpcExport")
                    + " (expected: a package holding the @RpcExport implementations to export)");
        }
        return found;
    }

    private static void directory(Path dir, String packageName, Set<String> names) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            files.filter(f -> isClass(f.getFileName().toString())).forEach(f -> {
                String relative = dir.relativize(f).toString().replace(f.getFileSystem().getSeparator(), ".");
                names.add(packageName + "." + relative.substring(0, relative.length() - ".class".length()));
            });
        }
    }

    private static void jar(URL root, String path, Set<String> names) throws IOException {
        JarURLConnection connection = (JarURLConnection) root.openConnection();
        connection.setUseCaches(false);
        try (JarFile jar = connection.getJarFile()) {
            Enumeration<JarEntry> entries = jar.entries();
            while (entries.hasMoreElements()) {
                String name = entries.nextElement().getName();
                if (name.startsWith(path + "/") && isClass(name.substring(name.lastIndexOf('/') + 1))) {
                    names.add(name.substring(0, name.length() - ".class".length()).replace('/', '.'));
                }
            }
        }
    }

    private static boolean isClass(String fileName) {
        return fileName.endsWith(".class") && !fileName.equals("module-info.class")
                && !fileName.equals("package-info.class");
    }
}
