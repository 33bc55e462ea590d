package io.ferry.rpc.config.internal;

import io.ferry.rpc.PeerIdentity;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The callers a service or method lets in, by the identity their client certificate proved: a comma-separated list
 * of {@code cn:NAME} (the subject's common name), {@code dns:NAME} (a DNS name among the subject alternative names;
 * {@code dns:*.example.com} for any name under it), {@code uri:URI} (a URI among them, such as a SPIFFE ID; a
 * trailing {@code *} matches any URI that starts with what precedes it), {@code ip:ADDRESS}, or {@code *} for any
 * verified certificate. A caller without a certificate matches nothing. Nothing the caller sends in a request counts:
 * {@code remote.application} is whatever it chose to write.
 */
final class CallerRule {
    private final String text;
    private final List<Pattern> patterns;

    private CallerRule(String text, List<Pattern> patterns) {
        this.text = text;
        this.patterns = patterns;
    }

    private record Pattern(String kind, String value) {
        boolean matches(PeerIdentity identity) {
            return switch (kind) {
                case "*" -> true;
                case "cn" -> identity.commonName().equals(value);
                case "dns" -> identity.dnsNames().stream().anyMatch(this::dnsMatches);
                case "uri" -> identity.uris().stream().anyMatch(uri -> value.endsWith("*")
                        ? uri.startsWith(value.substring(0, value.length() - 1)) : uri.equals(value));
                case "ip" -> identity.ipAddresses().contains(value);
                default -> false;
            };
        }

        private boolean dnsMatches(String name) {
            String lower = name.toLowerCase(Locale.ROOT);
            return value.startsWith("*.") ? lower.endsWith(value.substring(1)) && lower.length() > value.length() - 1
                    : lower.equals(value);
        }
    }

    /**
     * Reads a rule set at {@code where}.
     *
     * @throws IllegalArgumentException naming where, the option and the entry that is not a pattern
     */
    static CallerRule parse(String text, String where) {
        String refused = (where.isEmpty() ? "" : where + ": ") + "callers: '";
        List<Pattern> patterns = new ArrayList<>();
        for (String entry : text.split(",")) {
            String trimmed = entry.strip();
            if (trimmed.equals("*")) {
                patterns.add(new Pattern("*", ""));
                continue;
            }
            int colon = trimmed.indexOf(':');
            String kind = colon < 0 ? "" : trimmed.substring(0, colon).toLowerCase(Locale.ROOT);
            String value = colon < 0 ? "" : trimmed.substring(colon + 1).strip();
            if (!List.of("cn", "dns", "uri", "ip").contains(kind) || value.isEmpty()) {
                throw new IllegalArgumentException(refused + trimmed
                        + "' (expected: a comma-separated list of cn:NAME, dns:NAME, uri:URI, ip:ADDRESS or *)");
            }
            if (kind.equals("ip")) {
                String address = canonicalIp(value);
                if (address == null) {
                    throw new IllegalArgumentException(refused + trimmed
                            + "' is not an IP address (expected: ip:10.0.0.7 or ip:2001:db8::7)");
                }
                value = address;
            }
            patterns.add(new Pattern(kind, kind.equals("dns") ? value.toLowerCase(Locale.ROOT) : value));
        }
        return new CallerRule(text.strip(), List.copyOf(patterns));
    }

    /**
     * An IP address written as the JDK writes a certificate's IP names (IPv6 in full: {@code ::1} is
     * {@code 0:0:0:0:0:0:0:1}), so that a rule compares as text with any spelling of the address; null for what is
     * not an address. Only literals are parsed, never looked up: the character checks keep the JDK off its resolver.
     */
    static String canonicalIp(String text) {
        if (IPV4.matcher(text).matches()) {
            for (String octet : text.split("\\.")) {
                if (Integer.parseInt(octet) > 255) {
                    return null;
                }
            }
        } else if (text.indexOf(':') < 0 || !IPV6_CHARACTERS.matcher(text).matches()) {
            return null;
        }
        try {
            return InetAddress.getByName(text).getHostAddress();
        } catch (UnknownHostException e) {
            return null;
        }
    }

    /** Four decimal octets without leading zeros (which some JDKs read as decimal and others refuse). */
    private static final java.util.regex.Pattern IPV4 = java.util.regex.Pattern.compile(
            "(0|[1-9]\\d{0,2})(\\.(0|[1-9]\\d{0,2})){3}");
    /** What the JDK parses as an IPv6 literal: it starts with a hex digit or ':' (anything else it would look up). */
    private static final java.util.regex.Pattern IPV6_CHARACTERS = java.util.regex.Pattern.compile(
            "[0-9A-Fa-f:][0-9A-Fa-f:.]*");

    /** Whether a caller with {@code identity} (null: no client certificate) may call. */
    boolean allows(PeerIdentity identity) {
        if (identity == null) {
            return false;
        }
        for (Pattern pattern : patterns) {
            if (pattern.matches(identity)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public String toString() {
        return text;
    }
}
