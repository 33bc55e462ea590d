package io.ferry.rpc.config.internal.observation;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.util.jar.Manifest;

/** Which Micrometer jars are on the class path, and whether they were made for each other. */
final class MicrometerVersions {
    static final String OBSERVATION = "io.micrometer.observation.Observation";
    static final String TRACER = "io.micrometer.tracing.Tracer";
    static final String OTEL_BRIDGE = "io.micrometer.tracing.otel.bridge.OtelTracer";
    static final String BRAVE_BRIDGE = "io.micrometer.tracing.brave.bridge.BraveTracer";

    private MicrometerVersions() {
    }

    static boolean present(String className) {
        try {
            Class.forName(className, false, MicrometerVersions.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    /** The version in the manifest of the jar that holds {@code className}; "?" where it says none. */
    static String version(String className) {
        try {
            Class<?> type = Class.forName(className, false, MicrometerVersions.class.getClassLoader());
            URL classFile = type.getResource(type.getSimpleName() + ".class");
            if (classFile == null || !"jar".equals(classFile.getProtocol())) {
                return "?";
            }
            String jar = classFile.toString();
            URL manifest = new URL(jar.substring(0, jar.indexOf("!/") + 2) + "META-INF/MANIFEST.MF");
            try (InputStream in = manifest.openStream()) {
                var attributes = new Manifest(in).getMainAttributes();
                String version = attributes.getValue("Implementation-Version");
                return version != null ? version : attributes.getValue("Bundle-Version") != null
                        ? attributes.getValue("Bundle-Version") : "?";
            }
        } catch (ClassNotFoundException | LinkageError | IOException | RuntimeException e) {
            return "?";
        }
    }

    /**
     * Whether micrometer-tracing {@code 1.m} sits beside the micrometer-observation it was built for,
     * {@code 1.(m+10)} (both are released together: tracing 1.5 with Micrometer 1.15). Unknown versions pass.
     */
    static boolean matched(String tracing, String observation) {
        int[] t = majorMinor(tracing);
        int[] o = majorMinor(observation);
        if (t == null || o == null || t[0] != 1 || o[0] != 1) {
            return true;
        }
        return t[1] + 10 == o[1];
    }

    private static int[] majorMinor(String version) {
        String[] parts = version.split("[.-]");
        if (parts.length < 2) {
            return null;
        }
        try {
            return new int[] {Integer.parseInt(parts[0]), Integer.parseInt(parts[1])};
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** The versions found, for a log line. */
    static String describe() {
        return "micrometer-observation " + (present(OBSERVATION) ? version(OBSERVATION) : "absent")
                + ", micrometer-tracing " + (present(TRACER) ? version(TRACER) : "absent");
    }
}
