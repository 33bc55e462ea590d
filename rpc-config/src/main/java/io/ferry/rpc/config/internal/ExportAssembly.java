package io.ferry.rpc.config.internal;

import io.ferry.rpc.Filter;
import io.ferry.rpc.Invoker;
import io.ferry.rpc.config.ProtocolConfig;
import io.ferry.rpc.config.ServiceConfig;
import io.ferry.rpc.Ticker;
import io.ferry.rpc.config.extension.ServiceContext;
import io.ferry.rpc.config.internal.accesslog.AccessLogDestination;
import io.ferry.rpc.config.internal.accesslog.AccessLogFilter;
import io.ferry.rpc.option.Option;
import io.ferry.rpc.config.option.Options;
import io.ferry.rpc.config.option.Resolved;
import io.ferry.rpc.config.option.Settings;
import io.ferry.rpc.remoting.Server;
import io.ferry.rpc.remoting.TlsOptions;
import io.ferry.rpc.remoting.ClientAuth;
import io.ferry.rpc.remoting.ServiceExport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.lang.reflect.Method;
import java.util.HashMap;
import java.util.Map;
import java.util.List;

/**
 * Puts a resolved service on the server: its filter chain around the implementation, the export, and its
 * registration.
 */
public final class ExportAssembly {
    private static final Logger log = LoggerFactory.getLogger(ExportAssembly.class);

    private ExportAssembly() {
    }

    /**
     * Exports {@code config} (every source applied; {@code resolved} its settings) on the runtime's server, starting
     * it if none runs, and registers it when the runtime has a registry. Returns the bound port.
     */
    public static int export(ServiceConfig<?> config, Resolved resolved, Settings providerDefaults,
                             ProtocolConfig protocol, FerryRuntime runtime) {
        ProviderToken token = ProviderToken.forExport(resolved.get(Options.TOKEN));
        Invoker chain = chain(new Context(config, resolved, runtime), providerDefaults, protocol, token);
        Filter accessLog = accessLog(config, protocol, runtime); // before the server: a file that fails, fails here
        Server server = runtime.server();
        server.export(new ServiceExport(config.interfaceType(), config.version(), config.group(), chain,
                config.allowList(), config.timeout(), config.methodTimeouts(), config.pool(), accessLog));
        runtime.meters().serviceExported(config.interfaceType().getName());
        RegistryBridge registry = runtime.registry();
        RegistryBridge.ProviderEntry entry = registry == null ? null : registry.provider(
                new RegistryBridge.Registration(config.interfaceType(), config.version(), config.group(),
                        protocol.advertisedHost(), protocol.serverOptions().host(), server.port(), config.timeout(),
                        protocol.serverOptions().heartbeat(), token, protocol.serverOptions().tls() != null,
                        ProviderUrlSettings.of(config)));
        try {
            // registered now, unless an operator took this provider offline: then with the next online
            runtime.exports().add(new ExportedService(config, resolved, server.port(), entry));
        } catch (RuntimeException e) {
            // refused by the registry (its credentials): export() fails, and nothing stays exported unseen
            server.unexport(config.interfaceType(), config.version(), config.group());
            throw e;
        }
        log.info("exported {}{}{} on port {}", config.interfaceType().getName(),
                config.version().isEmpty() ? "" : ":" + config.version(),
                config.group().isEmpty() ? "" : " group " + config.group(), server.port());
        return server.port();
    }

