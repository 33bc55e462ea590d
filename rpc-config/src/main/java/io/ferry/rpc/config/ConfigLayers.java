package io.ferry.rpc.config;

import io.ferry.rpc.config.internal.files.FileBootstrap;
import io.ferry.rpc.config.internal.files.Sources;
import io.ferry.rpc.config.internal.AnnotationValues;
import io.ferry.rpc.config.option.Options;
import io.ferry.rpc.config.option.Resolved;
import io.ferry.rpc.option.Scope;
import io.ferry.rpc.config.option.Settings;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The configuration a {@link Ferry} runs with: what code (or a file) gave, with the two other sources laid over
 * it: {@code -D} system properties win, the class path's {@code ferry.properties} fills what is left. Computes the
 * application, protocol, consumer and registry once, and each service and reference as it is exported or made.
 */
final class ConfigLayers {
    private final Sources sources;
    private final ApplicationConfig application;
    private final ProtocolConfig protocol;
    private final ConsumerConfig consumer;
    private final RegistryConfig registry;
    private final SslConfig ssl;
    /** The provider scope's defaults for services, from -D and the class path's ferry.properties. */
    private final Settings serviceDefaults;

    /** {@code code}: what the builder, or a file through it, gave. */
    ConfigLayers(Sources sources, Ferry.Builder code) {
        this.sources = sources;
        this.application = application(code.application);
        Settings provider = Settings.layered(sources.system().provider(), code.providerDefaults,
                sources.classPath().provider());
        Settings protocolSettings = sources.merged(Sources.Layer::protocol, code.protocol.settings());
        protocolSettings.fillFrom(Sources.forProtocol(provider)); // the protocol's own values win in every source
        this.ssl = code.ssl.withSettings(sources.merged(Sources.Layer::ssl, code.ssl.settings()));
        this.protocol = code.protocol.withSettings(protocolSettings).withTls(ssl);
        this.serviceDefaults = Sources.forServices(provider);
        this.consumer = code.consumer.withSettings(sources.merged(Sources.Layer::consumer, code.consumer.settings()))
                .withTls(ssl);
        this.registry = registry(code.registry, code.registrySettings);
    }

    ApplicationConfig application() {
        return application;
    }

    ProtocolConfig protocol() {
        return protocol;
    }

    ConsumerConfig consumer() {
        return consumer;
    }

    SslConfig ssl() {
        return ssl;
    }

    /**
     * A server certificate in the ssl config and a protocol without {@code ssl-enabled} would serve plain text where
     * the file meant TLS: Dubbo serves TLS on its config alone, so a ported file would silently lose it. Refused
     * when the first service is exported (a consumer sharing the config serves nothing).
     */
    void refuseUnusedServerCertificate() {
        Settings.Setting chain = ssl.settings().setting(Options.SERVER_KEY_CERT_CHAIN_PATH);
        if (chain != null && !protocol.sslEnabled()) {
            throw new IllegalArgumentException((chain.where().isEmpty() ? "" : chain.where() + ": ")
                    + "server-key-cert-chain-path is set, but the protocol's ssl-enabled is not (expected: "
                    + "ssl-enabled=\"true\" on the protocol to serve TLS, or no server certificate; the port would "
                    + "speak plain text, where Dubbo serves TLS on its ssl config alone)");
        }
    }

    /** The provider scope's defaults for services (from a file, -D and the class path's ferry.properties). */
    Settings serviceDefaults() {
        return serviceDefaults;
    }

    /** Null when this Ferry has no registry. */
    RegistryConfig registry() {
        return registry;
    }

    /** {@code -D} over code (or a file), code over the class path's {@code ferry.properties}, option by option. */
    private ApplicationConfig application(ApplicationConfig code) {
        return code.withSettings(sources.merged(Sources.Layer::application, code.settings()));
    }

    /**
     * The registry: one whose address {@code -D} gives; else the code's; else one the class path's
     * {@code ferry.properties} gives. Registry options without an address have nothing to apply to.
     */
    private RegistryConfig registry(RegistryConfig code, Settings codeSettings) {
        Settings fromSystem = sources.system().registry();
        Settings fromClassPath = sources.classPath().registry();
        if (codeSettings != null) { // a file's registry: -D changes it option by option
            return FileBootstrap.registry(Settings.layered(fromSystem, codeSettings, fromClassPath));
        }
        if (fromSystem.get(Options.REGISTRY_ADDRESS) != null
                || (code == null && fromClassPath.get(Options.REGISTRY_ADDRESS) != null)) {
            return FileBootstrap.registry(Settings.layered(fromSystem, fromClassPath));
        }
        Settings stray = Settings.layered(fromSystem, code == null ? new Settings() : fromClassPath);
        if (!stray.isEmpty()) {
            throw new IllegalArgumentException(stray.setting(stray.options().iterator().next()).where()
                    + ": a registry option without ferry.registry.address (the registry set in code is an object "
                    + "that -D and ferry.properties do not change; give the address too)");
        }
        return code;
    }

