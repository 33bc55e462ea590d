package io.ferry.rpc.config.internal.cluster;

import io.ferry.rpc.Invocation;
import io.ferry.rpc.cluster.Endpoint;
import io.ferry.rpc.cluster.LoadBalancer;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Dubbo's {@code consistenthash}: the chosen arguments (the first, by default) hash onto a ring where each provider
 * holds 160 virtual nodes, so the same arguments keep going to the same provider, and when one leaves only its
 * share of keys moves. The ring is rebuilt when the list of candidates changes. Thread-safe.
 */
public final class ConsistentHashBalancer implements LoadBalancer {
    static final int VIRTUAL_NODES = 160;

    private final int[] argumentIndexes;
    private volatile Ring ring = new Ring(List.of(), new TreeMap<>());

    /** {@code argumentIndexes}: which arguments make the key (Dubbo's {@code hash.arguments}, default {0}). */
    public ConsistentHashBalancer(int... argumentIndexes) {
        this.argumentIndexes = argumentIndexes.length == 0 ? new int[] {0} : argumentIndexes.clone();
    }

    private record Ring(List<String> addresses, TreeMap<Long, String> nodes) {
    }

    @Override
    public Endpoint select(List<Endpoint> candidates, Invocation invocation) {
        List<String> addresses = new ArrayList<>(candidates.size());
        for (Endpoint e : candidates) {
            addresses.add(e.address());
        }
        Ring current = ring;
        if (!current.addresses().equals(addresses)) {
            current = build(addresses);
            ring = current;
        }
        long hash = hash(key(invocation));
        Map.Entry<Long, String> node = current.nodes().ceilingEntry(hash);
        String address = (node != null ? node : current.nodes().firstEntry()).getValue();
        for (Endpoint e : candidates) {
            if (e.address().equals(address)) {
                return e;
            }
        }
        return candidates.get(0);
    }

    private String key(Invocation invocation) {
        StringBuilder key = new StringBuilder();
        Object[] arguments = invocation.arguments();
        for (int index : argumentIndexes) {
            if (index >= 0 && index < arguments.length) {
                key.append(arguments[index]);
            }
        }
        return key.toString();
    }

    private static Ring build(List<String> addresses) {
        TreeMap<Long, String> nodes = new TreeMap<>();
        for (String address : addresses) {
            for (int i = 0; i < VIRTUAL_NODES / 4; i++) {
                byte[] digest = md5(address + "-" + i);
                for (int h = 0; h < 4; h++) {
                    nodes.put(ringPosition(digest, h), address); // four positions from each digest, as ketama
                }
            }
        }
        return new Ring(List.copyOf(addresses), nodes);
    }

    private static long hash(String key) {
        return ringPosition(md5(key), 0);
    }

    private static long ringPosition(byte[] digest, int number) {
        return (((long) (digest[3 + number * 4] & 0xFF) << 24)
                | ((long) (digest[2 + number * 4] & 0xFF) << 16)
                | ((long) (digest[1 + number * 4] & 0xFF) << 8)
                | (digest[number * 4] & 0xFF)) & 0xFFFFFFFFL;
    }

    private static byte[] md5(String text) {
        try {
            return MessageDigest.getInstance("MD5").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("MD5 is part of every JDK", e);
        }
    }
}
