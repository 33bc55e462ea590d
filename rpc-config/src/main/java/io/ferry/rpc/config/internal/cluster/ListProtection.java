package io.ferry.rpc.config.internal.cluster;

import java.time.Duration;

/**
 * What a provider list from the registry may not take away from a reference while the providers it drops still
 * answer (see {@link RegistryDirectory}).
 *
 * @param empty         an empty list leaves the providers still ready in place ({@code emptyProtection})
 * @param unlistedGrace how long a provider that a non-empty list drops stays while it is ready
 *                      ({@code unlistedGrace}); zero takes such a list as it is
 */
public record ListProtection(boolean empty, Duration unlistedGrace) {
    /** Both on, with a minute's grace: the defaults. */
    public static ListProtection defaults() {
        return new ListProtection(true, Duration.ofMinutes(1));
    }

    /** Every list taken as it is, as Dubbo's consumers take it. */
    public static ListProtection none() {
        return new ListProtection(false, Duration.ZERO);
    }
}