    /** The service as -D and the class path's ferry.properties leave it, by its interface's name. */
    <T> ServiceConfig<T> layered(ServiceConfig<T> config) {
        String name = config.interfaceType().getName();
        Settings merged = sources.merged(layer -> layer.service(name), config.settings());
        merged.fillFrom(serviceDefaults);
        return config.withSettings(merged, methodConfigs(sources.mergedMethods(layer -> layer.serviceMethods(name),
                methodSettings(config.methods()))));
    }

    /** The reference as -D and the class path's ferry.properties leave it, by its id (none: as given). */
    <T> ReferenceConfig<T> layered(ReferenceConfig<T> config) {
        String id = config.id();
        if (id == null) {
            return config;
        }
        return config.withSettings(sources.merged(layer -> layer.reference(id), config.settings()),
                methodConfigs(sources.mergedMethods(layer -> layer.referenceMethods(id),
                        methodSettings(config.methods()))));
    }

    /** A layered reference's settings: its methods', its own, then the consumer's and the built-in defaults. */
    Resolved resolve(ReferenceConfig<?> layered) {
        return new Resolved(Scope.REFERENCE, methodSettings(layered.methods()), AnnotationValues::methodSettings,
                layered.settings(), consumer.settings());
    }

    /** A layered service's settings; the provider's defaults are in them already, and a service has no timeout. */
    static Resolved resolve(ServiceConfig<?> layered) {
        return new Resolved(Scope.SERVICE, methodSettings(layered.methods()), AnnotationValues::methodSettings,
                layered.settings(), new Settings());
    }

    /** -D or the class path's ferry.properties naming a reference or service the file lacks is a mistake. */
    void refuseStrayOverrides(FileBootstrap.Loaded loaded) {
        Set<String> services = new HashSet<>();
        Map<String, List<String>> versions = new HashMap<>();
        loaded.services().forEach(s -> {
            services.add(s.interfaceType().getName());
            versions.computeIfAbsent(s.interfaceType().getName(), n -> new java.util.ArrayList<>())
                    .add((s.group().isEmpty() ? "" : "group " + s.group() + " ") + "version "
                            + (s.version().isEmpty() ? "none" : s.version()));
        });
        refuseStrayOverrides(loaded, services);
        for (Sources.Layer layer : List.of(sources.system(), sources.classPath())) {
            layer.serviceNames().forEach((name, where) -> {
                if (versions.get(name).size() > 1) {
                    throw new IllegalArgumentException(where + ": the file exports " + name + " "
                            + versions.get(name).size() + " times (" + String.join(", ", versions.get(name))
                            + "), and ferry.service." + name + ".* does not say which (expected: the setting on "
                            + "the file's <service> of that version)");
                }
            });
        }
    }

    /** As above; {@code services}: the names a service may be overridden by, or null when any may be. */
    void refuseStrayOverrides(FileBootstrap.Loaded loaded, Set<String> services) {
        for (Sources.Layer layer : List.of(sources.system(), sources.classPath())) {
            layer.referenceIds().forEach((id, where) -> {
                if (!loaded.references().containsKey(id)) {
                    throw new IllegalArgumentException(where + ": no reference '" + id + "' in the file (expected: "
                            + "one of " + loaded.references().keySet() + ")");
                }
            });
            layer.serviceNames().forEach((name, where) -> {
                if (services != null && !services.contains(name)) {
                    throw new IllegalArgumentException(where + ": no service " + name + " in the file (expected: "
                            + "one of " + services + ")");
                }
            });
        }
    }

    private static Map<String, Settings> methodSettings(Map<String, MethodConfig> methods) {
        Map<String, Settings> settings = new HashMap<>();
        methods.forEach((name, method) -> settings.put(name, method.settings()));
        return settings;
    }

    private static Map<String, MethodConfig> methodConfigs(Map<String, Settings> settings) {
        Map<String, MethodConfig> methods = new HashMap<>();
        settings.forEach((name, s) -> methods.put(name, MethodConfig.of(name, s)));
        return methods;
    }
}
