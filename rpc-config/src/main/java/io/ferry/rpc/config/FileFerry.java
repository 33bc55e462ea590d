package io.ferry.rpc.config;

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
        Ferry.Builder builder = Ferry.builder().protocol(loaded.protocol()).consumer(loaded.consumer()).ssl(loaded.ssl())
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
            ferry.layers().refuseStrayOverrides(loaded);
            loaded.services().forEach(ferry::export);
            loaded.references().forEach((id, config) -> declared.add(id, config, ferry.reference(config)));
            return ferry;
        } catch (RuntimeException e) {
            ferry.close();
            throw e;
        }
    }
}
