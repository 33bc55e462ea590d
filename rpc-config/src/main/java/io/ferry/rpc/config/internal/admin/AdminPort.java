package io.ferry.rpc.config.internal.admin;

import io.ferry.rpc.config.ApplicationConfig;
import io.ferry.rpc.config.RegistryConfig;
import io.ferry.rpc.config.internal.FerryRuntime;
import io.ferry.rpc.remoting.AdminServer;

import java.time.Duration;

/** Starts a Ferry's admin port as its application's {@code qos-*} options say, with {@link AdminRoutes}' routes. */
public final class AdminPort {
    /** How long a request may take to arrive: probes and curl send theirs at once. */
    public static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(5);

    private AdminPort() {
    }

    /**
     * Listens on 127.0.0.1, serving this machine only, unless {@code qos-accept-foreign-ip}: then on every address,
     * serving anyone.
     *
     * @throws IllegalStateException naming {@code qos-port} when the port cannot be bound
     */
    public static AdminServer start(ApplicationConfig application, RegistryConfig registry, FerryRuntime runtime,
                                    Duration requestTimeout) {
        boolean foreign = application.qosAcceptForeignIp();
        return AdminServer.builder().host(foreign ? null : "127.0.0.1").port(application.qosPort())
                .acceptForeignIp(foreign).requestTimeout(requestTimeout)
                .routes(AdminRoutes.of(runtime, application, registry)).start();
    }
}
