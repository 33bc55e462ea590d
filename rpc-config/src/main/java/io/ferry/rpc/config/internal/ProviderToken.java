package io.ferry.rpc.config.internal;

import io.ferry.rpc.option.Option;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Locale;
import java.util.Set;
import java.util.UUID;

/**
 * The token one export asks every call for (Dubbo's {@code token}): made at random for the export when the setting
 * says {@code true}, the setting itself otherwise. A credential: compared in constant time, never printed.
 * Immutable.
 */
public final class ProviderToken {
    /** Dubbo's words for "make one" ({@code ConfigUtils.isDefault}). */
    private static final Set<String> RANDOM = Set.of("true", "default");
    /** Dubbo's words for "none" ({@code ConfigUtils.isEmpty}), so that a Dubbo file means what it meant there. */
    private static final Set<String> NONE = Set.of("false", "0", "null", "n/a");

    private final String value;
    private final byte[] digest;

    private ProviderToken(String value) {
        this.value = value;
        this.digest = sha256(value);
    }

    /** The token an export asks for under {@code setting} (the resolved {@code token} option), or null for none. */
    public static ProviderToken forExport(String setting) {
        String word = setting == null ? "" : setting.trim().toLowerCase(Locale.ROOT);
        if (word.isEmpty() || NONE.contains(word)) {
            return null;
        }
        // a UUID as Dubbo makes it: 122 random bits from the JDK's SecureRandom
        return new ProviderToken(RANDOM.contains(word) ? UUID.randomUUID().toString() : setting);
    }

    /** The token itself, for the registry URL only. */
    public String value() {
        return value;
    }

    /**
     * Whether {@code sent} (a call's {@code token} attachment, null when it has none) is this token. Both are
     * digested first, so the comparison takes the same time whatever was sent, and tells nothing of the length.
     */
    public boolean matches(Object sent) {
        return sent instanceof String text && MessageDigest.isEqual(digest, sha256(text));
    }

    private static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    @Override
    public String toString() {
        return "ProviderToken(" + Option.MASK + ")";
    }
}
