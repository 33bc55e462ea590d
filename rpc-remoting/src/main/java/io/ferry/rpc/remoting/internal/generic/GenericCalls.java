package io.ferry.rpc.remoting.internal.generic;

import java.util.Set;

/**
 * Dubbo's generic invocation as the wire carries it: the method {@code $invoke} or {@code $invokeAsync} with the
 * descriptor {@value #DESCRIPTOR} and three arguments (the real method's name, its parameter type names, the
 * arguments), and the attachment {@code generic} saying how values are written. Ferry reads and writes Dubbo's
 * default form, POJOs as maps ({@code true}, or {@code raw.return}: the result is not generalized); the other
 * forms ({@code bean}, {@code nativejava}, {@code gson}, {@code protobuf-json}) are refused, Java serialization above
 * all.
 */
public final class GenericCalls {
    public static final String INVOKE = "$invoke";
    public static final String INVOKE_ASYNC = "$invokeAsync";
    /** {@code (String, String[], Object[])}. */
    public static final String DESCRIPTOR = "Ljava/lang/String;[Ljava/lang/String;[Ljava/lang/Object;";
    /** The attachment that names the form; without it a call is read as {@code true}, as a Dubbo provider reads it. */
    public static final String ATTACHMENT = "generic";
    public static final String TRUE = "true";
    /** Arguments as maps, the result as the method returned it. */
    public static final String RAW_RETURN = "raw.return";
    private static final Set<String> OTHER_FORMS = Set.of("bean", "nativejava", "gson", "protobuf-json");

    private GenericCalls() {
    }

    /** Whether a request's method and descriptor are Dubbo's generic call. */
    public static boolean isGeneric(String method, String descriptor) {
        return (INVOKE.equals(method) || INVOKE_ASYNC.equals(method)) && DESCRIPTOR.equals(descriptor);
    }

    /**
     * Whether the result of a call in this form is generalized ({@code true}, or no attachment, Dubbo's default) or
     * sent as it is ({@code raw.return}).
     *
     * @throws IllegalArgumentException a form Ferry does not read, named with the reason
     */
    public static boolean generalizesResult(Object form) {
        if (form == null || "".equals(form) || TRUE.equalsIgnoreCase(String.valueOf(form))) {
            return true;
        }
        if (RAW_RETURN.equals(form)) {
            return false;
        }
        String shown = io.ferry.rpc.spi.WireText.escape(String.valueOf(form));
        throw new IllegalArgumentException("generic=" + shown + ": not supported by Ferry ("
                + (OTHER_FORMS.contains(shown) ? "" : "unknown form; ")
                + "expected: true, POJOs as maps; Java serialization and the other forms are refused)");
    }

    /**
     * The JVM descriptor of parameter types given by name, as a generic caller names them: {@code int},
     * {@code java.lang.String}, {@code com.acme.User[]}, or the JVM's array names {@code [I} and
     * {@code [Ljava.lang.String;}. Nothing is loaded.
     *
     * @throws IllegalArgumentException a null or empty name
     */
    public static String descriptor(String[] typeNames) {
        StringBuilder sb = new StringBuilder();
        for (String name : typeNames) {
            if (name == null || name.isBlank()) {
                throw new IllegalArgumentException("parameter type: '" + name + "' (expected: a type name)");
            }
            appendDescriptor(sb, name.trim());
        }
        return sb.toString();
    }

    private static void appendDescriptor(StringBuilder sb, String name) {
        if (name.startsWith("[")) {
            sb.append(name.replace('.', '/')); // the JVM's own array name is a descriptor with dots
            return;
        }
        while (name.endsWith("[]")) {
            sb.append('[');
            name = name.substring(0, name.length() - 2);
        }
        switch (name) {
            case "boolean" -> sb.append('Z');
            case "byte" -> sb.append('B');
            case "char" -> sb.append('C');
            case "double" -> sb.append('D');
            case "float" -> sb.append('F');
            case "int" -> sb.append('I');
            case "long" -> sb.append('J');
            case "short" -> sb.append('S');
            default -> sb.append('L').append(name.replace('.', '/')).append(';');
        }
    }
}
