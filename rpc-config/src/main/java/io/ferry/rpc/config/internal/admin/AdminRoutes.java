package io.ferry.rpc.config.internal.admin;

import io.ferry.rpc.config.ApplicationConfig;
import io.ferry.rpc.config.RegistryConfig;
import io.ferry.rpc.config.internal.FerryRuntime;
import io.ferry.rpc.remoting.AdminRoute;

import java.util.List;

/**
 * The admin port's route table, the one place a path is added: reads are GET, commands POST, each a handler class
 * beside this one.
 */
public final class AdminRoutes {
    private AdminRoutes() {
    }

    /** The routes over {@code runtime}'s state. */
    public static List<AdminRoute> of(FerryRuntime runtime, ApplicationConfig application, RegistryConfig registry) {
        HealthEndpoints health = new HealthEndpoints(runtime);
        ServicesEndpoint services = new ServicesEndpoint(runtime, application.name(), registry);
        ConnectionsEndpoint connections = new ConnectionsEndpoint(runtime);
        DrainEndpoints drain = new DrainEndpoints(runtime);
        MetricsEndpoint metrics = new MetricsEndpoint(runtime);
        CallsEndpoint calls = new CallsEndpoint(runtime);
        return List.of(
                AdminRoute.get("/", new AdminPage()::page),
                AdminRoute.get("/health/live", health::live),
                AdminRoute.get("/health/ready", health::ready),
                AdminRoute.get("/services", services::services),
                AdminRoute.get("/connections", connections::connections),
                AdminRoute.get("/metrics", metrics::metrics),
                AdminRoute.get("/calls", calls::calls),
                AdminRoute.post("/offline", drain::offline),
                AdminRoute.post("/online", drain::online));
    }
}
