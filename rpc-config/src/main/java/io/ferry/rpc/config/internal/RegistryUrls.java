package io.ferry.rpc.config.internal;

import io.ferry.rpc.GenericService;
import io.ferry.rpc.registry.ServiceUrl;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.TreeSet;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * The URLs Ferry writes into the registry, with the parameters a Dubbo consumer needs (DUBBO-WIRE §2.5): never a
 * {@code prefer.serialization} (a Dubbo consumer would switch to fastjson2); consumer-side policy (timeout, retries,
 * load balancing, weight, warm-up) only where the service sets it, as Dubbo writes it. A provider's token goes in
 * as Dubbo writes it: readable by whoever reads the registry.
 */
public final class RegistryUrls {
    private RegistryUrls() {
    }

    /**
     * A provider's URL as Dubbo registers it, for {@code r}, stamped {@code timestampMillis}; {@code metadata}: the
     * application's ({@code owner}, {@code application.version}, ...), which Dubbo writes into every URL.
     */
    public static ServiceUrl provider(RegistryBridge.Registration r, String application, Map<String, String> metadata,
                                      long timestampMillis) {
        Map<String, String> p = new TreeMap<>(metadata);
        p.put("application", application);
        p.put("anyhost", "false");
        p.put("deprecated", "false");
        p.put("dubbo", "2.0.2");
        p.put("dynamic", "true");
        p.put("generic", "false");
        // Dubbo consumers adopt it: their heartbeats then come well within this provider's idle close (3 x it)
        p.put("heartbeat", String.valueOf(r.heartbeat().toMillis()));
        p.put("interface", r.service().getName());
        p.put("methods", methodNames(r.service()));
        p.put("serialization", "hessian2");
        p.put("side", "provider");
        p.put("timestamp", String.valueOf(timestampMillis));
        if (!r.version().isEmpty()) {
            p.put("version", r.version());
        }
        if (!r.group().isEmpty()) {
            p.put("group", r.group());
        }
        if (r.timeout() != null) {
            p.put("timeout", String.valueOf(r.timeout().toMillis()));
        }
        p.putAll(r.consumerSettings()); // as Dubbo: retries, loadbalance, weight, sayHi.timeout, ...
        if (r.sslEnabled()) {
            p.put("ssl-enabled", "true"); // as Dubbo's protocol writes it: consumers that find it connect with TLS
        }
        if (r.token() != null) {
            p.put("token", r.token().value()); // as Dubbo: the consumers that find this provider send it back
        }
        return new ServiceUrl("dubbo", advertisedHost(r.advertisedHost(), r.boundHost()), r.port(),
                r.service().getName(), p);
    }

    public static ServiceUrl consumer(Class<?> service, String version, String group, String application,
                                      Map<String, String> metadata, long timestampMillis) {
        return consumer(service, service.getName(), version, group, application, metadata, timestampMillis);
    }

    /** A consumer's URL; a generic reference ({@code service} GenericService) names {@code serviceName}, as Dubbo's. */
    public static ServiceUrl consumer(Class<?> service, String serviceName, String version, String group,
                                      String application, Map<String, String> metadata, long timestampMillis) {
        boolean generic = service == GenericService.class && !serviceName.equals(service.getName());
        Map<String, String> p = new TreeMap<>(metadata);
        p.put("application", application);
        p.put("category", "consumers");
        p.put("check", "false");
        p.put("dubbo", "2.0.2");
        if (generic) {
            p.put("generic", "true");
        }
        p.put("interface", serviceName);
        if (!generic) {
            p.put("methods", methodNames(service)); // a generic one lists none, as Dubbo's generic consumer
        }
        p.put("side", "consumer");
        p.put("timestamp", String.valueOf(timestampMillis));
        if (!version.isEmpty()) {
            p.put("version", version);
        }
        if (!group.isEmpty()) {
            p.put("group", group);
        }
        return new ServiceUrl("consumer", localHost(), 0, serviceName, p);
    }

    /**
     * The address a provider announces: the one set for it, else the one it binds, unless that is every address;
     * then the first IPv4 address of an interface that is up and neither loopback nor link-local (the host name
     * is no guide: Debian maps it to 127.0.1.1), and loopback only when there is no other.
     */
    public static String advertisedHost(String advertised, String boundHost) {
        if (advertised != null) {
            return advertised;
        }
        if (boundHost != null && !boundHost.equals("0.0.0.0") && !boundHost.equals("::")) {
            return boundHost;
        }
        return localHost();
    }

    private static String localHost() {
        try {
            for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                if (!nic.isUp() || nic.isLoopback() || nic.isVirtual()) {
                    continue;
                }
                for (InetAddress address : Collections.list(nic.getInetAddresses())) {
                    if (address instanceof Inet4Address && !address.isLinkLocalAddress()
                            && !address.isLoopbackAddress()) {
                        return address.getHostAddress();
                    }
                }
            }
        } catch (SocketException e) {
            // fall through to loopback
        }
        return "127.0.0.1";
    }

    /** Method names, sorted, comma-separated: the {@code methods} parameter a registry URL carries. */
    static String methodNames(Class<?> service) {
        TreeSet<String> names = new TreeSet<>();
        for (Method method : service.getMethods()) {
            if (method.getDeclaringClass() != Object.class && !Modifier.isStatic(method.getModifiers())) {
                names.add(method.getName());
            }
        }
        return String.join(",", names);
    }
}