    /**
     * The observation of calls, where this Ferry has one; the token check, where the service has a token; then the
     * named filters (the default ones, such as the {@code executes} limit, then the provider defaults' and the
     * service's lists), then the protocol's filter objects and the service's, around the implementation.
     */
    private static Invoker chain(Context service, Settings providerDefaults, ProtocolConfig protocol,
                                 ProviderToken token) {
        List<Filter> filters = new ArrayList<>();
        Instrumentation instrumentation = service.runtime().instrumentation();
        if (instrumentation != null) {
            // outermost: refused calls are counted too, and the implementation runs in the call's trace
            filters.add(instrumentation.providerFilter());
        }
        if (token != null) {
            // first, and in no list a file could reorder or drop: a refused call reaches nothing of the service
            filters.add(new TokenCheck(token, service.service().interfaceType().getName(),
                    RegistryUrls.advertisedHost(protocol.advertisedHost(), protocol.serverOptions().host()),
                    service.ticker()));
        }
        CallerCheck callers = callerCheck(service, protocol);
        if (callers != null) {
            filters.add(callers); // beside the token check, and for the same reason
        }
        filters.addAll(NamedExtensions.filters(service, providerDefaults));
        filters.addAll(protocol.filters());
        filters.addAll(service.service().filters());
        return Filter.chain(filters, new ImplementationInvoker(service.service().implementation()));
    }

    /**
     * The access log's filter where the service, or else the protocol (which holds the provider's defaults), names a
     * destination; null where neither does or it says false. It goes in front of the provider's own filters, so that
     * it also sees the calls the token and callers checks refuse and those dropped for their deadline.
     *
     * @throws IllegalArgumentException naming the option and the file when the file cannot be opened
     */
    private static Filter accessLog(ServiceConfig<?> config, ProtocolConfig protocol, FerryRuntime runtime) {
        Settings.Setting log = ownOrProtocols(config, protocol, Options.ACCESS_LOG);
        AccessLogDestination destination = log == null ? null
                : AccessLogDestination.parse((String) log.value(), log.where());
        if (destination == null) {
            return null;
        }
        Settings.Setting arguments = ownOrProtocols(config, protocol, Options.ACCESS_LOG_ARGUMENTS);
        return new AccessLogFilter(runtime.accessLogs().writer(destination, log.where()),
                arguments != null && (Boolean) arguments.value(), runtime.ticker(), runtime.clocks().wall());
    }

    private static Settings.Setting ownOrProtocols(ServiceConfig<?> config, ProtocolConfig protocol,
                                                   Option<?> option) {
        Settings.Setting own = config.settings().setting(option);
        return own != null ? own : protocol.settings().setting(option);
    }

    /**
     * The check of callers' identities, where the service or a method of it names its callers; null where none
     * does.
     *
     * @throws IllegalArgumentException for a rule that is not one, or one on a protocol that asks consumers for no
     *                                  certificate (no caller could ever match it)
     */
    private static CallerCheck callerCheck(Context service, ProtocolConfig protocol) {
        Map<Method, CallerRule> rules = new HashMap<>();
        Settings.Setting restricted = null;
        for (Method method : service.service().interfaceType().getMethods()) {
            Settings.Setting setting = service.settings().setting(Options.CALLERS, method);
            if (setting.value() != null) {
                rules.put(method, CallerRule.parse((String) setting.value(), setting.where()));
                restricted = setting;
            }
        }
        if (rules.isEmpty()) {
            return null;
        }
        TlsOptions tls = protocol.serverOptions().tls();
        if (tls == null || tls.clientAuth() == ClientAuth.NONE) {
            throw new IllegalArgumentException((restricted.where().isEmpty() ? "" : restricted.where() + ": ")
                    + "callers: set for " + service.service().interfaceType().getName() + ", but the protocol asks "
                    + "consumers for no certificate, so no caller has an identity (expected: ssl-enabled on the "
                    + "protocol and server-trust-cert-collection-path in the ssl config)");
        }
        return new CallerCheck(service.service().interfaceType().getName(), rules, service.ticker());
    }

    /** What a named filter made for a service may know of it. */
    private record Context(ServiceConfig<?> service, Resolved settings, FerryRuntime runtime)
            implements ServiceContext {
        @Override
        public String application() {
            return runtime.application();
        }

        @Override
        public Ticker ticker() {
            return runtime.ticker();
        }
    }
}
