package io.ferry.rpc.config;

import io.ferry.rpc.spi.Validate;
import io.ferry.rpc.config.internal.files.FileBootstrap;
import io.ferry.rpc.config.internal.files.Sources;

/** Builds the Ferry a file described: its bootstrap, then its services, then its references by id. */
final class FileFerry {
    private FileFerry() {
    }

    /**
     * {@code sources}: null for the system properties and the class path's {@code ferry.properties}; tests pass
     * their own. A failure closes what was built and is thrown.
     */
    static Ferry build(FileBootstrap.Loaded loaded, Sources sources, DeclaredReferences declared) {
        return build(Ferry.builder(), loaded, sources, declared, true);
    }

    /**
     * As above, over what {@code builder} was already given (a host's observability, its shutdown hook); a
     * host's services come later ({@code hosted}: they are not checked against -D overrides here).
     */
    static Ferry build(Ferry.Builder builder, FileBootstrap.Loaded loaded, Sources sources,
                       DeclaredReferences declared, boolean ownServices) {
        builder.protocol(loaded.protocol()).consumer(loaded.consumer()).ssl(loaded.ssl())
                .sources(sources).providerDefaults(loaded.provider());
        builder.registrySettings = loaded.registrySettings().isEmpty() ? null : loaded.registrySettings();
        if (loaded.application() != null) {
            builder.application(loaded.application());
        }
        if (loaded.registry() != null) {
            builder.registry(loaded.registry());
        }
        Ferry ferry = builder.declared(declared).build();
        try {
            if (ownServices) {
                ferry.layers().refuseStrayOverrides(loaded);
            } else {
                ferry.layers().refuseStrayOverrides(loaded, null);
            }
            loaded.services().forEach(ferry::export);
            // a reference's configuration mistakes (a mock or stub that cannot be, ...) show when it is created:
            // every reference is tried, and their mistakes are thrown together, in the file's order
            java.util.List<IllegalArgumentException> wrong = new java.util.ArrayList<>();
            loaded.references().forEach((id, config) -> {
                try {
                    declared.add(id, config, ferry.reference(config));
                } catch (IllegalArgumentException e) {
                    wrong.add(e);
                }
            });
            Validate.throwAll(wrong);
            return ferry;
        } catch (RuntimeException e) {
            ferry.close();
            throw e;
        }
    }
}
