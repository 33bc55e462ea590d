package io.ferry.rpc.config;

import io.ferry.rpc.config.internal.files.FileBootstrap;

import java.io.InputStream;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * What Ferry's configuration declares, for a host that owns the implementations and the lifecycle: Spring's XML
 * namespace and Boot's starter read their files and properties into one, {@link #build} the Ferry with its
 * references when the first is wanted, and {@link #exportServices} once their beans are ready. The same option
 * table, checks and messages as {@link Ferry#fromXml} and {@link Ferry#fromProperties}, which do both steps at once.
 * Immutable.
 */
public final class FerryFile {
    private final FileBootstrap.Hosted declared;

    private FerryFile(FileBootstrap.Hosted declared) {
        this.declared = declared;
    }

    /**
     * The Ferry elements of a host's XML file, at the top level of its {@code <beans>}; the host's own elements
     * are skipped, and {@code placeholders} resolves the host's {@code ${...}} in every attribute value.
     *
     * @param name how errors name the file
     * @throws IllegalArgumentException naming every mistake of the file at once, one per line in file order: the
     *                                  file and line, the element and attribute, and what was expected
     */
    public static FerryFile xml(String name, InputStream in, UnaryOperator<String> placeholders) {
        return new FerryFile(FileBootstrap.Hosted.xml(name, in, placeholders));
    }

    /**
     * As {@link #xml(String, InputStream, UnaryOperator)}, with each service's {@code ref} checked against the host's
     * beans among the file's other mistakes: {@code isBean} says whether the host has a bean of that name, and
     * {@code beanNames} are the application's, which a message offers (the nearest, or a few).
     */
    public static FerryFile xml(String name, InputStream in, UnaryOperator<String> placeholders,
                                java.util.function.Predicate<String> isBean, java.util.Collection<String> beanNames) {
        return new FerryFile(FileBootstrap.Hosted.xml(name, in, placeholders, isBean, beanNames));
    }

    /**
     * Properties under {@code ferry.}, with the names of Ferry's properties files ({@code ferry.consumer.timeout},
     * {@code ferry.reference.greeter.interface}), in order: a later key replaces an earlier one.
     *
     * @param whereOf how errors name where a key was set (a file and line, an environment variable, ...)
     */
    public static FerryFile properties(List<Map.Entry<String, String>> keys, Function<String, String> whereOf) {
        return new FerryFile(FileBootstrap.Hosted.properties(keys, whereOf));
    }

    /**
     * As {@link #properties(List, Function)}, with each service's {@code ref} checked against the host's beans
     * among the other mistakes (see {@link #xml(String, InputStream, UnaryOperator, java.util.function.Predicate,
     * java.util.Collection)}).
     */
    public static FerryFile properties(List<Map.Entry<String, String>> keys, Function<String, String> whereOf,
                                       java.util.function.Predicate<String> isBean,
                                       java.util.Collection<String> beanNames) {
        return new FerryFile(FileBootstrap.Hosted.properties(keys, whereOf, isBean, beanNames));
    }

    /**
     * This and {@code other} as one declaration: each reference and service declared once, and a setting of the
     * application, registry, protocol, TLS, provider or consumer given twice only with one value.
     *
     * @throws IllegalArgumentException naming every clash
     */
    public FerryFile and(FerryFile other) {
        return new FerryFile(declared.and(other.declared));
    }

    /** The references declared, by id: the names of their interfaces, in order. */
    public Map<String, String> referenceInterfaces() {
        return declared.referenceInterfaces();
    }

    /**
     * The references declared, by id: the names of the types their proxies implement, the interface's, or
     * {@code io.ferry.rpc.GenericService} for a generic reference ({@code generic="true"}).
     */
    public Map<String, String> referenceTypes() {
        return declared.referenceTypes();
    }

    /** The services declared: the names of their interfaces, in order. */
    public List<String> serviceInterfaces() {
        return declared.serviceInterfaces();
    }

    /**
     * The packages {@code <annotation package>} names, in order: a host scans them for its own components
     * (Ferry's own bootstrap, without a host, exports the {@code @RpcExport} classes it finds there).
     */
    public List<String> annotationPackages() {
        return declared.annotationPackages();
    }

    /** What it declares: its references by id with their interfaces, its services, the packages to scan. */
    @Override
    public String toString() {
        return "FerryFile{references=" + referenceInterfaces() + ", services=" + serviceInterfaces()
                + (annotationPackages().isEmpty() ? "" : ", annotationPackages=" + annotationPackages()) + "}";
    }

    /**
     * Builds the Ferry this declares over what {@code base} was given (observability, the shutdown hook), and
     * creates its references, which {@link Ferry#reference(String, Class)} then returns. {@code -D} and the class
     * path's {@code ferry.properties} apply as to any Ferry. Services are not exported yet.
     */
    public Ferry build(Ferry.Builder base) {
        return FileFerry.build(base, declared.withoutServices(), null, new DeclaredReferences(), false);
    }

    /**
     * Exports the services declared into {@code ferry}, taking the implementations they name by {@code ref} from
     * {@code beans} (which returns null for a name it does not know; {@code known} lists the names it does, for
     * the message); returns how many were exported.
     */
    public int exportServices(Ferry ferry, Function<String, Object> beans, java.util.Collection<String> known) {
        List<ServiceConfig<?>> services = declared.services(beans, known);
        services.forEach(ferry::export);
        return services.size();
    }
}
