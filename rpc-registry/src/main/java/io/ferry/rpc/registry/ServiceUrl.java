package io.ferry.rpc.registry;

import io.ferry.rpc.option.Option;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * A Dubbo URL, {@code protocol://host:port/path?key=value&...} with its parameters in alphabetical order, as Dubbo
 * writes provider and consumer nodes in ZooKeeper. Ferry uses this format only at the registry boundary; nothing
 * else in Ferry is configured through it. Immutable.
 *
 * <p>A provider's {@code token} parameter is a credential: {@link #toFullString()} and {@link #encoded()} carry it
 * (the registry needs it, as Dubbo writes it), while {@link #toString()} and messages show it masked.
 */
public final class ServiceUrl {
    /** A token parameter's value, up to the next parameter. */
    private static final Pattern TOKEN = Pattern.compile("([?&]token=)[^&]*");

    private final String protocol;
    private final String host;
    private final int port;
    private final String path;
    private final SortedMap<String, String> parameters;

    public ServiceUrl(String protocol, String host, int port, String path, Map<String, String> parameters) {
        this.protocol = Objects.requireNonNull(protocol, "protocol");
        this.host = Objects.requireNonNull(host, "host");
        this.port = port;
        this.path = path == null ? "" : path;
        this.parameters = Collections.unmodifiableSortedMap(new TreeMap<>(parameters));
    }

    public String protocol() {
        return protocol;
    }

    public String host() {
        return host;
    }

    /** 0 when the URL has no port (consumer URLs). */
    public int port() {
        return port;
    }

    public String path() {
        return path;
    }

    public Map<String, String> parameters() {
        return parameters;
    }

    public String parameter(String key) {
        return parameters.get(key);
    }

    public String parameter(String key, String defaultValue) {
        String value = parameters.get(key);
        return value == null || value.isEmpty() ? defaultValue : value;
    }

    /** {@code protocol://host[:port]/path?a=1&b=2}, parameters sorted. */
    public String toFullString() {
        StringBuilder sb = new StringBuilder(protocol).append("://").append(host);
        if (port > 0) {
            sb.append(':').append(port);
        }
        sb.append('/').append(path);
        if (!parameters.isEmpty()) {
            sb.append('?');
            boolean first = true;
            for (Map.Entry<String, String> e : parameters.entrySet()) {
                if (!first) {
                    sb.append('&');
                }
                first = false;
                sb.append(e.getKey()).append('=').append(e.getValue());
            }
        }
        return sb.toString();
    }

    /** The URL-encoded full string: the name of its ZooKeeper node. */
    public String encoded() {
        return URLEncoder.encode(toFullString(), StandardCharsets.UTF_8);
    }

    /** Parses an encoded node name. */
    public static ServiceUrl decode(String encoded) {
        return parse(URLDecoder.decode(encoded, StandardCharsets.UTF_8));
    }

    /** Parses {@code protocol://host[:port][/path][?params]}; a parameter without '=' gets an empty value. */
    public static ServiceUrl parse(String url) {
        int scheme = url.indexOf("://");
        if (scheme <= 0) {
            throw new IllegalArgumentException("url: " + masked(url) + " (expected: protocol://host:port/path?params)");
        }
        String protocol = url.substring(0, scheme);
        String rest = url.substring(scheme + 3);
        Map<String, String> parameters = new TreeMap<>();
        int query = rest.indexOf('?');
        if (query >= 0) {
            for (String pair : rest.substring(query + 1).split("&")) {
                if (pair.isEmpty()) {
                    continue;
                }
                int eq = pair.indexOf('=');
                parameters.put(eq < 0 ? pair : pair.substring(0, eq), eq < 0 ? "" : pair.substring(eq + 1));
            }
            rest = rest.substring(0, query);
        }
        int slash = rest.indexOf('/');
        String path = slash < 0 ? "" : rest.substring(slash + 1);
        String authority = slash < 0 ? rest : rest.substring(0, slash);
        String host = authority;
        int port = 0;
        int colon = authority.lastIndexOf(':');
        if (colon > 0 && authority.indexOf(']') < colon) {
            host = authority.substring(0, colon);
            try {
                port = Integer.parseInt(authority.substring(colon + 1));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("url: " + masked(url) + " (expected: a numeric port)");
            }
        }
        return new ServiceUrl(protocol, host, port, path, parameters);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ServiceUrl u && toFullString().equals(u.toFullString());
    }

    @Override
    public int hashCode() {
        return toFullString().hashCode();
    }

    /** As {@link #toFullString()}, with a {@code token} masked: what logs and messages may show. */
    @Override
    public String toString() {
        return masked(toFullString());
    }

    /** {@code url} (a full string, as written or parsed) with the value of a {@code token} parameter masked. */
    public static String masked(String url) {
        return TOKEN.matcher(url).replaceAll("$1" + Option.MASK);
    }
}
