package io.ferry.rpc.config.internal;

import io.ferry.rpc.registry.ServiceUrl;
import io.ferry.rpc.remoting.ServiceSchema;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;

/**
 * The URLs Ferry writes into the registry, with the parameters a Dubbo consumer needs (DUBBO-WIRE §2.5): never a
 * {@code prefer.serialization} (a Dubbo consumer would switch to fastjson2), never consumer-side policy such as
 * retries or load balancing.
 */
public final class RegistryUrls {
    private RegistryUrls() {
    }

    public static ServiceUrl provider(ServiceSchema schema, String host, int port, String version, String group,
                                      Duration timeout, String application) {
        Map<String, String> p = new TreeMap<>();
        p.put("application", application);
        p.put("anyhost", "false");
        p.put("deprecated", "false");
        p.put("dubbo", "2.0.2");
        p.put("dynamic", "true");
        p.put("generic", "false");
        p.put("interface", schema.name());
        p.put("methods", schema.methodNames());
        p.put("serialization", "hessian2");
        p.put("side", "provider");
        p.put("timestamp", String.valueOf(System.currentTimeMillis()));
        if (!version.isEmpty()) {
            p.put("version", version);
        }
        if (!group.isEmpty()) {
            p.put("group", group);
        }
        if (timeout != null) {
            p.put("timeout", String.valueOf(timeout.toMillis()));
        }
        return new ServiceUrl("dubbo", host, port, schema.name(), p);
    }

    public static ServiceUrl consumer(ServiceSchema schema, String version, String group, String application) {
        Map<String, String> p = new TreeMap<>();
        p.put("application", application);
        p.put("category", "consumers");
        p.put("check", "false");
        p.put("dubbo", "2.0.2");
        p.put("interface", schema.name());
        p.put("methods", schema.methodNames());
        p.put("side", "consumer");
        p.put("timestamp", String.valueOf(System.currentTimeMillis()));
        if (!version.isEmpty()) {
            p.put("version", version);
        }
        if (!group.isEmpty()) {
            p.put("group", group);
        }
        return new ServiceUrl("consumer", localHost(), 0, schema.name(), p);
    }

    /**
     * The address a provider announces: the one it binds, unless that is every address, then this host's own.
     */
    public static String advertisedHost(String boundHost) {
        if (boundHost != null && !boundHost.equals("0.0.0.0") && !boundHost.equals("::")) {
            return boundHost;
        }
        return localHost();
    }

    private static String localHost() {
        try {
            return InetAddress.getLocalHost().getHostAddress();
        } catch (UnknownHostException e) {
            return "127.0.0.1";
        }
    }
}
