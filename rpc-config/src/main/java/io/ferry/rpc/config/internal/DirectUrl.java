package io.ferry.rpc.config.internal;

import io.ferry.rpc.option.Option;
import java.net.InetSocketAddress;
import java.net.URI;

/**
 * A reference's {@code url}, {@code dubbo://host:port[/path][?params]}: the provider to call, the token to send
 * it ({@code ?token=...}), as a Dubbo consumer reads a direct url, and whether its port speaks TLS only
 * ({@code ?ssl-enabled=true}, as the provider registers it). Other parameters are ignored. Messages show the
 * url up to its parameters, which may hold the token.
 *
 * @param token      the {@code token} parameter as written, or null for none (or an empty one)
 * @param sslEnabled the {@code ssl-enabled} parameter is {@code true}
 */
public record DirectUrl(InetSocketAddress address, String token, boolean sslEnabled) {

    /** Parses a url; throws naming the url (not its parameters) and the form expected. */
    public static DirectUrl parse(String url) {
        if (url == null || url.isBlank()) {
            throw invalid(url);
        }
        try {
            URI uri = URI.create(url.trim());
            if (!"dubbo".equals(uri.getScheme()) || uri.getHost() == null || uri.getPort() <= 0) {
                throw invalid(url);
            }
            return new DirectUrl(new InetSocketAddress(uri.getHost(), uri.getPort()), parameter(uri.getRawQuery(),
                    "token"), "true".equals(parameter(uri.getRawQuery(), "ssl-enabled")));
        } catch (IllegalArgumentException e) {
            // not as the cause: the URI's own message quotes the whole url, token included
            throw e.getMessage() != null && e.getMessage().startsWith("url: ") ? e : invalid(url);
        }
    }

    /** A parameter's value as written, or null when it is absent or empty. */
    private static String parameter(String query, String name) {
        if (query == null) {
            return null;
        }
        for (String pair : query.split("&")) {
            if (pair.startsWith(name + "=") && pair.length() > name.length() + 1) {
                return pair.substring(name.length() + 1);
            }
        }
        return null;
    }

    private static IllegalArgumentException invalid(String url) {
        int query = url == null ? -1 : url.indexOf('?');
        String shown = query < 0 ? url : url.substring(0, query) + "?...";
        return new IllegalArgumentException("url: " + shown + " (expected: dubbo://host:port)");
    }

    /** The address; the token, if any, masked. */
    @Override
    public String toString() {
        return "dubbo://" + address.getHostString() + ":" + address.getPort() + (token == null ? "" : "?token=" + Option.MASK)
                + (sslEnabled ? (token == null ? "?" : "&") + "ssl-enabled=true" : "");
    }
}
