package io.ferry.rpc.config.interop;

import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Keeps a Dubbo peer's traffic on 127.0.0.1: a Dubbo consumer rewrites a loopback provider address to the host's
 * own address unless every other interface is ignored. Must run before Dubbo's classes initialise.
 */
final class DubboLoopback {
    private DubboLoopback() {
    }

    /** A Dubbo application config for a test peer: a name, and no QoS server (it would bind a port). */
    static org.apache.dubbo.config.ApplicationConfig application(String name) {
        org.apache.dubbo.config.ApplicationConfig application = new org.apache.dubbo.config.ApplicationConfig(name);
        application.setQosEnable(false);
        return application;
    }

    /** A Dubbo reference to {@code type}: a 5 s timeout and no retries, so that a test sees the first outcome. */
    static <T> org.apache.dubbo.config.ReferenceConfig<T> reference(Class<T> type) {
        org.apache.dubbo.config.ReferenceConfig<T> reference = new org.apache.dubbo.config.ReferenceConfig<>();
        reference.setInterface(type);
        reference.setTimeout(5000);
        reference.setRetries(0);
        return reference;
    }

    /** Dubbo's config of the ZooKeeper at {@code port} on 127.0.0.1, with a timeout a loaded machine meets. */
    static org.apache.dubbo.config.RegistryConfig zooKeeper(int port) {
        org.apache.dubbo.config.RegistryConfig registry = new org.apache.dubbo.config.RegistryConfig(
                "zookeeper://127.0.0.1:" + port);
        registry.setTimeout(10_000);
        return registry;
    }

    static void ignoreOtherInterfaces() {
        try {
            List<String> names = new ArrayList<>();
            for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                if (!nic.isLoopback()) {
                    names.add(nic.getName());
                }
            }
            System.setProperty("dubbo.network.interface.ignored", String.join(",", names));
            System.setProperty("dubbo.application.qos-enable", "false");
        } catch (SocketException e) {
            throw new IllegalStateException(e);
        }
    }
}
