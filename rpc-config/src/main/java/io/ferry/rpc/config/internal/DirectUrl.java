package io.ferry.rpc.config.internal;

import java.net.InetSocketAddress;
import java.net.URI;

/**
 * A reference's {@code url}, {@code dubbo://host:port[/path][?params]}: the provider to call, and the token to send
 * it ({@code ?token=...}), as a Dubbo consumer reads a direct url. Other parameters are ignored. Messages show the
 * url up to its parameters, which may hold the token.
 *
 * @param token the {@code token} parameter as written, or null for none (or an empty one)
 */
public record DirectUrl(InetSocketAddress address, String token) {

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
            return new DirectUrl(new InetSocketAddress(uri.getHost(), uri.getPort()), token(uri.getRawQuery()));
        } catch (IllegalArgumentException e) {
            // not as the cause: the URI's own message quotes the whole url, token included
            throw e.getMessage() != null && e.getMessage().startsWith("url: ") ? e : invalid(url);
        }
    }

    private static String token(String query) {
        if (query == null) {
            return null;
        }
        for (String pair : query.split("&")) {
            if (pair.startsWith("token=") && pair.length() > "token=".length()) {
                return pair.substring("token=".length());
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
        return "dubbo://" + address.getHostString() + ":" + address.getPort() + (token == null ? "" : "?token=******");
    }
}
