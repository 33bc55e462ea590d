package io.ferry.rpc.remoting.internal.exchange;

import io.ferry.rpc.RpcStatus;

/**
 * A provider's token refusal as a consumer's exception may say it. A Dubbo 3.3 provider sends its exception's
 * toString and whole stack, and ends the first line with {@code , consumer incorrect token is <what the call
 * carried>}: that is a credential (a stale or another provider's token), which never goes into a Ferry message.
 */
final class TokenRefusals {
    /** Where Dubbo starts echoing the token; what follows is dropped. */
    private static final String ECHO = ", consumer incorrect token is";

    private TokenRefusals() {
    }

    /** The refusal's first line, from Dubbo's wording on, without the token it echoes. */
    static String readable(String message) {
        int start = message.indexOf(RpcStatus.INVALID_TOKEN_PREFIX);
        String text = (start < 0 ? message : message.substring(start)).lines().findFirst().orElse("");
        int echo = text.indexOf(ECHO);
        return echo < 0 ? text : text.substring(0, echo);
    }
}
