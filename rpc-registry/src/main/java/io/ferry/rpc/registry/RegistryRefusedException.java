package io.ferry.rpc.registry;

/**
 * The registry refused this process an operation for want of rights: ZooKeeper answered NoAuth (the node's ACL does
 * not grant these credentials, or any when there are none) or AuthFailed. A configuration error, not an outage:
 * thrown at start by {@link Registry#register} and {@link Registry#subscribe}, with a message naming the registry, the
 * node and what to check; never containing the password.
 */
public final class RegistryRefusedException extends RuntimeException {
    public RegistryRefusedException(String message) {
        super(message);
    }

    RegistryRefusedException(String message, Throwable cause) {
        super(message, cause);
    }

    /**
     * The message for ZooKeeper's refusal to {@code verb} ("read", "create") {@code path}:
     * {@code ZooKeeper zookeeper://10.0.0.5:2181 refused to read /dubbo/x/providers (NoAuth): ...}.
     *
     * @param authFailed ZooKeeper's AuthFailed rather than NoAuth
     * @param username   the registry's username, or null when it has no credentials
     */
    static String message(String registry, String verb, String path, boolean authFailed, String username) {
        String why = authFailed ? "AuthFailed: ZooKeeper did not accept this client's authentication"
                : "NoAuth: the node's ACL does not grant " + (username == null ? "clients without credentials"
                : "the credentials of username '" + username + "'") + " that right";
        String hint = username == null ? "the node is protected: set the registry's username and password "
                + "(ferry.registry.username and ferry.registry.password, or <registry username=\"...\" "
                + "password=\"...\">), as its other users have them"
                : "check the registry's username and password: they must be those the node was created with";
        return "ZooKeeper " + registry + " refused to " + verb + " " + path + " (" + why + "); " + hint;
    }
}
