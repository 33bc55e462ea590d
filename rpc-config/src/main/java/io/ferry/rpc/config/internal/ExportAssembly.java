package io.ferry.rpc.config.internal;

import io.ferry.rpc.Filter;
import io.ferry.rpc.Invoker;
import io.ferry.rpc.config.ProtocolConfig;
import io.ferry.rpc.config.ServiceConfig;
import io.ferry.rpc.config.option.Options;
import io.ferry.rpc.config.option.Resolved;
import io.ferry.rpc.remoting.Server;
import io.ferry.rpc.remoting.ServiceExport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;

/**
 * Puts a resolved service on the server: its filter chain (the protocol's filters, the service's, then the
 * {@code executes} limit when one is set) around the implementation, the export, and its registration.
 */
public final class ExportAssembly {
    private static final Logger log = LoggerFactory.getLogger(ExportAssembly.class);

    private ExportAssembly() {
    }

    /**
     * Exports {@code config} (every source applied; {@code resolved} its settings) on the runtime's server, starting
     * it if none runs, and registers it when the runtime has a registry. Returns the bound port.
     */
    public static int export(ServiceConfig<?> config, Resolved resolved, ProtocolConfig protocol,
                             FerryRuntime runtime) {
        Server server = runtime.server();
        server.export(new ServiceExport(config.interfaceType(), config.version(), config.group(),
                chain(config, resolved, protocol), config.allowList(), config.timeout(), config.methodTimeouts(),
                config.pool()));
        RegistryBridge registry = runtime.registry();
        if (registry != null) {
            registry.registerProvider(new RegistryBridge.Registration(config.interfaceType(), config.version(),
                    config.group(), protocol.advertisedHost(), protocol.serverOptions().host(), server.port(),
                    config.timeout(), protocol.serverOptions().heartbeat(), runtime.application()));
        }
        log.info("exported {}{}{} on port {}", config.interfaceType().getName(),
                config.version().isEmpty() ? "" : ":" + config.version(),
                config.group().isEmpty() ? "" : " group " + config.group(), server.port());
        return server.port();
    }

    private static Invoker chain(ServiceConfig<?> config, Resolved resolved, ProtocolConfig protocol) {
        List<Filter> filters = new ArrayList<>(protocol.filters());
        filters.addAll(config.filters());
        if (config.executes() > 0 || resolved.setForSomeMethod(Options.EXECUTES)) {
            filters.add(ConcurrencyLimit.executes(m -> resolved.get(Options.EXECUTES, m),
                    config.interfaceType().getName()));
        }
        return Filter.chain(filters, new ImplementationInvoker(config.implementation()));
    }
}
