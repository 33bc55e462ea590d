package io.ferry.rpc.registry;

import io.ferry.rpc.option.Option;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import java.util.Set;
import java.util.TreeSet;

/**
 * What a consumer takes from a provider's registry entry: where it is and what it offers, and the settings of calls
 * it gives its consumers as Dubbo's providers do ({@link #callSettings()}: a consumer's own settings win).
 * Serialization stays the consumer's decision: registry data never changes how a Ferry consumer decodes bytes.
 *
 * @param weight          load-balancing weight, default 100
 * @param disabled        true when an operator disabled the provider ({@code disabled=true} or {@code enabled=false})
 * @param startedAtMillis when the provider registered (its {@code timestamp}, epoch ms), or 0 when unknown
 * @param warmupMillis    how long its weight ramps up after start ({@code warmup}, Dubbo's default 10 minutes)
 * @param token           what every call to it must carry as its {@code token} attachment (Dubbo's), or null for
 *                        none; a credential, left out of {@link #toString()}
 * @param sslEnabled      the provider's port speaks TLS only ({@code ssl-enabled=true}): consumers connect with TLS
 * @param callSettings    the consumer-side settings the provider gives its consumers, as its URL spells them
 *                        (Dubbo's): {@code timeout}, {@code retries}, {@code loadbalance}, {@code actives},
 *                        {@code cluster}, each also as {@code <method>.<name>} for a method it lists; text, unchecked
 */
public record ProviderInstance(String host, int port, String interfaceName, String version, String group,
                               Set<String> methods, int weight, boolean disabled, String application,
                               long startedAtMillis, long warmupMillis, String token, boolean sslEnabled,
                               Map<String, String> callSettings) {

    public static final int DEFAULT_WEIGHT = 100;
    /** The settings of calls a provider's URL may give its consumers, by Dubbo's names. */
    public static final Set<String> CALL_SETTINGS = Set.of("timeout", "retries", "loadbalance", "actives", "cluster");

    public ProviderInstance {
        callSettings = Map.copyOf(callSettings);
    }

    /** A provider that gives its consumers no settings of calls. */
    public ProviderInstance(String host, int port, String interfaceName, String version, String group,
                            Set<String> methods, int weight, boolean disabled, String application,
                            long startedAtMillis, long warmupMillis, String token, boolean sslEnabled) {
        this(host, port, interfaceName, version, group, methods, weight, disabled, application, startedAtMillis,
                warmupMillis, token, sslEnabled, Map.of());
    }
    /** Dubbo's default warm-up: a provider's weight ramps up over its first 10 minutes. */
    public static final long DEFAULT_WARMUP_MILLIS = 10 * 60 * 1000;

    /** A provider with no known start time (so no warm-up). */
    public ProviderInstance(String host, int port, String interfaceName, String version, String group,
                            Set<String> methods, int weight, boolean disabled, String application) {
        this(host, port, interfaceName, version, group, methods, weight, disabled, application, 0,
                DEFAULT_WARMUP_MILLIS, null, false);
    }

    /** A plain-text provider that asks for no token. */
    public ProviderInstance(String host, int port, String interfaceName, String version, String group,
                            Set<String> methods, int weight, boolean disabled, String application,
                            long startedAtMillis, long warmupMillis) {
        this(host, port, interfaceName, version, group, methods, weight, disabled, application, startedAtMillis,
                warmupMillis, null, false);
    }

    /**
     * Reads a provider URL, or returns null for one a Ferry consumer cannot call (another protocol, an
     * {@code empty://} marker, a missing port).
     */
    public static ProviderInstance from(ServiceUrl url) {
        if (!"dubbo".equals(url.protocol()) || url.port() <= 0) {
            return null;
        }
        String methods = url.parameter("methods", "");
        int weight;
        try {
            weight = Integer.parseInt(url.parameter("weight", String.valueOf(DEFAULT_WEIGHT)));
        } catch (NumberFormatException e) {
            weight = DEFAULT_WEIGHT;
        }
        boolean disabled = "true".equals(url.parameter("disabled")) || "false".equals(url.parameter("enabled"));
        Set<String> methodNames = methods.isEmpty() ? Set.of() : new TreeSet<>(Arrays.asList(methods.split(",")));
        return new ProviderInstance(url.host(), url.port(), url.parameter("interface", url.path()),
                ServiceKey.normalize(url.parameter("version")), url.parameter("group", ""), methodNames,
                Math.max(0, weight), disabled, url.parameter("application", ""),
                Math.max(0, number(url.parameter("timestamp"), 0)),
                Math.max(0, number(url.parameter("warmup"), DEFAULT_WARMUP_MILLIS)),
                url.parameter("token", null), // as a Dubbo consumer reads it: any value but an empty one
                "true".equals(url.parameter("ssl-enabled")), callSettings(url, methodNames));
    }

    /** The URL's {@link #CALL_SETTINGS}, the service's and its listed methods' ({@code sayHi.timeout}). */
    private static Map<String, String> callSettings(ServiceUrl url, Set<String> methods) {
        Map<String, String> settings = new TreeMap<>();
        url.parameters().forEach((key, value) -> {
            int dot = key.lastIndexOf('.');
            String name = key.substring(dot + 1);
            if (CALL_SETTINGS.contains(name) && !value.isEmpty()
                    && (dot < 0 || methods.contains(key.substring(0, dot)))) {
                settings.put(key, value);
            }
        });
        return settings;
    }

    private static long number(String text, long otherwise) {
        if (text == null) {
            return otherwise;
        }
        try {
            return Long.parseLong(text.trim());
        } catch (NumberFormatException e) {
            return otherwise;
        }
    }

    /** host:port. */
    public String address() {
        return host + ":" + port;
    }

    /** Every component, the token masked. */
    @Override
    public String toString() {
        return "ProviderInstance[host=" + host + ", port=" + port + ", interfaceName=" + interfaceName + ", version="
                + version + ", group=" + group + ", methods=" + methods + ", weight=" + weight + ", disabled="
                + disabled + ", application=" + application + ", startedAtMillis=" + startedAtMillis
                + ", warmupMillis=" + warmupMillis + ", token=" + (token == null ? "none" : Option.MASK)
                + ", sslEnabled=" + sslEnabled + ", callSettings=" + callSettings + "]";
    }
}
