package io.ferry.rpc.config.option;

import io.ferry.rpc.option.Option;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Option values as a printed setting shows them: a token is a credential, a direct url may carry one
 * ({@code ?token=...}), and an option declared secret (a key password) is one; none may reach a log line or a
 * toString. Every other value as {@link Settings#show}.
 */
final class Secrets {
    static final String MASK = Option.MASK;
    /** A token parameter's value, up to the next parameter. */
    private static final Pattern URL_TOKEN = Pattern.compile("([?&]token=)[^&]*");

    private Secrets() {
    }

    static String shown(Option<?> option, Object value) {
        if (option == Options.TOKEN && value instanceof String token) {
            // true and false say how the token is made, not what it is
            String word = token.toLowerCase(Locale.ROOT);
            return word.equals("true") || word.equals("false") ? word : MASK;
        }
        if (option == Options.URL && value instanceof String url) {
            return URL_TOKEN.matcher(url).replaceAll("$1" + MASK);
        }
        return Settings.show(option, value); // a secret option (a password) masked there
    }
}
