package io.ferry.rpc.registry.internal;

import org.apache.curator.framework.api.ACLProvider;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;

import java.util.ArrayList;
import java.util.List;

/**
 * The ACLs of nodes a registry with credentials creates, and the test for a node that anyone may change. Dubbo 3.3.6
 * with a username and password gives every node it creates ZooKeeper's {@code CREATOR_ALL_ACL}: every right to the
 * creator's credentials (the server stores {@code digest:user:hash}), none, not even reading, to anyone else. Ferry
 * gives the same, so that a root Dubbo and Ferry share behaves the same whichever created a node, and so that
 * provider URLs (which may carry a token) are not readable without the credentials.
 */
public final class NodeAcls {
    private static final String WORLD = "world";
    private static final String ANYONE = "anyone";

    private NodeAcls() {
    }

    /** Every node created, parents included, with {@code CREATOR_ALL_ACL}. */
    public static ACLProvider creatorOnly() {
        return new ACLProvider() {
            @Override
            public List<ACL> getDefaultAcl() {
                return ZooDefs.Ids.CREATOR_ALL_ACL;
            }

            @Override
            public List<ACL> getAclForPath(String path) {
                return ZooDefs.Ids.CREATOR_ALL_ACL;
            }
        };
    }

    /**
     * The rights {@code acl} gives anyone ({@code world:anyone}) beyond reading, in ZooKeeper's letters
     * ({@code "cdwa"}); empty when it gives none. Such a node lets anyone add or delete its children: a provider's
     * registration, or a fake one.
     */
    public static String openRights(List<ACL> acl) {
        int perms = 0;
        for (ACL entry : acl) {
            if (WORLD.equals(entry.getId().getScheme()) && ANYONE.equals(entry.getId().getId())) {
                perms |= entry.getPerms() & ~ZooDefs.Perms.READ;
            }
        }
        StringBuilder letters = new StringBuilder();
        append(letters, perms, ZooDefs.Perms.CREATE, 'c');
        append(letters, perms, ZooDefs.Perms.DELETE, 'd');
        append(letters, perms, ZooDefs.Perms.WRITE, 'w');
        append(letters, perms, ZooDefs.Perms.ADMIN, 'a');
        return letters.toString();
    }

    private static void append(StringBuilder letters, int perms, int perm, char letter) {
        if ((perms & perm) != 0) {
            letters.append(letter);
        }
    }

    /** {@code /dubbo/x/providers} → {@code /dubbo}, {@code /dubbo/x}, {@code /dubbo/x/providers}. */
    public static List<String> pathsDownTo(String path) {
        List<String> paths = new ArrayList<>();
        for (int slash = path.indexOf('/', 1); slash > 0; slash = path.indexOf('/', slash + 1)) {
            paths.add(path.substring(0, slash));
        }
        paths.add(path);
        return paths;
    }
}
