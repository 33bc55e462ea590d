package io.ferry.rpc.config;

import java.util.List;

/**
 * What a {@link Ferry} runs, at one moment, as a health check reads it (Spring Boot's {@code ferry} health
 * indicator, a probe of your own): whether it is closing or offline, where its registry session stands, whether each
 * exported service is registered, and each reference's providers. It holds names and counts only: no setting value,
 * address of a consumer, token or credential. Made by {@link Ferry#status()}; immutable.
 *
 * @param closing    whether the Ferry is closing or closed
 * @param offline    whether an operator took its services offline (the admin port's {@code POST /offline})
 * @param registry   the registry's session
 * @param services   the services exported, in order
 * @param references the references made, in order
 */
public record FerryStatus(boolean closing, boolean offline, RegistryState registry, List<Service> services,
                          List<Reference> references) {
    public FerryStatus {
        services = List.copyOf(services);
        references = List.copyOf(references);
    }

    /** Where the registry's session stands. */
    public enum RegistryState {
        /** No registry is configured: references name their providers by url. */
        NONE,
        /** A registry is configured, and nothing has needed it yet (it connects with the first export or reference). */
        NOT_STARTED,
        CONNECTED,
        /** The connection is lost and the session may still be alive: known providers keep being called. */
        SUSPENDED,
        /** The session expired: providers are neither announced nor seen until it comes back. */
        LOST,
        /** A registry (one a jar registers) that cannot tell. */
        UNKNOWN
    }

    /**
     * An exported service.
     *
     * @param registered whether the registry lists it now; false without a registry
     */
    public record Service(String interfaceName, String version, String group, boolean registered) {
    }

    /**
     * A reference and its providers.
     *
     * @param id       its id (a file's, or one given in code), or null
     * @param check    whether it was made with {@code check} on: it then expects a ready provider
     * @param byUrl    whether it calls providers by url rather than those the registry lists
     * @param known    providers it knows (listed by the registry, or named by its url, or kept by empty-list
     *                 protection)
     * @param ready    those of them connected and ready for calls
     * @param kept     those of them kept by empty-list protection: the registry lists no provider, and these still
     *                 had live connections when it said so; 0 when the protection does not hold
     */
    public record Reference(String id, String interfaceName, String version, String group, boolean check,
                            boolean byUrl, int known, int ready, int kept) {
        /** A reference whose providers are not held by empty-list protection. */
        public Reference(String id, String interfaceName, String version, String group, boolean check, boolean byUrl,
                         int known, int ready) {
            this(id, interfaceName, version, group, check, byUrl, known, ready, 0);
        }

        /** Whether empty-list protection holds: the registry lists no provider, and calls go to those kept. */
        public boolean heldByEmptyProtection() {
            return kept > 0;
        }
    }
}
